"""What a game master can see at the table: the features a tactics card's rules may test.

A card must be playable by a person with the stat blocks and the battle map in front of them, so its rules may
not read the network's raw observation (scaled values, slot order, exact probabilities). Each feature is
computed from the observation vector *by field name* (the encoder's declaration, as stored in a bundle's
schema) and returns a value in the GM's own units: a yes/no, a count, a percentage, metres, dice. The tree is
fitted on these values, so its thresholds are already in those units and render as written.

The features every system has (decision kinds, hit points, who is standing) are declared here; each system adds
its own through its card hooks (``systems/<name>/card.py``, :class:`~npc_tactics.policy_io.card_hooks.CardHooks`),
built with :func:`flag` and :func:`field_value`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from npc_tactics.i18n import N_
from npc_tactics.plugin import System
from npc_tactics.policy_io.card_hooks import CardHooks, hooks_for

__all__ = ["Feature", "FieldView", "common_features", "feature_matrix", "features_for", "features_from", "field_value",
           "flag", "system_features"]

Kind = Literal["flag", "count", "percent", "number"]


class FieldView:
    """Read one observation vector by field name; slot groups (``self``, ``ally_i``, ``enemy_i``) by prefix."""

    def __init__(self, names: Sequence[str]) -> None:
        self.index = {n: i for i, n in enumerate(names)}
        self.slots = {g: sorted({n.split(".")[0] for n in names if n.startswith(g + "_")})
                      for g in ("ally", "enemy")}
        self.vec: np.ndarray = np.zeros(len(names), dtype=np.float32)

    def has(self, name: str) -> bool:
        return name in self.index

    def v(self, name: str) -> float:
        return float(self.vec[self.index[name]])

    def standing(self, group: str) -> list[str]:
        """Slots of ``group`` that hold a combatant still fighting (``active`` > 0.5)."""
        return [s for s in self.slots[group] if self.v(f"{s}.present") > 0.5 and self.v(f"{s}.active") > 0.5]

    def any(self, group: str, field: str) -> float:
        return 1.0 if any(self.v(f"{s}.{field}") > 0.5 for s in self.standing(group)) else 0.0

    def low(self, group: str, field: str, default: float = 0.0) -> float:
        vals = [self.v(f"{s}.{field}") for s in self.standing(group)]
        return min(vals) if vals else default

    def worst_location(self, slot: str) -> float:
        """The lowest location HP fraction of ``slot`` (negative below zero), 1 when the system has none."""
        locs = [n for n in self.index if n.startswith(f"{slot}.loc_")]
        return min(self.v(n) for n in locs) if locs else 1.0

    def worst_enemy_location(self) -> float:
        vals = [self.worst_location(s) for s in self.standing("enemy")]
        return min(vals) if vals else 1.0


@dataclass(frozen=True)
class Feature:
    """A GM-visible quantity. ``label`` names it (``{op}`` thresholds follow it); flags have ``yes``/``no``
    phrases instead. ``needs`` are the observation fields it reads (a missing one means the feature does not
    apply to this encoder and is left out)."""

    name: str
    kind: Kind
    label: str
    compute: Callable[[FieldView], float]
    needs: tuple[str, ...] = ()
    yes: str = ""
    no: str = ""
    unit: str = ""


def flag(name: str, yes: str, no: str, compute: Callable[[FieldView], float], *needs: str) -> Feature:
    """A yes/no feature: ``yes`` and ``no`` are its phrases (``yes`` labels it too)."""
    return Feature(name, "flag", yes, compute, needs, yes, no)


def field_value(name: str) -> Callable[[FieldView], float]:
    """A feature that is one observation field as it stands (a 0/1 flag)."""
    return lambda f: f.v(name)


def _decision_flags() -> list[Feature]:
    texts = {
        "declare": (N_("declaring what to do this round"), N_("not at the declaration")),
        "act": (N_("its turn to act"), N_("not its turn to act")),
        "react": (N_("a blow is coming at it"), N_("no blow to answer")),
        "effect": (N_("it won the exchange and picks effects"), N_("no effect to pick")),
        "split": (N_("splitting its dice pool"), N_("no pool to split")),
        "option": (N_("choosing an option of its move"), N_("no option to choose")),
    }
    return [flag(f"decision_{k}", yes, no, field_value(f"decision.{k}"), f"decision.{k}")
            for k, (yes, no) in texts.items()]


def common_features() -> list[Feature]:
    """The features of every system (each kept only where the encoder has its fields)."""
    return [
        *_decision_flags(),
        Feature("own_hp", "percent", N_("own hit points"), lambda f: f.v("self.hp"), ("self.hp",)),
        Feature("enemies_standing", "count", N_("enemies standing"), lambda f: float(len(f.standing("enemy"))),
                ("enemy_0.active",)),
        Feature("allies_standing", "count", N_("allies standing"), lambda f: float(len(f.standing("ally"))),
                ("ally_0.active",)),
        Feature("weakest_enemy_hp", "percent", N_("the most hurt enemy's hit points"),
                lambda f: f.low("enemy", "hp", 0.0), ("enemy_0.hp",)),
    ]


def system_features(hooks: CardHooks | None) -> list[Feature]:
    """Every feature a system declares: the shared ones first, then its own (none without card hooks)."""
    return common_features() + (hooks.feature_list() if hooks is not None else [])


def features_from(hooks: CardHooks | None, field_names: Sequence[str]) -> list[Feature]:
    """The features of a system with ``hooks`` whose observation fields exist in ``field_names``, in declaration
    order."""
    have = set(field_names)
    return [feat for feat in system_features(hooks) if all(n in have for n in feat.needs)]


def features_for(system: System, field_names: Sequence[str]) -> list[Feature]:
    """:func:`features_from` ``system``'s card hooks."""
    return features_from(hooks_for(system), field_names)


def feature_matrix(features: Sequence[Feature], view: FieldView, vectors: np.ndarray) -> np.ndarray:
    """Rows of GM feature values (float64), one per observation vector."""
    out = np.zeros((len(vectors), len(features)), dtype=np.float64)
    for i, vec in enumerate(vectors):
        view.vec = vec
        out[i] = [feat.compute(view) for feat in features]
    return out
