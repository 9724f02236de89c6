"""Words for moves and the tactics-card rule, from the parts other helpers own (issue 11): move names by
combatant and weapon come from ``gm.naming.move_label`` and the card rule from ``export.card.Card``; until
those are installed, the catalogue name is the label and no card rule is shown."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["card_rule", "labeler"]


def labeler(system: str, engine: Any, lang: str) -> Callable[[Any, Any, int], str]:
    """``label(state, decision, action) -> str``: the GM's words for a move."""
    try:
        move_label = importlib.import_module("npc_tactics.gm.naming").move_label
    except (ImportError, AttributeError):
        return lambda state, decision, action: str(engine.catalogue.name(int(action)))

    def label(state: Any, decision: Any, action: int) -> str:
        return str(move_label(system, engine, state, decision, int(action), lang=lang))

    return label


def card_rule(bundle: str | None, system: str, engine: Any, state: Any, decision: Any,
              lang: str) -> dict[str, Any] | None:
    """The rule of the bundle's tactics card that fires here (text, action, probability, share of decisions
    it fires on), or None without a card."""
    if bundle is None or not (Path(bundle) / "card.json").is_file():
        return None
    try:
        Card = importlib.import_module("npc_tactics.export.card").Card  # noqa: N806 - a class
    except (ImportError, AttributeError):
        return None
    card = Card.load(bundle)
    rule = card.rule_for(system, engine, state, decision) if card is not None else None
    if rule is None:
        return None
    return {"text": rule.text(lang), "action": rule.action_name, "probability": float(rule.probability),
            "fires": float(rule.fires)}
