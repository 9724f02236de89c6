"""GM situations: a fight in progress in MRQ terms, at the acting NPC's next Combat Action (contract §4)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said, SaidN
from npc_tactics.rules import loading
from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.systems.mrq.rules.mounts import dismount
from npc_tactics.systems.mrq.rules.scenario import (
    COMBATANT_KEYS,
    roll_characteristics,
    scenario_from_mapping,
    sides_of,
)
from npc_tactics.systems.mrq.rules.situation_fields import FIELDS, MOUNT_KEYS, WEAPON_STATES
from npc_tactics.systems.mrq.rules.state import BROKEN, DROPPED, READY, MRQCombatant, MRQState
from npc_tactics.systems.mrq.rules.tables import (
    APART,
    DISTANCE_NAMES,
    LOCATION_NAMES,
    MAX_GAP,
    ROLES,
)

#: the keys a situation adds to a scenario and to its combatants, declared once in :mod:`.situation_fields`
_SITUATION_KEYS = FIELDS.keys("situation")
_SITUATION_COMBATANT_KEYS = FIELDS.keys("combatant")
#: the engine's weapon state of each state a GM may write
_WEAPON_STATES = {"ready": READY, "dropped": DROPPED, "broken": BROKEN}
assert tuple(_WEAPON_STATES) == WEAPON_STATES
#: the situation keys passed on to the scenario's parser, their declared default when left out: it checks them (after
#: the sides, as in a scenario) against the same ranges as the declaration
_SCENARIO_KEYS = ("name", "max_rounds", "distance", "range")


def _wounds(c: MRQCombatant, e: Mapping[str, Any], file: str, p: str, note: Callable[[str], None]) -> None:
    """Current HP per location (``locations``), unhurt when not given."""
    names = LOCATION_NAMES[c.prof.body]
    if "locations" in e:
        locs = V.mapping(e["locations"], file, f"{p}.locations", names)
        for ln, v in locs.items():
            top = c.prof.loc_max[names.index(ln)]
            c.loc_hp[names.index(ln)] = V.integer(v, file, f"{p}.locations.{ln}", -top, top)
        c.hp = sum(h for h in c.loc_hp if h > 0)
    else:
        note(Said("{name}: locations not given, unhurt ({hp} HP over {n} locations)", name=c.name, hp=c.hp,
                  n=len(names)))


def _status_and_reactions(c: MRQCombatant, e: Mapping[str, Any], file: str, p: str,
                          note: Callable[[str], None]) -> None:
    """``status``, ``useless`` limbs (checked against the HP) and the ``reactions`` left this round."""
    names = LOCATION_NAMES[c.prof.body]
    c.status = Status[FIELDS.read(e, "status", file, p, "combatant").upper()]
    roles = ROLES[c.prof.body]
    for k, ln in enumerate(e.get("useless", []) or []):
        loc = names.index(V.choice(ln, file, f"{p}.useless[{k}]", names, "location"))
        if roles[loc] == "vital" or c.loc_hp[loc] > 0:
            raise ConfigError(
                file,
                f"{p}.useless[{k}]",
                Said("a limb at 0 HP or below (a limb is useless only while its HP are not above 0, §17)"),
            )
        c.useless |= 1 << loc
    major = [names[k] for k, h in enumerate(c.loc_hp) if h <= -c.prof.loc_max[k]]
    if major and c.status == Status.ACTIVE:
        raise ConfigError(
            file,
            f"{p}.status",
            Said("not active: {location} is at a Major Wound, which takes it out of the fight (§17)",
                 location=major[0]),
        )
    c.cas = c.prof.cas
    shield = c.prof.offhand is not None and c.prof.offhand.kind == "shield"
    full = c.prof.base_reactions + shield
    if "reactions" not in e and c.status == Status.ACTIVE:
        note(SaidN("{name}: reactions not given, its {n} Reaction left this round",
                   "{name}: reactions not given, all {n} left this round", n=full, name=c.name))
    c.reactions = FIELDS.read(e, "reactions", file, p, "combatant", default=full, high=full)


def _mount(state: MRQState, i: int, e: Mapping[str, Any], file: str, p: str, note: Callable[[str], None],
           sink: EventSink) -> None:
    """The rider ``i``'s mount as the situation describes it (``mount``: its own ``locations``, ``status``,
    ``useless`` and ``reactions``; unhurt when not given). As in play (§13,
    :mod:`~npc_tactics.systems.mrq.rules.mounts`):
    a mount out of the fight has thrown its rider, who is on foot, lying down only if the situation says
    ``prone`` (the throw may be rounds old); the mount of a rider out of the fight has bolted."""
    rider = state.combatants[i]
    if rider.mount < 0:
        if "mount" in e:
            raise ConfigError(file, f"{p}.mount", Said("{name} rides no mount (its template has none)",
                                                       name=rider.name))
        return
    horse = state.combatants[rider.mount]
    if "mount" not in e:
        note(Said("{name}: mount not given, unhurt and under its rider", name=horse.name))
    else:
        m = V.mapping(e["mount"], file, f"{p}.mount", MOUNT_KEYS)
        _wounds(horse, m, file, f"{p}.mount", note)
        _status_and_reactions(horse, m, file, f"{p}.mount", note)
    if rider.status != Status.ACTIVE and horse.status == Status.ACTIVE:
        horse.status = Status.FLED  # a riderless mount bolts (§13)
        note(Said("{name}: its rider is out of the fight, so it has bolted", name=horse.name))
    if horse.status != Status.ACTIVE:
        prone = rider.prone
        dismount(state, sink, i)  # the throw happened before the situation: its event is not kept
        rider.prone = prone


def load_situation(
    engine: Any,
    path_or_mapping: str | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> MRQState:
    """:func:`load_plain_situation`, plus an optional ``pending:`` decision (``incoming``, ``effects`` or
    ``impale``, see :mod:`npc_tactics.systems.mrq.rules.pending`)."""
    from npc_tactics.rules.pending import load_with_pending
    from npc_tactics.systems.mrq.rules.pending import KINDS

    return load_with_pending(load_plain_situation, KINDS, engine, path_or_mapping, roller, notes)  # type: ignore[no-any-return]  # the shared pending loader returns Any; it returns this system's state


def load_plain_situation(
    engine: Any,
    path_or_mapping: str | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> MRQState:
    """A fight in progress in MRQ terms, at the acting NPC's next Combat Action.

    Impossible descriptions are errors (location HP above its maximum or below −max, the Major Wound floor;
    a useless limb with HP above 0 or a useless head/chest/abdomen; more Reactions than a round gives; an
    active combatant with a Major Wound; bad option values). Each default taken for a field the GM left out
    is appended to ``notes`` as one plain-English line (nothing here is rolled: MRQ has no random HP).

    Fields (declared with their ranges, defaults and meaning in :mod:`.situation_fields`): ``round``, ``acting``
    (a combatant name), ``distance`` (default between opponents), ``range`` (metres between opponents who are
    apart), ``distances`` (list of ``{a, b, distance, metres?}``), ``options``, ``max_rounds``, ``sides`` as in a
    scenario, each combatant optionally with ``locations`` (current HP per location), ``prone``, ``weapon``
    (ready/dropped/broken), ``reactions`` left, ``lost_ca``, ``status``, ``useless`` (list of locations),
    ``ammo`` (missiles left), and for a rider ``mount`` (its mount's ``locations``, ``status``, ``useless`` and
    ``reactions``; see :func:`_mount`).
    """
    file, data = V.document(path_or_mapping)
    d = V.mapping(data, file, "", _SITUATION_KEYS, FIELDS.required("situation"))
    sides = sides_of(d["sides"], file, _SITUATION_COMBATANT_KEYS)
    scen = scenario_from_mapping(
        {
            **{key: d[key] if key in d else FIELDS.field(key).default for key in _SCENARIO_KEYS},
            "options": d.get("options", {}),
            "sides": [
                {
                    "name": n,
                    "combatants": [
                        {k: e[k] for k in COMBATANT_KEYS if k in e and k not in _SITUATION_COMBATANT_KEYS}
                        for e in es
                    ],
                }
                for n, es in sides
            ],
        },
        file,
    )
    note = loading.note_taker(notes)
    if "round" not in d:
        note(Said("round not given: round 1"))
    if "distance" not in d and not d.get("distances"):
        note(Said("distance not given: every pair of opponents engaged at long distance"))
    if scen.rolled:  # the GM's dice characteristics, rolled with the situation's roller
        dice = EventSink(roller, 0, False)
        scen = roll_characteristics(scen, lambda i, expr, key: dice.roll(expr, key.upper(), i).total)
    state: MRQState = engine.build_state(scen)
    by_name = {c.name: i for i, c in enumerate(state.combatants)}
    state.round = FIELDS.read(d, "round", file, high=state.max_rounds)
    flat = [e for _, es in sides for e in es]
    thrown = EventSink(roller, state.round, False)
    for i, e in enumerate(flat):
        c, p = state.combatants[i], e["_path"]
        _wounds(c, e, file, p, note)
        c.prone = FIELDS.read(e, "prone", file, p, "combatant")
        c.weapon_state = _WEAPON_STATES[FIELDS.read(e, "weapon", file, p, "combatant")]
        c.lost_ca = FIELDS.read(e, "lost_ca", file, p, "combatant")
        _status_and_reactions(c, e, file, p, note)
        c.ammo = FIELDS.read(e, "ammo", file, p, "combatant", default=c.prof.ammo, high=c.prof.ammo)
        _mount(state, i, e, file, p, note, thrown)
    for k, raw in enumerate(d.get("distances", []) or []):
        dd = V.mapping(raw, file, f"distances[{k}]", ("a", "b", "distance", "metres"), ("a", "b", "distance"))
        a = by_name[V.choice(dd["a"], file, f"distances[{k}].a", sorted(by_name), "combatant")]
        b = by_name[V.choice(dd["b"], file, f"distances[{k}].b", sorted(by_name), "combatant")]
        state.set_distance(
            a,
            b,
            DISTANCE_NAMES.index(
                V.choice(dd["distance"], file, f"distances[{k}].distance", DISTANCE_NAMES, "distance")
            ),
        )
        if "metres" in dd:
            if state.distance(a, b) != APART:
                raise ConfigError(file, f"distances[{k}].metres", Said("metres only apply when apart"))
            state.set_metres(a, b, V.integer(dd["metres"], file, f"distances[{k}].metres", 0, MAX_GAP))
    acting = loading.acting_index(d["acting"], state.combatants, file)
    others = sorted((i for i in range(state.n) if i != acting), key=lambda i: -state.combatants[i].prof.dex)
    state.order = [acting] + others
    state.cycle, state.pos = 0, 1
    c = state.combatants[acting]
    state.decision = Decision(
        acting, c.side, DecisionKind.ACT, state.round, {"ca": 1, "cas": c.cas, "free_attack": False}
    )
    entered: MRQState = engine.enter(state, roller)[0]
    return entered
