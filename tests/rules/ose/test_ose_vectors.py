"""Every test vector of ose-bx.md §11 with forced dice (ScriptedRoller).

Positions are on the 1.5 m grid (one square = 1.5 m). Diagrams: ``G`` goblin, ``F`` fighter, ``O`` orc ...
"""

from __future__ import annotations

from ose_helpers import Fight, scenario

from npc_tactics.rules.base import SideResult, Status
from npc_tactics.systems.ose.rules import legal
from npc_tactics.systems.ose.rules.combat import hit_probability, needed_roll
from npc_tactics.systems.ose.rules.initiative import side_order
from npc_tactics.systems.ose.rules.state import PHASE_MOVE
from npc_tactics.systems.ose.rules.tables import MAX_ENCOUNTER_ROUNDS


def archers() -> dict:
    # G . . . . . . . T      goblin archer (side 0) 12 m from a thief with a sling (side 1): nobody threatened
    return scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 5}],
        [{"template": "thief_1", "name": "T", "position": 12, "hp": 5}],
    )


def test_v1_side_initiative_winner_resolves_everything_first() -> None:
    f = Fight(archers(), [5, 3, 2, 2])  # initiative 5 vs 3, then two missed shots
    f.do("hold", "G:move")
    assert f.kinds("round_start")[0].data["round"] == 1
    assert f.kinds("initiative")[0].data["result"] == "side_0"
    f.do("shoot:enemy_0", "G:missile")
    f.do("hold", "T:move")
    f.do("shoot:enemy_0", "T:missile")
    attacks = f.kinds("attack")
    assert [a.actor for a in attacks] == [0, 1]


def test_v2_three_sides_order() -> None:
    assert side_order([6, 2, 4]) == [[0], [2], [1]]
    assert side_order([4, 4]) == [[0, 1]]


def duel(**kw: object) -> dict:
    #  O F     orc (side 0, 2 HP) adjacent to fighter X (side 1, 3 HP)
    return scenario(
        [{"template": "orc", "name": "O", "position": 0, "hp": 2}],
        [{"template": "fighter_1", "name": "X", "position": 1.5, "hp": 3}],
        **kw,
    )


def test_v3_tie_simultaneous_both_die() -> None:
    # init 4/4 tie; orc hits (15 vs need 15) for 6; fighter (0 HP, dies at the end of the step) hits for 5+1
    f = Fight(duel(), [4, 4, 15, 6, 18, 5])
    f.do("declare_none", "O:declare")
    f.do("declare_none", "X:declare")
    f.do("melee:enemy_0", "O:melee")
    assert f.c("X").hp == 0 and f.c("X").status == Status.ACTIVE  # still strikes back
    f.do("melee:enemy_0", "X:melee")
    out = f.engine.outcome(f.state)
    assert out is not None and out.results == (SideResult.DRAW, SideResult.DRAW)
    assert f.c("O").status == Status.DEAD and f.c("X").status == Status.DEAD


def test_v3_tie_reroll_until_different() -> None:
    f = Fight(duel(), [4, 4, 3, 3, 5, 2, 15, 6], options={"tie_mode": "reroll"})
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "O:melee")
    out = f.engine.outcome(f.state)
    assert out is not None and out.results[0] == SideResult.WIN
    assert f.kinds("initiative")[0].data["rolls"] == [5, 2]


def test_v4_slow_weapon_attacks_at_end_of_round() -> None:
    # F O    side 0's fighter wields a two-handed sword: it strikes after the orc although its side won
    sc = scenario(
        [
            {
                "template": "fighter_1",
                "name": "F",
                "position": 0,
                "hp": 8,
                "weapon": "two_handed_sword",
            }
        ],
        [{"template": "orc", "name": "O", "position": 1.5, "hp": 8}],
    )
    f = Fight(sc, [5, 2, 2, 2])
    f.do("declare_none", "F:declare")
    f.do("declare_none", "O:declare")
    f.do("melee:enemy_0", "O:melee")  # side 0 had nothing to do before the orc's melee
    f.do("melee:enemy_0", "F:slow")
    assert [a.actor for a in f.kinds("attack")] == [1, 0]


def test_v5_individual_initiative_dex_modifier_tie() -> None:
    # an elf-like thief with DEX 16 (+1) rolls 3 -> 4; the goblin rolls 4 -> 4: tie, one simultaneous group
    sc = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "thief_1", "name": "E", "position": 12, "hp": 4, "dex": 16}],
    )
    f = Fight(sc, [4, 3], options={"individual_initiative": True})
    assert f.state.initiative == [4, 4]
    assert f.state.groups == [[0, 1]] and f.state.simul


def test_v6_cover() -> None:
    base = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "thief_1", "name": "T", "position": 12, "hp": 4}],
        cover=[{"at": 12, "level": 1}],
    )
    f = Fight(base, [5, 3, 10])
    f.do("hold")
    f.do("shoot:enemy_0")
    assert f.kinds("attack")[0].data["total"] == 10 + 1 - 1  # short range +1, low table -1
    base["cover"] = [{"at": 12, "level": 4}]
    f = Fight(base, [5, 3, 10])
    f.do("hold")
    f.do("shoot:enemy_0")
    assert f.kinds("attack")[0].data["total"] == 10 + 1 - 4  # giant mushrooms -4
    base["cover"] = [{"at": 12, "level": "full"}]
    f = Fight(base, [5, 3])
    f.do("hold")
    assert f.who() != "G:missile"  # full cover: no shot offered at all


def test_v7_range_bands_and_minimum_distance() -> None:
    # short bow: short <= 10 squares (15 m), medium <= 20, long <= 30; beyond: no shot
    for metres, total in ((15, 11), (30, 10), (45, 9)):
        sc = scenario(
            [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
            [{"template": "fighter_1", "name": "F", "position": metres, "hp": 9}],
        )
        f = Fight(sc, [5, 3, 10])
        f.do("hold")
        f.do("shoot:enemy_0")
        assert f.kinds("attack")[0].data["total"] == total
    far = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 46.5, "hp": 9}],
        escape_distance=60,
    )
    f = Fight(far, [5, 3])
    f.do("hold", "G:move")
    assert f.who() != "G:missile"
    near = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(near, [5, 3])
    f.do("declare_none")
    f.do("declare_none")
    assert (
        f.who() == "G:melee" and "shoot:enemy_0" not in f.legal() and "melee:enemy_0" in f.legal()
    )


def test_v8_matrix_hit() -> None:
    # THAC0 19, d20 14 + STR 1 = 15 hits AC 4 or worse: AC 5 hit, AC 3 miss
    assert needed_roll(19, 5, "matrix") == 14 and 14 + 1 >= 14
    assert needed_roll(19, 3, "matrix") == 16 and 14 + 1 < 16
    sc = scenario(
        [{"template": "bugbear", "name": "B", "position": 0, "hp": 20}],  # AC 5
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(sc, [1, 6, 14, 3])
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "F:melee")
    a = f.kinds("attack")[0]
    assert (a.data["total"], a.data["need"], a.data["result"]) == (15, 14, "hit")


def test_v9_ascending_ac() -> None:
    # AB +2 (THAC0 17), d20 12 + STR 1 = AAC 15: hits AAC 15 (AC 4), misses AAC 16 (AC 3)
    assert 12 + 1 >= needed_roll(17, 4, "ascending")
    assert 12 + 1 < needed_roll(17, 3, "ascending")
    # the matrix clamps (never above 20) where ascending AC does not
    assert needed_roll(19, -3, "matrix") == 20 and needed_roll(19, -3, "ascending") == 22
    assert (
        hit_probability(19, -3, 1, "matrix") == 2 / 20
        and hit_probability(19, -3, 1, "ascending") == 1 / 20
    )


def test_v10_natural_20_and_1() -> None:
    # kobold (THAC0 19) vs fighter_3 (plate + shield, AC 2): needs 17; a natural 20 hits, a natural 1 misses
    sc = scenario(
        [{"template": "kobold", "name": "K", "position": 0, "hp": 4}],
        [{"template": "fighter_3", "name": "F", "position": 1.5, "hp": 30}],
    )
    f = Fight(sc, [6, 1, 20, 2])
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "K:melee")
    assert f.kinds("attack")[0].data["result"] == "natural_20"
    assert hit_probability(19, 2) == 4 / 20 and hit_probability(5, 9, 10) == 19 / 20


def test_v11_minimum_damage() -> None:
    sc = scenario(
        [{"template": "orc", "name": "O", "position": 0, "hp": 8}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9, "str": 5}],
    )
    f = Fight(sc, [1, 6, 20, 1])
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "F:melee")
    assert f.kinds("damage")[0].data["amount"] == 1 and f.c("O").hp == 7  # 1 - 2 = -1 -> 1


def test_v12_invulnerable_no_damage_roll() -> None:
    sc = scenario(
        [{"template": "skeleton", "name": "S", "position": 0, "hp": 8, "immune": ["melee"]}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(sc, [1, 6, 20])  # no damage die is scripted: rolling one would exhaust the script
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "F:melee")
    assert f.kinds("immune") and not f.kinds("damage") and f.c("S").hp == 8


def test_v13_death_at_zero() -> None:
    sc = scenario(
        [{"template": "orc", "name": "O", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9, "str": 10}],
    )
    f = Fight(sc, [1, 6, 20, 3])
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "F:melee")
    assert f.c("O").hp == 0 and f.c("O").status == Status.DEAD
    assert f.engine.outcome(f.state).results == (SideResult.LOSS, SideResult.WIN)


def test_v14_retreat_plus_two_no_shield_no_attack() -> None:
    # O F   the fighter (AC 4 with shield) retreats 4 squares; the orc (8 squares/round) follows and strikes
    sc = scenario(
        [{"template": "orc", "name": "O", "position": 0, "hp": 6}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(sc, [2, 5, 10, 1])
    f.do("declare_none", "O:declare")
    f.do("declare_retreat", "F:declare")
    assert f.c("F").pos == 5  # retreated at once (side 1 won), no melee step offered to the fighter
    f.do("close:enemy_0", "O:move")
    f.do("melee:enemy_0", "O:melee")
    a = f.kinds("attack")[0]
    assert a.actor == 0 and a.data["need"] == 19 - 5 and a.data["total"] == 12
    assert not [e for e in f.kinds("attack") if e.actor == 1]


def test_v15_fighting_withdrawal_half_move_and_clear_path() -> None:
    # G M    an unarmoured magic-user (12 m/round = 8 squares) withdraws 4 squares (6 m)
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [{"template": "magic_user_1", "name": "M", "position": 1.5, "hp": 4, "spells": {}}],
    )
    f = Fight(sc, [1, 6])
    f.do("declare_none")
    f.do("declare_withdraw", "M:declare")
    ev = [e for e in f.kinds("move") if e.actor == 1][0]
    assert ev.data["result"] == "withdraw" and ev.data["end"] - ev.data["start"] == 4
    # G M G  enemies on both sides: no clear path, the withdrawal cannot be declared
    sc = scenario(
        [
            {"template": "goblin", "name": "G1", "position": 0, "hp": 3},
            {"template": "goblin", "name": "G2", "position": 3, "hp": 3},
        ],
        [{"template": "magic_user_1", "name": "M", "position": 1.5, "hp": 4, "spells": {}}],
    )
    f = Fight(sc, [1, 6])
    f.do("declare_none")
    f.do("declare_none")
    assert (
        f.who() == "M:declare"
        and "declare_withdraw" not in f.legal()
        and "declare_retreat" in f.legal()
    )


def caster(hp: int = 5) -> dict:
    # G M   a goblin adjacent to a magic-user who declares Sleep
    return scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [{"template": "magic_user_1", "name": "M", "position": 1.5, "hp": hp}],
    )


def test_v16_spell_disrupted_when_hit_first() -> None:
    f = Fight(caster(), [6, 1, 20, 1])  # goblin's side wins, natural 20, 1 damage
    f.do("declare_none", "G:declare")
    f.do("cast:sleep:enemy_0", "M:declare")
    f.do("melee:enemy_0", "G:melee")
    assert f.kinds("spell_disrupted") and not f.kinds("spell")
    assert f.c("M").spells[1] == 0 and f.c("G").status == Status.ACTIVE


def test_v16_spell_cast_when_attack_misses() -> None:
    f = Fight(caster(), [6, 1, 2, 3, 4])  # miss, then Sleep rolls 2d8 = 7 HD
    f.do("declare_none")
    f.do("cast:sleep:enemy_0")
    f.do("melee:enemy_0", "G:melee")
    assert [e.data["result"] for e in f.kinds("spell")] == ["cast"]
    assert f.c("G").status == Status.INCAPACITATED
    assert f.engine.outcome(f.state).results == (SideResult.LOSS, SideResult.WIN)


def test_v17_no_move_when_casting() -> None:
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [{"template": "magic_user_2", "name": "M", "position": 15, "hp": 5}],
    )
    f = Fight(sc, [1, 6, 6])
    f.do("cast:magic_missile:enemy_0", "M:declare")
    m = f.engine  # the magic-user's side acts first: no move step is offered, the missile flies
    assert f.c("M").pos == 10 and [e.data["result"] for e in f.kinds("spell")] == ["cast"]
    assert f.c("G").status == Status.DEAD and m.outcome(f.state) is not None


def test_v17_casting_offers_no_move_step() -> None:
    f = Fight(caster(), [])
    f.state.combatants[1].casting = 1
    assert legal.act(f.state, 1, PHASE_MOVE) == []


def test_v18_encounter_movement_limit_never_reached() -> None:
    from npc_tactics.systems.ose.rules.content import list_scenarios, load_scenario

    assert all(load_scenario(n).max_rounds <= MAX_ENCOUNTER_ROUNDS for n, _ in list_scenarios())
