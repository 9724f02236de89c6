"""Tactic profile of one side of an RQG fight, counted from the event log (evaluation reports,
simulate --json).

Counts: parries / dodges / undefended blows per incoming weapon class (``parry_vs_great`` ...),
spells cast
(per spell and per SR band), aimed blows, knockbacks, retreats, flights, fumbles and criticals.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from npc_tactics.rules.base import Event


def _sr_band(sr: int) -> str:
    return "1_4" if sr <= 4 else ("5_8" if sr <= 8 else "9_12")


def tactic_profile(events: list[Event], state: Any, side: int) -> dict[str, int]:
    """Counts of the tactically meaningful choices made by ``side`` (see module docstring)."""
    cs = state.combatants
    mine = {i for i, c in enumerate(cs) if c.side == side}
    out: Counter[str] = Counter()
    for e in events:
        k = e.kind
        if k == "defence" and e.actor in mine:
            out[f"{e.data['how']}_vs_{e.data['wclass']}"] += 1
            out["parries" if e.data["how"] == "parry" else "dodges"] += 1
        elif k == "attack":
            if e.target in mine and e.data["defence"] == "none" and not e.data["free"]:
                out[f"no_defence_vs_{e.data['wclass']}"] += 1
            if e.actor in mine:
                out["attacks"] += 1
                if e.data["aimed"]:
                    out["aimed_blows"] += 1
        elif (
            k == "spell"
            and e.actor in mine
            and e.data["result"] in ("success", "failure", "resisted")
        ):
            out["spells_cast"] += 1
            out[f"spell_{e.data['spell']}"] += 1
            out[f"spell_sr_{_sr_band(int(e.data['sr']))}"] += 1
        elif k == "declare" and e.actor in mine and e.data["result"] in ("retreat", "knockback"):
            out[f"{e.data['result']}s"] += 1
        elif k == "flee" and e.actor in mine:
            out["flights"] += 1
        elif k == "fumble" and e.actor in mine:
            out["fumbles"] += 1
        elif k == "critical" and e.actor in mine:
            out["criticals"] += 1
        elif (
            k == "first_aid"
            and e.actor in mine
            and e.data["result"] not in ("in_progress", "abandoned")
        ):
            out["first_aid"] += 1
    return dict(out)
