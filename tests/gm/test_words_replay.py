"""`replay`: every event kind each engine emits has a sentence; fights of every shipped scenario are told
without a raw dump in English and French; the story is simulate's fight; the CLI works and fails in one line."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.gm.words.narrate import narrate_event, sentences_of, teller, why_known
from npc_tactics.gm.words.replay import replay
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event
from tests.conftest import system_names, system_scenarios

SYSTEMS = Path(__file__).resolve().parents[2] / "npc_tactics" / "systems"


def _emitted_kinds(system: str) -> set[str]:
    """Every event kind written as a literal in the engine's source (``sink.emit("kind", ...)``, ``Event(...)``)."""
    kinds = {"roll"}  # EventSink.roll / die
    for path in (SYSTEMS / system / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ("emit", "Event") and isinstance(node.args[0].value, str):
                    kinds.add(node.args[0].value)
    return kinds


@pytest.mark.parametrize("system", system_names())
def test_every_event_kind_the_engine_emits_has_a_sentence(system: str) -> None:
    emitted = _emitted_kinds(system)
    assert len(emitted) > 5
    missing = emitted - set(sentences_of(get_system(system)))
    assert not missing, f"{system} events without a sentence: {sorted(missing)}"


@pytest.mark.parametrize(("system", "scenario"), system_scenarios())
def test_shipped_fights_are_told_without_a_raw_dump(system: str, scenario: str) -> None:
    seen: set[str] = set()
    for agents in (("by-the-book", "by-the-book"), ("random", "random"), ("aggressive", "cautious")):
        for seed in range(3):
            for lang in ("en", "fr"):
                story = replay(get_system(system), scenario, agents, seed, lang)
                assert not story.raw_lines, [(line.event, line.text) for line in story.raw_lines[:5]]
                unknown = {w for w in story.roll_whys if not why_known(w)}
                assert not unknown, f"rolls whose purpose has no catalogue entry: {unknown}"
                assert story.lines[-1].kind == "end"
                seen.update(line.event for line in story.lines if line.event)
    assert "roll" in seen and len(seen) > 3


# Event kinds no shipped fight happened to produce in the test above, with the data their engine gives them.
RARE = [
    ("ose", Event("hold", 1, 0, 1, {"result": "unaffected"})),
    ("ose", Event("immune", 1, 0, 1, {"attack": "melee", "result": "no_damage"})),
    ("ose", Event("set_vs_charge", 1, 1, 0, {"result": "set"})),
    ("ose", Event("surprise", 0, None, None, {"result": "side_1", "rolls": [4, 2]})),
    ("ose", Event("surprise", 0, None, None, {"result": "none", "rolls": [4, 5]})),
    ("mrq", Event("knockback", 1, 0, 1, {"result": "fell", "metres": 2})),
    ("mrq", Event("knockback", 1, 0, 1, {"result": "braced", "metres": 0})),
    ("runequest", Event("knockback", 1, 0, 1, {"result": "success", "metres": 3.0, "damage": 25, "siz": 11,
                                               "fell": True})),
]


@pytest.mark.parametrize(("system", "event"), RARE, ids=[f"{s}-{e.kind}-{e.data['result']}" for s, e in RARE])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_rare_events_have_sentences(system: str, event: Event, lang: str) -> None:
    text, raw = narrate_event(get_system(system), event, teller(["Grak", "Brannoc"], lang))
    assert not raw and "{" not in text and "_" not in text, text


def test_sentences_in_both_languages() -> None:
    shot = Event("attack", 2, 0, 1, {"result": "hit", "roll": 14, "total": 15, "need": 12, "missile": True,
                                     "range": "short", "weapon": "short_bow"})
    assert narrate_event(get_system("ose"), shot, teller(["Snikkit", "Brannoc"], "en"))[0] == \
        "Snikkit shoots at Brannoc with the short bow at short range: hit (15 against 12)."
    assert narrate_event(get_system("ose"), shot, teller(["Snikkit", "Brannoc"], "fr"))[0] == \
        "Snikkit tire sur Brannoc avec l'arc court à portée courte : touché (15 contre 12)."
    wound = Event("wound", 1, 0, 1, {"result": "serious", "location": "left_arm"})
    assert narrate_event(get_system("mrq"), wound, teller(["Axeman", "Guard"], "fr"))[0] == \
        "Guard subit une blessure grave au bras gauche."
    odd = Event("new_kind", 1, 0, 1, {"x": 1})
    text, raw = narrate_event(get_system("ose"), odd, teller(["A", "B"], "en"))
    assert raw and "new_kind" in text and "x=1" in text


@pytest.mark.parametrize("system", system_names())
def test_the_story_is_simulates_fight(system: str) -> None:
    arena = Arena.build(system, None)
    factories = [agent_factory(arena.system, a) for a in ("by-the-book", "random")]
    record = arena.fight(factories, 7, keep_events=True)
    story = replay(get_system(system), None, ["by-the-book", "random"], 7, "en")
    assert record.events is not None
    told = [line.event for line in story.lines if line.event]
    assert sorted(told) == sorted(e.kind for e in record.events)  # every event told once
    assert [k for k in told if k != "round_start"] == [e.kind for e in record.events if e.kind != "round_start"]
    headers = [line.round for line in story.lines if line.text.startswith("—")]
    assert headers == sorted(set(headers)) and headers[0] == 1  # one header per round, in order, from the first
    assert sum(line.kind == "decision" for line in story.lines) == record.decisions + arena.sides


def test_replay_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from npc_tactics.cli.main import main

    def run(args: list[str]) -> tuple[int, str, str]:
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    code, out, _ = run(["replay", "ose", "goblin_duel", "--lang", "fr", "--seed", "3"])
    assert code == 0 and "choisit : " in out and "Fin du combat" in out and "rolls" not in out
    code, dice, _ = run(["replay", "ose", "goblin_duel", "--lang", "fr", "--seed", "3", "--verbose"])
    assert code == 0 and "lance d20 pour attaque" in dice and len(dice) > len(out)
    code, out, _ = run(["replay", "dicepool", "melee_duel", "--json"])
    assert code == 0 and json.loads(out)["lines"][-1]["kind"] == "end"
    code, out, err = run(["replay", "ose", "goblin_duel", "--lang", "de"])
    assert code == 2 and not out and err.count("\n") == 1 and "valid languages: en, fr" in err
    code, out, err = run(["replay", "ose", "goblin_duel", "--agents", "by-the-book"])
    assert code == 2 and err.count("\n") == 1 and "--agents" in err


@pytest.mark.integration
def test_replay_a_trained_npc(trained_run: Path) -> None:
    """The point of replay: watch a trained policy fight, in French, before trusting it."""
    story = replay(get_system("ose"), "goblin_duel", [str(trained_run), "by-the-book"], 5, "fr")
    assert not story.raw_lines and story.lines[-1].kind == "end"
    npc = story.lines[0].text
    assert npc.startswith("Goblins : Snikkit ; joué par ") and npc.endswith("(camp 0 dans --agents).")
    assert any(" choisit : " in line.text for line in story.lines)
