"""GM situations: a fight in progress described in RQG terms (contract §4, ``load_situation``).

A situation means what the GM wrote (issue 8 §3): impossible states are errors (HP above what the
listed wounds leave, a character at 0 HP or less still standing at a statement of intent, an
``active`` status that its wounds contradict, weapon HP, MP or Rune points above their maximum,
bad rules-option values), and every value left out is defaulted with one plain line appended to
``notes`` (when the caller passes a list) so the GM sees what was assumed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules import loading
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import settle, status_for
from npc_tactics.systems.runequest.rules.scenario import ENTRY_KEYS, build_state, validate_scenario
from npc_tactics.systems.runequest.rules.situation_fields import FIELDS, STATUS_NAMES
from npc_tactics.systems.runequest.rules.state import Combatant

#: the keys a situation accepts, declared once in :mod:`.situation_fields` (sets: an unknown key's error lists the
#: valid ones sorted)
SITUATION_KEYS = set(FIELDS.keys("situation"))
STATUSES = STATUS_NAMES
STATE_KEYS = ENTRY_KEYS | set(FIELDS.keys("combatant"))


def load_situation(
    engine: Any,
    path_or_mapping: str | Path | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> Any:
    """:func:`load_plain_situation`, plus an optional ``pending:`` decision (``incoming``, ``aimed_blow`` or
    ``spell``, see :mod:`npc_tactics.systems.runequest.rules.pending`)."""
    from npc_tactics.rules.pending import load_with_pending
    from npc_tactics.systems.runequest.rules.pending import KINDS

    return load_with_pending(load_plain_situation, KINDS, engine, path_or_mapping, roller, notes)


def load_plain_situation(
    engine: Any,
    path_or_mapping: str | Path | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> Any:
    """A GM's fight in progress: stat blocks by template, current HP and wounds per location,
    positions (m), round and ``acting: <name>``. Returns the state at that combatant's statement of
    intent.

    Extra per-combatant keys (declared in :mod:`.situation_fields`): ``hp``, ``wounds: {location: damage}``,
    ``rune_points``, ``weapon_hp: {weapon: hp}``, ``bleeding: true``, ``status``, ``poison_doses: [{potency,
    rounds}]`` (each due at the end of round ``round + rounds``; on the dead or fled left out with a note, as the
    round's end drops such doses). Engagement follows from positions (within 2 m).
    The situation's ``options`` apply under the options given to the engine (those win). Each
    assumption made for a value left out is appended to ``notes``.
    """
    said: list[str] = [] if notes is None else notes
    f, raw = V.document(path_or_mapping)
    raw = V.mapping(raw, f, "", SITUATION_KEYS)
    scen = validate_scenario(
        {k: v for k, v in raw.items() if k not in ("round", "acting", "scenario")},
        f,
        entry_keys=STATE_KEYS,
    )
    opts = scen["options"]
    if opts:
        explicit = dict(engine.explicit_options)
        for k in sorted(set(opts) & set(explicit)):
            if opts[k] != explicit[k]:
                said.append(Said("rules option {option}: the situation says {given}, the command line {wins} wins",
                                 option=k, given=repr(opts[k]), wins=repr(explicit[k])))
    roll_sink = EventSink(roller, 0, False)

    def roll(dice: str, why: str) -> int:  # a stat block's characteristics given as dice
        total = roll_sink.roll(dice, why).total
        said.append(Said("{why}: {dice} rolled {total}", why=why, dice=dice.upper(), total=total))
        return total

    state = build_state(scen, engine.resolve_options(opts), roll)
    names = [c.name for c in state.combatants]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ConfigError(f, "sides", Said("two combatants are named {name}; give each a unique name", name=repr(dup)))
    acting = V.choice(raw.get("acting"), f, "acting", names, "combatant")
    if "round" not in raw:
        said.append(Said("round not given: round 1 (no surprise penalty applies after round 1)"))
    rnd = FIELDS.read(raw, "round", f, high=scen["max_rounds"])
    k = 0
    given: dict[int, Status] = {}
    doses: list[tuple[int, int, int]] = []  # (victim, potency, rounds), in the order written
    for si, side in enumerate(scen["sides"]):
        for ci, e in enumerate(side["combatants"]):
            p = f"sides[{si}].combatants[{ci}]"
            c = state.combatants[k]
            if "position" not in e:
                said.append(Said("{name}: position not given, placed at {where}", name=c.name,
                                 where=calc.metres(c.pos)))
            st = _apply_condition(c, e, f, p, said)
            if st is not None:
                given[k] = st
            if "poison_doses" in e:
                doses += [(k, pot, n) for pot, n in poison.situation_doses(e["poison_doses"], f,
                                                                           V.join(p, "poison_doses"))]
            k += 1
    sink = EventSink(roller, rnd, False)
    settle(state, sink)
    for i, st in given.items():
        state.combatants[i].status = st  # what the GM wrote (an active one was checked above)
    for c in state.combatants:
        if c.status == Status.ACTIVE and not c.can_stand():
            c.prone = True
    for i in sorted({i for i, _, _ in doses if state.combatants[i].status not in poison.ALIVE}):
        said.append(Said("{name}: dead or fled, its poison doses are left out", name=state.combatants[i].name))
    state.doses = [(rnd + n, i, pot, poison.NO_POISONER) for i, pot, n in doses
                   if state.combatants[i].status in poison.ALIVE]
    state.round = rnd - 1
    engine.start_round(state, sink)
    idx = loading.acting_index(acting, state.combatants, f)
    state.declare_queue = [idx] + [i for i in state.declare_queue if i != idx]
    engine.enter(state, roller)
    return state


#: A status the wounds give that contradicts ``status: active``, said whole (each status its own French).
_CONTRADICTED: dict[Status, Said] = {
    Status.UNCONSCIOUS: Said("'active' contradicts its hp and wounds, which make it unconscious (§17-§18); fix the "
                             "status or the wounds"),
    Status.INCAPACITATED: Said("'active' contradicts its hp and wounds, which make it incapacitated (§17-§18); fix "
                               "the status or the wounds"),
    Status.DEAD: Said("'active' contradicts its hp and wounds, which make it dead (§17-§18); fix the status or the "
                      "wounds"),
}


def _counted(c: Combatant) -> int:
    """Total HP the listed wounds take (a limb counts at most 2L per blow: 2L is assumed here)."""
    return sum(
        min(loc.damage, 2 * loc.spec.max_hp) if loc.spec.kind == "limb" else loc.damage
        for loc in c.locations
    )


def _apply_condition(
    c: Combatant, e: Mapping[str, Any], f: str, p: str, said: list[str]
) -> Status | None:
    """Apply one entry's wounds, HP, MP, Rune points, weapon HP and bleeding; return the status the
    GM gave (checked against the wounds when ``active``), or None."""
    locs = {loc.spec.name: loc for loc in c.locations}
    wounds = V.mapping(e.get("wounds", {}), f, f"{p}.wounds")
    for name, dmg in wounds.items():
        V.choice(name, f, f"{p}.wounds.{name}", locs, "location")
        locs[name].damage = V.integer(dmg, f, f"{p}.wounds.{name}", 0, 200)
    left = c.max_hp - _counted(c)
    status = FIELDS.read(e, "status", f, p, "combatant") if "status" in e else None
    if "hp" in e:
        c.hp = FIELDS.read(e, "hp", f, p, "combatant")
        if c.hp > c.max_hp:
            raise ConfigError(f, f"{p}.hp", Said("{hp} is more than its maximum {max_hp} HP (§17: healing never "
                                                 "raises HP above it); to make it bigger give max_hp or its CON/SIZ "
                                                 "(characteristics)", hp=c.hp, max_hp=c.max_hp))
        if c.hp > left:
            raise ConfigError(
                f,
                f"{p}.hp",
                Said("{hp} is more than the {left} its wounds leave (max {max_hp}); lower hp or the wounds", hp=c.hp,
                     left=left, max_hp=c.max_hp),
            )
    else:
        c.hp = left
        said.append(
            Said("{name}: hp not given, {hp}/{max_hp} (max HP less the wounds listed)", name=c.name, hp=left,
                 max_hp=c.max_hp)
            if wounds
            else Said("{name}: hp not given, unhurt ({max_hp}/{max_hp})", name=c.name, max_hp=c.max_hp)
        )
    if c.hp <= 0 and status not in ("dead", "fled"):
        raise ConfigError(
            f,
            f"{p}.hp",
            Said("{hp}: a character at 0 HP or less dies at the end of the round (§19), so at a statement of intent "
                 "it is dead; give status: dead or more hp", hp=c.hp),
        )
    if "mp" in e and e["mp"] > c.max_mp:
        raise ConfigError(f, f"{p}.mp", Said("{mp} is more than its POW ({max_mp})", mp=e["mp"], max_mp=c.max_mp)
                          if c.max_mp == c.spec.pow_
                          else Said("{mp} is more than its magic points ({max_mp})", mp=e["mp"], max_mp=c.max_mp))
    if "mp" not in e and c.spec.spirit:
        said.append(Said("{name}: mp not given, full ({mp})", name=c.name, mp=c.mp))
    if "rune_points" in e:
        c.rune_points = FIELDS.read(e, "rune_points", f, p, "combatant", high=c.rune_points)
    elif c.spec.rune:
        said.append(Said("{name}: rune_points not given, full ({points})", name=c.name, points=c.rune_points))
    whp = V.mapping(e.get("weapon_hp", {}), f, f"{p}.weapon_hp")
    wnames = [w.spec.name for w in c.weapons]
    for wname, hp in whp.items():
        idx = wnames.index(V.choice(wname, f, f"{p}.weapon_hp.{wname}", wnames, "weapon"))
        c.weapons[idx].hp = V.integer(hp, f, f"{p}.weapon_hp.{wname}", 0, c.weapons[idx].spec.max_hp)
    if FIELDS.read(e, "bleeding", f, p, "combatant"):
        c.bleed_clock = T.BLEED_OUT_ROUNDS["abdomen"]
    if status is None:
        return None
    if status == "active":
        derived = status_for(c)
        if derived != Status.ACTIVE:
            raise ConfigError(f, f"{p}.status", _CONTRADICTED.get(derived) or Said(
                "'active' contradicts its hp and wounds, which make it {status} (§17-§18); fix the status or the "
                "wounds", status=derived.name.lower()))
    return Status[status.upper()]
