"""What a game master can see at the table, per system: the features a tactics card's rules may test.

A card must be playable by a person with the stat blocks and the battle map in front of them, so its rules may
not read the network's raw observation (scaled values, slot order, exact probabilities). Each feature here is
computed from the observation vector *by field name* (the encoder's declaration, as stored in a bundle's
schema) and returns a value in the GM's own units: a yes/no, a count, a percentage, metres, dice. The tree is
fitted on these values, so its thresholds are already in those units and render as written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from npc_tactics.i18n import N_

__all__ = ["FEATURES", "Feature", "FieldView", "feature_matrix", "features_for"]

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


def _flag(name: str, yes: str, no: str, compute: Callable[[FieldView], float], *needs: str) -> Feature:
    return Feature(name, "flag", yes, compute, needs, yes, no)


def _field(name: str) -> Callable[[FieldView], float]:
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
    return [_flag(f"decision_{k}", yes, no, _field(f"decision.{k}"), f"decision.{k}")
            for k, (yes, no) in texts.items()]


def _common() -> list[Feature]:
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


def _ose() -> list[Feature]:
    phases = {"move": (N_("in the movement step"), N_("not in the movement step")),
              "missile": (N_("in the missile step"), N_("not in the missile step")),
              "melee": (N_("in the melee step"), N_("not in the melee step"))}
    return [
        *(_flag(f"phase_{p}", yes, no, _field(f"context.phase_{p}"), f"context.phase_{p}")
          for p, (yes, no) in phases.items()),
        _flag("engaged", N_("an enemy is adjacent (melee)"), N_("no enemy adjacent"),
              lambda f: f.any("enemy", "adjacent"), "enemy_0.adjacent"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 20.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("squares")),
        _flag("won_initiative", N_("its side won initiative"), N_("its side did not win initiative"),
              lambda f: 1.0 if f.v("context.initiative") > 0.5 else 0.0, "context.initiative"),
        _flag("enemy_missile", N_("an enemy has a missile weapon"), N_("no enemy has a missile weapon"),
              lambda f: f.any("enemy", "missile"), "enemy_0.missile"),
        _flag("own_missile", N_("it has a missile weapon with ammunition"), N_("no missile weapon or ammunition"),
              lambda f: f.v("self.missile"), "self.missile"),
        Feature("spells", "count", N_("spells left"), lambda f: round(4.0 * f.v("self.spells")), ("self.spells",)),
        _flag("enemy_casting", N_("an enemy is casting"), N_("no enemy casting"),
              lambda f: f.any("enemy", "casting"), "enemy_0.casting"),
    ]


def _runequest() -> list[Feature]:
    classes = {
        "light": (N_("the blow comes from a light weapon"), N_("the blow is not from a light weapon")),
        "medium": (N_("the blow comes from a medium weapon"), N_("the blow is not from a medium weapon")),
        "great": (N_("the blow comes from a great weapon"), N_("the blow is not from a great weapon")),
        "shield": (N_("the blow comes from a shield"), N_("the blow is not from a shield")),
        "missile": (N_("the blow is a missile"), N_("the blow is not a missile")),
        "natural": (N_("the blow comes from a natural weapon"), N_("the blow is not from a natural weapon")),
    }
    return [
        _flag("engaged", N_("engaged in melee"), N_("not engaged"), lambda f: f.v("context.engaged"),
              "context.engaged"),
        _flag("in_reach", N_("an enemy within reach"), N_("no enemy within reach"),
              lambda f: f.any("enemy", "in_reach"), "enemy_0.in_reach"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 30.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("m")),
        Feature("mp", "count", N_("magic points"), lambda f: round(20.0 * f.v("self.mp")), ("self.mp",)),
        Feature("worst_wound", "percent", N_("its worst location's damage (of that location's HP)"),
                lambda f: 3.0 * f.v("self.worst_wound"), ("self.worst_wound",)),
        *(_flag(f"incoming_{w}", yes, no, _field(f"context.incoming_class_{w}"), f"context.incoming_class_{w}")
          for w, (yes, no) in classes.items()),
        Feature("incoming_sr", "count", N_("strike rank of the incoming blow"),
                lambda f: round(12.0 * f.v("context.incoming_sr")), ("context.incoming_sr",)),
        Feature("parry_chance", "percent", N_("its parry chance"), lambda f: f.v("context.parry_chance"),
                ("context.parry_chance",)),
        Feature("dodge_chance", "percent", N_("its dodge chance"), lambda f: f.v("context.dodge_chance"),
                ("context.dodge_chance",)),
        Feature("parries_used", "count", N_("parries already made this round"),
                lambda f: round(4.0 * f.v("self.parries_used")), ("self.parries_used",)),
        _flag("enemy_great", N_("an enemy wields a great weapon"), N_("no enemy with a great weapon"),
              lambda f: f.any("enemy", "great_weapon"), "enemy_0.great_weapon"),
        _flag("option_aim", N_("choosing where to aim"), N_("not choosing where to aim"),
              lambda f: f.v("context.option_aim"), "context.option_aim"),
        _flag("option_power", N_("choosing a spell's power"), N_("not choosing a spell's power"),
              lambda f: f.v("context.option_power"),
              "context.option_power"),
    ]


def _mrq() -> list[Feature]:
    return [
        Feature("ca", "count", N_("Combat Action of the round"), lambda f: round(5.0 * f.v("context.ca")),
                ("context.ca",)),
        Feature("reactions", "count", N_("Reactions left"), lambda f: round(5.0 * f.v("context.reactions_left")),
                ("context.reactions_left",)),
        Feature("margin", "count", N_("margin of victory"), lambda f: round(3.0 * f.v("context.margin")),
                ("context.margin",)),
        _flag("won_attacking", N_("it won the exchange as attacker"), N_("it did not win as attacker"),
              lambda f: 1.0 if f.v("context.role") > 0.5 else 0.0, "context.role"),
        _flag("damage_passes", N_("the blow's damage gets through"), N_("no damage through yet"),
              lambda f: f.v("context.damage_passes"), "context.damage_passes"),
        _flag("charge", N_("a charge is coming"), N_("no charge coming"), lambda f: f.v("context.charge"),
              "context.charge"),
        _flag("precise_incoming", N_("the incoming attack is precise"), N_("the incoming attack is not precise"),
              lambda f: f.v("context.precise"),
              "context.precise"),
        Feature("opp_damage", "number", N_("the opponent weapon's maximum damage"),
                lambda f: 20.0 * f.v("context.opp_weapon_damage"), ("context.opp_weapon_damage",)),
        Feature("own_worst_location", "percent", N_("its most hurt location's HP"),
                lambda f: f.worst_location("self"), ("self.loc_head",)),
        Feature("enemy_worst_location", "percent", N_("the enemy's most hurt location's HP"),
                lambda f: f.worst_enemy_location(), ("enemy_0.loc_head",)),
        _flag("can_strike", N_("it can strike an enemy now"), N_("it cannot strike an enemy now"),
              lambda f: f.any("enemy", "actor_can_strike"), "enemy_0.actor_can_strike"),
        _flag("enemy_prone", N_("an enemy is prone"), N_("no enemy prone"), lambda f: f.any("enemy", "prone"),
              "enemy_0.prone"),
        _flag("impale_choice", N_("its weapon is stuck in the enemy"), N_("no weapon stuck"),
              lambda f: f.v("context.impale"),
              "context.impale"),
    ]


def _dicepool() -> list[Feature]:
    return [
        Feature("pool", "count", N_("dice in the attack pool"), lambda f: round(12.0 * f.v("context.pool")),
                ("context.pool",)),
        Feature("target_defense", "count", N_("the target's DEFENSE"),
                lambda f: round(12.0 * f.v("context.target_defense")), ("context.target_defense",)),
        _flag("engaged", N_("engaged in melee"), N_("not engaged"), lambda f: f.v("self.engaged"), "self.engaged"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 50.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("m")),
        Feature("own_worst_location", "percent", N_("its most hurt location's HP"),
                lambda f: f.worst_location("self"), ("self.hp",)),
        Feature("enemy_worst_location", "percent", N_("the enemy's most hurt location's HP"),
                lambda f: f.worst_enemy_location(), ("enemy_0.hp",)),
        Feature("slots_left", "count", N_("actions it still has this turn"),
                lambda f: round(4.0 * f.v("context.slots_left")), ("context.slots_left",)),
        _flag("enemy_next", N_("an enemy acts next"), N_("no enemy acts next"), lambda f: f.v("context.next_enemy"),
              "context.next_enemy"),
        _flag("can_shoot", N_("its ranged weapon is loaded"), N_("no loaded ranged weapon"),
              lambda f: f.v("self.can_shoot"), "self.can_shoot"),
        Feature("cover", "count", N_("cover available where it stands"),
                lambda f: round(2.0 * f.v("self.cover_available")), ("self.cover_available",)),
    ]


#: The GM-visible features of each system (the common ones first).
FEATURES: Final[dict[str, Callable[[], list[Feature]]]] = {
    "ose": lambda: _common() + _ose(),
    "runequest": lambda: _common() + _runequest(),
    "mrq": lambda: _common() + _mrq(),
    "dicepool": lambda: _common() + _dicepool(),
}


def features_for(system: str, field_names: Sequence[str]) -> list[Feature]:
    """The features of ``system`` whose observation fields exist in ``field_names``, in declaration order."""
    if system not in FEATURES:
        raise ValueError(f"no tactics-card features for system {system!r}; known: {', '.join(FEATURES)}")
    have = set(field_names)
    return [feat for feat in FEATURES[system]() if all(n in have for n in feat.needs)]


def feature_matrix(features: Sequence[Feature], view: FieldView, vectors: np.ndarray) -> np.ndarray:
    """Rows of GM feature values (float64), one per observation vector."""
    out = np.zeros((len(vectors), len(features)), dtype=np.float64)
    for i, vec in enumerate(vectors):
        view.vec = vec
        out[i] = [feat.compute(view) for feat in features]
    return out
