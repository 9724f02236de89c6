"""Tactics cards distilled from real (tiny) bundles of every system: measurements that can be re-derived, the
card agent in a tournament, the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents.card import CardAgent, load_card_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.cli.main import main
from npc_tactics.evaluation.arena import Arena
from npc_tactics.export.card import build_card
from npc_tactics.export.card_distil import MAX_RULES
from npc_tactics.export.card_play import label_with_network, play_seat
from npc_tactics.policy_io.bundle import read_bundle
from npc_tactics.policy_io.card import BY_THE_BOOK, Card
from npc_tactics.policy_io.onnx_agent import OnnxAgent
from tests.export.conftest import Exported

FIGHTS = 100


@pytest.fixture(scope="module")
def carded(exported: dict[str, Exported], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Card]]:
    root = tmp_path_factory.mktemp("cards")
    out = {}
    for system, ex in exported.items():
        bundle = root / f"{system}-bundle"
        shutil.copytree(ex.bundle, bundle)
        card = build_card(bundle, fights=FIGHTS, depths=(2, 3), seed=0, dagger_fights=20, iterations=2,
                          log=lambda _msg: None)
        card.save(bundle)
        out[system] = (bundle, card)
    return out


@pytest.mark.parametrize("system", ["ose", "runequest", "mrq", "dicepool"])
def test_card_measurements_are_what_replaying_the_same_seeds_gives(system: str,
                                                                   carded: dict[str, tuple[Path, Card]]) -> None:
    bundle, card = carded[system]
    assert 1 <= len(card.rules) <= MAX_RULES and card.meta["depth"] in (2, 3)
    schema = read_bundle(bundle).schema
    arena = Arena.build(system, schema.scenario, schema.options)
    opponents = [agent_factory(system, o) for o in schema.training.opponents]
    net = OnnxAgent.from_bundle(read_bundle(bundle))
    seeds = list(range(FIGHTS))
    net_results, seen = play_seat(arena, schema.side, lambda e, r: net, opponents, seeds,
                                  book=agent_factory(system, "by-the-book"))
    card_results, _ = play_seat(arena, schema.side, lambda e, r: CardAgent(card), opponents, seeds, record=False)
    ev = card.meta["evaluation"]
    assert ev["network"]["win"]["count"] == sum(r == "win" for r in net_results)
    assert ev["card"]["win"]["count"] == sum(r == "win" for r in card_results)
    assert ev["card"]["win"]["low"] <= ev["card"]["win"]["rate"] <= ev["card"]["win"]["high"]
    vectors, masks = seen.arrays()
    _probs, labels, weights = label_with_network(net, vectors, masks)
    # a "by the book" rule's move is by-the-book's, recorded at each state
    moves = np.array([card.choose(v, m, k)[0] for v, m, k in zip(vectors, masks, seen.kinds, strict=True)])
    moves = np.where(moves == BY_THE_BOOK, seen.book_moves(), moves)
    assert (moves >= 0).all()
    choice = masks.sum(axis=1) >= 2
    assert card.meta["fidelity"]["decisions"] == int(choice.sum())
    assert card.meta["fidelity"]["plain"] == pytest.approx(float((moves == labels)[choice].mean()))
    w = weights[choice]
    assert card.meta["fidelity"]["weighted"] == pytest.approx(float(((moves == labels)[choice] * w).sum() / w.sum()))
    fires = sum(r.fires for r in card.rules)
    assert fires <= 1.0 + 1e-9  # shares of decisions; forced kinds without rules make up the rest
    # both kinds of card are tried at each depth: rules only, then exceptions to by-the-book
    assert [(s["by_the_book"], s["depth"]) for s in card.meta["sweep"]] == [(False, 2), (False, 3), (True, 2),
                                                                           (True, 3)]
    assert card.meta["by_the_book"] in (False, True)


def test_card_agent_plays_in_a_tournament_and_the_bundle_card_loads(carded: dict[str, tuple[Path, Card]],
                                                                    tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    bundle, card = carded["ose"]
    agent = load_card_agent(bundle)
    assert agent.card.to_dict() == card.to_dict() and agent.side == card.side
    with pytest.raises(SystemExit) as done:
        main(["evaluate", "--agents", f"card:{bundle},by-the-book", "--fights", "20", "--out", str(tmp_path / "r"),
              "--no-progress"])
    assert done.value.code == 0
    assert f"card:{bundle.name} (side 0) vs by-the-book" in capsys.readouterr().out


def test_card_cli_rewrites_the_markdown_in_french_without_distilling_again(
        carded: dict[str, tuple[Path, Card]], capsys: pytest.CaptureFixture[str]) -> None:
    bundle, card = carded["mrq"]
    before = (bundle / "card.json").read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["card", str(bundle), "--lang", "fr"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "## À chaque round, la première règle qui s'applique" in out
    assert (bundle / "card.json").read_text(encoding="utf-8") == before
    assert (bundle / "card.md").read_text(encoding="utf-8").startswith("# Fiche tactique : ")


@pytest.mark.parametrize(("args", "message"), [
    (["card", "/nonexistent/bundle"], "bundle folder not found"),
    (["card", "{bundle}", "--lang", "de"], "valid languages: en, fr"),
    (["card", "{bundle}", "--depths", "two"], "--depths"),
    (["card", "{bundle}", "--depths", "9", "--rebuild"], "--depths"),
    (["evaluate", "--agents", "card:/nonexistent,by-the-book"], "bundle folder not found"),
])
def test_card_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                                   carded: dict[str, tuple[Path, Card]],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bundle, _card = carded["ose"]
    with pytest.raises(SystemExit) as done:
        main([a.replace("{bundle}", str(bundle)) for a in args])
    assert done.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_a_generalist_card_is_distilled_and_measured_on_its_distribution(tmp_path: Path) -> None:
    from npc_tactics.encounters.generator import Generator, training_seed
    from npc_tactics.encounters.spec import load_encounter
    from npc_tactics.gm.advice.suggest import shipped_bundle
    from npc_tactics.policy_io.card_render import render_markdown

    bundle = tmp_path / "ose"
    shutil.copytree(shipped_bundle("ose"), bundle)
    schema = read_bundle(bundle).schema
    assert schema.training.encounter == "bestiary"
    card = build_card(bundle, fights=30, depths=(2,), seed=0, dagger_fights=10, iterations=1, log=lambda _m: None)
    assert card.meta["encounter"] == "bestiary" and card.meta["npcs"] == [] and card.meta["foes"] == []
    # the network's measured wins are those of the distribution's draws, not of the bundle's default scenario
    gen = Generator(load_encounter("bestiary", "ose"))
    arena = Arena.build("ose", schema.scenario, schema.options)
    opponents = [agent_factory("ose", o) for o in schema.training.opponents]
    net = OnnxAgent.from_bundle(read_bundle(bundle))
    seeds = list(range(30))
    drawn, _ = play_seat(arena, schema.side, lambda e, r: net, opponents, seeds, record=False,
                         fight_of=lambda k: gen.draw(training_seed(k)))
    plain, _ = play_seat(arena, schema.side, lambda e, r: net, opponents, seeds, record=False)
    assert card.meta["evaluation"]["network"]["win"]["count"] == sum(r == "win" for r in drawn)
    assert drawn != plain
    md = render_markdown(card)
    assert "fights drawn from the bestiary encounter distribution" in md and "Facing:" not in md
    assert "distribution de rencontres bestiary" in render_markdown(card, "fr")
