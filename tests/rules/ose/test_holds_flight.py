"""Flying in play, holds, constriction and swallowing whole, with forced dice (docs/ose-monsters.md "Flying"
and "Holds").

Sources: the OSE SRD mirror itaiag/OSE.SRD.Wiki@9e35b355560b30b65fb7e9fe2ad60318bf2633f1, "7. Monsters/Monster
Stats/": Snake.md (rock python, constriction: 2d4 automatic at once and every round after), Rhagodessa.md (a
sucker hit sticks the victim, bitten automatically the next round), Purple Worm.md (a bite roll of 20, or 4 or
more above the number needed, swallows a man-sized victim: 3d6 a round, edged weapons at -4 from inside),
Toad, Giant.md (a natural 20 swallows a small victim), Caecilia.md (a natural 19 or 20; a dagger from inside).
Flight: the open text gives the flying rates only; the B/X reading is written in docs/ose.md (option
``flyer_disengage``).
"""

from __future__ import annotations

from typing import Any

from ose_helpers import Fight, scenario

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules import movement

PYTHON = ("AC 6 [13], HD 5* (22hp), Att 1 × bite (1d4 + constriction), THAC0 15 [+4], MV 90' (30'), "
          "SV D12 W13 P14 B15 S16 (3), ML 8, AL Neutral, XP 300")
RHAGODESSA = ("AC 5 [14], HD 4+2 (20hp), Att 1 × sucker (hold), 1 × bite (2d8), THAC0 15 [+4], MV 150' (50'), "
              "SV D12 W13 P14 B15 S16 (2), ML 9, AL Neutral, XP 125")
BAT = ("AC 6 [13], HD 2 (9hp), Att 1 × bite (1d4), THAC0 18 [+1], MV 30' (10') / 180' (60') flying, "
       "SV D12 W13 P14 B15 S16 (1), ML 8, AL Neutral, XP 20")
STEED = ("AC 7 [12], HD 2 (9hp), Att 1 × hoof (1d4), THAC0 18 [+1], MV 240' (80'), SV D12 W13 P14 B15 S16 (1), "
         "ML 12, AL Neutral, XP 20")
HERO = {"template": "fighter_3", "hp": 30}  # THAC0 19, AC 2 (plate and shield), STR 16 (+2), sword (1d6)


def play_to(f: Fight, who: str) -> None:
    """Answer every other decision with its do-nothing choice until ``who`` (``name:phase``) is asked."""
    while f.who() != who:
        assert f.who(), f"the fight ended before {who}"
        f.do("declare_none" if f.who().endswith(":declare") else "hold")


def moved(f: Fight, actor: int = 0) -> dict[str, Any]:
    """Answer the do-nothing choice until ``actor`` has moved; its move event's data."""
    while not any(e.actor == actor for e in f.kinds("move")):
        assert f.who(), "the fight ended"
        f.do("declare_none" if f.who().endswith(":declare") else "hold")
    return [e for e in f.kinds("move") if e.actor == actor][-1].data


def duel(monster: dict[str, Any], hero: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return scenario([{"name": "M", "position": 0, **monster}], [{"name": "H", "position": 1.5, **(hero or HERO)}],
                    **kw)


# ----- constriction and holds ---------------------------------------------------------------------------------
def test_python_bite_coils_round_for_2d4_at_once_then_squeezes_each_round_unrolled() -> None:
    # round 1: initiative 6 / 1; bite 20 hits, 1d4 = 3, constriction 2d4 = 2 + 3 at once
    f = Fight(duel({"stat_block": PYTHON, "hp": 22, "constrict": "2d4"}), [6, 1, 20, 3, 2, 3, 6, 1, 4, 4])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert [(e.data["effect"], e.data["result"]) for e in f.kinds("effect")] == [("constriction", "held")]
    assert [e.data["cause"] for e in f.kinds("damage")] == ["melee", "constriction"]
    assert f.c("H").hp == 30 - 3 - 5 and f.c("H").held_by == 0 and f.c("M").attached == 1
    play_to(f, "M:declare")
    f.do("declare_none")
    assert f.who() != "H:declare"  # coiled round: nothing to declare (no withdrawal, no retreat)
    # round 2: initiative 6 / 1; the python squeezes: 2d4 = 4 + 4, no attack roll
    attacks = len(f.kinds("attack"))
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert len(f.kinds("attack")) == attacks
    assert f.kinds("effect")[-1].data == {"effect": "constriction", "result": "squeezes"}
    assert f.c("H").hp == 22 - 8


def test_python_without_a_constrict_key_squeezes_for_its_bite_damage() -> None:
    f = Fight(duel({"stat_block": PYTHON, "hp": 22}), [6, 1, 20, 3, 4])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.c("H").hp == 30 - 3 - 4


def test_held_victim_can_move_again_once_the_holder_is_down() -> None:
    f = Fight(duel({"stat_block": PYTHON, "hp": 1, "constrict": "2d4"}), [6, 1, 20, 3, 2, 3, 20, 1])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    f.do("melee:enemy_0", "H:melee")  # 20: the python (1 hp) dies
    assert f.c("M").status == Status.DEAD and f.state.result is not None


def test_rhagodessa_sucker_holds_then_next_round_its_strikes_hit_unrolled() -> None:
    # round 1: sucker 20 holds (no damage), bite 2 misses (needs 15 - 2 = 13); round 2 (6 / 1): sucker and bite
    # hit with no roll, bite 2d8 = 5 + 5
    f = Fight(duel({"stat_block": RHAGODESSA, "hp": 20}), [6, 1, 20, 2, 6, 1, 5, 5])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert [(e.data["effect"], e.data["result"]) for e in f.kinds("effect")] == [("hold", "held")]
    assert f.c("H").hp == 30 and len(f.kinds("attack")) == 2
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert len(f.kinds("attack")) == 2
    assert [e.data["result"] for e in f.kinds("effect")][1:] == ["automatic", "automatic"]
    assert f.c("H").hp == 20


# ----- swallowing whole ----------------------------------------------------------------------------------------
def worm_fight(worm_hp: int, dice: list[int], **hero: Any) -> Fight:
    sc = scenario([{"name": "M", "template": "purple_worm", "position": 0, "hp": worm_hp}],
                  [{"name": "H", "position": 1.5, **HERO, **hero},
                   {"name": "H2", "position": -1.5, "template": "fighter_3", "hp": 30}])
    return Fight(sc, dice)


def test_purple_worm_natural_20_swallows_then_victim_cuts_at_minus_4_and_is_digested_3d6() -> None:
    # round 1: 6 / 1; bite 20, 2d8 = 1 + 1: swallowed (the sting is lost: its target is gone). H2 holds. End of
    # round: H strikes from inside, 18 + 2 - 4 = 16 >= 13 (THAC0 19 - AC 6): 1d6 = 4 + 2; digestion 3d6 = 1+2+3
    f = worm_fight(67, [6, 1, 20, 1, 1, 18, 4, 1, 2, 3])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.kinds("effect")[-1].data == {"effect": "swallow", "result": "swallowed"}
    h = f.c("H")
    assert h.status == Status.INCAPACITATED and h.inside and h.held_by == 0 and h.hp == 28
    assert f.kinds("status")[-1].data["cause"] == "swallowed" and len(f.kinds("attack")) == 1
    play_to(f, "M:declare")
    last = f.kinds("attack")[-1].data
    assert (last["roll"], last["total"], last["need"]) == (18, 16, 13)
    assert f.c("M").hp == 67 - 6
    assert f.kinds("effect")[-1].data == {"effect": "swallow", "result": "digests"}
    assert f.kinds("damage")[-1].data["cause"] == "digestion" and h.hp == 28 - 6


def test_purple_worm_swallows_four_over_the_number_needed_but_not_less() -> None:
    # needs 9 - 2 = 7: a roll of 11 is 4 over: swallowed; a roll of 10 only hits (then the sting misses on 1)
    f = worm_fight(67, [6, 1, 11, 1, 1])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.c("H").inside
    f = worm_fight(67, [6, 1, 10, 1, 1, 1])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert not f.c("H").inside and len(f.kinds("attack")) == 2


def test_a_swallowed_victim_is_freed_when_the_worm_dies() -> None:
    # H is swallowed; H2 kills the worm (3 hp) in its melee step: H comes out, active again, at the worm's square
    f = worm_fight(3, [6, 1, 20, 1, 1, 20, 3])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    play_to(f, "H2:melee")
    f.do("melee:enemy_0")
    assert f.c("M").status == Status.DEAD
    h = f.c("H")
    assert h.status == Status.ACTIVE and not h.inside and h.held_by == -1 and h.pos == 0
    assert [e.data["result"] for e in f.kinds("effect")][-1] == "released"
    assert f.kinds("status")[-1].data["cause"] == "released"


def test_giant_toad_swallows_only_small_victims() -> None:
    f = Fight(duel({"template": "giant_toad", "hp": 11}), [6, 1, 20, 2])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.kinds("effect")[-1].data == {"effect": "swallow", "result": "unaffected"}
    assert not f.c("H").inside
    sc = scenario([{"name": "M", "template": "giant_toad", "position": 0, "hp": 11}],
                  [{"name": "H", "position": 1.5, "template": "halfling_1", "hp": 6},
                   {"name": "H2", "position": -1.5, "template": "fighter_3", "hp": 30}])
    f = Fight(sc, [6, 1, 20, 2])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.c("H").inside and f.c("H").status == Status.INCAPACITATED


def test_caecilia_swallows_on_a_natural_19_and_only_a_dagger_cuts_from_inside() -> None:
    # caecilia THAC0 14 vs AC 2: needs 12; 19 hits and swallows; H's sword cannot cut: no attack from inside;
    # digestion 1d8 = 5
    sc = scenario([{"name": "M", "template": "caecilia", "position": 0, "hp": 27}],
                  [{"name": "H", "position": 1.5, **HERO}, {"name": "H2", "position": -1.5, **HERO}])
    f = Fight(sc, [6, 1, 19, 1, 5])
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.c("H").inside
    play_to(f, "M:declare")
    assert len(f.kinds("attack")) == 1 and f.c("H").hp == 30 - 1 - 5


# ----- flying --------------------------------------------------------------------------------------------------
def test_a_flyer_retreats_at_its_flying_rate() -> None:
    # giant bat: 30' (10') on foot = 2 squares, 180' (60') flying = 12 squares
    for option, end in (("declared", -12), ("none", -2)):
        f = Fight(duel({"stat_block": BAT, "hp": 9}), [6, 1], {"flyer_disengage": option})
        f.do("declare_retreat", "M:declare")
        move = moved(f)
        assert (move["result"], move["end"]) == ("retreat", end), option


def test_a_flyer_withdraws_over_an_enemy_a_walker_cannot() -> None:
    # the bat at square 1 between two fighters (0 and 2): its way back (toward square 0) is held by an enemy
    sc = scenario([{"name": "M", "stat_block": BAT, "position": 1.5, "hp": 9}],
                  [{"name": "H", "position": 0, **HERO}, {"name": "H2", "position": 3, **HERO}])
    f = Fight(sc, [6, 1])
    assert "declare_withdraw" in f.legal()
    f.do("declare_withdraw", "M:declare")
    move = moved(f)
    assert move["result"] == "withdraw" and move["end"] == 1 - 6  # half of 12 squares, over square 0
    f = Fight(sc, [6, 1], {"flyer_disengage": "none"})
    assert "declare_withdraw" not in f.legal() and "declare_retreat" in f.legal()


def test_only_a_faster_flyer_pursues_a_flyer() -> None:
    # a steed (240' (80'): 16 squares) is faster than the bat's 12 flying squares but cannot follow it up
    sc = scenario([{"name": "M", "stat_block": BAT, "position": 0, "hp": 9}],
                  [{"name": "H", "position": 30, "stat_block": STEED, "hp": 9}])
    f = Fight(sc, [6, 1])
    assert not movement.pursued(f.state, 0)
    f = Fight(sc, [6, 1], {"flyer_disengage": "none"})  # on foot (2 squares): the steed runs it down
    assert movement.pursued(f.state, 0)


def test_option_free_lets_an_engaged_flyer_fly_off_in_its_move_step() -> None:
    f = Fight(duel({"stat_block": BAT, "hp": 9}), [6, 1], {"flyer_disengage": "free"})
    f.do("declare_none", "M:declare")
    play_to(f, "M:move")
    assert "move_away" in f.legal()
    f.do("move_away")
    assert f.c("M").pos == -12 and not f.c("M").retreating
    f = Fight(duel({"stat_block": BAT, "hp": 9}), [6, 1])  # published default: no move in melee undeclared
    f.do("declare_none", "M:declare")
    play_to(f, "M:melee")


# ----- averting the eyes from a petrifying gaze (option avert_gaze) --------------------------------------------
def test_averted_eyes_no_gaze_save_minus_4_to_hit_the_medusa_and_it_plus_2() -> None:
    # Medusa.md: "averting the eyes: -4 to hit; the medusa gets +2 to hit". Medusa first (6 / 1): no gaze save,
    # bite 10 + 2 = 12 (needs 16 - 2 = 14): miss. H: 15 + 2 (STR) - 4 = 13 (needs 19 - 8 = 11): hit
    f = Fight(duel({"template": "medusa", "hp": 18}), [6, 1, 10, 15, 3], {"avert_gaze": "avert"})
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.kinds("effect")[-1].data == {"effect": "gaze_petrification", "result": "averted"}
    assert f.kinds("attack")[-1].data["total"] == 12 and f.c("H").status == Status.ACTIVE
    play_to(f, "H:melee")
    f.do("melee:enemy_0")
    assert f.kinds("attack")[-1].data["total"] == 13 and f.c("M").hp == 18 - (3 + 2)


def test_a_mirror_is_minus_1_and_without_the_option_the_target_saves() -> None:
    f = Fight(duel({"template": "medusa", "hp": 18}), [6, 1, 10, 15], {"avert_gaze": "mirror"})
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.kinds("effect")[-1].data["result"] == "mirror" and f.kinds("attack")[-1].data["total"] == 10
    play_to(f, "H:melee")
    f.do("melee:enemy_0")
    assert f.kinds("attack")[-1].data["total"] == 15 + 2 - 1
    f = Fight(duel({"template": "medusa", "hp": 18}), [6, 1, 3])  # default: the gaze is met, save 3 fails
    play_to(f, "M:melee")
    f.do("melee:enemy_0")
    assert f.kinds("effect")[0].data["result"] == "failed" and f.c("H").status == Status.INCAPACITATED
