"""Every test vector of mrq-opposed.md §18 with forced dice.

Position in every duel unless said otherwise: A (side 0, attacker) and D (side 1) engaged at long distance::

    A ---long--- D

Face lists are in roll order: attack D100, defence D100, weapon damage dice, damage modifier, Deflection
Points dice, hit location d20, then the tests of effects and wounds.
"""

from __future__ import annotations

from dataclasses import replace

from npc_tactics.rules.base import DecisionKind, Status
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.actions import EFFECT_IDX, TARGETED
from npc_tactics.systems.mrq.rules.damage import apply_location_damage, roll_location, roll_weapon
from npc_tactics.systems.mrq.rules.fumbles import apply_fumble
from npc_tactics.systems.mrq.rules.state import BROKEN, DROPPED, STUCK, Exchange
from npc_tactics.systems.mrq.rules.tables import CHEST, HEAD, LEFT_ARM, RIGHT_ARM
from tests.rules.mrq.helpers import W, duel, kinds, sink


def _attack(st, s, mode="normal", defence="defend"):  # type: ignore[no-untyped-def]
    X.start_attack(st, s, 0, 1, mode)
    assert st.decision is not None and st.decision.kind == DecisionKind.REACT
    X.answer_react(st, s, defence)


def test_v1_v2_maximise_damage() -> None:
    assert roll_weapon(sink(), W["broadsword"], 0, "dmg", max_dice=1) == 8  # no die rolled
    assert roll_weapon(sink(3), W["great_axe"], 0, "dmg", max_dice=1) == 11  # 1d6(3) + 6 + 2


def test_v3_v5_deflection_rolls() -> None:
    assert roll_weapon(sink(3), W["dagger"], 1, "dp") == 3
    assert roll_weapon(sink(1, 2), W["martial_arts"], 1, "dp") == 3  # 2d3
    _, st = duel("martial_artist", "wolf")
    assert F.has_dp(st.combatants[0]) and not F.has_dp(st.combatants[1])  # wolves: no DP (§9)


def test_v4_tower_shield_fixed_dp_and_no_maximum_parry() -> None:
    _, st = duel(
        "swordsman",
        "sword_and_shield",
        att_prof={"dm": ""},
        def_prof={"offhand": W["tower_shield"], "armour": (0,) * 7},
    )
    s = sink(50, 3, 8, 11)  # A success, D critical: defender margin 1
    _attack(st, s)
    legal = X.legal_effects(st, st.exchange)
    assert EFFECT_IDX["maximum_parry"][0] not in legal and EFFECT_IDX["attacker_misses"][0] in legal
    X.answer_effect(st, s, "attacker_vulnerable", None)
    assert s.roller.remaining == 0  # damage 8 → 4, DP fixed 10: no DP die rolled
    assert not kinds(s, "damage") and st.combatants[0].lost_ca == 1


def test_v6_natural_fumble_no_ally_major_wound() -> None:
    _, st = duel("wolf", "swordsman")
    s = sink(17, 11, 90, 20)  # fumble 17, location forequarters (7 HP), Resilience fails vs own skill
    apply_fumble(st, s, 0, 1, "natural")
    wolf = st.combatants[0]
    assert wolf.loc_hp[CHEST] == -7 and wolf.prone
    assert kinds(s, "wound")[0]["result"] == "major"
    assert wolf.status == Status.UNCONSCIOUS


def test_v7_style_reduced_to_three_quarters() -> None:
    eng, st = duel("sword_and_shield", "swordsman", att_prof={"skill": 80})
    c = st.combatants[0]
    assert F.base_skill(c) == 80
    c.off_state = BROKEN
    assert F.base_skill(c) == 60
    eng.new_round(st, sink(5, 5))
    assert c.reactions == c.prof.cas  # no free shield Reaction without the shield


def test_v8_precise_attack_halves_and_adds_an_effect() -> None:
    _, st = duel("swordsman", "swordsman", att_prof={"skill": 90})
    s = sink(40, 30)  # 40 ≤ 45 success vs 30 success: attacker partial victory (margin 0)
    _attack(st, s, "precise")
    assert kinds(s, "attack")[0]["att_skill"] == 45
    assert st.decision is not None and st.decision.kind == DecisionKind.EFFECT
    assert st.decision.context["remaining"] == 1 and st.decision.context["margin"] == 0


def test_v9_mounted_rider() -> None:
    _, st = duel("mounted_lancer", "swordsman")
    assert F.attack_skill(st, 0, 1) == 65 + 20
    assert not X._from_above(st, Exchange(0, 1))  # with a lance: normal location roll
    st.combatants[0].prof = replace(st.combatants[0].prof, weapon=W["broadsword"])
    assert X._from_above(st, Exchange(0, 1))
    assert roll_location(sink(4), 0, 1, True) == RIGHT_ARM  # 1d10 = 4 → 14


def test_v10_disarm_bonus_greatsword() -> None:
    _, st = duel("greatsword_knight", "swordsman", att_prof={"skill": 60, "dm": ""})
    s = sink(30, 90, 3, 3, 4, 11, 20, 90, 2)
    _attack(st, s)
    X.answer_effect(st, s, "disarm", None)
    assert kinds(s, "opposed_test")[0]["skill"] == 80
    assert st.combatants[1].weapon_state == DROPPED
    assert st.combatants[1].loc_hp[CHEST] == 7 - (6 - 2 - 3)  # 2d8=6, half DP 4→2, armour 3


def test_v12_dp_table_attacker_partial_victory() -> None:
    _, st = duel("swordsman", "swordsman", att_prof={"dm": ""}, def_prof={"armour": (2,) * 7})
    s = sink(60, 40, 8, 5, 11)
    _attack(st, s)
    assert st.combatants[1].loc_hp[CHEST] == 7 - 3  # 8 − ⌈5/2⌉ = 5, armour 2 → 3
    assert kinds(s, "attack")[0]["result"] == "attacker_partial"


def test_v13_dp_table_defender_partial_victory() -> None:
    _, st = duel("swordsman", "swordsman", att_prof={"dm": ""}, def_prof={"armour": (2,) * 7})
    s = sink(40, 60, 8, 5, 11)
    _attack(st, s)
    assert st.combatants[1].loc_hp[CHEST] == 7 and not kinds(s, "damage")  # 8/2 = 4 − 5 → 0


def _v14(*faces: int):  # type: ignore[no-untyped-def]
    _, st = duel(
        "greatsword_knight",
        "swordsman",
        att_prof={"dm": ""},
        def_prof={"weapon": W["dagger"], "armour": (0,) * 7},
    )
    s = sink(*faces)
    _attack(st, s)
    return st, s


def test_v14_defender_normal_victory_damage_passes() -> None:
    st, s = _v14(50, 3, 4, 6, 2, 11)
    assert st.decision.kind == DecisionKind.EFFECT and st.decision.actor == 1
    X.answer_effect(st, s, "attacker_vulnerable", None)
    assert kinds(s, "damage")[0]["amount"] == 3  # 10 → 5, dagger DP 2 → 3
    st, s = _v14(50, 3)
    X.answer_effect(st, s, "attacker_misses", None)
    assert not kinds(s, "damage") and s.roller.remaining == 0
    st, s = _v14(50, 3, 4, 6, 2)
    X.answer_effect(st, s, "deflect_blow", "left_leg")
    assert kinds(s, "damage")[0] == {**kinds(s, "damage")[0], "amount": 3, "location": "left_leg"}


def test_v14_attacker_failed_no_damage_and_no_starred_effects() -> None:
    st, s = _v14(80, 20)  # A fails, D succeeds: defender margin 1
    legal = X.legal_effects(st, st.exchange)
    for name in ("attacker_misses", "maximum_parry"):
        assert EFFECT_IDX[name][0] not in legal
    assert not set(EFFECT_IDX["deflect_blow"]) & set(legal)
    X.answer_effect(st, s, "attacker_vulnerable", None)
    assert not kinds(s, "damage") and s.roller.remaining == 0


def test_v15_expose_defender() -> None:
    _, st = duel("swordsman", "swordsman", att_prof={"dm": ""}, def_prof={"armour": (0,) * 7})
    s = sink(30, 90, 6, 11)
    _attack(st, s)
    assert EFFECT_IDX["expose_defender"][0] in X.legal_effects(st, st.exchange)
    X.answer_effect(st, s, "expose_defender", None)
    assert kinds(s, "damage")[0]["amount"] == 6 and s.roller.remaining == 0  # no DP rolled
    _, st = duel("swordsman", "swordsman")
    _attack(st, sink(3, 30))  # A critical vs D success: margin 1 but the defence succeeded
    assert EFFECT_IDX["expose_defender"][0] not in X.legal_effects(st, st.exchange)


def test_v16_simplified_table() -> None:
    _, st = duel("swordsman", "swordsman", {"deflection_points": False}, att_prof={"dm": ""})
    s = sink(3, 90, 5, 10, 90)
    _attack(st, s)
    assert st.decision.context["remaining"] == 2
    assert EFFECT_IDX["maximum_parry"][0] not in X.legal_effects(st, st.exchange)
    X.answer_effect(st, s, "choose_location", "head")
    X.answer_effect(st, s, "bypass_armour", None)
    d = st.combatants[1]
    assert d.loc_hp[HEAD] == 0 and kinds(s, "wound")[0]["result"] == "serious" and d.status == Status.ACTIVE
    _, st = duel("swordsman", "swordsman", {"deflection_points": False})
    s = sink(40, 60)
    _attack(st, s)  # defender partial victory: the attack fails completely
    assert not kinds(s, "damage") and s.roller.remaining == 0


def test_v17_entangle_then_trip() -> None:
    eng, st = duel("whip_fighter", "swordsman")
    s = sink(30, 90, 2, 4, 14)
    _attack(st, s)
    X.answer_effect(st, s, "entangle", None)
    d = st.combatants[1]
    assert d.entangled_loc == RIGHT_ARM and not F.main_usable(d) and F.attack_item(d)[0] == F.UNARMED
    assert TARGETED["entangle_trip"][0] in eng.act_options(st, 0)
    s = sink(20, 90)
    eng._act(st, s, 0, "entangle_trip", 0)
    assert d.prone
    d.entangled_loc = CHEST
    assert F.penalty(d) == 20


def test_v18_impale_pull_free_and_leave() -> None:
    _, st = duel("spearman", "swordsman", att_prof={"weapon": W["shortspear"], "dm": ""})
    s = sink(30, 90, 2, 11, 10, 5, 90, 20)
    _attack(st, s)
    X.answer_effect(st, s, "impale", None)
    assert st.decision.kind == DecisionKind.OPTION  # 8 − 1 (half DP) − 3 armour = 4 wounds the chest
    X.answer_impale(st, s, "impale_pull")
    d = st.combatants[1]
    assert d.loc_hp[CHEST] == 7 - 4 - 5  # pull-free 1d8 = 5, armour ignored
    assert d.status == Status.UNCONSCIOUS  # Serious chest wound, Endurance lost
    _, st = duel("spearman", "swordsman", att_prof={"weapon": W["shortspear"], "dm": ""})
    s = sink(30, 90, 2, 11)
    _attack(st, s)
    X.answer_effect(st, s, "impale", None)
    X.answer_impale(st, s, "impale_leave")
    a, d = st.combatants
    assert d.impaled == 1 and F.penalty(d) == 20 and a.weapon_state == STUCK
    assert F.attack_item(a)[0] == F.UNARMED


def test_v19_skill_halving_rule() -> None:
    eng, st = duel("swordsman", "swordsman", {"skill_halving_rule": True}, att_prof={"skill": 160})
    assert TARGETED["double_precise_attack"][0] in eng.act_options(st, 0)
    s = sink(30, 20)
    _attack(st, s, "double_precise")
    assert kinds(s, "attack")[0]["att_skill"] == 40 and st.decision.context["remaining"] == 2
    _, st = duel("swordsman", "swordsman", att_prof={"skill": 160})
    assert TARGETED["double_precise_attack"][0] not in eng.act_options(duel("swordsman", "swordsman")[1], 0)
    s = sink(30, 20)
    _attack(st, s, "precise")
    assert kinds(s, "attack")[0]["att_skill"] == 80 and st.decision.context["remaining"] == 1


def test_v20_serious_wound_to_a_limb() -> None:
    _, st = duel("swordsman", "sword_and_shield", def_prof={"loc_max": (5, 5, 6, 7, 5, 5, 5)})
    s = sink(90, 20)  # Endurance 90 fails, attacker's skill roll 20 succeeds
    apply_location_damage(st, s, 0, 1, LEFT_ARM, 6, 70, "test")
    d = st.combatants[1]
    assert d.loc_hp[LEFT_ARM] == -1 and (d.useless >> LEFT_ARM) & 1
    assert not F.off_usable(d) and F.base_skill(d) == 70 * 3 // 4  # shield arm lost: ¾ skill


def test_v21_receive_a_mounted_charge_with_a_spear() -> None:
    _, st = duel("mounted_lancer", "spearman", distance="apart", att_prof={"weapon": W["broadsword"]})
    s = sink()
    X.start_attack(st, s, 0, 1, "charge")
    assert st.decision.kind == DecisionKind.REACT and st.decision.context["charge"]
    X.answer_react(st, s, "receive_charge")
    mount_dm = st.combatants[0].prof.mount_dm
    assert mount_dm == "1d12"  # warhorse STR 28 + SIZ 26
    trample = (0, 1, "trample", mount_dm)
    assert st.queue == [(1, 0, "free_strike", mount_dm), (0, 1, "charge_attack", None), trample]
    _, st = duel(
        "mounted_lancer", "spearman", distance="apart"
    )  # couched lance: longer, charger first, then the spearman still gets its blow (issue 10 MRQ 1)
    X.start_attack(st, s, 0, 1, "charge")
    X.answer_react(st, s, "receive_charge")
    assert st.queue == [(0, 1, "charge_attack", mount_dm), (1, 0, "free_strike", mount_dm), trample]


def test_v22_swimming_caps_weapon_skill() -> None:
    assert F.conditions_cap(75, 40, True) == 40 and F.conditions_cap(75, 40, False) == 75


def test_melee_fumble_roll_twice_rerolls_19_20() -> None:
    _, st = duel("swordsman", "swordsman")
    s = sink(19, 1, 20, 2)
    apply_fumble(st, s, 0, 1)
    assert st.combatants[0].lost_ca == 2 and s.roller.remaining == 0
    _, st = duel("swordsman", "swordsman", att_prof={"armour": (0,) * 7})
    s = sink(15, 1)  # armour lost with no armour worn: reroll → stagger
    apply_fumble(st, s, 0, 1)
    assert st.combatants[0].lost_ca == 1


def test_melee_fumble_20_option_breaks_weapon() -> None:
    _, st = duel("swordsman", "swordsman", {"melee_fumble_20_breaks_weapon": True})
    apply_fumble(st, sink(20), 0, 1)
    assert st.combatants[0].weapon_state == BROKEN
