"""Tactic profile of one side in an MRQ fight (docs/mrq.md "Tactic profile"): which special effects it picks by
margin and weapon type, Reactions spent vs saved, precise and missile attacks, distance changes, charges,
knockbacks, withdrawals."""

from __future__ import annotations

from collections import Counter
from typing import Any

from npc_tactics.rules.base import Event


def tactic_profile(events: list[Event], state: Any, side: int) -> dict[str, int]:
    """Counts of the tactically meaningful choices made by ``side`` (keys are stable strings)."""
    mine = {i for i, c in enumerate(state.combatants) if c.side == side}
    out: Counter[str] = Counter()
    for e in events:
        if e.actor not in mine:
            continue
        d = e.data
        k = e.kind
        if k == "special_effect":
            out[f"effect:{d['result']}"] += 1
            out[f"effect:{d['result']}:margin_{d['margin']}:{d['weapon_kind']}"] += 1
            out["effects_picked"] += 1
        elif k == "reaction":
            out["reactions_saved" if d["result"] == "none" else "reactions_spent"] += 1
            if d["result"] in ("precise", "evade"):
                out[f"defence_{d['result']}"] += 1
        elif k == "attack" and d.get("mode") in ("precise", "double_precise"):
            out["precise_attacks"] += 1
        elif k == "attack" and d.get("mode") == "normal":
            out["normal_attacks"] += 1
        elif k == "attack" and d.get("mode") == "missile":
            out["missile_attacks"] += 1
        elif k == "knockback" and d["result"] in ("pushed", "fell"):
            out["knockbacks_dealt"] += 1
        elif k == "distance" or (k == "manoeuvre" and d["result"] == "success"):
            out["distance_changes"] += 1
        elif k == "manoeuvre":
            out["manoeuvres_failed"] += 1
        elif k == "charge":
            out[f"charge_{d['result']}"] += 1
        elif k == "status" and d.get("status") == "fled":
            out["withdrawals"] += 1
        elif k == "impaled":
            out[f"impale_{d['result']}"] += 1
    # the charged side's answer is recorded with the charger as actor
    for e in events:
        if e.kind == "charge" and e.target in mine:
            out[f"charge_answer_{e.data['result']}"] += 1
        if e.kind == "special_effect" and e.actor in mine and e.data["result"] == "change_distance":
            out["distance_changes"] += 1
    return dict(out)
