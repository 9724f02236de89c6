"""The training-time evaluation plays each listed opponent once: a name listed twice weights the training
draws, not the learning curve."""

from __future__ import annotations

from npc_tactics.training.config import parse_train_config
from npc_tactics.training.envs import eval_opponents, resolve_opponents


def test_a_repeated_opponent_is_evaluated_once() -> None:
    cfg = parse_train_config({"system": "dicepool", "opponents": ["by-the-book", "by-the-book", "aggressive",
                                                                  "cautious", "aggressive"]})
    labels = [label for label, _ in eval_opponents(cfg, resolve_opponents(cfg))]
    assert labels == ["by-the-book", "aggressive", "cautious"]
