"""Words for moves and the tactics-card rule that fires, shared by ``suggest`` and ``play``: move names by
combatant and weapon come from :func:`npc_tactics.gm.words.naming.move_label`, the rule from the bundle's card
(:class:`npc_tactics.policy_io.card.Card`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from npc_tactics.gm.words.naming import move_label
from npc_tactics.i18n import translator
from npc_tactics.policy_io.card import BY_THE_BOOK, Card

__all__ = ["card_rule", "labeler"]


def labeler(system: str, engine: Any, lang: str) -> Callable[[Any, Any, int], str]:
    """``label(state, decision, action) -> str``: the GM's words for a move."""

    def label(state: Any, decision: Any, action: int) -> str:
        return str(move_label(system, engine, state, decision, int(action), lang=lang))

    return label


def card_rule(bundle: str | None, system: str, engine: Any, state: Any, decision: Any,
              lang: str) -> dict[str, Any] | None:
    """The rule of the bundle's tactics card that fires here (text, action, probability, share of decisions
    it fires on), or None without a card."""
    if bundle is None or not (Path(bundle) / "card.json").is_file():
        return None
    card = Card.load(bundle)
    rule = card.rule_for(system, engine, state, decision) if card is not None else None
    if rule is None:
        return None
    text, action = rule.text(lang), rule.action_name
    if rule.action == BY_THE_BOOK:  # say which move that is here, and match it to its row of the ranking
        move = _book_move(system, engine, state, decision)
        action = str(engine.catalogue.names[move])
        _ = translator(lang)
        text += " " + _("(here: {move})").format(move=move_label(system, engine, state, decision, move, lang=lang))
    return {"text": text, "action": action, "probability": float(rule.probability), "fires": float(rule.fires)}


def _book_move(system: str, engine: Any, state: Any, decision: Any) -> int:
    """The by-the-book agent's move at ``decision`` (what a card's "play by the book" rule means there)."""
    import numpy as np

    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.policy_io.agent import Observation
    from npc_tactics.registry import get_system

    encoder = get_system(system).load("encoder")(engine)
    book = agent_factory(system, "by-the-book")(engine, np.random.default_rng(0))
    return int(book.act(Observation(None, state, decision, engine, encoder), engine.legal_mask(state, decision)))
