"""Issue 10, OSE points 1-8: forced-dice tests of what a B/X referee would catch (rules 0.2.0).

Each test quotes the rule it pins: the French source (shared/seeds/ose-bx.fr.txt, "L<n>") or the published
OSE rule (docs/ose.md "Published data checked" says what was verified and where).
"""

from __future__ import annotations

import numpy as np
from ose_helpers import Fight, scenario

from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.rules.base import EventSink, SideResult, Status
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules import combat, legal
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.state import PHASE_MELEE, PHASE_MISSILE
from npc_tactics.systems.ose.rules.templates import make_template


def test_p1_magic_missile_damage_disrupts_a_caster_who_lost_initiative() -> None:
    """L88: "Si un lanceur de sort ayant perdu l'initiative est attaqué avec succès ... avant son tour, le
    sort qu'il s'apprêtait à lancer est interrompu." A Magic Missile hits unerringly: it is a successful
    attack, so its damage disrupts like a blow."""
    sc = scenario(
        [{"template": "magic_user_2", "name": "A", "position": 0, "hp": 6}],
        [{"template": "magic_user_1", "name": "B", "position": 15, "hp": 6}],
    )
    f = Fight(sc, [6, 1, 2])  # A's side wins initiative; missile 1d6+1 = 3
    f.do("cast:magic_missile:enemy_0", "A:declare")
    f.do("cast:sleep:enemy_0", "B:declare")
    assert [e.data["spell"] for e in f.kinds("spell_disrupted")] == ["sleep"]
    assert f.c("B").hp == 3 and f.c("B").spells[1] == 0  # erased from memory "comme s'il avait été lancé"
    assert f.c("A").status == Status.ACTIVE and [e.actor for e in f.kinds("spell")] == [0]


def test_p2_tied_movement_is_not_won_by_side_0() -> None:
    """L25: a tie means both sides act simultaneously. The move step of a tied round is ordered by a d6
    roll-off (A3b), so side 1 moves first when it wins it; side 0 used to move first every time."""
    sc = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 12, "hp": 9}],
    )
    f = Fight(sc, [3, 3, 2, 5])  # initiative tie 3/3; move order: side 0 rolls 2, side 1 rolls 5
    assert f.who() == "F:move"
    assert f.events[-1].kind == "move_order"  # rolled by new_combat, before the first decision
    f.do("close:enemy_0", "F:move")
    assert f.who() == "G:move" and f.c("F").pos == 4
    g = Fight(sc, [3, 3, 5, 2])
    assert g.who() == "G:move"


def test_p2_tied_move_order_is_fair_over_many_rounds() -> None:
    sc = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 12, "hp": 9}],
    )
    firsts = []
    eng = OSEEngine()
    for seed in range(200):
        roller = ScriptedRoller([3, 3], then=RngRoller(np.random.default_rng(seed)))
        st, _ = eng.new_combat(sc, roller)
        firsts.append(st.combatants[eng.pending(st).actor].name)
    share = firsts.count("G") / len(firsts)
    assert 0.35 < share < 0.65, share


def test_p3_sleep_takes_the_casters_allies_in_the_area() -> None:
    """OSE Sleep affects "2d8 Hit Dice of creatures" in the area, friend or foe (the spell names no side):
    the fighter standing next to the goblin falls asleep with it."""
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [
            {"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9},
            {"template": "magic_user_1", "name": "M", "position": 9, "hp": 5},
        ],
    )
    f = Fight(sc, [1, 6, 1, 1])  # side 1 wins; Sleep 2d8 = 2 HD: goblin (1-1 counts 1) then fighter (1)
    f.do("declare_none", "G:declare")
    f.do("declare_none", "F:declare")
    f.do("cast:sleep:enemy_0", "M:declare")
    assert f.c("G").status == Status.INCAPACITATED
    assert f.c("F").status == Status.INCAPACITATED
    assert f.kinds("sleep")[0].data["count"] == 2


def withdraw_duel(**kw: object) -> dict:
    # G F   a goblin archer in melee with a fighter
    return scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}],
        **kw,
    )


def test_p4_no_missile_fire_after_a_fighting_withdrawal_by_default() -> None:
    """L49-51: in melee one may only "se replier" (half move backwards) or retreat. A withdrawal is a melee
    manoeuvre; by default (withdraw_attack=melee) the archer cannot step out and shoot at +1 every round."""
    f = Fight(withdraw_duel(), [6, 1])
    f.do("declare_withdraw", "G:declare")
    f.do("declare_none", "F:declare")
    assert f.c("G").pos == -2 and f.who() == "F:move"  # no missile step offered to G
    assert not f.kinds("attack")


def test_p4_house_option_lets_the_withdrawer_shoot() -> None:
    f = Fight(withdraw_duel(), [6, 1], options={"withdraw_attack": "any"})
    f.do("declare_withdraw", "G:declare")
    f.do("declare_none", "F:declare")
    assert f.who() == "G:missile" and "shoot:enemy_0" in f.legal()


def test_p4_withdraw_attack_melee_vs_none() -> None:
    # F2 . G F1   G withdraws toward F2 (the square behind is free) and stops next to it
    sc = scenario(
        [{"template": "goblin_archer", "name": "G", "position": 0, "hp": 3}],
        [
            {"template": "fighter_1", "name": "F1", "position": 1.5, "hp": 9},
            {"template": "fighter_1", "name": "F2", "position": -3, "hp": 9},
        ],
    )
    melee = [A.HOLD, A.MELEE0 + 1]  # hold, or strike F2 (enemy_1)
    for option, expected in (("melee", melee), ("none", [])):
        f = Fight(sc, [], options={"withdraw_attack": option})
        g = f.state.combatants[0]
        g.declared, g.pos = 1, -1  # after the declared withdrawal: next to F2
        assert legal.act(f.state, 0, PHASE_MELEE) == expected
        assert legal.act(f.state, 0, PHASE_MISSILE) == []


def test_p5_situation_keeps_morale_history() -> None:
    """OSE morale: checks at the first death and at half the side out; a check already made is not made
    again. A situation with a dead goblin used to fire a second 'first death' check at the next death."""
    from npc_tactics.systems.ose.rules.content import load_situation

    goblins = [{"template": "goblin", "name": f"G{k}", "position": 0, "hp": 3} for k in range(5)]
    goblins[0]["status"] = "dead"
    del goblins[0]["hp"]
    sit = {
        "acting": "G1",
        "sides": [
            {"combatants": goblins, "morale_checked": ["first_death"]},
            {"combatants": [{"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9}]},
        ],
    }
    eng = OSEEngine()
    st = load_situation(eng, sit, RngRoller(0))
    assert st.first_death[0] and st.morale_due[0] == 0
    combat.set_status(st, EventSink(RngRoller(0), 1), 1, Status.DEAD, "damage")  # 2 of 5 out
    assert st.morale_due[0] == 0
    sit["sides"][0]["morale_checked"] = []  # the first-death check is still due
    assert load_situation(eng, sit, RngRoller(0)).morale_due[0] == 1
    del sit["sides"][0]["morale_checked"]
    notes: list[str] = []
    st = load_situation(eng, sit, RngRoller(0), notes)
    assert st.morale_due[0] == 0 and any("first death morale check" in n for n in notes)
    sit["sides"][0]["morale_checked"] = ["first_death", "half_down"]
    goblins[1]["morale_passed"] = 2
    st = load_situation(eng, sit, RngRoller(0))
    assert st.combatants[1].morale_passes == 2 and st.half_out[0]


def test_p6_morale_2_monsters_do_not_fight() -> None:
    """OSE morale: "ML 2: will not fight" (unless cornered)."""
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3, "morale": 2}],
        [{"template": "fighter_1", "name": "F", "position": 12, "hp": 9}],
    )
    f = Fight(sc, [6, 1])
    out = f.engine.outcome(f.state)
    assert f.c("G").status == Status.FLED and out is not None and out.results[0] == SideResult.FLED
    cornered = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3, "morale": 2}],
        [
            {"template": "fighter_1", "name": "F1", "position": 1.5, "hp": 9},
            {"template": "fighter_1", "name": "F2", "position": -1.5, "hp": 9},
        ],
    )
    f = Fight(cornered, [6, 1])
    f.do("declare_none", "G:declare")
    assert f.c("G").status == Status.ACTIVE  # cornered: it fights


def test_p7_two_handed_weapon_loses_the_shield() -> None:
    """OSE weapon quality "Two-handed": it cannot be used with a shield."""
    sword = make_template("fighter_1").profile
    big = make_template("fighter_1", {"weapon": "two_handed_sword"}).profile
    assert (sword.ac, sword.shield) == (4, 1)
    assert (big.ac, big.shield) == (5, 0)


def test_p8_fled_members_do_not_count_toward_half_down() -> None:
    """OSE morale: a check "when half the group has been incapacitated or killed" — fled is neither."""
    band = scenario(
        [{"template": "goblin", "name": f"G{k}", "position": 0, "hp": 3} for k in range(4)],
        [{"template": "fighter_1", "name": "F", "position": 12, "hp": 9}],
    )
    for option, half in ((False, False), (True, True)):
        f = Fight(band, [], options={"morale_count_fled": option})
        sink = EventSink(f.roller, 1)
        combat.set_status(f.state, sink, 0, Status.FLED, "escaped_distance")
        combat.set_status(f.state, sink, 1, Status.FLED, "escaped_distance")
        assert f.state.half_out[0] is half and f.state.morale_due[0] == int(half)


def test_p8_withdraw_and_retreat_only_when_in_melee() -> None:
    """L17: characters who want "se déplacer alors qu'ils sont en mêlée" must declare it; L47-52 list
    withdrawal and retreat as the moves of a combatant in melee. A merely threatened one has no such move
    unless the house option declare_when_threatened is on."""
    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [{"template": "fighter_1", "name": "F", "position": 6, "hp": 9}],
    )
    f = Fight(sc, [])
    assert legal.declare(f.state, 0) == [0]
    f = Fight(sc, [], options={"declare_when_threatened": True})
    assert legal.declare(f.state, 0) == [0, 1, 2]


def test_p3_by_the_book_does_not_sleep_as_many_friends_as_foes() -> None:
    from npc_tactics.agents.base import Observation
    from npc_tactics.systems.ose.agents import ByTheBookAgent

    sc = scenario(
        [{"template": "goblin", "name": "G", "position": 0, "hp": 3}],
        [
            {"template": "fighter_1", "name": "F", "position": 1.5, "hp": 9},
            {"template": "magic_user_1", "name": "M", "position": 9, "hp": 5},
        ],
    )
    f = Fight(sc, [])
    f.do("declare_none", "G:declare")
    f.do("declare_none", "F:declare")
    d = f.engine.pending(f.state)
    mask = f.engine.legal_mask(f.state)
    assert mask[A.CAST_ENEMY0[1]]  # Sleep at the goblin is legal ...
    action = ByTheBookAgent().act(Observation(np.zeros(1), f.state, d, f.engine), mask)
    assert action == A.DECLARE_NONE  # ... but it would put the fighter to sleep too
