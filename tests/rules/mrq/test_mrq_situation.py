"""Issue 8 §3 for MRQ: a situation means what the GM wrote. Impossible descriptions are one-line errors naming
the file and field; every default taken is reported through ``notes``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.mrq.content import load_situation
from npc_tactics.rules.mrq.engine import MRQEngine

ENGINE = MRQEngine()


def _sit(guard: dict[str, Any] | None = None, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "round": 2,
        "acting": "Guard",
        "distance": "long",
        "sides": [
            {"name": "npc", "combatants": [{"template": "sword_and_shield", "name": "Guard", **(guard or {})}]},
            {"name": "pc", "combatants": [{"template": "great_axe", "name": "Axeman", "reactions": 1}]},
        ],
    }
    base.update(over)
    return base


def _load(sit: dict[str, Any], notes: list[str] | None = None) -> Any:
    return load_situation(ENGINE, sit, RngRoller(np.random.default_rng(0)), notes)


@pytest.mark.parametrize(
    ("guard", "over", "fragment"),
    [
        ({"locations": {"chest": 99}}, {}, r"sides\[0\].combatants\[0\].locations.chest"),  # above its max
        ({"locations": {"chest": -99}}, {}, r"locations.chest"),  # below −max, the Major Wound floor
        ({"useless": ["left_arm"]}, {}, r"useless\[0\].*0 HP or below"),  # useless limb with full HP
        ({"locations": {"head": 0}, "useless": ["head"]}, {}, r"useless\[0\]"),  # only limbs become useless
        ({"locations": {"chest": -8}}, {}, r"status.*Major Wound"),  # active at a Major Wound (−max)
        ({"reactions": 7}, {}, r"reactions"),  # more Reactions than a round gives (2 CAs + shield = 3)
        ({}, {"options": {"reach_rule": "bogus"}}, r"options.reach_rule.*one of"),  # option VALUES checked
        ({}, {"options": {"dp_effects_by_margin": [0, 1, 1, 9]}}, r"options.dp_effects_by_margin"),
        ({}, {"options": {"knockback": "yes"}}, r"options.knockback"),
    ],
)
def test_impossible_situations_are_rejected(guard: dict[str, Any], over: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        _load(_sit(guard, **over))


def test_possible_wounds_load() -> None:
    st = _load(_sit({"locations": {"left_arm": -2, "chest": 1}, "useless": ["left_arm"]}))
    g = st.combatants[0]
    assert g.loc_hp[5] == -2 and g.useless == 1 << 5 and g.reactions == 3


def test_defaults_are_reported_as_notes() -> None:
    notes: list[str] = []
    sit = _sit()
    del sit["round"], sit["distance"]
    _load(sit, notes)
    assert "round not given: round 1" in notes
    assert any(n.startswith("distance not given") for n in notes)
    assert any(n.startswith("Guard: locations not given, unhurt") for n in notes)
    assert "Guard: reactions not given, all 3 left this round" in notes
    assert not any(n.startswith("Axeman: reactions") for n in notes)  # given in the file
    notes.clear()
    _load(_sit({"locations": {"chest": 3}, "reactions": 1}), notes)
    assert not any(n.startswith("Guard") for n in notes)


def test_notes_are_optional() -> None:
    assert _load(_sit()).round == 2
