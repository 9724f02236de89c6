"""The fake system's tactics-card hooks: what a GM sees beyond the shared features (the round, a guarding enemy)
and its morale rule; its verbs (attack, defend, flee) are all shared ones."""

from __future__ import annotations

from npc_tactics.policy_io.card_features import Feature, flag
from npc_tactics.policy_io.card_hooks import CardHooks
from tests.fakesys.engine import MAX_ROUNDS


def _features() -> list[Feature]:
    return [
        Feature("round", "count", "round", lambda f: round(MAX_ROUNDS * f.v("context.round")), ("context.round",)),
        flag("enemy_guarding", "an enemy is defending", "no enemy defending",
             lambda f: f.any("enemy", "defending"), "enemy_0.defending"),
    ]


CARD = CardHooks(features=_features,
                 morale_note="Fake morale: at a side's first death its survivors roll 2d6; above 8, they flee.")
