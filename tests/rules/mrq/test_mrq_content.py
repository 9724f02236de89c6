"""MRQ content: shipped scenarios and bestiary, validation errors, GM situations, encoder, scripted agents."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.mrq.agents import AGENTS
from npc_tactics.systems.mrq.encoder import MRQEncoder
from npc_tactics.systems.mrq.rules.content import (
    list_scenarios,
    load_bestiary,
    load_scenario,
    load_situation,
    scenario_from_mapping,
)
from npc_tactics.systems.mrq.rules.engine import MRQEngine

ENGINE = MRQEngine()
REQUIRED = {"shield_vs_greataxe", "spear_vs_sword", "lancer_charge", "wolf_pack", "skirmish_2v2"}


def _scen(**over: object) -> dict:  # type: ignore[type-arg]
    base = {
        "name": "t",
        "sides": [
            {"name": "a", "combatants": [{"template": "wolf"}]},
            {"name": "b", "combatants": [{"template": "swordsman"}]},
        ],
    }
    base.update(over)
    return base


def test_shipped_content() -> None:
    names = {n for n, _ in list_scenarios()}
    assert REQUIRED <= names
    beasts = set(load_bestiary())
    assert {
        "sword_and_shield",
        "great_axe",
        "spearman",
        "duellist",
        "martial_artist",
        "wolf",
        "mounted_lancer",
        "whip_fighter",
    } <= beasts
    for name in names:
        scen = load_scenario(name)
        assert scen.combatants and scen.description


def test_unknown_template_names_file_and_field() -> None:
    data = _scen()
    data["sides"][0]["combatants"].append({"template": "gobln"})
    with pytest.raises(
        ConfigError,
        match=r"x\.yaml: sides\[0\]\.combatants\[1\]\.template: unknown template "
        r"'gobln'; valid: .*wolf",
    ):
        scenario_from_mapping(data, "x.yaml")


def test_bad_type_and_unknown_key(tmp_path: Path) -> None:
    bad = _scen(max_rounds="ten")
    with pytest.raises(ConfigError, match="max_rounds: expected an integer"):
        scenario_from_mapping(bad, "x.yaml")
    path = tmp_path / "s.yaml"
    data = _scen()
    data["sides"][1]["combatants"][0]["colour"] = "red"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError, match=r"s\.yaml: sides\[1\]\.combatants\[0\]\.colour: unknown key"):
        load_scenario(str(path))
    with pytest.raises(ConfigError, match=r"options\.deflection_points: expects bool"):
        scenario_from_mapping(_scen(options={"deflection_points": "yes"}), "x.yaml")
    with pytest.raises(ConfigError, match=r"options\.dodge: unknown rules option"):
        scenario_from_mapping(_scen(options={"dodge": True}), "x.yaml")
    with pytest.raises(ConfigError, match="sides: expected a list of exactly 2"):
        scenario_from_mapping(_scen(sides=[]), "x.yaml")
    with pytest.raises(UnknownNameError):
        load_scenario("no_such_scenario")


def test_scenario_options_apply_and_engine_options_win() -> None:
    scen = scenario_from_mapping(_scen(options={"deflection_points": False}))
    st, _ = ENGINE.new_combat(scen, RngRoller(np.random.default_rng(0)))
    assert st.options["deflection_points"] is False
    st, _ = MRQEngine({"deflection_points": True}).new_combat(scen, RngRoller(np.random.default_rng(0)))
    assert st.options["deflection_points"] is True


def test_situation_returns_the_acting_npc_decision() -> None:
    situation = {
        "round": 3,
        "acting": "Guard",
        "distance": "long",
        "distances": [{"a": "Guard", "b": "Axeman", "distance": "close"}],
        "sides": [
            {
                "name": "npc",
                "combatants": [
                    {
                        "template": "sword_and_shield",
                        "name": "Guard",
                        "locations": {"left_arm": 1, "chest": 2},
                        "reactions": 1,
                    }
                ],
            },
            {
                "name": "pc",
                "combatants": [{"template": "great_axe", "name": "Axeman", "prone": True}],
            },
        ],
    }
    st = load_situation(ENGINE, situation, RngRoller(np.random.default_rng(0)))
    d = ENGINE.pending(st)
    assert d.kind == DecisionKind.ACT and st.combatants[d.actor].name == "Guard" and st.round == 3
    assert st.combatants[0].loc_hp[5] == 1 and st.combatants[0].reactions == 1 and st.combatants[1].prone
    assert st.distance(0, 1) == 2 and ENGINE.legal_mask(st, d).any()
    st2, _ = ENGINE.step(st, int(np.flatnonzero(ENGINE.legal_mask(st, d))[0]), RngRoller(np.random.default_rng(1)))
    assert st2 is not st
    with pytest.raises(ConfigError, match="acting: unknown combatant 'Nobody'"):
        load_situation(ENGINE, {**situation, "acting": "Nobody"}, RngRoller(np.random.default_rng(0)))
    with pytest.raises(ConfigError, match=r"locations\.elbow: unknown key"):
        bad = {
            **situation,
            "sides": [
                {"combatants": [{"template": "wolf", "name": "Guard", "locations": {"elbow": 1}}]},
                situation["sides"][1],
            ],
        }
        load_situation(ENGINE, bad, RngRoller(np.random.default_rng(0)))


def test_encoder_layout_and_range() -> None:
    enc = MRQEncoder(ENGINE)
    assert len(enc.fields) == enc.size
    roller = RngRoller(np.random.default_rng(5))
    st, _ = ENGINE.new_combat(load_scenario("skirmish_2v2"), roller)
    rng = np.random.default_rng(6)
    seen = set()
    for _ in range(400):
        d = ENGINE.pending(st)
        if d is None:
            break
        v = enc.encode(st, d)
        assert v.dtype == np.float32 and v.shape == (enc.size,) and np.all(np.abs(v) <= 1.0)
        assert v[ENGINE.spec.decision_kinds.index(d.kind)] == 1.0  # the one-hot runs over this system's kinds
        seen.add(d.kind)
        legal = np.flatnonzero(ENGINE.legal_mask(st, d))
        st, _ = ENGINE.step(st, int(legal[rng.integers(len(legal))]), roller, inplace=True)
    assert {DecisionKind.ACT, DecisionKind.REACT, DecisionKind.EFFECT} <= seen


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_scripted_agents_play_legally(agent: str) -> None:
    enc = MRQEncoder(ENGINE)
    for k, (name, _) in enumerate(sorted(list_scenarios())):
        roller = RngRoller(np.random.default_rng(k))
        agents = [
            AGENTS[agent].factory(ENGINE, np.random.default_rng(1)),
            AGENTS["by-the-book"].factory(ENGINE, np.random.default_rng(2)),
        ]
        st, _ = ENGINE.new_combat(load_scenario(name), roller)
        while (d := ENGINE.pending(st)) is not None:
            mask = ENGINE.legal_mask(st, d)
            a = agents[d.side].act(Observation(enc.encode(st, d), st, d, ENGINE), mask)
            assert mask[a], f"{agent} chose illegal {ENGINE.catalogue.name(a)} at {d.describe()}"
            st, _ = ENGINE.step(st, a, roller, inplace=True)
        assert ENGINE.outcome(st) is not None
