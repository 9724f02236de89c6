"""OSE tactic profile: counts of the tactically meaningful choices one side made (contract §7)."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Event


def tactic_profile(events: list[Event], state: Any, side: int) -> dict[str, int]:
    """Withdrawals, retreats, spells cast (and in which rounds), spells disrupted, morale checks failed,
    missile and melee attacks, combatants fled, for ``side``."""
    sides = [c.side for c in state.combatants]
    out = {
        "withdrawals": 0,
        "retreats": 0,
        "spells_cast": 0,
        "spells_cast_round_1": 0,
        "spells_cast_later": 0,
        "spells_disrupted": 0,
        "morale_failed": 0,
        "missile_attacks": 0,
        "melee_attacks": 0,
        "fled": 0,
    }
    for e in events:
        if e.actor is None or not 0 <= e.actor < len(sides) or sides[e.actor] != side:
            continue
        k = e.kind
        if k == "declare":
            r = e.data.get("result")
            if r == "withdraw":
                out["withdrawals"] += 1
            elif r == "retreat":
                out["retreats"] += 1
        elif k == "spell" and e.data.get("result") == "cast":
            out["spells_cast"] += 1
            out["spells_cast_round_1" if e.round <= 1 else "spells_cast_later"] += 1
        elif k == "spell_disrupted":
            out["spells_disrupted"] += 1
        elif k == "morale" and e.data.get("result") == "failed":
            out["morale_failed"] += 1
        elif k == "attack":
            out["missile_attacks" if e.data.get("missile") else "melee_attacks"] += 1
        elif k == "status" and e.data.get("status") == "fled":
            out["fled"] += 1
    return out
