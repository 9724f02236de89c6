"""Dice-pool pending decisions (issue 11 §2): the dice moved to DEFENSE before a blow (``split``), the aim of
a shot (``aim``). Both follow an ACT choice the situation names: the strike or the shot at ``target``.

    pending: {split: {target: Varo}}    # Kesh strikes Varo: how many of its dice go to DEFENSE?
    pending: {aim: {target: Varo}}      # Kesh shoots at Varo: aim at a location, the weapon, or not at all?
"""

from __future__ import annotations

from typing import Any

from npc_tactics.dice import Roller
from npc_tactics.rules.base import DecisionKind
from npc_tactics.rules.pending import PendingKind, Request, drive, enemy_action, named, read_fields


def _read(body: Any, file: str, path: str, acting: str) -> Request:
    data = read_fields(body, file, path, ("target",), ("target",))
    return Request(None, data, path)


def _after(verb: str) -> Any:
    def reach(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
        path = f"{request.path}.target"
        first = engine.pending(state)
        action = enemy_action(engine, state, first.actor, verb, named(state, request.data["target"], file, path),
                              file, path)
        return drive(engine, state, lambda s, d: action if d.kind == DecisionKind.ACT else None, [], file,
                     request.path)

    return reach


KINDS = {
    "split": PendingKind(DecisionKind.SPLIT, _read, _after("strike"),
                         "the acting NPC strikes `target`: the dice it moves to DEFENSE (D5)"),
    "aim": PendingKind(DecisionKind.OPTION, _read, _after("shoot"),
                       "the acting NPC shoots at `target`: where it aims (§7)"),
}
