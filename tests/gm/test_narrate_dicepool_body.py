"""The dice-pool narration names a hit location by the target's body plan (a hound's "left_arm" slot is its left
foreleg, "la patte avant gauche"), in English and French, in a single sentence, in a replayed fight and in the
tracker's log; a humanoid's blows read exactly as before."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.gm.words.narrate import bodies_of, narrate_event, teller
from npc_tactics.gm.words.vocab import LOCATIONS_IN
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.content import scenario_from_mapping
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.sheet_labels import labels

DICEPOOL = get_system("dicepool")
#: a limb named as a humanoid's, in English and in French
ARM_EN = re.compile(r"\b(arm|leg)\b")
ARM_FR = re.compile(r"\b(bras|jambe)\b")


def _state(*npcs: dict[str, Any]) -> Any:
    scen = scenario_from_mapping({"name": "plans", "sides": [
        {"combatants": list(npcs)}, {"combatants": [{"template": "militia", "name": "Guard", "position": 1}]}]},
        "test")
    state, _ = DicePoolEngine().new_combat(scen, RngRoller(np.random.default_rng(0)))
    return state


def _tell(state: Any, e: Event, lang: str) -> str:
    t = teller([str(c.name) for c in state.combatants], lang, bodies=bodies_of(state))
    text, raw = narrate_event(DICEPOOL, e, t)
    assert not raw
    return text


def _blow(target: int, location: str, result: str = "wound") -> Event:
    return Event("damage", 1, 1 - target, target, {"amount": 3, "absorbed": 1, "location": location,
                                                   "spread": False, "result": result})


def test_a_hounds_wound_is_in_its_foreleg_in_english_and_french() -> None:
    state = _state({"template": "hound", "name": "Wolf"})
    assert state.combatants[0].body_plan == "quadruped"
    assert bodies_of(state) == ("quadruped", "humanoid")
    assert _tell(state, _blow(0, "left_arm"), "en") == "Wolf takes 3 damage in the left foreleg (1 absorbed)."
    fr = _tell(state, _blow(0, "left_arm"), "fr")
    assert "à la patte avant gauche" in fr and "bras" not in fr, fr
    assert "in the forequarters, a serious wound" in _tell(state, _blow(0, "torso", "serious"), "en")
    assert "à l'arrière-train" in _tell(state, _blow(0, "pelvis", "absorbed"), "fr")
    assert "in the right hind leg" in _tell(state, _blow(0, "right_leg"), "en")


def test_a_shot_aimed_at_a_hound_names_its_foreleg() -> None:
    state = _state({"template": "hound", "name": "Wolf"})
    e = Event("attack", 1, 1, 0, {"mode": "ranged", "located": "right_arm", "band": "short", "successes": 2,
                                  "dice": 5, "needed": 1, "result": "hit"})
    assert "aimed at the right foreleg" in _tell(state, e, "en")
    assert "la patte avant droite" in _tell(state, e, "fr")
    weapon = Event("attack", 1, 1, 0, {**e.data, "located": "weapon"})
    assert "aimed at the weapon" in _tell(state, weapon, "en")


def test_a_two_part_location_joins_its_in_phrases() -> None:
    state = _state({"template": "militia", "name": "Lizard", "body_plan": "tailed"})
    assert _tell(state, _blow(0, "pelvis"), "en") == "Lizard takes 3 damage in the pelvis and in the tail (1 absorbed)."
    assert "au bassin et à la queue" in _tell(state, _blow(0, "pelvis"), "fr")
    assert "in the left arm" in _tell(state, _blow(0, "left_arm"), "en")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_humanoids_blows_read_as_before(lang: str) -> None:
    state = _state({"template": "hound", "name": "Wolf"})
    plain = teller([str(c.name) for c in state.combatants], lang)  # no bodies: as every telling was
    for slot in T.LOCATIONS:
        for result in ("wound", "serious", "absorbed"):
            e = _blow(1, slot, result)
            assert _tell(state, e, lang) == narrate_event(DICEPOOL, e, plain)[0]
    e = Event("damage", 1, 0, 1, {"amount": 1, "absorbed": 0, "spread": False, "result": "wound"})
    assert _tell(state, e, lang) == narrate_event(DICEPOOL, e, plain)[0]  # no location: "somewhere"
    assert _tell(state, _blow(1, "left_arm"), lang) == {
        "en": "Guard takes 3 damage in the left arm (1 absorbed).",
        "fr": "Guard subit 3 points de dégâts au bras gauche (1 absorbé)."}[lang]


@pytest.mark.parametrize("plan", sorted(labels().plan_locations))
def test_every_slot_of_every_plan_has_catalogue_in_words(plan: str) -> None:
    from npc_tactics.i18n import translator
    from npc_tactics.systems.dicepool.summary import location_in_words

    en, fr = translator("en"), translator("fr")
    for slot in T.LOCATIONS:
        english, french = location_in_words(plan, slot, en), location_in_words(plan, slot, fr)
        assert english.startswith("in the ") and english != french, (plan, slot, english, french)
    assert location_in_words(plan, "", en) == en(LOCATIONS_IN[""])


def test_other_systems_combatants_have_no_body() -> None:
    from types import SimpleNamespace

    state = SimpleNamespace(combatants=[SimpleNamespace(name="Goblin"), SimpleNamespace(name="Elf")])
    assert bodies_of(state) == ("", "")
    assert bodies_of(None) == ()
    t = teller(["Goblin"], "en", bodies=bodies_of(state))
    assert t.body(0) == "" and t.body(5) == "" and t.body(None) == ""


def _damage_lines(lines: list[str], who: str) -> list[str]:
    return [s for s in lines if re.match(rf"({who} takes|Armour absorbs the whole blow to {who}|{who} subit|"
                                         rf"L'armure absorbe tout le coup porté à {who})", s)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_replayed_fight_names_the_hounds_legs_and_the_guards_arms(lang: str, tmp_path: Any) -> None:
    from npc_tactics.gm.words.replay import replay

    path = tmp_path / "hounds.yaml"
    path.write_text("name: hounds\nsides:\n"
                    "  - combatants: [{template: hound, name: Wolf, position: 0}, {template: hound, name: Fang,"
                    " position: 0}]\n"
                    "  - combatants: [{template: militia, name: Guard, position: 1}, {template: militia, name: Watch,"
                    " position: 1}]\n")
    limb = ARM_EN if lang == "en" else ARM_FR
    beasts: list[str] = []
    people: list[str] = []
    for seed in range(6):
        story = replay(DICEPOOL, str(path), ["by-the-book", "by-the-book"], seed, lang)
        texts = [line.text for line in story.lines]
        beasts += _damage_lines(texts, "Wolf") + _damage_lines(texts, "Fang")
        people += _damage_lines(texts, "Guard") + _damage_lines(texts, "Watch")
    assert beasts and people
    assert not [s for s in beasts if limb.search(s)], beasts
    assert [s for s in people if limb.search(s)], people  # the humanoids' limbs still arms and legs
    foreleg = "foreleg" if lang == "en" else "patte"
    assert [s for s in beasts if foreleg in s or "quarters" in s or "train" in s], beasts


def test_the_trackers_log_names_the_hounds_legs() -> None:
    from npc_tactics.gm.table.fight_view import log_lines
    from npc_tactics.gm.table.tracker import Fight

    beasts: list[str] = []
    for seed in range(4):
        fight = Fight("dicepool", seed=seed)
        fight.add(0, "hound", name="Wolf")
        fight.add(1, "militia", name="Guard")
        fight.start()
        while fight.outcome() is None and len(fight.played) < 200:
            fight.play(fight.legal()[0])
        for lang in ("en", "fr"):
            beasts += _damage_lines([str(x["text"]) for x in log_lines(fight, lang)], "Wolf")
    assert beasts
    assert not [s for s in beasts if ARM_EN.search(s) or ARM_FR.search(s)], beasts


def test_the_play_loop_names_the_hounds_legs(tmp_path: Any) -> None:
    from pathlib import Path

    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.gm.table.play import Table

    class FirstMove:  # stands in for the bundle's NPC: equal odds on every legal move (the loop takes the first)
        side = 0
        warnings: list[str] = []

        def action_probabilities(self, vector: Any, mask: Any) -> Any:
            return np.asarray(mask, dtype=float) / float(np.sum(mask))

    path = tmp_path / "hound.yaml"
    path.write_text("name: hound\nsides:\n  - combatants: [{template: hound, name: Wolf, position: 0}]\n"
                    "  - combatants: [{template: militia, name: Guard, position: 1}]\n")
    beasts: list[str] = []
    for seed in range(4):
        lines: list[str] = []
        table = Table(Arena.build("dicepool", str(path)), FirstMove(), Path("no-bundle"), lang="en", dice="auto",
                      seed=seed, ask=lambda prompt: "1", say=lines.append)
        table.run()
        beasts += _damage_lines([s.strip() for s in lines], "Wolf")
    assert beasts
    assert not [s for s in beasts if ARM_EN.search(s)], beasts
