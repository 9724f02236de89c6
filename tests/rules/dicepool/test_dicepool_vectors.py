"""Every test vector of dice-pool.md §9 (1-19) with forced dice, plus exact-value checks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.rules.base import DecisionKind, EventSink, IllegalActionError, SideResult, Status
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.bestiary import load_equipment
from npc_tactics.systems.dicepool.rules.combat import (
    melee_defense,
    range_band,
    roll_locations,
    shot_defense,
)
from npc_tactics.systems.dicepool.rules.content import load_situation, scenario_from_mapping
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine, Rules
from npc_tactics.systems.dicepool.rules.pool import (
    action_ranks,
    action_turns,
    die_distribution,
    hit_probability,
    order_slots,
    roll_pool,
    ta_and_local_rank,
)

ENGINE = DicePoolEngine()


def situation(
    npcs: list[dict], others: list[dict], acting: str, then: tuple[str, ...] = ()
) -> dict:
    return {
        "sides": [{"combatants": npcs}, {"combatants": others}],
        "acting": acting,
        "then": list(then),
    }


def act(engine: DicePoolEngine, state, name: str, roller):
    state, events = engine.step(state, engine.catalogue.index(name), roller)
    return state, events


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def test_v1_initiative_order():
    """Vector 1: Haru 4 successes, opponent 2 -> one T.A.; Haru acts at rank 4 before rank 2."""
    sc = scenario_from_mapping(
        {
            "name": "v1",
            "sides": [
                {"combatants": [{"template": "haru", "position": 0}]},
                {"combatants": [{"template": "duelist", "position": 1}]},
            ],
        },
        "<v1>",
    )
    roller = ScriptedRoller(
        [
            4,
            4,
            5,
            5,
            1,
            1,
            1,
            1,  # Haru, 8 dice: 4 successes
            4,
            5,
            1,
            1,
            1,
            1,
            1,
        ]
    )  # duelist, 7 dice: 2 successes
    state, _ = ENGINE.new_combat(sc, roller)
    assert state.queue == [(4, 0), (2, 1)]
    assert state.n_ta == 1
    d = ENGINE.pending(state)
    assert (d.actor, d.kind, d.context["ta"], d.context["local_rank"]) == (
        0,
        DecisionKind.ACT,
        1,
        4,
    )


def test_v2_multiple_actions():
    """Vector 2: 11 successes -> 3 actions at global 11, 10, 5 = T.A.1 rank 1, T.A.2 rank 5, T.A.3 rank 5."""
    assert action_ranks(11) == [11, 10, 5]
    assert action_turns(11) == 3
    assert [ta_and_local_rank(g, 3) for g in (11, 10, 5)] == [(1, 1), (2, 5), (3, 5)]


def test_v3_action_sequence_draw_strike_strike():
    """Vector 3: Haru 11 successes, sword sheathed, higher COORDINATION; opponent 5 successes.

    Haru @0 m, opponent @1 m (engaged): 11 draw, 10 strike, 5 strike (wins the COORDINATION tie), then
    the opponent acts.
    """
    sc = scenario_from_mapping(
        {
            "name": "v3",
            "sides": [
                {"combatants": [{"template": "haru", "position": 0, "readied": "none"}]},
                {"combatants": [{"template": "duelist", "position": 1}]},
            ],
        },
        "<v3>",
    )
    roller = ScriptedRoller(
        [
            6,
            6,
            6,
            4,
            4,
            4,
            4,
            1,
            6,
            4,
            4,
            5,  # Haru: 7 + 3 + 1 = 11 successes
            4,
            4,
            4,
            4,
            4,
            1,
            1,  # duelist: 5
            1,
            1,
            1,
            1,
            1,
            1,  # first blow: 6 sword dice, all miss
            1,
            1,
            1,
            1,
            1,
            1,
        ]
    )  # second blow
    state, _ = ENGINE.new_combat(sc, roller)
    assert state.queue == [(11, 0), (10, 0), (5, 0), (5, 1)]
    state, _ = act(ENGINE, state, "draw:1", roller)  # the sword is the second weapon
    assert state.combatants[0].weapon.name == "sword"
    for expected_ta in (2, 3):
        d = ENGINE.pending(state)
        assert d.actor == 0 and d.context["ta"] == expected_ta and d.context["local_rank"] == 5
        state, _ = act(ENGINE, state, "strike:enemy_0", roller)
        assert ENGINE.pending(state).kind == DecisionKind.SPLIT
        state, events = act(ENGINE, state, "split:0", roller)
        assert kinds(events, "attack")[0].data["result"] == "miss"
    assert ENGINE.pending(state).actor == 1


def test_v4_tie_break_reroll():
    """Vector 4: same rank, same COORDINATION -> one die each, re-roll on equal dice."""
    sink = EventSink(ScriptedRoller([3, 3, 2, 5]))
    assert order_slots([(5, 0), (5, 1)], [4, 4], sink) == [(5, 1), (5, 0)]
    sink = EventSink(ScriptedRoller([6, 1]))
    assert order_slots([(5, 0), (5, 1), (7, 2)], [4, 4, 0], sink) == [(7, 2), (5, 0), (5, 1)]
    assert order_slots([(5, 0), (5, 1)], [3, 4], EventSink(ScriptedRoller([]))) == [(5, 1), (5, 0)]


def test_v5_dice_to_defense():
    """Vector 5: Haru Brawl 5 vs a djinn moves 2 dice -> attacks with 3; front DEFENSE 6 -> 8."""
    sit = situation(
        [{"template": "haru", "readied": "none", "defense": 6, "position": 0}],
        [{"template": "djinn", "position": 1}],
        "haru",
        ("djinn",),
    )
    roller = ScriptedRoller([1, 1, 1])
    state = load_situation(ENGINE, sit, roller)
    state, _ = act(ENGINE, state, "strike:enemy_0", roller)
    assert ENGINE.pending(state).context["pool"] == 5
    mask = ENGINE.legal_mask(state)
    assert (
        mask[A.SPLIT : A.SPLIT + 6].all() and not mask[A.SPLIT + 6 : A.SPLIT + T.MAX_POOL + 1].any()
    )
    state, events = act(ENGINE, state, "split:2", roller)
    assert kinds(events, "attack")[0].data["dice"] == 3
    assert melee_defense(state.combatants[0], state.rules) == 8
    assert (
        ENGINE.pending(state).actor == 1
    )  # the djinn's blows face DEFENSE 8 until Haru's next slot


def _markus_vs(defense: int, readied: str, dice: list[int]):
    sit = situation(
        [{"template": "markus", "readied": readied, "position": 0}],
        [{"template": "duelist", "defense": defense, "position": 1}],
        "markus",
        ("duelist",),
    )
    roller = ScriptedRoller(dice)
    state = load_situation(ENGINE, sit, roller)
    state, _ = act(ENGINE, state, "strike:enemy_0", roller)
    return act(ENGINE, state, "split:0", roller)


def test_v6_unarmed_damage():
    """Vector 6: Markus (STRENGTH 3) brawls, 5 successes vs DEFENSE 3 -> 2 net -> 2 + 3 = 5 damage."""
    state, events = _markus_vs(3, "none", [4, 4, 4, 4, 4, 1, 3, 4])  # 6 brawl dice; 2d6 = 7 torso
    dmg = kinds(events, "damage")
    assert [(e.data["amount"], e.data["location"]) for e in dmg] == [(5, "torso")]
    assert state.combatants[1].loc_hp[T.TORSO] == 10 - 5


def test_v7_weapon_damage():
    """Vector 7: Markus, mace 1D6, 7 successes vs DEFENSE 4 -> 1D6 + 3 + 3; the die shows 4 -> 10."""
    state, events = _markus_vs(4, "mace", [4] * 7 + [4] + [3, 4])
    assert [e.data["amount"] for e in kinds(events, "damage")] == [10]
    target = state.combatants[1]
    assert (
        target.loc_hp[T.TORSO] == 0 and target.serious[T.TORSO]
    )  # D16: HP <= 0 is a serious wound
    assert target.status == Status.UNCONSCIOUS
    assert kinds(events, "status")[0].data["status"] == "unconscious"
    assert ENGINE.outcome(state).results == (SideResult.WIN, SideResult.LOSS)


def _haru_shoots(target: dict, dice: list[int], then: tuple[str, ...] = ("target",)):
    sit = situation(
        [{"template": "haru", "position": 0}], [{**target, "name": "target"}], "haru", then
    )
    roller = ScriptedRoller(dice)
    return load_situation(ENGINE, sit, roller), roller


def test_v8_aimed_shot_miss_loses_projectile():
    """Vector 8: crache-foudre 7, aims at a location (-2 dice -> 5), DEFENSE 3, 2 successes -> miss."""
    state, roller = _haru_shoots({"template": "duelist", "position": 5}, [4, 4, 1, 1, 1])
    state, _ = act(ENGINE, state, "shoot:enemy_0", roller)
    d = ENGINE.pending(state)
    assert d.kind == DecisionKind.OPTION and d.context["pool"] == 7 and d.context["needed"] == 3
    state, events = act(ENGINE, state, "aim_at:right_arm", roller)
    attack = kinds(events, "attack")[0]
    assert (attack.data["dice"], attack.data["successes"], attack.data["result"]) == (5, 2, "miss")
    assert attack.data["located"] == "right_arm"
    assert not kinds(events, "damage")


def test_v9_plain_shot_hits():
    """Vector 9: all 7 dice, 4 successes vs DEFENSE 3 -> hit, net 1, 2d6 location (7 = torso)."""
    state, roller = _haru_shoots(
        {"template": "duelist", "position": 5}, [4, 4, 4, 4, 1, 1, 1, 3, 4]
    )
    state, _ = act(ENGINE, state, "shoot:enemy_0", roller)
    state, events = act(ENGINE, state, "aim_at:none", roller)
    assert kinds(events, "attack")[0].data["result"] == "hit"
    assert [(e.data["amount"], e.data["location"]) for e in kinds(events, "damage")] == [
        (2 + 1, "torso")
    ]


def test_v10_v11_full_ranged_example_and_electricity():
    """Vectors 10-11: target at 14 m running, chain mail + iron helmet, head 4 HP.

    T.A.1 Haru aims (+4). T.A.2 aims at the head: 5 dice -> 5 successes + 4 = 9 vs 3 + 2 (medium) + 1
    (moving) = 6 -> head, 9 - 6 = 3 net; damage 2 + 3 = 5 -> head -1 (serious); electricity: 5 to the
    torso and 5 to each arm.
    """
    assert action_ranks(7) == [7, 5] and action_turns(7) == 2
    target = {
        "template": "heavy_soldier",
        "position": 14,
        "moving": True,
        "defense": 3,
        "locations": {
            "head": 4,
            "torso": 12,
            "pelvis": 8,
            "left_arm": 7,
            "right_arm": 7,
            "left_leg": 8,
            "right_leg": 8,
        },
    }
    state, roller = _haru_shoots(target, [4, 4, 4, 5, 5], then=("haru",))
    state, events = act(ENGINE, state, "aim:enemy_0", roller)
    assert kinds(events, "aim") and state.combatants[0].aim_target == 1
    state, _ = act(ENGINE, state, "shoot:enemy_0", roller)
    d = ENGINE.pending(state)
    assert (d.context["needed"], d.context["aim_bonus"]) == (6, 4)
    state, events = act(ENGINE, state, "aim_at:head", roller)
    attack = kinds(events, "attack")[0]
    assert (attack.data["dice"], attack.data["successes"], attack.data["band"]) == (5, 9, "medium")
    dmg = [
        (e.data["location"], e.data["amount"], e.data["spread"]) for e in kinds(events, "damage")
    ]
    assert dmg == [
        ("head", 5, False),
        ("torso", 5, True),
        ("left_arm", 5, True),
        ("right_arm", 5, True),
    ]
    t = state.combatants[1]
    assert t.loc_hp[T.HEAD] == -1 and t.serious[T.HEAD]
    assert t.loc_hp[T.TORSO] == 7 and t.loc_hp[T.LEFT_ARM] == 2
    assert t.status == Status.UNCONSCIOUS


def test_v11_no_spread_option_and_no_metal():
    rules = Rules(electric_spread=False)
    assert not rules.electric_spread
    engine = DicePoolEngine({"electric_spread": False})
    sit = situation(
        [{"template": "haru", "position": 0}],
        [{"template": "heavy_soldier", "name": "t", "position": 5}],
        "haru",
        ("t",),
    )
    roller = ScriptedRoller([4, 4, 4, 4, 4, 4, 4])
    state = load_situation(engine, sit, roller)
    state, _ = engine.step(state, engine.catalogue.index("shoot:enemy_0"), roller)
    state, events = engine.step(state, engine.catalogue.index("aim_at:head"), roller)
    assert [e.data["location"] for e in kinds(events, "damage")] == ["head"]


def test_v12_maximum_range():
    """Vector 12: short bow, long range ends at 50 m: 100 m is extreme (+8), 101 m impossible."""
    bow = load_equipment()[0]["short_bow"]
    assert range_band(bow, 100) == 3 and range_band(bow, 101) == -1
    for dist, legal in ((100, True), (101, False)):
        sit = situation(
            [{"template": "bandit", "position": 0}],
            [{"template": "duelist", "name": "t", "position": dist}],
            "bandit",
        )
        state = load_situation(ENGINE, sit, ScriptedRoller([]))
        assert ENGINE.legal_mask(state)[ENGINE.catalogue.index("shoot:enemy_0")] == legal


def test_v13_v14_range_and_cover_modifiers():
    """Vectors 13-14: DEFENSE 3 at long range -> 7, extreme -> 11; kneeling + half cover +2; prone + moving +3."""
    sit = situation(
        [{"template": "bandit"}], [{"template": "duelist", "name": "t", "position": 10}], "bandit"
    )
    state = load_situation(ENGINE, sit, ScriptedRoller([]))
    t, rules = state.combatants[1], state.rules
    assert shot_defense(t, 2, rules) == 7 and shot_defense(t, 3, rules) == 11
    t.posture, t.concealment = T.POSTURE_NAMES.index("kneeling"), T.CONCEALMENT_NAMES.index("half")
    assert shot_defense(t, 0, rules) == 3 + 2
    t.posture, t.concealment, t.moving = T.POSTURE_NAMES.index("prone"), 0, True
    assert shot_defense(t, 0, rules) == 3 + 3
    assert shot_defense(t, 0, Rules(cover_cumulative=False)) == 3 + 2  # option: best bonus only
    crache = load_equipment()[0]["light_crache_foudre"]
    assert [range_band(crache, d) for d in (10, 14, 20, 20.5, 80)] == [
        0,
        1,
        1,
        2,
        3,
    ]  # D10 boundaries


def test_v15_no_defense_dice_against_missiles():
    """Vector 15: dice in DEFENSE do not count against a shot; a shot asks OPTION, never SPLIT."""
    sit = situation(
        [{"template": "bandit"}],
        [{"template": "duelist", "name": "t", "position": 10, "defense_dice": 3}],
        "bandit",
    )
    state = load_situation(ENGINE, sit, ScriptedRoller([]))
    t = state.combatants[1]
    assert shot_defense(t, 0, state.rules) == 3 and melee_defense(t, state.rules) == 6
    assert shot_defense(t, 0, Rules(defense_dice_vs_shots=True)) == 6
    state, _ = act(ENGINE, state, "shoot:enemy_0", ScriptedRoller([]))
    mask = ENGINE.legal_mask(state)
    assert ENGINE.pending(state).kind == DecisionKind.OPTION
    assert not mask[A.SPLIT : A.SPLIT + T.MAX_POOL + 1].any()


def test_v16_exploding_dice():
    """Vector 16: 6, 4, 2 -> 2 successes + 1 re-roll; the re-roll shows 5 -> 3 successes."""
    assert roll_pool(EventSink(ScriptedRoller([6, 4, 2, 5])), 3, "t") == 3
    assert roll_pool(EventSink(ScriptedRoller([6, 4, 2, 6, 5])), 3, "t") == 4  # chained (D3)
    assert roll_pool(EventSink(ScriptedRoller([6, 4, 2, 6])), 3, "t", chain=False) == 3


def test_v17_hit_location_tables():
    """Vector 17: 7 torso, 6 pelvis, 5 left arm, 4 right arm, 12 head, 2 right leg; huge 12/11/8/3."""
    common = {
        7: "torso",
        6: "pelvis",
        5: "left_arm",
        4: "right_arm",
        12: "head",
        2: "right_leg",
        3: "left_leg",
    }
    assert {k: T.LOCATIONS[T.COMMON_LOCATION[k]] for k in common} == common
    huge = {12: "whole_body", 11: "head", 8: "upper_half", 3: "lower_half"}
    assert {k: T.HUGE_AREA[k] for k in huge} == huge
    sword, fire = load_equipment()[0]["sword"], load_equipment()[0]["djinn_fire"]
    assert roll_locations(sword, EventSink(ScriptedRoller([1, 1])), 0, 1) == (
        (T.RIGHT_LEG,),
        "right_leg",
    )
    assert roll_locations(fire, EventSink(ScriptedRoller([6, 6])), 0, 1)[0] == tuple(range(7))
    assert sum(T.TWO_D6_WAYS[k] for k, v in T.COMMON_LOCATION.items() if v == T.TORSO) == 20


def test_v18_action_turn_arithmetic():
    """Vector 18: S = 10 -> 10 and 5; S = 5 -> 5; S = 0 -> no action (option: one action after everyone)."""
    assert action_ranks(10) == [10, 5] and action_ranks(5) == [5] and action_ranks(4) == [4]
    assert action_ranks(0) == [] and action_ranks(0, zero_acts_last=True) == [0]
    assert ta_and_local_rank(0, 2) == (2, 0)


def test_v19_exact_hit_zero_net():
    """Vector 19: 3 successes vs DEFENSE 3 -> hit with 0 net: brawl = STRENGTH; weapon = dice + STRENGTH."""
    _, events = _markus_vs(3, "none", [4, 4, 4, 1, 1, 1, 3, 4])
    assert [e.data["amount"] for e in kinds(events, "damage")] == [3]
    _, events = _markus_vs(3, "mace", [4, 4, 4, 1, 1, 1, 1, 2, 3, 4])
    assert [e.data["amount"] for e in kinds(events, "damage")] == [2 + 3]
    strict = DicePoolEngine({"hit_on_equal": False})
    sit = situation(
        [{"template": "markus", "readied": "none"}],
        [{"template": "duelist", "name": "t", "position": 1}],
        "markus",
        ("t",),
    )
    roller = ScriptedRoller([4, 4, 4, 1, 1, 1])
    state = load_situation(strict, sit, roller)
    state, _ = strict.step(state, strict.catalogue.index("strike:enemy_0"), roller)
    _, events = strict.step(state, strict.catalogue.index("split:0"), roller)
    assert kinds(events, "attack")[0].data["result"] == "miss"


def test_exact_hit_probabilities():
    assert hit_probability(1, 1) == Fraction(1, 2)
    assert hit_probability(2, 1) == Fraction(3, 4)
    assert hit_probability(0, 1) == 0 and hit_probability(3, 0) == 1
    assert hit_probability(1, 5, bonus=4) == Fraction(1, 2)  # aiming bonus
    assert hit_probability(1, 2) == Fraction(1, 6) * Fraction(
        1, 2
    )  # a 6, then a success on the re-roll
    dist = die_distribution(True)
    assert (
        abs(float(sum(k * p for k, p in enumerate(dist))) - 0.6) < 1e-12
    )  # §2: 0.6 successes per die
    assert sum(die_distribution(False)) == 1


def test_illegal_action_names_action_and_decision():
    sit = situation(
        [{"template": "duelist"}], [{"template": "duelist", "name": "b", "position": 1}], "duelist"
    )
    state = load_situation(ENGINE, sit, RngRoller(0))
    with pytest.raises(IllegalActionError, match=r"shoot:enemy_0.*ACT decision of combatant 0"):
        ENGINE.step(state, ENGINE.catalogue.index("shoot:enemy_0"), RngRoller(0))
