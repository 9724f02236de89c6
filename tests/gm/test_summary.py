"""The GM's situation summary (gm/summary.py): every combatant named, and no English left in the French one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.gm.words.summary import summary
from npc_tactics.registry import get_system

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SYSTEMS = ("ose", "runequest", "mrq", "dicepool")
#: English words of the engines' own ``describe`` that a French GM must not read
ENGLISH = ("active", "side", "waiting", "at ", "HP", "hit points", "weapon", "decides", "fighting")


def _situation(system: str) -> tuple[Any, Any]:
    info = get_system(system)
    engine = info.load("engine")({})
    state = info.load("content").load_situation(engine, str(EXAMPLES / f"{system}_situation.yaml"),
                                                RngRoller(np.random.default_rng(0)), notes=[])
    return engine, state


@pytest.mark.parametrize("system", SYSTEMS)
def test_french_summary_names_everyone_in_french(system: str) -> None:
    engine, state = _situation(system)
    decision = engine.pending(state)
    text = summary(get_system(system), engine, state, decision, "fr")
    for c in state.combatants:
        assert str(c.name) in text
    left = [w for w in ENGLISH if w in text]
    assert not left, f"English words {left} in the French summary:\n{text}"
    assert f"{state.combatants[decision.actor].name} décide" in text
    assert len(text.splitlines()) == len(state.combatants) + 2  # the round, one line each, who decides


@pytest.mark.parametrize("system", SYSTEMS)
def test_english_summary_names_everyone(system: str) -> None:
    engine, state = _situation(system)
    decision = engine.pending(state)
    text = summary(get_system(system), engine, state, decision, "en")
    for c in state.combatants:
        assert str(c.name) in text
        assert f"{c.hp}/{c.max_hp} hit points" in text
    assert f"{state.combatants[decision.actor].name} decides:" in text


def test_the_summary_differs_by_language_and_ends_with_the_fight() -> None:
    engine, state = _situation("ose")
    assert summary(get_system("ose"), engine, state, None, "en").endswith("The fight is over.")
    assert summary(get_system("ose"), engine, state, None, "fr").endswith("L'affrontement est terminé.")
