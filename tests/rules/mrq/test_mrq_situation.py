"""Issue 8 §3 for MRQ: a situation means what the GM wrote. Impossible descriptions are one-line errors naming
the file and field; every default taken is reported through ``notes``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.content import load_situation
from npc_tactics.systems.mrq.rules.engine import MRQEngine

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


def _lancer(mount: dict[str, Any] | None = None, **lancer: Any) -> dict[str, Any]:
    """The spearman against a mounted lancer; ``mount`` describes the lancer's warhorse (§13)."""
    knight: dict[str, Any] = {"template": "mounted_lancer", "name": "Lancer", **lancer}
    if mount is not None:
        knight["mount"] = mount
    return {"round": 2, "acting": "Spearman", "distance": "close", "sides": [
        {"name": "footman", "combatants": [{"template": "spearman", "name": "Spearman"}]},
        {"name": "knight", "combatants": [knight]}]}


def test_a_hurt_mount_is_described_under_its_rider() -> None:
    notes: list[str] = []
    st = _load(_lancer({"locations": {"forequarters": 2, "left_front_leg": -1}, "useless": ["left_front_leg"],
                        "reactions": 0}), notes)
    lancer, horse = st.combatants[1], st.combatants[2]
    assert lancer.mount == 2 and horse.rider == 1 and horse.status.name == "ACTIVE"
    assert horse.loc_hp[3] == 2 and horse.loc_hp[5] == -1 and horse.useless == 1 << 5 and horse.reactions == 0
    assert horse.hp == sum(h for h in horse.loc_hp if h > 0) and lancer.prof.mounted
    assert not any(n.startswith(horse.name) for n in notes)
    notes.clear()
    _load(_lancer(), notes)  # left out: unhurt, and said so
    assert f"{horse.name}: mount not given, unhurt and under its rider" in notes


def test_a_fallen_mount_has_thrown_its_rider_and_a_riderless_one_has_bolted() -> None:
    st = _load(_lancer({"locations": {"forequarters": -3}, "status": "dead"}))
    lancer = st.combatants[1]
    assert lancer.mount == -1 and not lancer.prof.mounted and not lancer.prone  # on foot, standing (not said)
    assert _load(_lancer({"status": "unconscious"}, prone=True)).combatants[1].prone
    notes: list[str] = []
    st = _load(_lancer(status="dead", locations={"chest": -3}), notes)
    assert st.combatants[2].status.name == "FLED" and any("bolted" in n for n in notes)


@pytest.mark.parametrize(("situation", "fragment"), [
    (_lancer({"locations": {"left_arm": 1}}), r"sides\[1\].combatants\[0\].mount.locations"),  # a horse's
    (_lancer({"locations": {"forequarters": 99}}), r"mount.locations.forequarters"),
    (_lancer({"locations": {"forequarters": -99}}), r"mount.locations.forequarters"),
    (_lancer({"rider": "me"}), r"mount"),
    (_lancer({"status": "asleep"}), r"mount.status"),
    (_lancer({"reactions": 9}), r"mount.reactions"),
    (_sit({"mount": {"status": "dead"}}), r"sides\[0\].combatants\[0\].mount.*rides no mount"),
])
def test_impossible_mounts_are_rejected(situation: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as err:
        _load(situation)
    assert "\n" not in str(err.value)


def test_the_mounted_example_lets_the_npc_strike_the_hurt_horse() -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parents[3] / "examples" / "mrq_mounted.yaml"
    st = _load(str(example))
    horse = st.combatants[2]
    assert (horse.name, horse.hp, horse.reactions, st.combatants[1].reactions) == ("Lancer's warhorse", 45, 0, 1)
    specs = ENGINE.catalogue.specs
    legal = {specs[a].name for a in np.flatnonzero(ENGINE.legal_mask(st, ENGINE.pending(st)))}
    assert "attack:enemy_0" in legal and "attack:enemy_1" in legal  # the rider and its horse
