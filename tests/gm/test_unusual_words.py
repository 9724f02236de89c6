"""The out-of-training warning in a GM's words: by creature, grouped, never a raw feature name, in French too;
and the shipped OSE generalist warned about ghouls that paralyse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.gm.advice.unusual import rests_on, unusual_lines
from npc_tactics.registry import get_system
from npc_tactics.rules.base import enemy_slots

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _fight(system: str, situation: str) -> tuple[Any, Any]:
    info = get_system(system)
    engine = info.load("engine")({})
    state = info.load("content").load_situation(engine, EXAMPLES / situation, RngRoller(np.random.default_rng(0)))
    return state, engine.pending(state)


def test_traits_are_said_by_creature_and_creatures_alike_are_named_together() -> None:
    state, decision = _fight("ose", "ose_ghouls.yaml")
    enemies = enemy_slots(state.combatants, decision.actor)
    assert len(enemies) >= 2, "the example needs two enemies"
    me = state.combatants[decision.actor].name
    first, second = (state.combatants[i].name for i in enemies[:2])
    outside = [("self.hp", 0.1, 0.5, 1.0), ("enemy_0.paralyses", 1.0, 0.0, 0.0),
               ("enemy_1.paralyses", 1.0, 0.0, 0.0), ("enemy_0.strikes", 3.0, 0.0, 2.0),
               ("enemy_1.strikes", 3.0, 0.0, 2.0), ("context.round", 40.0, 1.0, 20.0),
               ("enemy_9.present", 1.0, 0.0, 0.0), ("context.mystery_field", 2.0, 0.0, 1.0)]
    lines = unusual_lines(get_system("ose"), state, decision, outside, "en")
    assert lines[0] == f"{me}: few hit points left; the policy rarely met that"
    assert f"{first} and {second}: paralysing attacks, many attacks a round; the policy rarely met that" in lines
    assert "a long fight" in lines[-1] and "more enemies than the policy ever fought" in lines[-1]
    assert "mystery field" in lines[-1]  # a field with no phrase still reads as words
    assert not any("." in line.split(";")[0].replace(first, "").replace(second, "").replace(me, "") for line in lines)
    assert unusual_lines(get_system("ose"), state, decision, [], "en") == []


def test_the_warning_reads_in_french() -> None:
    state, decision = _fight("ose", "ose_ghouls.yaml")
    outside = [("self.hp", 0.1, 0.5, 1.0), ("enemy_0.paralyses", 1.0, 0.0, 0.0), ("context.round", 40.0, 1.0, 20.0)]
    fr = " ".join(unusual_lines(get_system("ose"), state, decision, outside, "fr"))
    assert "rarely" not in fr and "paralysing" not in fr and "long fight" not in fr, fr
    assert "paralys" in fr
    assert "rarely" not in rests_on("fr", rollouts=100, fallback=True, opponent="by-the-book")


@pytest.mark.parametrize("system,situation", [("runequest", "runequest_situation.yaml"),
                                              ("mrq", "mrq_situation.yaml"), ("dicepool", "dicepool_situation.yaml")])
def test_every_field_of_every_shipped_bundle_reads_as_words(system: str, situation: str) -> None:
    """Each observation field of the shipped generalist, out of range, is said without its raw name."""
    import json

    from npc_tactics.gm.advice.suggest import shipped_bundle

    schema = json.loads((shipped_bundle(system) / "schema.json").read_text(encoding="utf-8"))
    state, decision = _fight(system, situation)
    for field in schema["observation"]["fields"]:
        name = field["name"]
        outside = [(name, field["max"] + 1.0, field["min"], field["max"])]
        lines = unusual_lines(get_system(system), state, decision, outside, "en")
        assert lines, name
        assert name not in " ".join(lines) and "_" not in " ".join(lines).replace(state.combatants[0].name, ""), \
            (name, lines)


def test_the_card_rule_names_the_creature_and_says_when_it_is_not_the_top_move(tmp_path: Path) -> None:
    """A card is written over slots ("cast Disruption on enemy 1"); at the table its rule names the creature that
    slot holds, says when the move cannot be made, and says when the ranking puts another move first."""
    import json
    import shutil

    from npc_tactics.gm.advice.suggest import shipped_bundle
    from npc_tactics.gm.words.labels import card_rule

    bundle = tmp_path / "rq"
    shutil.copytree(shipped_bundle("runequest"), bundle)
    card = json.loads((bundle / "card.json").read_text(encoding="utf-8"))
    first = card["rules"][0]
    assert first["action_name"].endswith(":enemy_0") and first["conditions"], "the shipped card changed: pick a rule"
    first["conditions"] = [{"feature": first["conditions"][0]["feature"], "op": "gt", "value": -1.0}]  # always fires
    (bundle / "card.json").write_text(json.dumps(card), encoding="utf-8")
    state, decision = _fight("runequest", "runequest_situation.yaml")
    engine = get_system("runequest").load("engine")({})
    target = state.combatants[enemy_slots(state.combatants, decision.actor)[0]].name
    for lang, slot in (("en", "enemy 1"), ("fr", "ennemi 1")):
        rule = card_rule(str(bundle), get_system("runequest"), engine, state, decision, lang)
        assert rule is not None and target in rule["text"] and slot not in rule["text"], rule
        if not rule["legal"]:  # the card's next allowed choice is played and named
            assert rule["index"] is not None and ("not possible here" in rule["text"]) == (lang == "en")
        other = next(a for a in np.flatnonzero(engine.legal_mask(state, decision)) if int(a) != rule["index"])
        against = card_rule(str(bundle), get_system("runequest"), engine, state, decision, lang, top=int(other))
        assert against is not None and against["agrees"] is False and against["text"] != rule["text"]
        agrees = card_rule(str(bundle), get_system("runequest"), engine, state, decision, lang, top=int(rule["index"]))
        assert agrees is not None and agrees["agrees"] is True and agrees["text"] == rule["text"]
