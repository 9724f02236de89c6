"""How the encounter builder composes a fake fight (:class:`~npc_tactics.encounters.adapters.Adapter`): the
composed mapping (templates, names) becomes the fake's own scenario (``sides`` of ``{name, hp}``); the fake has
no positions, a fighter's threat is its hit points times its chance to hit (``hit_on``) times a d6, and a worn
start only takes hit points (a fake fighter has nothing to spend)."""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.configs import validate as V
from npc_tactics.encounters.adapters import Adapter
from npc_tactics.encounters.wear import Wear
from npc_tactics.errors import ConfigError
from tests.fakesys.bestiary import TEMPLATES, template_names
from tests.fakesys.engine import FakeEngine, Fighter

__all__ = ["ADAPTER"]

_SCENARIO_KEYS = ("name", "description", "sides", "options", "max_rounds")
_ENTRY_KEYS = ("template", "name")


def parse_scenario(data: Any, file: str) -> dict[str, Any]:
    """The fake scenario of a composed mapping; a side over the engine's two fighters is a ConfigError."""
    d = V.mapping(data, file, "", _SCENARIO_KEYS, ("sides",))
    limit = FakeEngine.spec.max_per_side
    sides = []
    for s, side in enumerate(V.two_sides(d["sides"], file)):
        side_map = V.mapping(side, file, V.join("sides", s), ("name", "combatants"), ("combatants",))
        field = V.join("sides", s, "combatants")
        entries = V.sequence(side_map["combatants"], file, field, 1, None, "combatants")
        if len(entries) > limit:
            raise ConfigError(file, field, f"expected at most {limit} fighters a side, got {len(entries)}")
        fighters = []
        for k, raw in enumerate(entries):
            e = V.mapping(raw, file, V.join(field, k), _ENTRY_KEYS, _ENTRY_KEYS)
            template = V.choice(e["template"], file, V.join(field, k, "template"), TEMPLATES, "template")
            fighters.append({"name": V.string(e["name"], file, V.join(field, k, "name"), non_empty=True),
                             "hp": TEMPLATES[template][0]})
        sides.append(fighters)
    out: dict[str, Any] = {"sides": sides}
    if d.get("options"):
        out["options"] = dict(V.mapping(d["options"], file, "options"))
    return out


def _strength(c: Any) -> tuple[float, float]:
    hit_on = FakeEngine.spec.default_options["hit_on"]
    return float(c.max_hp), (21 - hit_on) / 20 * 3.5


def _wound(c: Fighter, fraction: float, rng: np.random.Generator) -> None:
    c.hp = max(1, c.hp - int(round(fraction * c.max_hp)))


def _spend(c: Fighter, fraction: float, rng: np.random.Generator) -> None:
    """Nothing to spend: a fake fighter carries no ammunition, spells or points."""


WEAR = Wear(_wound, _spend, "nothing (a fake fighter has no resources)")
ADAPTER = Adapter("fake", 0.0, 0.0, template_names, parse_scenario, lambda d: {}, _strength, positions=False,
                  wear=WEAR)
