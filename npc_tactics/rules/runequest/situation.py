"""GM situations: a fight in progress described in RQG terms (contract §4, ``load_situation``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.rules.runequest import tables as T
from npc_tactics.rules.runequest.content import ENTRY_KEYS, build_state, validate_scenario
from npc_tactics.rules.runequest.damage import settle
from npc_tactics.rules.runequest.state import Combatant, RQState

SITUATION_KEYS = {
    "round",
    "acting",
    "options",
    "sides",
    "name",
    "description",
    "max_rounds",
    "distance",
    "surprised",
}
STATUSES = ("active", "unconscious", "dead", "fled", "incapacitated")
STATE_KEYS = ENTRY_KEYS | {"hp", "wounds", "rune_points", "status", "weapon_hp", "bleeding"}


def load_situation(
    engine: Any, path_or_mapping: str | Path | Mapping[str, Any], roller: Roller, notes: list[str] | None = None
) -> RQState:
    """A GM's fight in progress: stat blocks by template, current HP and wounds per location,
    positions (m), round and ``acting: <name>``. Returns the state at that combatant's statement of
    intent.

    Extra per-combatant keys: ``hp``, ``wounds: {location: damage}``, ``rune_points``, ``weapon_hp:
    {weapon: hp}``, ``bleeding: true``, ``status``. Engagement follows from positions (within 2 m).
    """
    f, raw = V.document(path_or_mapping)
    raw = V.mapping(raw, f, "", SITUATION_KEYS)
    scen = validate_scenario(
        {k: v for k, v in raw.items() if k not in ("round", "acting", "scenario")},
        f,
        entry_keys=STATE_KEYS,
    )
    state = build_state(scen, engine.options)
    names = [c.name for c in state.combatants]
    acting = V.choice(raw.get("acting"), f, "acting", names, "combatant")
    rnd = V.integer(raw.get("round", 1), f, "round", 1, scen["max_rounds"])
    k = 0
    for si, side in enumerate(scen["sides"]):
        for ci, e in enumerate(side["combatants"]):
            _apply_condition(state.combatants[k], e, f, f"sides[{si}].combatants[{ci}]")
            k += 1
    sink = EventSink(roller, rnd, False)
    settle(state, sink)
    state.round = rnd - 1
    engine.start_round(state, sink)
    idx = names.index(acting)
    if state.combatants[idx].status != Status.ACTIVE:
        raise ConfigError(
            f, "acting", f"{acting!r} is {state.combatants[idx].status.name.lower()}, cannot act"
        )
    state.declare_queue = [idx] + [i for i in state.declare_queue if i != idx]
    engine._run(state, sink)
    return state


def _apply_condition(c: Combatant, e: Mapping[str, Any], f: str, p: str) -> None:
    locs = {loc.spec.name: loc for loc in c.locations}
    wounds = V.mapping(e.get("wounds", {}), f, f"{p}.wounds")
    for name, dmg in wounds.items():
        V.choice(name, f, f"{p}.wounds.{name}", locs, "location")
        locs[name].damage = V.integer(dmg, f, f"{p}.wounds.{name}", 0, 200)
    c.hp = (
        V.integer(e["hp"], f, f"{p}.hp", -50, c.max_hp)
        if "hp" in e
        else c.max_hp
        - sum(
            min(loc.damage, 2 * loc.spec.max_hp) if loc.spec.kind == "limb" else loc.damage
            for loc in c.locations
        )
    )
    if "rune_points" in e:
        c.rune_points = V.integer(e["rune_points"], f, f"{p}.rune_points", 0, 50)
    whp = V.mapping(e.get("weapon_hp", {}), f, f"{p}.weapon_hp")
    wnames = [w.spec.name for w in c.weapons]
    for wname, hp in whp.items():
        idx = wnames.index(V.choice(wname, f, f"{p}.weapon_hp.{wname}", wnames, "weapon"))
        c.weapons[idx].hp = V.integer(hp, f, f"{p}.weapon_hp.{wname}", 0, 50)
    if e.get("bleeding"):
        c.bleed_clock = T.BLEED_OUT_ROUNDS["abdomen"]
    if "status" in e:
        st = V.choice(e["status"], f, f"{p}.status", STATUSES, "status")
        c.status = Status[st.upper()]
