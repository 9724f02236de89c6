"""Rule arithmetic of runequest-glorantha.md: success levels (§8, A1), strike ranks (§3-§6),
penalties, ranges, derived characteristics, and the test vectors that need no fight."""

from __future__ import annotations

from fractions import Fraction

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import EventSink
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import roll_damage
from npc_tactics.systems.runequest.rules.engine import DEFAULT_OPTIONS
from npc_tactics.systems.runequest.rules.magic import spell_sr
from npc_tactics.systems.runequest.rules.resolve import weapon_damage_taken
from npc_tactics.systems.runequest.rules.scenario import _weapon_spec, make_combatant


@pytest.mark.parametrize(
    "skill, expected",
    [
        (50, (3, 10, 50, 98)),  # 2.5 rounds up to 3; fumble 100 - round(2.5) + 1 = 98
        (70, (4, 14, 70, 99)),  # 3.5 -> 4; (100-70)/20 = 1.5 -> 2 -> 99
        (100, (5, 20, 95, 100)),  # success capped at 95, 00 always fumbles
        (3, (1, 1, 5, 96)),  # 01-05 always succeed; minimum 01 for critical and special
        (12, (1, 2, 12, 97)),  # 0.6 -> 1, 2.4 -> 2; 88/20 = 4.4 -> 4 -> 97
    ],
)
def test_thresholds_rounding(skill: int, expected: tuple[int, int, int, int]) -> None:
    assert calc.thresholds(skill) == expected


def test_success_levels_and_exact_probabilities() -> None:
    lv = calc.success_level
    assert [lv(r, 50) for r in (1, 3, 4, 10, 11, 50, 51, 97, 98, 100)] == [
        T.CRIT,
        T.CRIT,
        T.SPECIAL,
        T.SPECIAL,
        T.SUCCESS,
        T.SUCCESS,
        T.FAILURE,
        T.FAILURE,
        T.FUMBLE,
        T.FUMBLE,
    ]
    assert lv(5, 1) == T.SUCCESS and lv(96, 150) == T.FAILURE
    assert calc.level_probabilities(50) == (
        Fraction(3, 100),
        Fraction(7, 100),
        Fraction(40, 100),
        Fraction(47, 100),
        Fraction(3, 100),
    )


def test_strike_rank_tables() -> None:
    assert [calc.dex_sr(d) for d in (5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19)] == [
        5,
        4,
        4,
        3,
        3,
        3,
        2,
        2,
        1,
        1,
        0,
    ]
    assert [calc.siz_sr(s) for s in (6, 7, 14, 15, 21, 22)] == [3, 2, 2, 1, 1, 0]


def test_derived_characteristics() -> None:
    assert calc.damage_bonus(14, 14) == "1d4" and calc.damage_bonus(6, 6) == "-1d4"
    assert calc.damage_bonus(10, 10) == "" and calc.damage_bonus(28, 28) == "2d6"
    assert calc.damage_bonus(30, 30) == "3d6"  # 60: one step of 16 above 56
    assert calc.total_hp(14, 13, 14) == 15 and calc.total_hp(10, 4, 4) == 7
    assert [calc.location_hp(15, r) for r in ("most", "chest", "arm")] == [5, 6, 4]
    assert [calc.location_hp(21, r) for r in ("most", "chest", "arm")] == [7, 8, 6]
    assert calc.max_enc(12, 15) == 12 and calc.max_enc(14, 9) == 12


def test_vector_1_two_arrows_per_round() -> None:
    """DEX SR 3, S/MR, readied: shots at SR 3 and 11; a third would be at 19 > 12."""
    assert calc.shots_per_round(3, "S") == [3, 11]
    assert calc.shots_per_round(3, "1") == [3]


def test_vector_2_vasana_both_readings() -> None:
    """Firearrow (DEX SR 3 + 1 MP = 4), then move 9 m (+3) in parallel with readying the bow (+5),
    then fire
    (+3). Rule reading: 4 + 5 = 9, shot at 12 (legal). Seed-literal reading: 5 + 5 = 10, shot at 13
    (not)."""
    move_and_ready = calc.combined_sr(calc.move_sr(9), T.READY_SR)
    assert calc.combined_sr(3, 5, parallel=False) == 8 and move_and_ready == 5
    rule = calc.chain_sr(4, move_and_ready, seed_literal=False) + 3
    literal = calc.chain_sr(4, move_and_ready, seed_literal=True) + 3
    assert (rule, literal) == (12, 13)
    assert rule <= T.MAX_SR < literal


def test_vector_3_long_spell_spans_rounds() -> None:
    assert calc.split_strike_rank(37) == (3, 1)
    assert calc.split_strike_rank(12) == (0, 12) and calc.split_strike_rank(13) == (1, 1)


def test_vector_7_successive_parries() -> None:
    assert [calc.successive_chance(60, n) for n in range(4)] == [60, 40, 20, 5]


def test_vector_8_dodge_enc() -> None:
    assert calc.dodge_chance(50, 8, 10) == 42
    assert calc.dodge_chance(50, 12, 10) == 30


def test_vector_9_range_bands() -> None:
    assert [80 // max(1, calc.range_divisor(d, 100, False)) for d in (90, 140, 190)] == [80, 40, 20]
    assert calc.range_divisor(210, 100, False) == 0
    assert calc.range_divisor(20, 20, True) == 1 and calc.range_divisor(25, 20, True) == 0  # A10
    assert calc.range_divisor(25, 20, True, thrown_bands=True) == 2


def test_vector_10_surprise() -> None:
    assert (
        7 + calc.surprise_sr(2) == 10 and 7 + calc.surprise_sr(6) == 8 and calc.surprise_sr(12) == 0
    )


def test_vector_12_bladesharp_then_strike_arithmetic() -> None:
    assert [calc.chain_sr(3 + mp - 1, 7, False) for mp in (2, 3, 4)] == [11, 12, 13]


def test_vector_13_rune_spell_sr() -> None:
    """Issue 10 RQ 4: "Les sorts de magie runique prennent toujours effet au rang 1. Si vous dépensez
    plus d'un seul point de magie pour renforcer un sort ... ajoutez un rang d'action pour chaque
    point investi ainsi au-delà du premier" (source L80): Rune points add no SR (Shield 3 at SR 1);
    magic points beyond the first do (Heal Wound with 3 MP at SR 3)."""
    c = make_combatant("orlanthi_warrior", {}, 0, 0.0, DEFAULT_OPTIONS)
    assert spell_sr(c, "shield", 1) == 1 and spell_sr(c, "shield", 3) == 1
    assert spell_sr(c, "heal_wound", 1) == 1 and spell_sr(c, "heal_wound", 3) == 3
    assert spell_sr(c, "bladesharp", 2) == c.spec.dex_sr + 1


def test_vectors_14_15_weapon_damage_codes() -> None:
    assert weapon_damage_taken(8, 10, "P1") == (1, 2)  # shield 8 -> 7, 2 through
    assert weapon_damage_taken(8, 8, "P1") == (0, 0)
    assert weapon_damage_taken(10, 9, "AX") == (0, 0) and weapon_damage_taken(10, 13, "AX") == (
        3,
        0,
    )
    assert weapon_damage_taken(8, 10, "PX") == (2, 2)
    assert weapon_damage_taken(8, 10, "PF") == (8, 2) and weapon_damage_taken(8, 5, "PF") == (5, 0)
    assert weapon_damage_taken(6, 9, "A1") == (1, 0) and weapon_damage_taken(6, 9, "AF") == (6, 0)


def test_vector_16_critical_damage() -> None:
    """Broadsword 1D8+1, db 1D4 rolled 3: 2*8 + 2*1 + 3 = 21 (armour ignored by the cell)."""
    sink = EventSink(ScriptedRoller([3]))
    sword = _weapon_spec("broadsword", 70, None)
    assert roll_damage(sink, sword, "1d4", "max_special", DEFAULT_OPTIONS, 0) == 21
    opts = {**DEFAULT_OPTIONS, "crit_db": "max"}
    assert roll_damage(EventSink(ScriptedRoller([])), sword, "1d4", "max_special", opts, 0) == 22


def test_special_damage_modes() -> None:
    sword = _weapon_spec("broadsword", 70, None)
    maul = _weapon_spec("troll_maul", 60, None)
    assert (
        roll_damage(
            EventSink(ScriptedRoller([5, 6, 2])), sword, "1d4", "special", DEFAULT_OPTIONS, 0
        )
        == 14
    )
    opts = {**DEFAULT_OPTIONS, "special_damage": "by_weapon_type"}
    # crushing: dice once (3 + 4) + maximum db 6
    assert roll_damage(EventSink(ScriptedRoller([3, 4])), maul, "1d6", "special", opts, 0) == 13


def test_vector_20_fumble_table() -> None:
    assert calc.fumble_effect(6) == "lose_attack"  # the corrected 05-08 row
    assert [calc.fumble_effect(r) for r in (1, 4, 5, 8, 9, 12, 13, 15, 16, 18, 19, 20)] == [
        "lose_parry",
        "lose_parry",
        "lose_attack",
        "lose_attack",
        "lose_attack_parry",
        "lose_attack_parry",
        "lose_attack_parry_dodge",
        "lose_attack_parry_dodge",
        "armour_breaks",
        "armour_breaks",
        "drop_weapon",
        "drop_weapon",
    ]


def test_resistance_chance() -> None:
    assert calc.resistance_chance(18, 9) == 95 and calc.resistance_chance(12, 12) == 50
    assert calc.resistance_chance(5, 20) == 5
