"""Damage, Deflection Points, hit locations, wounds and status changes (§3.1, §9, §13, §17, A9, A17).

Wounds [PUB]: Serious = location HP ≤ 0 (opposed Endurance vs the attacker's weapon skill; a limb becomes
useless, the head/chest/abdomen knocks the victim unconscious); Major = location HP ≤ −max (the victim falls
and cannot go on fighting; opposed Resilience or unconscious). Damage beyond −max is ignored (A17).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.opposed import opposed_test
from npc_tactics.systems.mrq.rules.state import BROKEN, MRQCombatant, MRQState, Weapon
from npc_tactics.systems.mrq.rules.tables import HIT_LOCATION_D20, LOCATION_NAMES, ROLES


def loc_name(c: MRQCombatant, loc: int) -> str:
    return LOCATION_NAMES[c.prof.body][loc]


def roll_weapon(sink: EventSink, weapon: Weapon, actor: int, why: str, max_dice: int = 0) -> int:
    """Roll ``weapon``'s own dice (no damage modifier, A9); the first ``max_dice`` dice count at their maximum
    (Maximise damage, Impale, Maximum parry: §4.2; great axe 2d6+2 maximised → 1d6+6+2)."""
    total = weapon.bonus
    for count, sides in weapon.dice:
        for _ in range(count):
            if max_dice > 0:
                total += sides
                max_dice -= 1
            else:
                total += sink.die(sides, why, actor)
    return total


def roll_dm(sink: EventSink, expr: str, actor: int) -> int:
    """Roll a damage modifier expression ("" is +0; "-1d4" subtracts)."""
    return sink.roll(expr, "damage modifier", actor).total if expr else 0


def hit_table(state: MRQState, target: int) -> tuple[int, ...]:
    """The d20 → location table of ``target`` (its stat block's, tables.HIT_TABLES)."""
    return state.combatants[target].prof.hit_table


def roll_location(
    sink: EventSink, actor: int, target: int, from_above: bool, table: tuple[int, ...] = HIT_LOCATION_D20
) -> int:
    """d20 hit location; a rider striking down without a long weapon rolls 1d10+10 (§13)."""
    face = (
        sink.die(10, "hit location (1d10+10)", actor, target) + 10
        if from_above
        else sink.die(20, "hit location", actor, target)
    )
    return table[face]


def set_status(state: MRQState, sink: EventSink, i: int, status: Status, rule: str, **data: object) -> None:
    """Change a status (only ever away from ACTIVE), emit the ``status`` event and end what it held."""
    c = state.combatants[i]
    if c.status == status or (c.status != Status.ACTIVE and status != Status.UNCONSCIOUS):
        return
    c.status = status
    sink.emit("status", i, None, rule=rule, status=status.name.lower(), **data)
    for o in state.combatants:  # an entangler out of the fight lets go
        if o.entangled_by == i:
            o.entangled_by = o.entangled_loc = -1
    state.result = None  # recomputed by the engine


def apply_location_damage(
    state: MRQState,
    sink: EventSink,
    source: int,
    target: int,
    loc: int,
    amount: int,
    skill: int,
    rule: str,
    **data: object,
) -> int:
    """Take ``amount`` (after armour) off location ``loc`` and run the wound tests against ``skill`` (the
    attacker's weapon skill, or the victim's own for a self-inflicted wound, A16). Returns HP lost."""
    c = state.combatants[target]
    if amount <= 0:
        return 0
    before = c.loc_hp[loc]
    floor = -c.prof.loc_max[loc]
    after = max(before - amount, floor)
    lost = before - after
    if lost <= 0:
        return 0
    c.loc_hp[loc] = after
    c.hp = sum(h for h in c.loc_hp if h > 0)
    sink.emit(
        "damage",
        source,
        target,
        rule=rule,
        amount=lost,
        location=loc_name(c, loc),
        hp=after,
        **data,
    )
    if c.status not in (Status.ACTIVE, Status.INCAPACITATED):
        return lost
    wound(state, sink, source, target, loc, before, after, skill)
    return lost


def wound(
    state: MRQState,
    sink: EventSink,
    source: int,
    target: int,
    loc: int,
    before: int,
    after: int,
    skill: int,
) -> None:
    """Serious and Major wound tests (§17)."""
    c = state.combatants[target]
    auto = bool(state.options["automatic_success_failure"])
    role = ROLES[c.prof.body][loc]
    maxhp = c.prof.loc_max[loc]
    if after <= -maxhp:
        sink.emit(
            "wound",
            source,
            target,
            rule="mrq-opposed.md §17",
            result="major",
            location=loc_name(c, loc),
        )
        c.prone = True
        if role != "vital":
            c.useless |= 1 << loc  # maimed or severed (A17)
        if c.status == Status.ACTIVE:
            set_status(
                state,
                sink,
                target,
                Status.INCAPACITATED,
                "mrq-opposed.md §17 Major Wound",
                wound="major",
            )
        if not opposed_test(
            sink,
            target,
            c.prof.resilience,
            source,
            skill,
            "Resilience vs weapon skill",
            auto,
            "mrq-opposed.md §17",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            set_status(
                state,
                sink,
                target,
                Status.UNCONSCIOUS,
                "mrq-opposed.md §17 Major Wound",
                bleeding=True,
            )
        return
    if after <= 0:
        sink.emit(
            "wound",
            source,
            target,
            rule="mrq-opposed.md §17",
            result="serious",
            location=loc_name(c, loc),
        )
        if c.status != Status.ACTIVE:
            return
        if opposed_test(
            sink,
            target,
            c.prof.resilience,
            source,
            skill,
            "Endurance vs weapon skill",
            auto,
            "mrq-opposed.md §17",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            return
        if role == "vital":
            set_status(state, sink, target, Status.UNCONSCIOUS, "mrq-opposed.md §17 Serious Wound")
        else:
            c.useless |= 1 << loc
            if role == "leg" and c.prof.body == "humanoid":
                c.prone = True
            sink.emit(
                "limb_useless",
                source,
                target,
                rule="mrq-opposed.md §17",
                location=loc_name(c, loc),
                result="useless",
            )


def damage_item(state: MRQState, sink: EventSink, source: int, target: int, slot: str, amount: int, rule: str) -> None:
    """*Damage weapon* (§4.2, A21): ``amount`` minus the item's maximum damage (shields too) comes off its HP
    for good; at 0 HP it breaks. A natural or unarmed "weapon" is a limb: the limb takes the damage (A19)."""
    c = state.combatants[target]
    if slot == F.UNARMED or (slot == F.MAIN and F.attack_item(c)[1].kind == "natural"):
        loc = F.natural_loc(c)
        net = amount - F.armour_at(c, loc)
        apply_location_damage(state, sink, source, target, loc, net, F.attack_skill(state, source, target), rule)
        return
    item = {F.MAIN: c.prof.weapon, F.OFF: c.prof.offhand, F.MISSILE: c.prof.missile}.get(slot)
    if item is None:
        return
    net = max(0, amount - item.item_ap)
    if slot == F.MAIN:
        c.weapon_hp -= net
        broken = c.weapon_hp <= 0
        if broken:
            c.weapon_state = BROKEN
    elif slot == F.MISSILE:
        c.missile_hp -= net
        broken = c.missile_hp <= 0
        if broken:
            c.missile_state = BROKEN
    else:
        c.off_hp -= net
        broken = c.off_hp <= 0
        if broken:
            c.off_state = BROKEN
    sink.emit(
        "weapon_damage",
        source,
        target,
        rule=rule,
        item=item.name,
        amount=net,
        result="broken" if broken else ("damaged" if net else "held"),
    )
