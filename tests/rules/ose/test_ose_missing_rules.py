"""Issue 10, OSE point 9: rules a referee expects that were missing (rules 0.2.0), with forced dice.

Daylight penalty, morale situational modifier, surrender, surprise, evasion and pursuit. Published OSE
rules (not in the French source text); docs/ose.md says which were checked and where.
"""

from __future__ import annotations

from ose_helpers import Fight, scenario

from npc_tactics.rules.base import SideResult, Status


def test_goblins_minus_1_to_hit_in_full_daylight() -> None:
    """OSE Goblin: "−1 to hit in full daylight"."""
    for daylight, total in ((False, 15), (True, 14)):
        sc = scenario(
            [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
            [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
            daylight=daylight,
        )
        f = Fight(sc, [6, 1, 15, 1])
        f.do("declare_none", "G:declare")
        f.do("declare_none", "F:declare")
        f.do("melee:enemy_0", "G:melee")
        assert f.kinds("attack")[0].data["total"] == total


def band(mod: int = 0, cornered: bool = False) -> dict:
    # (F2) G1 G2 F   two goblins (ML 7); F kills G1 and the survivors check morale
    side1 = [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}]
    if cornered:
        side1.append({"template": "fighter_1", "name": "F2", "position": -1.5, "hp": 9})
    return {
        "name": "test",
        "sides": [
            {
                "combatants": [
                    {"template": "goblin", "name": "G1", "position": 0, "hp": 1},
                    {"template": "goblin", "name": "G2", "position": 0, "hp": 5},
                ],
                "morale_mod": mod,
            },
            {"combatants": side1},
        ],
    }


def kill_g1(f: Fight, cornered: bool = False) -> None:
    f.do("declare_none", "G1:declare")
    f.do("declare_none", "G2:declare")
    f.do("declare_none", "F:declare")
    if cornered:
        f.do("declare_none", "F2:declare")
    f.do("melee:enemy_0", "F:melee")  # natural 20, 1 damage: G1 dies
    if cornered:
        f.do("hold", "F2:melee")


def test_morale_situational_modifier() -> None:
    """OSE morale: the referee may apply −2..+2 to ML (e.g. −1 for the losing side)."""
    f = Fight(band(), [1, 6, 20, 1, 3, 3])  # 2d6 = 6 <= ML 7: passes
    kill_g1(f)
    assert f.c("G2").status == Status.ACTIVE
    f = Fight(band(-2), [1, 6, 20, 1, 3, 3])  # 6 > ML 7 − 2: flees
    kill_g1(f)
    assert f.c("G2").status == Status.FLED
    assert f.kinds("morale")[0].data["morale"] == 5


def test_failed_morale_when_cornered_is_a_surrender() -> None:
    """OSE morale: a failed check means the monsters "flee or surrender"; with no way back it surrenders."""
    f = Fight(band(cornered=True), [1, 6, 20, 1, 6, 2])  # 2d6 = 8 > ML 7
    kill_g1(f, cornered=True)
    assert f.c("G2").status == Status.SURRENDERED
    out = f.engine.outcome(f.state)
    assert out is not None and out.results == (SideResult.LOSS, SideResult.WIN)


def test_surprise_loses_the_first_round() -> None:
    """OSE surprise (option): 1d6 per side, surprised on 1–2; a surprised side does nothing in round 1."""
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(sc, [2, 5, 4, 3], options={"surprise": True})  # goblins surprised; initiative 4/3
    assert f.state.surprised == (True, False)
    assert f.who() == "F:declare"  # the goblin is not asked
    f.do("declare_none", "F:declare")
    assert f.state.groups == [[1]] and f.who() == "F:melee"
    f.do("hold", "F:melee")
    assert f.state.round == 2 and f.who() == "G:declare" and f.state.surprised == (False, False)
    both = Fight(sc, [1, 2], options={"surprise": True})  # both surprised: nobody loses the round
    assert both.state.surprised == (False, False) and both.who() == "G:declare"


def test_bugbear_surprises_on_1_to_3() -> None:
    sc = scenario(
        [{"template": "bugbear", "name": "B", "position": 0, "hp": 14}],
        [{"template": "fighter_1", "name": "F", "position": 12, "hp": 9}],
    )
    f = Fight(sc, [4, 3], options={"surprise": True})
    assert f.state.surprised == (False, True)


def test_a_faster_enemy_runs_a_fleeing_one_down() -> None:
    """OSE evasion: fleeing creatures escape a slower pursuer; a faster one can catch them. The goblin (20')
    moving off beyond the escape distance has not escaped while an unengaged orc (40') pursues."""
    for foe, fled in (("orc", False), ("fighter_1", True)):
        sc = scenario(
            [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
            [{"template": foe, "name": "E", "position": 3, "hp": 9}],
            escape_distance=6,
        )
        f = Fight(sc, [6, 1])
        f.do("move_away", "G:move")
        assert (f.c("G").status == Status.FLED) is fled, foe


def test_thrown_weapon_then_no_melee_without_a_spare() -> None:
    """OSE weapons: dagger, hand axe and spear are melee weapons that can be thrown (spear 20'/40'/60').
    An orc with one spear throws it at +1 (short range) and then has nothing to fight with."""
    sc = scenario(
        [{"template": "orc", "name": "O", "position": 0, "hp": 4}],
        [{"template": "fighter_1", "name": "F", "position": 6, "hp": 9}],
    )
    f = Fight(sc, [6, 1, 14, 3])  # orc's side first; d20 = 14 +1 short range = 15 hits AC 4; damage 3
    f.do("hold", "O:move")
    assert "shoot:enemy_0" in f.legal()
    f.do("shoot:enemy_0", "O:missile")
    assert f.kinds("attack")[0].data["total"] == 15 and f.c("F").hp == 6 and f.c("O").ammo == 0
    f.do("close:enemy_0", "F:move")
    f.do("hold", "F:melee")
    f.do("declare_none", "O:declare")
    f.do("declare_none", "F:declare")
    from npc_tactics.systems.ose.rules import legal
    from npc_tactics.systems.ose.rules.state import PHASE_MELEE

    assert legal.act(f.state, 0, PHASE_MELEE) == []  # no weapon left
    spare = Fight(scenario([{**sc["sides"][0]["combatants"][0], "ammo": 2}], sc["sides"][1]["combatants"]), [])
    spare.state.combatants[0].ammo = 1
    assert legal.act(spare.state, 0, PHASE_MELEE) == []  # not adjacent: nothing to strike
    spare.state.combatants[0].pos = 3
    assert legal.act(spare.state, 0, PHASE_MELEE) != []


def test_set_spear_strikes_a_charger_first_for_double_damage() -> None:
    """OSE quality "Brace": bracing against the ground doubles damage against charging monsters; the set
    weapon strikes as the charger comes in reach (BECMI), here before the goblin's own attack."""
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 7}],
        [{"template": "fighter_1", "name": "S", "position": 7.5, "hp": 9, "weapon": "spear"}],
    )
    f = Fight(sc, [6, 1, 15, 3])  # goblin first, closes 4 squares (6 m); spear hits, 1d6 = 3 -> 6 (+1 STR)
    f.do("close:enemy_0", "G:move")
    assert f.kinds("set_vs_charge") and f.kinds("move")[0].data["charge"]
    assert f.c("G").hp == 0 and f.c("G").status == Status.DEAD
    g = Fight(sc, [6, 1, 15, 3], options={"set_vs_charge": False})
    g.do("close:enemy_0", "G:move")
    assert not g.kinds("set_vs_charge") and g.who() == "G:melee"
    short = scenario(
        [{"template": "goblin", "name": "G", "position": 3, "hp": 7}],
        [{"template": "fighter_1", "name": "S", "position": 7.5, "hp": 9, "weapon": "spear"}],
    )
    h = Fight(short, [6, 1])  # only 2 squares: not a charge
    h.do("close:enemy_0", "G:move")
    assert not h.kinds("set_vs_charge")
