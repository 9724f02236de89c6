"""Shared builders for the MRQ rules tests: a duel state at a chosen position, with forced dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import EventSink
from npc_tactics.systems.mrq.rules.content import load_weapons, scenario_from_mapping
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.state import MRQState

W = load_weapons()


def duel(
    att: str,
    dfd: str,
    options: dict[str, Any] | None = None,
    distance: str = "long",
    att_prof: dict[str, Any] | None = None,
    def_prof: dict[str, Any] | None = None,
    extra: list[tuple[int, str]] | None = None,
) -> tuple[MRQEngine, MRQState]:
    """Combatant 0 ("A", side 0) vs combatant 1 ("D", side 1) in round 1, nobody has acted yet; profile
    fields can be replaced (e.g. ``dm=""`` to drop the damage modifier from a worked example)."""
    sides: list[list[dict[str, str]]] = [
        [{"template": att, "name": "A"}],
        [{"template": dfd, "name": "D"}],
    ]
    for side, tpl in extra or []:
        sides[side].append({"template": tpl, "name": f"X{len(sides[side])}"})
    scen = scenario_from_mapping(
        {
            "options": options or {},
            "distance": distance,
            "sides": [{"combatants": s} for s in sides],
        }
    )
    eng = MRQEngine()
    st = eng.build_state(scen)
    st.round = 1
    for c, over in zip(st.combatants, (att_prof, def_prof), strict=False):
        if over:
            c.prof = replace(c.prof, **over)
            c.armour = c.prof.armour
            c.loc_hp = list(c.prof.loc_max)
            c.hp = c.max_hp = sum(c.prof.loc_max)
    for c in st.combatants:
        c.cas = c.prof.cas
        c.reactions = 3
    return eng, st


def sink(*faces: int) -> EventSink:
    return EventSink(ScriptedRoller(list(faces)), 1)


def kinds(s: EventSink, kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in s.events if e.kind == kind]
