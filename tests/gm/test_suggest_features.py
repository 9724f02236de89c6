"""suggest with a real (tiny) bundle: odds per move, the same answer for any worker count, the out-of-
distribution fallback to rollout odds, --top, trust, the whole-turn plan, a bundle as the opponent, and the
command line's one-line errors."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest
import yaml

from npc_tactics.errors import UserError
from npc_tactics.gm.advice.odds import best_move, cannot_tell, not_worse
from npc_tactics.gm.advice.suggest import suggest
from tests.cli_helpers import run_cli as _cli

suggest_module = importlib.import_module("npc_tactics.gm.advice.suggest")  # the module, not the function

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SITUATION = EXAMPLES / "ose_situation.yaml"


def test_odds_for_every_move(ose_bundle: Path) -> None:
    result = suggest(ose_bundle, SITUATION, odds=16, workers=1)
    data = result.to_dict()
    assert data["ranked_by"] == "policy" and data["odds"] == {"rollouts": 16, "opponent": "by-the-book", "seed": 0}
    assert len(data["moves"]) == data["legal_moves"] >= 2
    probs = [m["probability"] for m in data["moves"]]
    assert probs == sorted(probs, reverse=True)
    rolled = {m.action: m.odds for m in result.moves if m.odds is not None}
    assert len(rolled) == len(result.moves)
    best = rolled[best_move(rolled)]
    for m in result.moves:
        o = m.odds
        assert o is not None and o.n == 16 and len(o.values) == 16
        assert o.win.low <= o.win.rate <= o.win.high
        assert o.win.count + o.draw.count + o.fled.count + o.loss.count == 16  # type: ignore[union-attr]
        assert o.score <= best.score + 1e-12
        if not cannot_tell(list(rolled.values())):  # a star: the best, or not told worse by the paired test
            assert o.within_best == (o is best or not_worse(best.values, o.values))
    text = result.format()
    assert "win [range at 95%]" in text and "lost" in text
    assert (" *" in text) != (data["odds_verdict"] is not None)


def test_the_answer_does_not_depend_on_the_worker_count(ose_bundle: Path) -> None:
    one = suggest(ose_bundle, SITUATION, odds=12, workers=1, seed=4).to_dict()
    two = suggest(ose_bundle, SITUATION, odds=12, workers=2, seed=4).to_dict()
    assert one == two
    other = suggest(ose_bundle, SITUATION, odds=12, workers=1, seed=5).to_dict()
    assert [m["odds"] for m in other["moves"]] != [m["odds"] for m in one["moves"]]


def _narrowed(bundle: Path, tmp_path: Path) -> Path:
    """A copy of the bundle whose schema says the policy never saw the acting NPC's HP below full."""
    out = tmp_path / "narrow"
    shutil.copytree(bundle, out)
    schema = json.loads((out / "schema.json").read_text())
    for f in schema["observation"]["fields"]:
        if f["name"].startswith("self.") and "hp" in f["name"]:
            f["min"] = f["max"] = 1.0
    (out / "schema.json").write_text(json.dumps(schema))
    return out


def test_out_of_distribution_falls_back_to_rollout_odds(ose_bundle: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suggest_module, "DEFAULT_FALLBACK_ODDS", 20)
    result = suggest(_narrowed(ose_bundle, tmp_path), SITUATION, workers=1)
    data = result.to_dict()
    assert data["ranked_by"] == "rollouts" and data["odds"]["rollouts"] == 20
    assert data["out_of_distribution"] and all(f["feature"].startswith("self.") for f in data["out_of_distribution"])
    scores = [m["odds"]["score"] for m in data["moves"]]
    assert scores == sorted(scores, reverse=True)  # by the expected outcome, not the win rate alone
    acting = data["actor"]
    assert any(n.startswith(acting) and "hit points" in n and "rarely met" in n for n in data["notes"]), data["notes"]
    assert any("ranked by 20 plays" in n and "by the book" in n for n in data["notes"])
    assert not any("self." in n for n in data["notes"])  # the GM reads words, not feature names
    # asked for odds explicitly, the policy still ranks, with the warning
    asked = suggest(_narrowed(ose_bundle, tmp_path / "b"), SITUATION, odds=5, workers=1).to_dict()
    assert asked["ranked_by"] == "policy" and asked["out_of_distribution"]


def test_in_distribution_runs_no_rollouts(ose_bundle: Path) -> None:
    data = suggest(ose_bundle, SITUATION).to_dict()
    if data["out_of_distribution"]:
        pytest.skip("this tiny bundle's ranges do not cover the example")
    assert data["odds"] is None and all(m["odds"] is None for m in data["moves"])


def test_top_limits_the_moves_and_the_rollouts(ose_bundle: Path) -> None:
    full = suggest(ose_bundle, SITUATION).to_dict()
    top = suggest(ose_bundle, SITUATION, top=1, odds=6, workers=1).to_dict()
    assert [m["action"] for m in top["moves"]] == [full["moves"][0]["action"]]
    assert any("1 of" in n and "--top" in n for n in top["notes"])


def test_trust(ose_bundle: Path) -> None:
    schema = json.loads((ose_bundle / "schema.json").read_text())
    trust = suggest(ose_bundle, SITUATION).to_dict()["trust"]
    assert trust["timesteps"] == schema["training"]["timesteps"]
    assert trust["rules_match"] is True and trust["trained_rules_version"] == schema["rules_version"]
    assert {e["opponent"] for e in trust["evaluation"]} <= set(schema["training"]["opponents"])
    assert trust["evaluation"] and all("win_rate" in e for e in trust["evaluation"])


def test_trust_and_odds_of_a_run_folder(trained_run: Path, ose_bundle: Path) -> None:
    """A run folder plays its own rollouts (SB3 policy, loaded in each worker); its bundle agrees with it."""
    data = suggest(trained_run, SITUATION, odds=6, workers=1).to_dict()
    trust = data["trust"]
    assert trust["source"].startswith("run ") and trust["timesteps"] and trust["evaluation"]
    assert all(m["odds"]["rollouts"] == 6 for m in data["moves"])
    from_bundle = suggest(ose_bundle, SITUATION, odds=6, workers=1).to_dict()
    assert [m["action"] for m in data["moves"]] == [m["action"] for m in from_bundle["moves"]]


def test_the_whole_turn_from_the_declaration(ose_bundle: Path, tmp_path: Path) -> None:
    """OSE out of melee: the declaration has one legal move; the plan tells the rest of the round."""
    data = yaml.safe_load(SITUATION.read_text())
    data["phase"] = "declare"
    plan = suggest(ose_bundle, data).turn
    assert plan is not None and plan.steps[0].name == "declare_none" and len(plan.steps) >= 2
    assert all(s.decision.startswith("act:") for s in plan.steps[1:])
    assert 1 <= plan.seen <= plan.samples
    # the plan reads in the GM's words (gm.naming), not catalogue names
    assert plan.text(lambda s: s).startswith(f"this round: {plan.steps[0].label}, then ")
    assert "declare_none" not in plan.text(lambda s: s)


def test_a_bundle_can_play_the_other_side(ose_bundle: Path) -> None:
    data = suggest(ose_bundle, SITUATION, odds=4, workers=1, opponent=str(ose_bundle)).to_dict()
    assert data["odds"]["opponent"] == str(ose_bundle)


@pytest.mark.parametrize(("kwargs", "words"), [({"odds": -1}, "odds"), ({"odds": 10**6}, "odds"),
                                                ({"top": 0}, "top"), ({"workers": 0}, "workers"),
                                                ({"lang": "de"}, "language"), ({"opponent": "nobody"}, "nobody")])
def test_bad_options_are_refused(ose_bundle: Path, kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(UserError, match=words):
        suggest(ose_bundle, SITUATION, **kwargs)  # type: ignore[arg-type]


def test_cli_json_and_errors(ose_bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["suggest", "--bundle", str(ose_bundle), "--situation", str(SITUATION)]
    code, out, _ = _cli([*base, "--odds", "5", "--workers", "1", "--top", "2", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and len(data["moves"]) == 2 and data["moves"][0]["odds"]["rollouts"] == 5
    for extra, words in ((["--odds", "-3"], "odds"), (["--lang", "xx"], "language"),
                         (["--opponent", "nobody"], "unknown agent")):
        code, out, err = _cli([*base, *extra], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err, err



def test_a_play_by_the_book_card_rule_names_by_the_book_s_move_here(tmp_path: Path) -> None:
    from npc_tactics.gm.advice.suggest import shipped_bundle, suggest
    from npc_tactics.policy_io.card import BY_THE_BOOK

    bundle = tmp_path / "mrq"
    shutil.copytree(shipped_bundle("mrq"), bundle)
    raw = json.loads((bundle / "card.json").read_text())
    for r in raw["rules"]:  # every rule "play by the book"
        r.update(action=BY_THE_BOOK, action_name="by-the-book", alternatives=[])
    (bundle / "card.json").write_text(json.dumps(raw))
    for lang, here in (("en", "(here: "), ("fr", "(ici : ")):
        s = suggest(bundle, "examples/mrq_situation.yaml", lang=lang, turn=False)
        rule = s.card_rule
        assert rule is not None and here in rule["text"], rule
        assert rule["action"] in raw["actions"]  # a catalogue move: the ranking row it is can be found
