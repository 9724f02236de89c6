"""The three fumble tables (mrq-opposed.md §6 [RECON], A10, A11, A14, A16).

"Roll twice / three times": each extra roll that lands on 19–20 again is rerolled [HOUSE], so a fumble
never snowballs without end. Melee row 20 is "roll three times" (A10) unless option
``melee_fumble_20_breaks_weapon`` makes it destroy the weapon.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.damage import (
    apply_location_damage,
    damage_item,
    hit_table,
    loc_name,
    roll_dm,
    roll_location,
    roll_weapon,
)
from npc_tactics.systems.mrq.rules.state import BROKEN, DROPPED, MRQCombatant, MRQState, Weapon
from npc_tactics.systems.mrq.rules.tables import FUMBLE_TABLES, LIMBS, ROLES

RULE = "mrq-opposed.md §6"


def fumble_row(table: str, face: int) -> tuple[str, str]:
    """(code, name) of a d20 face on a fumble table."""
    for lo, hi, code, name in FUMBLE_TABLES[table]:
        if lo <= face <= hi:
            return code, name
    raise ValueError(f"d20 face {face} outside the {table} fumble table")


def fumble_table_for(state: MRQState, i: int) -> str:
    slot, item = F.attack_item(state.combatants[i])
    if item.kind == "natural" or slot == F.UNARMED:
        return "natural"
    return "missile" if item.kind == "missile" else "melee"


def apply_fumble(state: MRQState, sink: EventSink, i: int, opponent: int, table: str | None = None) -> None:
    """Roll on the fumbler's table and apply the result(s)."""
    table = table or fumble_table_for(state, i)
    pending = 1
    extra = False
    guard = 0
    while pending > 0 and guard < 20:
        guard += 1
        face = sink.die(20, f"{table} fumble", i)
        code, name = fumble_row(table, face)
        if code in ("roll_twice", "roll_three"):
            if extra:
                continue  # reroll 19–20 inside a multiple roll [HOUSE]
            if code == "roll_three" and table == "melee" and state.options["melee_fumble_20_breaks_weapon"]:
                code = "weapon_broken"
            else:
                sink.emit("fumble", i, None, rule=RULE, table=table, face=face, result=name)
                pending = 2 if code == "roll_twice" else 3
                extra = True
                continue
        sink.emit("fumble", i, None, rule=RULE, table=table, face=face, result=name)
        if code == "armour_lost" and not any(state.combatants[i].armour):
            continue  # nothing to lose: reroll on this table (§6.1 row 15–16)
        _apply_code(state, sink, i, opponent, table, code)
        pending -= 1


def _limb(state: MRQState, sink: EventSink, i: int) -> int:
    """The limb a natural-weapon fumble hurts: the natural weapon's own location if it is a limb, else a random
    limb (d4) [HOUSE]."""
    c = state.combatants[i]
    loc = F.natural_loc(c)
    if ROLES[c.prof.body][loc] != "vital":
        return loc
    return LIMBS[c.prof.body][sink.die(4, "which limb", i) - 1]


def _nearby_ally(state: MRQState, i: int) -> int:
    """An ACTIVE ally engaged with a common enemy counts as near [HOUSE]; -1 if none."""
    c = state.combatants[i]
    engaged = [e for e in range(state.n) if state.combatants[e].side != c.side and state.distance(i, e) > 0]
    for j, o in enumerate(state.combatants):
        if j != i and o.side == c.side and F.active(state, j) and any(state.distance(j, e) > 0 for e in engaged):
            return j
    return -1


def _item(c: MRQCombatant, table: str) -> tuple[str, Weapon]:
    """The fumbled item: the missile weapon on the missile table, else the item ``c`` strikes with."""
    if table == "missile" and c.prof.missile is not None:
        return F.MISSILE, c.prof.missile
    return F.attack_item(c)


def _hit(state: MRQState, sink: EventSink, i: int, victim: int, table: str) -> None:
    """A normal-damage hit by ``i``'s own weapon on ``victim`` (random location, armour counts, no DP)."""
    c = state.combatants[i]
    slot, weapon = _item(c, table)
    dm = M.missile_dm(c) if slot == F.MISSILE else c.prof.dm
    dmg = max(0, roll_weapon(sink, weapon, i, "fumble damage") + roll_dm(sink, dm, i))
    loc = roll_location(sink, i, victim, False, hit_table(state, victim))
    v = state.combatants[victim]
    apply_location_damage(state, sink, i, victim, loc, dmg - F.armour_at(v, loc), F.base_skill(c), RULE, fumble=True)


def _apply_code(state: MRQState, sink: EventSink, i: int, opponent: int, table: str, code: str) -> None:
    c = state.combatants[i]
    if code == "lose_ca":
        c.lost_ca += 1
    elif code == "lose_1d3_ca":
        c.lost_ca += sink.die(3, "Combat Actions lost", i)
    elif code in ("drop_weapon", "drop_weapon_1d2"):
        slot, _ = _item(c, table)
        sink.die(4 if code == "drop_weapon" else 2, "metres the weapon lands away", i)
        _set_item(c, slot, DROPPED)
    elif code == "weapon_lost" and table == "missile" and c.prof.missile is not None:
        if c.prof.missile.thrown:  # §6.3 row 10–12: another javelin is lost [HOUSE]
            c.ammo = max(0, c.ammo - 1)
        else:  # the bowstring breaks: no more shots this fight
            c.missile_state = BROKEN
    elif code in ("weapon_lost", "weapon_broken"):
        _set_item(c, _item(c, table)[0], BROKEN)
    elif code == "weapon_damaged":
        slot, weapon = F.attack_item(c)
        src = opponent if opponent >= 0 and F.active(state, opponent) else i
        _, hitter = F.parry_item(state.combatants[src])
        amount = roll_weapon(sink, hitter if src != i else weapon, src, "fumble: weapon damage")
        damage_item(state, sink, src, i, slot, amount, RULE)
    elif code == "weapon_self_damaged":
        slot, weapon = _item(c, table)
        damage_item(state, sink, i, i, slot, roll_weapon(sink, weapon, i, "fumble: weapon damage"), RULE)
    elif code == "prone_1d3":
        c.prone = True
        c.prone_cas = max(c.prone_cas, sink.die(3, "Combat Actions prone", i))
    elif code == "armour_lost":
        armoured = [loc for loc, a in enumerate(c.armour) if a > 0]
        loc = armoured[sink.die(len(armoured), "armour piece lost", i) - 1]
        armour = list(c.armour)
        armour[loc] = 0
        c.armour = tuple(armour)
        sink.emit("armour_lost", i, None, rule=RULE, location=loc_name(c, loc))
    elif code in ("ally_hit", "ally_hit_major", "ally_hit_only", "self_hit"):
        ally = -1 if code == "self_hit" else _nearby_ally(state, i)
        if ally >= 0:
            _hit(state, sink, i, ally, table)
        elif code in ("ally_hit", "self_hit"):
            _hit(state, sink, i, i, table)
        elif code == "ally_hit_major":  # Major Wound to itself (§6.2 row 17–18, test vector 6)
            loc = roll_location(sink, i, i, False, hit_table(state, i))
            amount = c.loc_hp[loc] + c.prof.loc_max[loc]
            apply_location_damage(state, sink, i, i, loc, amount, F.base_skill(c), RULE, fumble=True)
    elif code == "numb_limb":
        c.numb_loc = _limb(state, sink, i)
        c.numb_wait = 1
    elif code == "limb_injured":
        loc = _limb(state, sink, i)
        src = opponent if opponent >= 0 and F.active(state, opponent) else i
        _, hitter = F.parry_item(state.combatants[src]) if src != i else F.attack_item(c)
        amount = roll_weapon(sink, hitter, src, "fumble: limb damage") - F.armour_at(c, loc)
        apply_location_damage(state, sink, src, i, loc, amount, F.base_skill(c), RULE, fumble=True)
    elif code == "broken_limb":
        loc = _limb(state, sink, i)
        apply_location_damage(state, sink, i, i, loc, c.loc_hp[loc], F.base_skill(c), RULE, fumble=True)


def _set_item(c: MRQCombatant, slot: str, value: int) -> None:
    if slot == F.MAIN:
        c.weapon_state = value
    elif slot == F.OFF:
        c.off_state = value
    elif slot == F.MISSILE:
        c.missile_state = value
