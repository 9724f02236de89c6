"""Suite files: every mistake is one ConfigError naming the file, the field and what was expected; every
shipped suite validates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from npc_tactics.errors import ConfigError
from npc_tactics.leaderboard import load_suite, parse_suite
from npc_tactics.leaderboard.runner import plan_section
from npc_tactics.leaderboard.suite import MAX_SUITE_FIGHTS
from npc_tactics.limits import MAX_FIGHTS

SHIPPED = Path(__file__).resolve().parents[2] / "npc_tactics" / "configs" / "suites"
GOOD: dict[str, Any] = {"system": "ose", "scenarios": ["goblin_duel"], "agents": ["by-the-book", "aggressive"],
                        "fights": 10}


def _error(data: dict[str, Any], tmp_path: Path) -> str:
    with pytest.raises(ConfigError) as info:
        parse_suite(data, str(tmp_path / "suite.yaml"), tmp_path)
    return str(info.value)


@pytest.mark.parametrize("name", ["ose", "runequest", "mrq", "dicepool", "cross_system"])
def test_shipped_suites_validate_and_plan(name: str) -> None:
    suite = load_suite(SHIPPED / f"{name}.yaml")
    assert load_suite(name).sections == suite.sections  # a shipped suite by name
    assert suite.question and suite.fights >= 1
    for i in range(len(suite.sections)):
        plan = plan_section(suite, i)
        assert len(plan.pairs) == len(plan.labels) * (len(plan.labels) - 1)  # both seats for every pair
    if name == "cross_system":
        assert [s.system for s in suite.sections] == ["ose", "runequest", "mrq", "dicepool"]


def test_a_good_suite(tmp_path: Path) -> None:
    suite = parse_suite(GOOD, "s.yaml", tmp_path)
    assert suite.fights == 10 and suite.sections[0].agents == ("by-the-book", "aggressive")
    assert suite.name == "s"


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"agents": ["by-the-book", "sneaky"]}, "agents[1]", "unknown agent 'sneaky'"),
        ({"agents": ["by-the-book", "runs/nowhere"]}, "agents[1]", "no folder"),
        ({"agents": ["by-the-book", "card:nowhere/bundle"]}, "agents[1]", "no folder"),
        ({"agents": ["by-the-book"]}, "agents", "expected a list of 2 to"),
        ({"agents": ["by-the-book", "by-the-book"]}, "agents", "repeated: by-the-book"),
        ({"scenarios": ["goblin_duel", "dragon_lair"]}, "scenarios[1]", "unknown scenario 'dragon_lair'"),
        ({"scenarios": ["nowhere.yaml"]}, "scenarios[0]", "not found"),
        ({"scenarios": []}, "scenarios", "expected a list of 1 to"),
        ({"system": "gurps"}, "system", "unknown system 'gurps'"),
        ({"fights": 0}, "fights", "out of range"),
        ({"fights": MAX_FIGHTS + 1}, "fights", "out of range"),
        ({"fights": "many"}, "fights", "expected an integer"),
        ({"seed": -1}, "seed", "out of range"),
        ({"colour": "red"}, "colour", "unknown key"),
        ({"seats": {"aggressive": 2}}, "seats.aggressive", "out of range"),
        ({"seats": {"cautious": 0}}, "seats.cautious", "not one of the agents"),
        ({"encounters": ["orcs"]}, "encounters[0]", "unknown ose encounter distribution 'orcs'"),
        ({"encounters": ["heldout:orcs"]}, "encounters[0]", "no held-out set 'orcs' for ose"),
        ({"encounters": []}, "encounters", "expected a list of 1 to"),
        ({"sections": [GOOD]}, "system", "either sections"),
    ],
)
def test_mistakes_name_the_field(change: dict[str, Any], field: str, fragment: str, tmp_path: Path) -> None:
    message = _error({**GOOD, **change}, tmp_path)
    assert f"suite.yaml: {field}:" in message and fragment in message, message


def test_the_whole_budget_is_bounded(tmp_path: Path) -> None:
    agents = ["random", "aggressive", "by-the-book", "cautious"]
    scenarios = ["goblin_duel", "goblin_band", "losing_band", "caster_duel"]
    fights = MAX_SUITE_FIGHTS // (len(agents) ** 2 * len(scenarios)) + 1
    message = _error({**GOOD, "agents": agents, "scenarios": scenarios, "fights": fights}, tmp_path)
    assert "fights:" in message and f"at most {MAX_SUITE_FIGHTS:,}" in message
    suite = parse_suite(GOOD, "s.yaml", tmp_path)
    with pytest.raises(ConfigError, match="out of range"):
        suite.with_fights(0)


def test_sections_errors_carry_their_path(tmp_path: Path) -> None:
    section = {k: v for k, v in GOOD.items() if k != "fights"}
    message = _error({"fights": 5, "sections": [section, {**section, "agents": ["by-the-book", "x"]}]}, tmp_path)
    assert "sections[1].agents[1]" in message
    message = _error({"fights": 5, "sections": [section, section]}, tmp_path)
    assert "section labels must differ" in message


def test_a_run_folder_that_is_not_a_run_is_refused_before_any_fight(tmp_path: Path) -> None:
    (tmp_path / "runs" / "empty").mkdir(parents=True)
    suite = parse_suite({**GOOD, "agents": ["by-the-book", "runs/empty"]}, str(tmp_path / "s.yaml"), tmp_path)
    assert suite.sections[0].agents[1] == str(tmp_path / "runs" / "empty")  # read from the suite's folder
    with pytest.raises(ConfigError, match=r"s\.yaml: agents\[1\]"):
        plan_section(suite, 0)


def test_yaml_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("system: ose\nagents: [a, b\n")
    with pytest.raises(ConfigError, match="bad.yaml"):
        load_suite(path)
    path.write_text(yaml.safe_dump({**GOOD, "fights": -3}))
    with pytest.raises(ConfigError, match="fights"):
        load_suite(path)


def test_a_search_agent_in_a_suite_keeps_its_budget_and_resolves_its_policy(tmp_path: Path) -> None:
    bundle = Path(__file__).resolve().parents[2] / "npc_tactics" / "policies" / "ose"
    suite = parse_suite({**GOOD, "agents": ["by-the-book", "search:aggressive@16", f"search:{bundle}"]}, "s.yaml",
                        tmp_path)
    assert suite.sections[0].agents == ("by-the-book", "search:aggressive@16", f"search:{bundle}")


@pytest.mark.parametrize(("agent", "fragment"), [
    ("search:sneaky@16", "unknown agent 'sneaky'"),
    ("search:aggressive@0", "search:aggressive@0: expected a whole number of play-outs, at least 1"),
    ("search:search:aggressive", "a search cannot search over another search"),
    ("search:runs/nowhere", "no folder"),
])
def test_a_bad_search_agent_in_a_suite_is_one_line_at_its_field(agent: str, fragment: str, tmp_path: Path) -> None:
    message = _error({**GOOD, "agents": ["by-the-book", agent]}, tmp_path)
    assert "agents[1]" in message and fragment in message and "\n" not in message, message
