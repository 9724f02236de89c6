"""The dice-pool summary names a serious wound by the creature's body plan (a hound's foreleg, not its "arm"), in
English and French, from a bestiary template or a sheet written inline; the plan changes no roll."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents import make_agent
from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller
from npc_tactics.i18n import translator
from npc_tactics.registry import get_system
from npc_tactics.rules.base import events_to_jsonl
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.content import scenario_from_mapping
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.sheet_labels import labels
from npc_tactics.systems.dicepool.summary import details, location_words

#: the French sheet of docs/dicepool.md (a GM's own wolf, written inline in a scenario)
ASH_WOLF = """Loup des cendres
INITIATIVE 7, COORDINATION 4, FORCE 2, DÉFENSE 3, VITESSE 16
Compétences : bagarre 6
Armes : morsure (bagarre 1D6, naturelle)
Armure : pelage (avant-train, arrière-train, 1 points)
Morphologie : quadrupède
Localisations : Tête 4, Avant-train 9, Arrière-train 7, Patte avant gauche 4, Patte avant droite 4,
  Patte arrière gauche 4, Patte arrière droite 4
"""


def _fight(*npcs: dict[str, Any]) -> Any:
    scen = scenario_from_mapping({"name": "plans", "sides": [
        {"combatants": list(npcs)}, {"combatants": [{"template": "militia", "name": "Guard", "position": 6}]}]},
        "test")
    state, _ = DicePoolEngine().new_combat(scen, RngRoller(np.random.default_rng(0)))
    return state


def _line(state: Any, i: int, lang: str) -> str:
    return ", ".join(details(state, i, translator(lang)))


def _wound(state: Any, i: int, *slots: str) -> None:
    for slot in slots:
        state.combatants[i].serious[T.LOCATION_INDEX[slot]] = True


def test_a_hounds_serious_wound_is_a_foreleg_in_english_and_french() -> None:
    state = _fight({"template": "hound", "name": "Wolf"})
    _wound(state, 0, "left_arm")
    en, fr = _line(state, 0, "en"), _line(state, 0, "fr")
    assert "serious wounds: the left foreleg" in en and "arm" not in en
    assert "blessures graves : la patte avant gauche" in fr and "bras" not in fr
    assert state.combatants[0].body_plan == "quadruped"


def test_a_wolf_written_inline_carries_its_plan_to_the_summary() -> None:
    state = _fight({"name": "Loup", "stat_block": ASH_WOLF})
    _wound(state, 0, "torso", "right_arm")
    assert "serious wounds: the forequarters, the right foreleg" in _line(state, 0, "en")
    assert "blessures graves : l'avant-train, la patte avant droite" in _line(state, 0, "fr")
    assert state.combatants[0].body_plan == "quadruped"


def test_a_combatant_may_give_its_template_another_plan() -> None:
    state = _fight({"template": "militia", "body_plan": "winged"})
    _wound(state, 0, "right_arm")
    assert "serious wounds: the right wing" in _line(state, 0, "en")
    assert "blessures graves : l'aile droite" in _line(state, 0, "fr")


def test_a_humanoids_serious_wounds_read_as_before() -> None:
    state = _fight({"template": "militia"})
    assert state.combatants[0].body_plan == "humanoid"
    _wound(state, 0, "torso", "left_arm")
    assert "serious wounds: the torso, the left arm" in _line(state, 0, "en")
    assert "blessures graves : le torse, le bras gauche" in _line(state, 0, "fr")
    assert "serious" not in _line(state, 1, "en")


@pytest.mark.parametrize("plan", sorted(labels().plan_locations))
def test_every_slot_of_every_plan_has_catalogue_words(plan: str) -> None:
    """Each slot reads as a phrase of the catalogue, translated (no raw label, no English in French)."""
    en, fr = translator("en"), translator("fr")
    for slot in T.LOCATIONS:
        english, french = location_words(plan, slot, en), location_words(plan, slot, fr)
        assert english.startswith("the ") and english != french, (plan, slot, english, french)
    assert location_words("tailed", "pelvis", en) == "the pelvis and the tail"
    assert location_words("tailed", "pelvis", fr) == "le bassin et la queue"


def _log(plan: str | None, seed: int) -> str:
    """A whole random-vs-by-the-book fight (events, observations and masks) with the hound given ``plan``."""
    hound: dict[str, Any] = {"template": "hound"} if plan is None else {"template": "hound", "body_plan": plan}
    scen = scenario_from_mapping({"name": "plans", "sides": [
        {"combatants": [hound, {"template": "great_beast"}]},
        {"combatants": [{"template": "militia", "position": 6}, {"template": "veteran", "position": 8}]}]}, "test")
    info = get_system("dicepool")
    engine = info.load("engine")()
    encoder = info.load("encoder")(engine)
    roller = RngRoller(np.random.default_rng(seed))
    streams = np.random.SeedSequence(seed).spawn(2)
    agents = [make_agent(info, "random", engine, np.random.default_rng(streams[0])),
              make_agent(info, "by-the-book", engine, np.random.default_rng(streams[1]))]
    state, _ = engine.new_combat(scen, roller)
    digest = hashlib.sha256()
    while engine.outcome(state) is None:
        decision = engine.pending(state)
        mask = engine.legal_mask(state, decision)
        vector = encoder.encode(state, decision)
        digest.update(np.asarray(vector).tobytes() + np.asarray(mask).tobytes())
        state, events = engine.step(state, agents[decision.side].act(Observation(vector, state, decision, engine),
                                                                     mask), roller)
        digest.update(events_to_jsonl(events).encode())
    assert state.combatants[0].body_plan == (plan or "quadruped")  # kept through every clone
    return digest.hexdigest()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_body_plan_changes_no_roll_and_no_observation(seed: int) -> None:
    logs = {_log(plan, seed) for plan in (None, "humanoid", "quadruped", "winged", "tailed")}
    assert len(logs) == 1
