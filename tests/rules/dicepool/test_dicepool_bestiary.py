"""The shipped dice-pool bestiary (issue 27): every creature and character type the source text names, the
numbers it gives, tags, natural weapons, body plans and the huge-weapon table, with forced dice; and the
guarantee that the new templates leave the shipped encounter distributions and their threat figures alone."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.encounters.compose import threats
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.bestiary import load_bestiary, load_equipment
from npc_tactics.systems.dicepool.rules.combat import attack_pool
from npc_tactics.systems.dicepool.rules.content import load_situation, scenario_from_mapping
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine

ENGINE = DicePoolEngine()
BESTIARY = load_bestiary()
#: The nine templates of 0.2.0 and the threat figures the encounter builder gave them (their budgets).
ORIGINAL_THREATS = {"bandit": 0.727, "djinn": 0.772, "duelist": 1.0, "fast_fighter": 0.893, "guard_crossbow": 0.818,
                    "haru": 1.0, "heavy_soldier": 1.006, "markus": 1.28, "slow_brute": 2.194}
#: Each type the source text names -> the template that plays it (dice-pool.fr.txt lines).
NAMED = {
    "Haru'Rak'Zall (L6-68)": "haru", "Markus, jokleshk slave (L27, L37)": "markus", "a djinn (L24)": "djinn",
    "a jokleshk (L27)": "jokleshk", "the opponent in mail and helmet (L62-68)": "mailed_opponent",
    "an ordinary fighter (L11)": "ordinary_fighter", "a well-trained fighter (L11)": "trained_fighter",
    "a fighter helped by magic (L11)": "magic_aided_fighter", "a hero (L11-13)": "hero",
    "a cautious fighter (L24)": "cautious_fighter", "a berserker (L24)": "berserker",
    "a brawler (bagarre, L22)": "brawler", "a wrestler (lutte, L22)": "wrestler",
    "a martial artist (art martial, L22)": "martial_artist", "a crossbowman (L19)": "guard_crossbow",
    "an archer with a short bow (L53)": "archer", "a light crache-foudre gunner (L44)": "light_gunner",
    "a heavy crache-foudre gunner (L46)": "heavy_gunner", "a rider (L19)": "rider",
    "the animal one mounts (L19)": "riding_beast", "a winged creature (L88)": "winged_beast",
    "a tailed creature (L89)": "tailed_beast", "a player's character (L5, L37)": "adventurer_blade",
}


def test_the_bestiary_counts_and_names_every_type_of_the_source() -> None:
    assert len(BESTIARY) >= 30
    assert set(NAMED.values()) <= set(BESTIARY)


@pytest.mark.parametrize("name", sorted(BESTIARY))
def test_every_template_has_tags_source_and_description(name: str) -> None:
    t = BESTIARY[name]
    assert set(t["tags"]) == {"kind", "faction", "player_character"}
    assert t["source"] and t["description"]


def test_the_numbers_the_source_gives() -> None:
    b, (weapons, armour) = BESTIARY, load_equipment()
    assert b["djinn"]["defense"] == 6  # DÉFENSE de face 6, L24
    assert b["markus"]["strength"] == 3 and weapons["mace"].damage == "1d6"  # L27, L37
    assert b["haru"]["skills"]["brawl"] == 5 and b["haru"]["skills"]["mecartefact_leger"] == 7  # L24, L44
    mailed = b["mailed_opponent"]
    assert (mailed["defense"], mailed["locations"]["head"], mailed["armour"]) == (3, 4, ["chain_mail", "iron_helmet"])
    assert weapons["short_bow"].ranges[2] == 50 and "short_bow" in b["archer"]["weapons"]  # L53
    assert weapons["heavy_crache_foudre"].ranges[2] >= 1000 and weapons["heavy_crache_foudre"].electric  # L46
    assert weapons["giant_club"].huge and armour["breastplate"].metal
    assert [n for n, t in b.items() if t["tags"]["player_character"]] == [
        "haru", "hero", "adventurer_blade", "adventurer_gunner"]


def test_new_templates_stay_out_of_the_shipped_distributions_and_their_threats() -> None:
    folder = system_dir("dicepool") / "encounters"
    for path in (folder / "generalist.yaml",):
        for side in load_yaml(path)["sides"]:
            assert set(side["templates"]) <= set(ORIGINAL_THREATS)
    table = threats("dicepool")
    assert {k: table[k] for k in ORIGINAL_THREATS} == ORIGINAL_THREATS  # the median template is unchanged
    assert all(v > 0 for v in table.values())  # every template has an offence (the brawler's fists count)


@pytest.mark.parametrize("name", sorted(set(BESTIARY) - set(ORIGINAL_THREATS)))
def test_every_new_template_plays_a_random_fight(name: str) -> None:
    sc = scenario_from_mapping({"name": "t", "sides": [{"combatants": [{"template": name}]},
                                                       {"combatants": [{"template": "duelist", "position": 6}]}]},
                               "<t>")
    roller, rng = RngRoller(np.random.default_rng(5)), np.random.default_rng(6)
    state, _ = ENGINE.new_combat(sc, roller)
    steps = 0
    while ENGINE.outcome(state) is None and steps < 3000:
        legal = np.flatnonzero(ENGINE.legal_mask(state))
        state, _ = ENGINE.step(state, int(legal[rng.integers(len(legal))]), roller, inplace=True)
        steps += 1
    assert ENGINE.outcome(state) is not None


def _duel(npc: dict, other: dict, dice: list[int]):
    sit = {"acting": "a", "then": ["b"], "sides": [{"combatants": [{**npc, "name": "a", "position": 0}]},
                                                   {"combatants": [{**other, "name": "b"}]}]}
    roller = ScriptedRoller(dice)
    return load_situation(ENGINE, sit, roller), roller


def _act(state, name: str, roller):
    return ENGINE.step(state, ENGINE.catalogue.index(name), roller)


def test_a_natural_weapon_cannot_be_shot_out_of_the_mouth() -> None:
    """D8: a shot may aim at the target's readied weapon; a bite is no item (the mask offers no aim_at:weapon),
    a sword is."""
    for target, offered in (("hound", False), ("duelist", True)):
        state, roller = _duel({"template": "haru"}, {"template": target, "position": 8}, [])
        state, _ = _act(state, "shoot:enemy_0", roller)
        d = ENGINE.pending(state)
        assert d is not None and d.kind == DecisionKind.OPTION
        assert bool(ENGINE.legal_mask(state, d)[A.AIM_WEAPON]) is offered


def test_a_wrestlers_hold_deals_net_successes_plus_strength() -> None:
    """§5 (L25-27) with the lutte pool (L22): 7 dice, 5 successes vs DEFENSE 3 -> 2 net + FORCE 4 = 6; the
    hold's damage is 0 (no die rolled); 2d6 = 7 -> torso."""
    state, roller = _duel({"template": "wrestler"}, {"template": "duelist", "position": 1},
                          [4, 4, 4, 4, 4, 1, 1] + [3, 4])
    state, _ = _act(state, "strike:enemy_0", roller)
    state, events = _act(state, "split:0", roller)
    dmg = [e for e in events if e.kind == "damage"]
    assert [(e.data["amount"], e.data["location"]) for e in dmg] == [(6, "torso")]


def test_a_giants_club_falls_on_half_a_body() -> None:
    """§8 huge weapons (L83-89): 2d6 = 8 -> upper half: torso and both arms each take the damage. 6 dice, 4
    successes vs DEFENSE 3 -> 1 net; club 2d6 shows 3 + 4; + FORCE 6 -> 14 to each upper location."""
    state, roller = _duel({"template": "giant"}, {"template": "duelist", "position": 1},
                          [4, 4, 4, 4, 1, 1] + [3, 4] + [4, 4])
    state, _ = _act(state, "strike:enemy_0", roller)
    state, events = _act(state, "split:0", roller)
    hit = [(e.data["location"], e.data["amount"]) for e in events if e.kind == "damage"]
    assert hit == [("torso", 14), ("left_arm", 14), ("right_arm", 14)]


def test_a_quadrupeds_wounded_foreleg_costs_dice_like_an_arm() -> None:
    """Body plans rename the seven slots and keep their wound effects (D16): a seriously wounded foreleg is
    the left-arm slot, −2 dice to every attack."""
    sit = {"acting": "h", "then": ["d"], "sides": [
        {"combatants": [{"template": "hound", "name": "h", "location_hp": {"left_arm": 0}}]},
        {"combatants": [{"template": "duelist", "name": "d", "position": 1}]}]}
    hound = load_situation(ENGINE, sit, ScriptedRoller([])).combatants[0]
    assert hound.serious[T.LEFT_ARM] and attack_pool(hound, "brawl") == 6 - T.ARM_WOUND_DICE
