"""Tactic profile of one side in a dice-pool fight (dice-pool.md §11), counted from the event log."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Event


def tactic_profile(events: list[Event], state: Any, side: int) -> dict[str, int]:
    """Counts of the side's tactical choices.

    ``splits_<next>`` / ``defense_dice_<next>``: melee attacks and dice moved to DEFENSE, by who holds the
    next slot (self, ally, enemy, new_turn); ``aims`` (slots spent aiming), ``shots``,
    ``location_shots`` (aimed at a location or at the weapon), ``disarms`` (weapons shot from an enemy's
    hand), ``free_blows`` (blows at enemies leaving melee, H6), ``posture_changes`` (posture or cover
    taken), ``actions`` (slots used) and ``game_turns`` (actions per game turn = actions / game_turns).
    """
    out = {
        "actions": 0,
        "game_turns": 0,
        "aims": 0,
        "shots": 0,
        "location_shots": 0,
        "posture_changes": 0,
        "strikes": 0,
        "withdrawals": 0,
        "draws": 0,
        "disarms": 0,
        "free_blows": 0,
    }
    for nxt in ("self", "ally", "enemy", "new_turn"):
        out[f"splits_{nxt}"] = 0
        out[f"defense_dice_{nxt}"] = 0
    cs = state.combatants
    for e in events:
        if e.kind == "round_start":
            out["game_turns"] += 1
            continue
        if e.actor is None or e.actor >= len(cs) or cs[e.actor].side != side:
            continue
        if e.kind == "action":
            out["actions"] += 1
            verb = e.data.get("result")
            if verb == "strike":
                out["strikes"] += 1
            elif verb == "withdraw":
                out["withdrawals"] += 1
            elif verb == "draw":
                out["draws"] += 1
        elif e.kind == "split":
            nxt = e.data.get("next", "new_turn")
            out[f"splits_{nxt}"] += 1
            out[f"defense_dice_{nxt}"] += int(e.data.get("dice", 0))
        elif e.kind == "aim":
            out["aims"] += 1
        elif e.kind == "attack" and e.data.get("mode") == "ranged":
            out["shots"] += 1
            if e.data.get("located"):
                out["location_shots"] += 1
        elif e.kind == "posture":
            out["posture_changes"] += 1
        elif e.kind == "disarm":
            out["disarms"] += 1
        elif e.kind == "free_blow":
            out["free_blows"] += 1
    return out
