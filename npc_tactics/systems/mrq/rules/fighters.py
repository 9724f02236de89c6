"""Read-only questions about a combatant: which item it fights with, its effective skill, can it move or strike.

Combat styles (§7): a weapon-and-shield or two-weapon stylist that cannot use one of its two items fights at ¾
of its style skill with the other; [HOUSE] a two-handed weapon with one arm out of use also drops to ¾. With no
usable style item the combatant fights unarmed (its Unarmed skill).
"""

from __future__ import annotations

from npc_tactics.rules.base import Status
from npc_tactics.systems.mrq.rules.state import READY, MRQCombatant, MRQState, Weapon
from npc_tactics.systems.mrq.rules.tables import (
    ENTANGLED_VITAL_PENALTY,
    IMPALED_PENALTY,
    LEFT_ARM,
    MOUNTED_BONUS,
    PRONE_DEFENCE_PENALTY,
    RIGHT_ARM,
    ROLES,
)

MAIN, OFF, UNARMED, MISSILE = "weapon", "offhand", "unarmed", "missile"


def arm_free(c: MRQCombatant, loc: int) -> bool:
    """An arm can hold an item unless useless (Serious Wound) or entangled (§4.2, §17)."""
    return not (c.useless >> loc) & 1 and c.entangled_loc != loc and c.numb_loc != loc


def main_usable(c: MRQCombatant) -> bool:
    p = c.prof
    if p.weapon.kind == "natural":
        return c.weapon_state == READY
    if c.weapon_state != READY:
        return False
    if p.body != "humanoid":
        return True
    if p.weapon.kind == "two_handed":
        return arm_free(c, RIGHT_ARM) or arm_free(c, LEFT_ARM)
    return arm_free(c, RIGHT_ARM)


def off_usable(c: MRQCombatant) -> bool:
    return c.prof.offhand is not None and c.off_state == READY and arm_free(c, LEFT_ARM)


def parts_lost(c: MRQCombatant) -> int:
    """How many of the style's two parts (two items, or two hands on a two-handed weapon) are out of use."""
    style = c.prof.style
    if style in ("weapon_and_shield", "two_weapons"):
        return (not main_usable(c)) + (not off_usable(c))
    if style == "two_handed" and c.weapon_state == READY:
        return (not arm_free(c, RIGHT_ARM)) + (not arm_free(c, LEFT_ARM))
    return 0 if main_usable(c) else 2


def other_usable(c: MRQCombatant) -> bool:
    """Several attacks: is the further natural weapon ``c`` strikes with this Combat Action usable (its limb
    neither useless, entangled nor numb)? Always False for the main weapon (``strike`` 0)."""
    return c.strike > 0 and arm_free(c, c.prof.other_locs[c.strike - 1])


def attack_item(c: MRQCombatant) -> tuple[str, Weapon]:
    """The item ``c`` strikes with now: its main weapon, else the off-hand item (a shield strikes too), else
    its unarmed style. A creature with several attacks strikes with the natural weapon of this attack
    (``strike``, see ``next_strike``) while that limb is usable."""
    if c.strike and other_usable(c):
        return MAIN, c.prof.other_attacks[c.strike - 1]
    if c.weapon_state == READY and not c.useless and c.entangled_loc < 0 and c.numb_loc < 0:
        return MAIN, c.prof.weapon  # fast path: nothing impairs the main weapon
    if main_usable(c):
        return MAIN, c.prof.weapon
    if off_usable(c):
        return OFF, c.prof.offhand  # type: ignore[return-value]  # off_usable() guarantees an off-hand weapon
    return UNARMED, c.prof.unarmed


def parry_item(c: MRQCombatant) -> tuple[str, Weapon]:
    """The item ``c`` parries with: a usable shield first (fixed DP, §9), else the weapon it strikes with.
    A two-weapon stylist parries with the bigger of its usable weapons."""
    off = c.prof.offhand
    if off is not None and off_usable(c):
        if off.kind == "shield":
            return OFF, off
        if not main_usable(c) or off.max_damage > c.prof.weapon.max_damage:
            return OFF, off
    return attack_item(c)


def base_skill(c: MRQCombatant) -> int:
    """Style skill after losing parts (¾, §7), or the Unarmed skill when no style item is usable; capped by
    Athletics while swimming or climbing (§16, ``Profile.skill_cap``)."""
    lost = parts_lost(c)
    if lost >= 2 and c.prof.style not in ("unarmed", "natural"):
        return min(c.prof.unarmed_skill, c.prof.skill_cap)
    return min(c.prof.skill * 3 // 4 if lost == 1 else c.prof.skill, c.prof.skill_cap)


def penalty(c: MRQCombatant) -> int:
    """Penalties to all activities: −20% per impaled weapon, −20% entangled on a vital location (§4.2)."""
    pen = IMPALED_PENALTY * c.impaled
    if c.entangled_loc >= 0 and ROLES[c.prof.body][c.entangled_loc] == "vital":
        pen += ENTANGLED_VITAL_PENALTY
    return pen


def strike_skill(c: MRQCombatant) -> int:
    """The skill of the item ``c`` strikes with: a further natural weapon's own skill (several attacks), else
    the style skill (``base_skill``); capped by Athletics while swimming or climbing (§16)."""
    if c.strike and other_usable(c):
        return min(c.prof.other_skills[c.strike - 1], c.prof.skill_cap)
    return base_skill(c)


def natural_loc(c: MRQCombatant) -> int:
    """The location the natural weapon ``c`` strikes with comes from (natural fumbles, Damage weapon, A19)."""
    if c.strike and other_usable(c):
        return c.prof.other_locs[c.strike - 1]
    return c.prof.weapon_loc


def next_strike(c: MRQCombatant) -> bool:
    """Several attacks a round (§1, A18: every attack spends a Combat Action and uses one weapon): a creature
    with further natural weapons strikes with its main weapon, then each of them in the order listed, one per
    attack Combat Action, and again from the first ([HOUSE] order; the catalogue has no weapon choice). Called
    when ``c`` is asked for a Combat Action; True if the weapon changed."""
    n = len(c.prof.other_attacks)
    if not n:
        return False
    k = c.attacks % (n + 1)
    changed = k != c.strike
    c.strike = k
    return changed


def attack_skill(state: MRQState, a: int, d: int) -> int:
    """Attack skill of ``a`` against ``d`` before halvings: +20% mounted vs a target on foot (§13)."""
    c = state.combatants[a]
    skill = strike_skill(c) - penalty(c)
    if c.prof.mounted and not state.combatants[d].prof.mounted and state.combatants[d].rider < 0:
        skill += MOUNTED_BONUS
    return max(0, skill)


def defence_skill(c: MRQCombatant) -> int:
    """Defence skill (the same style skill, §8): prone −30% (§6)."""
    skill = base_skill(c) - penalty(c)
    if c.prone:
        skill -= PRONE_DEFENCE_PENALTY
    return max(0, skill)


def acrobatics(c: MRQCombatant) -> int:
    """Acrobatics (Athletics for quadrupeds, §11) with the general penalties; prone −30% [HOUSE]."""
    return max(0, c.prof.acrobatics - penalty(c) - (PRONE_DEFENCE_PENALTY if c.prone else 0))


def armour_at(c: MRQCombatant, loc: int) -> int:
    """Armour points at ``loc``: worn armour plus natural armour (hide, scales)."""
    return c.armour[loc] + c.prof.natural[loc]


def bypassed_layer(c: MRQCombatant, loc: int) -> tuple[str, int]:
    """*Bypass armour* against worn armour over natural armour: "il doit choisir quelle défense il traverse"
    (§4.2). Both layers only subtract, so the attacker's best choice is always the thicker one; the engine
    makes it (ties: worn). Returns the layer's name and the AP ignored."""
    worn, nat = c.armour[loc], c.prof.natural[loc]
    return ("natural", nat) if nat > worn else ("worn", worn)


def has_dp(c: MRQCombatant) -> bool:
    """Animals and unintelligent creatures have no Deflection Points unless Formidable Natural Weapons (§9)."""
    return c.prof.intelligent or c.prof.formidable


def can_move(c: MRQCombatant) -> bool:
    """Manoeuvres need both legs working, not entangled by a leg, and standing (§4.2 Entangle, A6)."""
    if c.prone:
        return False
    roles = ROLES[c.prof.body]
    if c.entangled_loc >= 0 and roles[c.entangled_loc] == "leg":
        return False
    for loc, role in enumerate(roles):
        if role == "leg" and ((c.useless >> loc) & 1 or c.numb_loc == loc):
            return False
    return True


def can_stand(c: MRQCombatant) -> bool:
    roles = ROLES[c.prof.body]
    return not any(role == "leg" and (c.useless >> loc) & 1 for loc, role in enumerate(roles))


def reach(c: MRQCombatant) -> int:
    return attack_item(c)[1].reach


def reach_blocks(house: bool, dist: int, ra: int, rd: int) -> bool:
    """Does reach forbid a blow of reach ``ra`` on a foe of reach ``rd`` at engagement distance ``dist``?

    Option ``reach_rule`` (A23). "source" (default): never; the source only makes *closing in* on a longer
    weapon an Acrobatics test (§11) and lets the longer weapon strike first on a charge (§14). "house": at
    long distance a shorter weapon cannot strike, at close distance a longer one cannot.
    """
    if not house:
        return False
    return ra < rd if dist == 1 else ra > rd


def can_strike(state: MRQState, a: int, d: int) -> bool:
    """Can ``a`` strike ``d`` now: engaged (not apart) and, under the house reach rule, at a distance its
    reach allows (``reach_blocks``)."""
    dist = state.distance(a, d)
    if dist == 0:
        return False
    house = state.options["reach_rule"] == "house"
    return not reach_blocks(house, dist, reach(state.combatants[a]), reach(state.combatants[d]))


def active(state: MRQState, i: int) -> bool:
    return state.combatants[i].status == Status.ACTIVE


def disarmable_item(c: MRQCombatant) -> str | None:
    """Which item a Disarm would take: the weapon in use, or None (natural, unarmed, shields, §4.2)."""
    slot, item = attack_item(c)
    return slot if slot != UNARMED and item.disarmable else None


def conditions_cap(skill: int, athletics: int, swimming_or_climbing: bool) -> int:
    """A weapon skill cannot exceed Athletics while swimming or climbing (§16). The engine applies it through
    ``Profile.skill_cap`` (scenario field ``condition``); this is the rule as a pure function."""
    return min(skill, athletics) if swimming_or_climbing else skill


def shield_ready(c: MRQCombatant) -> bool:
    """A usable shield: the only item that can block a missile (§11 [PUB] MRQ1)."""
    off = c.prof.offhand
    return off is not None and off.kind == "shield" and off_usable(c)


#: the mount's weight in a trample (§14): no weapon dice, the damage is the mount's damage modifier [HOUSE]
TRAMPLE = Weapon("mount trample", "", (), 0, "natural", 0, 0)


def strike_item(c: MRQCombatant, missile: bool) -> Weapon:
    """The item of an exchange: the missile weapon for a shot, else the melee item (``attack_item``)."""
    if missile and c.prof.missile is not None:
        return c.prof.missile
    return attack_item(c)[1]
