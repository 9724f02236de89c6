"""An agent that plays by a bundle's tactics card, as a GM at the table would: the first rule that applies.

It is how the card's win rate is measured, and ``evaluate --agents card:BUNDLE_DIR,...`` puts it in a tournament
next to the network it was distilled from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.policy_io.card import BY_THE_BOOK, Card, CardError, CardRule

__all__ = ["CARD_PREFIX", "CardAgent", "load_card_agent"]

#: An agent spec naming a bundle's card: ``card:BUNDLE_DIR``.
CARD_PREFIX = "card:"


class CardAgent:
    """Plays the card's move (deterministic: a card has no dice of its own). ``last_rule`` is the rule behind
    the last move (None for a decision kind the card has no rule for), for callers that show it."""

    def __init__(self, card: Card, name: str = "card") -> None:
        self.card = card
        self._book: Any = None  # the by-the-book agent of "play by the book" rules, made at the first one
        self.name = name
        self.system = card.system
        self.scenario = card.scenario
        self.side = card.side
        self.n_actions = len(card.actions)
        self.obs_size = len(card.field_names)
        self.last_rule: CardRule | None = None

    def act(self, observation: Any, mask: np.ndarray) -> int:
        action, self.last_rule = self.card.choose(observation.vector, mask, observation.decision.kind.name.lower())
        if action == BY_THE_BOOK:
            if self._book is None:
                from npc_tactics.agents import make_agent

                # by-the-book's own dice stream is fixed: a card has no randomness of its own
                self._book = make_agent(self.card.plugin, "by-the-book", observation.engine, np.random.default_rng(0))
            return int(self._book.act(observation, mask))
        return action


def load_card_agent(bundle_dir: str | Path) -> CardAgent:
    """The card of the bundle in ``bundle_dir`` as an agent; a bundle without a card is a CardError."""
    folder = Path(bundle_dir)
    if not folder.is_dir():
        raise CardError(f"{folder}: bundle folder not found")
    card = Card.load(folder)
    if card is None:
        raise CardError(f"{folder}: no card.json; make one with `npc-tactics card {folder}`")
    return CardAgent(card, name=f"card:{folder.name}")
