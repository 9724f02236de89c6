"""suggest with decision-time search (``--think SECONDS`` / ``--playouts N``) over the shipped generalists: the
searched move goes first with its play-out value, a fixed play-out budget gives the same answer for the same seed,
a timed search spends its time, ``--think 0`` is the network alone, the French line has no English left, and bad
settings are one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from npc_tactics.errors import UserError
from npc_tactics.gm.advice.suggest import shipped_bundle, suggest
from tests.cli_helpers import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _without_time(data: dict[str, object]) -> dict[str, object]:
    search = dict(data["search"])  # type: ignore[call-overload]
    search.pop("seconds")
    return {**data, "search": search, "notes": None}  # the search's note says the seconds too


@pytest.mark.parametrize("system", ["ose", "runequest", "mrq", "dicepool"])
def test_a_fixed_budget_ranks_by_search_and_is_reproducible(system: str) -> None:
    bundle, situation = shipped_bundle(system), EXAMPLES / f"{system}_situation.yaml"
    first = suggest(bundle, situation, playouts=24, seed=3, turn=False)
    data = first.to_dict()
    assert data["ranked_by"] == "search"
    search = data["search"]
    assert search["budget"] == 24 and search["think"] is None and search["playouts"] >= 24 - 9
    top = data["moves"][0]
    assert top["search"] is not None and top["search"]["playouts"] >= 1
    searched = [m for m in data["moves"] if m["search"] is not None]
    assert searched[0] is top and len(searched) <= 9  # the policy's top 8 and its own move at most
    assert all(0.0 <= m["search"]["value"] <= 1.25 for m in searched)
    assert _without_time(suggest(bundle, situation, playouts=24, seed=3, turn=False).to_dict()) == \
        _without_time(data)
    alone = suggest(bundle, situation, think=0, turn=False).to_dict()
    assert alone["ranked_by"] == "policy" and alone["search"] is None
    assert all(m["search"] is None for m in alone["moves"])
    assert sorted(m["index"] for m in alone["moves"]) == sorted(m["index"] for m in data["moves"])


def test_the_search_keeps_the_policy_s_move_unless_another_clearly_ends_better() -> None:
    result = suggest(shipped_bundle("ose"), EXAMPLES / "ose_situation.yaml", playouts=64, seed=0, turn=False)
    assert result.search is not None
    top = result.moves[0]
    own = next(m for m in result.moves if m.action == result.search.policy_move)
    assert top.searched is not None and own.searched is not None
    if top.action != own.action:
        assert top.searched.value > own.searched.value
        assert "overrules" in result.format()


def test_a_timed_search_spends_its_time_and_says_so() -> None:
    result = suggest(shipped_bundle("ose"), EXAMPLES / "ose_situation.yaml", think=0.3, turn=False)
    assert result.search is not None and result.search.think == 0.3
    assert result.search.seconds >= 0.3 and result.search.playouts > 0
    text = result.format()
    assert "play-outs" in text and "searched" in text


def test_the_search_line_in_french() -> None:
    result = suggest(shipped_bundle("ose"), EXAMPLES / "ose_situation.yaml", playouts=16, lang="fr", turn=False)
    line = next(x for x in result.format().splitlines() if "recherche" in x)
    assert "parties jouées" in line and "play-outs" not in line and "searched" not in line
    assert "valeur" in result.format()


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"think": -1.0}, "think: expected seconds"),
    ({"think": 10_000.0}, "think: expected seconds"),
    ({"playouts": 0}, "playouts: expected a whole number"),
])
def test_bad_settings_are_one_line(kwargs: dict[str, float], words: str) -> None:
    with pytest.raises(UserError, match=words):
        suggest(shipped_bundle("ose"), EXAMPLES / "ose_situation.yaml", **kwargs)  # type: ignore[arg-type]


def test_the_command_line_searches_by_default_and_refuses_bad_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["suggest", "--system", "ose", "--situation", str(EXAMPLES / "ose_situation.yaml"),
                              "--playouts", "8"], capsys)
    assert code == 0, err
    assert "searched" in out and "play-outs" in out
    code, out, err = run_cli(["suggest", "--system", "ose", "--situation", str(EXAMPLES / "ose_situation.yaml"),
                              "--think", "-2"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "think" in err
