"""Issue 10 (dice pool, points 1-6): each rule a GM would catch, with forced dice and the rule it follows.

The source (shared/seeds/dice-pool.fr.txt) has no movement, armour-absorption, death or facing rules; where
it is silent the test names the house reading and the option that keeps the other one (docs/dicepool.md).
"""

from __future__ import annotations

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.combat import cover_at, melee_defense
from npc_tactics.systems.dicepool.rules.content import load_situation
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine

ENGINE = DicePoolEngine()


def duel(kesh: dict | None = None, varo: dict | None = None, then=("Varo",), options=None, acting="Kesh"):
    sit = {
        "sides": [
            {"combatants": [{"template": "duelist", "name": "Kesh", "position": 0, **(kesh or {})}]},
            {"combatants": [{"template": "duelist", "name": "Varo", "position": 1, **(varo or {})}]},
        ],
        "acting": acting,
        "then": list(then),
    }
    if options:
        sit["options"] = options
    return sit


def step(state, name: str, roller, engine=ENGINE):
    return engine.step(state, engine.catalogue.index(name), roller)


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


# ----- point 1: leaving melee is not free (house H6; the source has no movement rules) -------------------------
def test_p1_withdrawing_from_melee_gives_the_enemy_a_free_blow():
    """Varo (3 dice in DEFENSE) gets a blow with his other 4 dice as Kesh steps out of reach: 3 successes vs
    DEFENSE 3 -> 0 net + STRENGTH 2 + sword 3 = 5 to the torso, then Kesh moves 10 m."""
    roller = ScriptedRoller([4, 4, 4, 1, 3, 3, 4])  # 4 dice: 3 successes; 1d6 = 3; 2d6 = 7 torso
    state = load_situation(ENGINE, duel(varo={"defense_dice": 3}), roller)
    state, events = step(state, "withdraw", roller)
    blow = kinds(events, "attack")
    assert kinds(events, "free_blow") and blow[0].data["dice"] == 4 and blow[0].data["result"] == "hit"
    kesh = state.combatants[0]
    assert kesh.loc_hp[T.TORSO] == 10 - 5 and kesh.position == -10
    assert roller.remaining == 0


def test_p1_free_disengagement_stays_as_an_option():
    roller = ScriptedRoller([])
    state = load_situation(ENGINE, duel(options={"disengage": "free"}), roller)
    state, events = step(state, "withdraw", roller)
    assert not kinds(events, "attack") and state.combatants[0].position == -10


def test_p1_a_free_blow_that_drops_the_leaver_stops_it_in_place():
    roller = ScriptedRoller([4] * 7 + [6, 6, 6] + [6, 6])  # 10 successes (3 re-rolled 6s); 1d6 6; head
    state = load_situation(ENGINE, duel(), roller)
    state, _ = step(state, "withdraw", roller)
    kesh = state.combatants[0]
    assert kesh.status != Status.ACTIVE and kesh.position == 0


# ----- point 2: DEFENSE dice and the new initiative roll (D5) ------------------------------------------------
def _split_then_new_turn(options=None):
    # Kesh's blow: 4 dice all miss; new game turn: 1 success each, tie on COORDINATION, Varo wins the die.
    roller = ScriptedRoller([1, 1, 1, 1] + [4, 1, 1, 1, 1, 1, 1] * 2 + [1, 6])
    state = load_situation(ENGINE, duel(then=(), options=options), roller)
    state, _ = step(state, "strike:enemy_0", roller)
    state, _ = step(state, "split:3", roller)
    assert ENGINE.pending(state).actor == 1 and state.round == 2
    return state


def test_p2_defense_dice_last_to_the_next_slot_even_across_the_new_initiative_roll():
    """D5 (reference reading, default): the guard holds until its owner acts again, whatever the new roll."""
    state = _split_then_new_turn()
    assert melee_defense(state.combatants[0], state.rules) == 6


def test_p2_defense_dice_lapsing_at_the_new_initiative_roll_is_an_option():
    state = _split_then_new_turn({"defense_dice_until": "next_slot_or_turn_end"})
    assert state.combatants[0].defense_dice == 0
    assert melee_defense(state.combatants[0], state.rules) == 3


def test_p2_defense_dice_for_the_whole_game_turn_is_an_option():
    """``turn_end``: the dice stay through the owner's later slots of the same game turn."""
    roller = ScriptedRoller([1, 1, 1, 1])
    sit = duel(then=("Varo", "Kesh", "Varo"), options={"defense_dice_until": "turn_end"})
    state = load_situation(ENGINE, sit, roller)
    state, _ = step(state, "strike:enemy_0", roller)
    state, _ = step(state, "split:3", roller)
    state, _ = step(state, "wait", roller)  # Varo
    assert ENGINE.pending(state).actor == 0 and state.combatants[0].defense_dice == 3


# ----- point 3: low postures in melee, cover belongs to a place -----------------------------------------------
def test_p3_prone_is_a_handicap_against_blows():
    """Prone gives +2 against shots (source L59) and -2 against blows (house H5): 1 success now hits."""
    roller = ScriptedRoller([4, 1, 1, 1, 1, 1, 1, 1, 3, 4])  # 1 success; sword 1; 2d6 = 7 torso
    state = load_situation(ENGINE, duel(kesh={"posture": "prone"}, then=("Kesh",), acting="Varo"), roller)
    assert melee_defense(state.combatants[0], state.rules) == 1
    state, _ = step(state, "strike:enemy_0", roller)
    assert ENGINE.pending(state).context["defense"] == 1
    state, events = step(state, "split:0", roller)
    assert kinds(events, "attack")[0].data["result"] == "hit"
    off = DicePoolEngine({"low_posture_melee_penalty": False})
    state = load_situation(off, duel(kesh={"posture": "kneeling"}), ScriptedRoller([]))
    assert melee_defense(state.combatants[0], state.rules) == 3


def test_p3_running_keeps_the_spot_and_coming_back_finds_the_cover_again():
    """Moving used to wipe the cover for good, even running on the spot; cover now belongs to its place (H1)."""
    sit = duel(kesh={"cover": "half"}, varo={"position": 30}, then=("Kesh", "Varo", "Kesh", "Varo"))
    roller = ScriptedRoller([])
    state = load_situation(ENGINE, sit, roller)
    state, _ = step(state, "run", roller)
    assert cover_at(state.combatants[0]) == 1 and state.combatants[0].concealment == 0
    assert ENGINE.legal_mask(state)[A.COVER]  # Kesh's next slot: the half cover is still at hand
    state, _ = step(state, "withdraw", roller)  # to -10 m: no cover there
    assert cover_at(state.combatants[0]) == 0
    state, _ = step(state, "wait", roller)  # Varo
    state, _ = step(state, "advance:enemy_0", roller)  # back to 0 m
    assert state.combatants[0].position == 0 and cover_at(state.combatants[0]) == 1


# ----- point 4: a shot aimed at a carried item (source L44: "viser l'arme de son adversaire") --------------------
def test_p4_shot_aimed_at_the_weapon_knocks_it_from_the_hand():
    """Haru, 7 dice - 2 = 5 vs DEFENSE 3 + medium range 2 = 5: 5 successes hit the sword, no damage."""
    sit = {
        "sides": [
            {"combatants": [{"template": "haru", "position": 0}]},
            {"combatants": [{"template": "duelist", "name": "target", "position": 14}]},
        ],
        "acting": "haru",
        "then": ["target"],
    }
    roller = ScriptedRoller([4, 4, 4, 4, 4])
    state = load_situation(ENGINE, sit, roller)
    state, _ = step(state, "shoot:enemy_0", roller)
    assert ENGINE.legal_mask(state)[A.AIM_WEAPON]
    state, events = step(state, "aim_at:weapon", roller)
    target = state.combatants[1]
    assert kinds(events, "disarm") and target.readied == -1 and target.hp == target.max_hp
    assert ENGINE.legal_mask(state)[A.DRAW]  # picking it up again costs an action (§4)
    off = DicePoolEngine({"item_hit": "off"})
    state = load_situation(off, sit, ScriptedRoller([]))
    state, _ = step(state, "shoot:enemy_0", roller, off)
    assert not off.legal_mask(state)[A.AIM_WEAPON]


# ----- point 5: situations ------------------------------------------------------------------------------------
def test_p5_slot_order_the_initiative_rules_cannot_produce_is_rejected():
    """Kesh then Varo twice: Varo's second slot is in a later T.A., where Kesh (faster than Varo's first
    slot) would act again too (§3, source L8-9)."""
    with pytest.raises(ConfigError, match="then"):
        load_situation(ENGINE, duel(then=("Varo", "Varo")), ScriptedRoller([]))
    state = load_situation(ENGINE, duel(then=("Varo", "Kesh", "Varo")), ScriptedRoller([]))
    assert state.n_ta == 2 and [r for r, _ in state.queue] == [10, 10, 5, 5]


def test_p5_rank_five_ties_follow_coordination():
    """Both acted in the first T.A.: at rank 5 of the next one Haru (COORDINATION 5) precedes the duelist (4)."""
    sit = {
        "sides": [
            {"combatants": [{"template": "haru", "position": 0}]},
            {"combatants": [{"template": "duelist", "position": 1}]},
        ],
        "acting": "duelist",
        "then": ["haru", "duelist", "haru"],
    }
    with pytest.raises(ConfigError, match="COORDINATION"):
        load_situation(ENGINE, sit, ScriptedRoller([]))
    sit["then"] = ["haru", "haru", "duelist"]
    assert load_situation(ENGINE, sit, ScriptedRoller([])).n_ta == 2


def test_p5_serious_wound_threshold_of_situations_follows_its_option():
    state = load_situation(
        ENGINE, duel(varo={"location_hp": {"left_arm": 0}}, options={"serious_wound_at_zero": False}),
        ScriptedRoller([]),
    )
    assert not state.combatants[1].serious[T.LEFT_ARM]
    state = load_situation(ENGINE, duel(varo={"location_hp": {"left_arm": 0}}), ScriptedRoller([]))
    assert state.combatants[1].serious[T.LEFT_ARM]


# ----- point 6: armour, serious wounds, facing ----------------------------------------------------------------
def test_p6_armour_points_absorb_blows_but_not_lightning():
    """Kesh's blow: 4 successes vs DEFENSE 4 -> 0 net + 2 + sword 4 = 6 to the torso; chain mail takes 3."""
    roller = ScriptedRoller([4, 4, 4, 4, 1, 1, 1, 4, 3, 4])
    sit = duel(varo={"template": "heavy_soldier"})
    state = load_situation(ENGINE, sit, roller)
    state, _ = step(state, "strike:enemy_0", roller)
    state, events = step(state, "split:0", roller)
    dmg = kinds(events, "damage")[0].data
    assert (dmg["amount"], dmg["absorbed"]) == (3, 3)
    assert state.combatants[1].loc_hp[T.TORSO] == 12 - 3
    off = DicePoolEngine({"armour_absorbs": False})
    roller = ScriptedRoller([4, 4, 4, 4, 1, 1, 1, 4, 3, 4])
    state = load_situation(off, sit, roller)
    state, _ = step(state, "strike:enemy_0", roller, off)
    state, _ = step(state, "split:0", roller, off)
    assert state.combatants[1].loc_hp[T.TORSO] == 12 - 6


def _second_serious_wound(options=None):
    # 4 successes vs 3 -> net 1 + 2 + sword 3 = 6: right arm (6 HP) to 0, a second serious wound
    roller = ScriptedRoller([4, 4, 4, 4, 1, 1, 1, 3, 1, 3])
    state = load_situation(ENGINE, duel(varo={"location_hp": {"left_arm": 0}}, options=options), roller)
    state, _ = step(state, "strike:enemy_0", roller)
    state, _ = step(state, "split:0", roller)
    return state.combatants[1]


def test_p6_two_serious_wounds_put_out_of_the_fight_without_killing():
    """The source's serious wound (L68) has no stated effect: two limb wounds take a fighter out, not kill."""
    varo = _second_serious_wound()
    assert sum(varo.serious) == 2 and varo.status == Status.UNCONSCIOUS
    assert _second_serious_wound({"death_serious_wounds": 2}).status == Status.DEAD


def test_p6_a_blow_from_behind_meets_a_lower_defense():
    """"DÉFENSE de face" (source L24) implies another DEFENSE from behind: Markus behind Varo, who faces Kesh."""
    sit = {
        "sides": [
            {
                "combatants": [
                    {"template": "duelist", "name": "Kesh", "position": 0},
                    {"template": "markus", "name": "Markus", "position": 2},
                ]
            },
            {"combatants": [{"template": "duelist", "name": "Varo", "position": 1, "facing": "Kesh"}]},
        ],
        "acting": "Markus",
        "then": ["Varo", "Kesh"],
    }
    roller = ScriptedRoller([4, 1, 1, 1, 1, 1, 1, 1, 3, 4])  # 1 success; mace 1; torso
    state = load_situation(ENGINE, sit, roller)
    varo, kesh, markus = state.combatants[2], state.combatants[0], state.combatants[1]
    assert melee_defense(varo, state.rules, kesh) == 3 and melee_defense(varo, state.rules, markus) == 1
    state, _ = step(state, "strike:enemy_0", roller)
    assert ENGINE.pending(state).context["defense"] == 1
    state, events = step(state, "split:0", roller)
    assert kinds(events, "attack")[0].data["result"] == "hit"
    flat = DicePoolEngine({"rear_defense_penalty": 0})
    state = load_situation(flat, sit, ScriptedRoller([]))
    assert melee_defense(state.combatants[2], state.rules, state.combatants[1]) == 3
