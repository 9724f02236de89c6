"""Morale (ose-bx.md §4) and the published spells (Magic Missile, Sleep, Hold Person, Cure Light Wounds)."""

from __future__ import annotations

from ose_helpers import Fight, scenario

from npc_tactics.rules.base import Status


def band() -> dict:
    # G1 G2 F     two goblins (ML 7): G1 is killed, the survivors check morale at their side's next turn
    return scenario(
        [
            {"template": "goblin", "name": "G1", "position": 0, "hp": 1},
            {"template": "goblin", "name": "G2", "position": 0, "hp": 5},
        ],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )


def kill_g1(f: Fight) -> None:
    f.do("declare_none", "G1:declare")
    f.do("declare_none", "G2:declare")
    f.do("declare_none", "F:declare")
    f.do(
        "melee:enemy_0", "F:melee"
    )  # natural 20, 1 damage: G1 dies (first death + half the side out)


def test_morale_failure_flees() -> None:
    f = Fight(band(), [1, 6, 20, 1, 6, 2])  # morale 2d6 = 8 > ML 7
    kill_g1(f)
    assert f.c("G2").status == Status.FLED
    assert [e.data["result"] for e in f.kinds("morale")] == ["failed"]
    assert f.engine.outcome(f.state).results[0].name == "FLED"


def test_morale_pass_and_fearless_after_two() -> None:
    f = Fight(band(), [1, 6, 20, 1, 3, 4])  # 7 <= ML 7: passed
    kill_g1(f)
    assert f.c("G2").status == Status.ACTIVE and f.c("G2").morale_passes == 1


def test_morale_option_off() -> None:
    f = Fight(band(), [1, 6, 20, 1], options={"morale": False})
    kill_g1(f)
    assert not f.kinds("morale") and f.c("G2").status == Status.ACTIVE


def test_skeleton_never_checks_morale() -> None:
    sc = scenario(
        [
            {"template": "skeleton", "name": "S1", "position": 0, "hp": 1},
            {"template": "skeleton", "name": "S2", "position": 0, "hp": 5},
        ],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
    )
    f = Fight(sc, [1, 6, 20, 1])
    f.do("declare_none")
    f.do("declare_none")
    f.do("declare_none")
    f.do("melee:enemy_0", "F:melee")
    assert not f.kinds("morale")


def test_hold_person_save_at_minus_two() -> None:
    # P . . . . F   the priest (side 0) holds the fighter (save vs spells 16, at -2)
    sc = scenario(
        [{"template": "evil_priest", "name": "P", "position": 0, "hp": 10}],
        [{"template": "fighter_1", "name": "F", "position": 15, "hp": 9}],
    )
    f = Fight(sc, [6, 1, 17])  # save roll 17 - 2 = 15 < 16: held
    f.do("cast:hold_person:enemy_0", "P:declare")
    assert f.c("F").status == Status.INCAPACITATED
    assert [e.data["result"] for e in f.kinds("save")] == ["failed"]
    f = Fight(sc, [6, 1, 18])  # 18 - 2 = 16: saved
    f.do("cast:hold_person:enemy_0", "P:declare")
    assert f.c("F").status == Status.ACTIVE


def test_hold_person_does_not_affect_undead() -> None:
    sc = scenario(
        [{"template": "skeleton", "name": "S", "position": 15, "hp": 4}],
        [{"template": "evil_priest", "name": "P", "position": 0, "hp": 10}],
    )
    f = Fight(sc, [1, 6])
    f.do("cast:hold_person:enemy_0", "P:declare")
    assert [e.data["result"] for e in f.kinds("hold")] == ["unaffected"] and f.c(
        "S"
    ).status == Status.ACTIVE


def test_sleep_fewest_hd_first_within_budget() -> None:
    # K K G H . . . M    Sleep on the goblin: 2d8 = 3 HD -> the kobolds (1) and goblin (1); hobgoblin stays up
    sc = scenario(
        [
            {"template": "kobold", "name": "K1", "position": 0, "hp": 2},
            {"template": "kobold", "name": "K2", "position": 0, "hp": 2},
            {"template": "goblin", "name": "G", "position": 1.5, "hp": 3},
            {"template": "hobgoblin", "name": "H", "position": 1.5, "hp": 5},
        ],
        [{"template": "magic_user_1", "name": "M", "position": 24, "hp": 4}],
    )
    f = Fight(sc, [1, 6, 1, 2])
    f.do("cast:sleep:enemy_2", "M:declare")
    asleep = [c.name for c in f.state.combatants if c.status == Status.INCAPACITATED]
    assert asleep == ["K1", "K2", "G"] and f.c("H").status == Status.ACTIVE


def test_magic_missile_and_cure_light_wounds() -> None:
    from npc_tactics.systems.ose.rules.content import load_situation

    sit = {
        "acting": "C",
        "sides": [
            {"combatants": [{"template": "ogre", "name": "O", "position": 0, "hp": 20}]},
            {
                "combatants": [
                    {"template": "cleric_2", "name": "C", "position": 15, "hp": 3, "max_hp": 9},
                    {"template": "magic_user_2", "name": "M", "position": 18, "hp": 5},
                ]
            },
        ],
    }
    f = Fight(scenario([{"template": "ogre"}], [{"template": "fighter_1"}]), [])
    f.state = load_situation(f.engine, sit, f.roller)
    f.roller.faces += [1, 6, 4, 2]  # initiative 1 / 6, heal 1d6+1 = 5, missile 1d6+1 = 3
    assert "cast:cure_light_wounds:self" in f.legal()
    f.do("cast:cure_light_wounds:self", "C:declare")
    f.do("cast:magic_missile:enemy_0", "M:declare")
    assert f.kinds("heal")[0].data["amount"] == 5 and f.c("C").hp == 8
    dmg = [e for e in f.kinds("damage") if e.data["cause"] == "magic_missile"]
    assert dmg and dmg[0].data["amount"] == 3 and f.c("O").hp == 17
    assert f.c("C").spells[3] == 0 and f.c("M").spells[0] == 0
