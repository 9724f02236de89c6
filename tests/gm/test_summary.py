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


def test_mrq_summary_names_hurt_locations_by_the_body_plan() -> None:
    """A wolf's hurt foreleg is a foreleg on the GM's card (points left of the location's maximum), in French too;
    an unhurt combatant gets no wounds line."""
    from npc_tactics.i18n import translator
    from npc_tactics.systems.mrq.rules.content import scenario_from_mapping
    from npc_tactics.systems.mrq.rules.tables import LOCATION_NAMES
    from npc_tactics.systems.mrq.summary import details

    info = get_system("mrq")
    engine = info.load("engine")()
    scen = scenario_from_mapping({"distance": "long", "sides": [
        {"combatants": [{"template": "wolf", "name": "Wolf"}]},
        {"combatants": [{"template": "sword_and_shield", "name": "Guard"}]}]})
    state, _ = engine.new_combat(scen, RngRoller(np.random.default_rng(0)))
    wolf = state.combatants[0]
    k = LOCATION_NAMES[wolf.prof.body].index("right_front_leg")
    wolf.loc_hp[k] = 1
    top = wolf.prof.loc_max[k]
    en = " · ".join(details(state, 0, translator("en")))
    fr = " · ".join(details(state, 0, translator("fr")))
    assert f"wounds: the right foreleg 1/{top}" in en
    assert f"la patte avant droite 1/{top}" in fr
    assert "wounds" not in " ".join(details(state, 1, translator("en")))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_french_summary_writes_metres_with_a_decimal_comma(system: str) -> None:
    """``à 1,5 m``, not ``à 1.5 m`` (the tracker's fight view shows the same details)."""
    import re

    engine, state = _situation(system)
    for c in state.combatants:  # a position with a decimal, wherever the system keeps it
        for attr in ("pos", "position"):
            if isinstance(getattr(c, attr, None), float):
                setattr(c, attr, getattr(c, attr) + 0.5)
    decision = engine.pending(state)
    fr, en = (summary(get_system(system), engine, state, decision, lang) for lang in ("fr", "en"))
    assert not re.search(r"\d\.\d+ m\b", fr), fr
    if re.search(r"\d\.5 m\b", en):  # the system writes a decimal position: French writes it with a comma
        assert re.search(r"\d,5 m\b", fr), fr
