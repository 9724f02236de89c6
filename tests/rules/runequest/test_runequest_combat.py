"""Worked examples and test vectors of runequest-glorantha.md §23 played through the engine with
forced dice.

Geometry is a line in metres: side 0 at 0, side 1 at ``distance``; within 2 m = engaged.
"""

from __future__ import annotations

import dataclasses

import pytest
from rq_helpers import fight, kinds, play

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import DecisionKind, EventSink, IllegalActionError, SideResult, Status
from npc_tactics.systems.runequest.rules.damage import end_of_round_deaths, settle, wound

WARRIOR = {"template": "orlanthi_warrior"}
BARE_BROO = {"template": "broo", "armour": 0}


def test_vector_14_normal_attack_vs_normal_shield_parry() -> None:
    """Orlanthi broadsword (1D8+1 rolled 7, db 1D4 rolled 2: D = 10) vs the broo's small shield (W
    8): P1, the shield drops to 7 and 2 points pass to the rolled location (chest, no armour)."""
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    ev, roller = play(eng, s, [], "attack:0:enemy_0", "defend")
    d = eng.pending(s)
    assert d.kind == DecisionKind.REACT and d.actor == 1
    assert (
        d.context["attacker"] == 0 and d.context["weapon"] == "broadsword" and d.context["sr"] == 7
    )
    ev, roller = play(eng, s, [30, 20, 7, 2, 12], "parry:1")
    assert roller.remaining == 0
    (att,) = kinds(ev, "attack")
    assert att.data["level"] == "success" and att.data["defence_level"] == "success"
    assert s.combatants[1].weapons[1].hp == 7
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["amount"] == 2 and dmg.data["location"] == "chest" and dmg.target == 1
    assert s.combatants[1].hp == s.combatants[1].max_hp - 2


def test_vector_4_aimed_blow() -> None:
    """Broadsword 70%, aimed at the chest: acts at SR 12 with 35%; 35 hits the chosen location, 36
    misses."""
    for roll, hits in ((35, True), (36, False)):
        eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
        play(eng, s, [], "aimed:0:enemy_0")
        assert eng.pending(s).kind == DecisionKind.OPTION
        ev0, _ = play(eng, s, [], "aim:3", "defend")
        assert s.combatants[0].intent.steps[0].sr == 12
        assert kinds(ev0, "aimed_blow")[0].data["skill"] == 35
        dice = [roll, 4, 1] if hits else [roll]
        ev, roller = play(eng, s, dice, "no_defence")
        dmg = kinds(ev, "damage")
        if hits:
            assert dmg[0].data["location"] == "chest" and dmg[0].data["amount"] == 6
        else:
            assert not dmg and kinds(ev, "attack")[0].data["result"] == "miss"


def _trollkin_state():
    eng, s = fight([{"template": "trollkin"}], [WARRIOR], distance=30)
    return eng, s


def test_vector_5_limb_cap() -> None:
    """Arm with 2 HP takes 5 after armour: the arm takes 4 (2 x 2), total HP -4; useless and
    incapacitated."""
    eng, s = _trollkin_state()
    c = s.combatants[0]
    arm = next(i for i, loc in enumerate(c.locations) if loc.spec.name == "right_arm")
    assert c.locations[arm].spec.max_hp == 2 and c.max_hp == 8
    sink = EventSink(ScriptedRoller([]))
    assert wound(s, 0, arm, 5, True, sink, 1, "test") == 4
    assert c.hp == 4 and c.locations[arm].damage == 4 and not c.locations[arm].severed
    settle(s, sink)
    assert c.locations[arm].useless and c.status == Status.INCAPACITATED
    assert [e.data["weapon"] for e in kinds(sink.events, "drop")] == ["club"]


def test_vector_6_severed_limb() -> None:
    """Arm with 2 HP takes 8: 8 >= 3 x 2, severed; total HP loses only 4; out of the fight."""
    eng, s = _trollkin_state()
    c = s.combatants[0]
    arm = next(i for i, loc in enumerate(c.locations) if loc.spec.name == "left_arm")
    sink = EventSink(ScriptedRoller([]))
    assert wound(s, 0, arm, 8, True, sink, 1, "test") == 4
    assert c.locations[arm].severed and c.hp == 4
    settle(s, sink)
    assert c.status == Status.INCAPACITATED


def test_vector_18_unconscious_then_death_at_end_of_round() -> None:
    """Total HP 12 takes 10 -> 2: unconscious. 3 more -> -1: dies at the end of the round."""
    eng, s = fight([{"template": "shaman"}], [WARRIOR], distance=30)
    c = s.combatants[0]
    assert c.max_hp == 12
    sink = EventSink(ScriptedRoller([]))
    names = [loc.spec.name for loc in c.locations]
    for loc, pts in (("abdomen", 3), ("chest", 4), ("right_leg", 3)):
        wound(s, 0, names.index(loc), pts, True, sink, 1, "test")
    settle(s, sink)
    assert c.hp == 2 and c.status == Status.UNCONSCIOUS
    wound(s, 0, names.index("left_leg"), 3, True, sink, 1, "test")
    settle(s, sink)
    assert c.hp == -1 and c.status == Status.UNCONSCIOUS
    end_of_round_deaths(s, sink)
    assert c.status == Status.DEAD


@pytest.mark.parametrize("distance, legal, sr", [(7, True, 9), (13, True, 11), (20, False, None)])
def test_vector_11_movement_then_attack(distance: float, legal: bool, sr: int | None) -> None:
    """DEX SR 3 + SIZ SR 2 + broadsword 2 = 7; charging 6 m (<= half of MOV 8 x 3 m) adds 2 -> SR 9.
    More than half MOV: no attack this round, only ``close``."""
    eng, s = fight([WARRIOR], [BARE_BROO], distance=distance)
    mask = eng.legal_mask(s)
    assert bool(mask[eng.catalogue.index("attack:0:enemy_0")]) is legal
    assert bool(mask[eng.catalogue.index("close:enemy_0")])
    if legal:
        play(eng, s, [], "attack:0:enemy_0")
        assert s.combatants[0].intent.steps[0].sr == sr


def test_vector_12_bladesharp_then_strike() -> None:
    """DEX SR 3, Bladesharp 2 MP -> spell SR 4; then the melee SR 7 -> strike at SR 11 (§4)."""
    eng, s = fight([WARRIOR], [BARE_BROO], distance=3)
    play(eng, s, [], "cast:bladesharp:self", "power:2")
    assert eng.pending(s).kind == DecisionKind.DECLARE and eng.pending(s).context["step"] == 1
    play(eng, s, [], "attack:0:enemy_0")
    assert [st.sr for st in s.combatants[0].intent.steps] == [4, 11]


def test_vector_12_strike_slips_to_next_round() -> None:
    """With 4 MP the strike would land at SR 13: it slips to SR 1 of the next round (§6)."""
    eng, s = fight([WARRIOR], [BARE_BROO], distance=3)
    c = s.combatants[0]
    c.spec = dataclasses.replace(c.spec, spirit=(("bladesharp", 4),))
    ev, _ = play(eng, s, [10], "cast:bladesharp:self", "power:4", "attack:0:enemy_0", "defend")
    assert [e.data["result"] for e in kinds(ev, "spell")] == ["success"] and c.bladesharp == 4
    assert c.carried and c.carried[0].sr == 1
    play(eng, s, [], "defend")  # round 2: only the broo declares; the orlanthi is committed
    d = eng.pending(s)
    assert d.kind == DecisionKind.REACT and d.context["sr"] == 1 and d.round == 2


def test_vector_19_first_aid_heals_capped_wound_and_abandon_penalty() -> None:
    from npc_tactics.systems.runequest.rules.content import load_situation
    from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine

    situation = {
        "name": "aid",
        "distance": 40,
        "acting": "Healer",
        "sides": [
            {
                "name": "a",
                "combatants": [
                    {"template": "orlanthi_warrior", "name": "Healer"},
                    {"template": "orlanthi_warrior", "name": "Patient", "wounds": {"right_leg": 3}},
                ],
            },
            {"name": "b", "combatants": [{"template": "broo"}]},
        ],
    }
    eng = RuneQuestEngine()
    s = load_situation(eng, situation, ScriptedRoller([]))
    patient = s.combatants[1]
    assert patient.hp == patient.max_hp - 3 and eng.pending(s).actor == 0
    rounds = [("first_aid:ally_0", "defend", "defend")] * 5
    actions = [a for r in rounds for a in r]
    ev, roller = play(eng, s, [5, 2, 3], *actions)  # special (40% -> special <= 8), 2D3 = 5
    assert [e.data["result"] for e in kinds(ev, "first_aid")][-1] == "special"
    assert kinds(ev, "heal")[0].data["amount"] == 3 and patient.hp == patient.max_hp
    # abandoning after one round of work costs the patient 2 HP
    s = load_situation(eng, situation, ScriptedRoller([]))
    ev, _ = play(eng, s, [], "first_aid:ally_0", "defend", "defend", "defend")
    assert s.combatants[1].hp == s.combatants[1].max_hp - 5
    assert [e.data["result"] for e in kinds(ev, "first_aid")] == ["in_progress", "abandoned"]


def test_vector_20_fumble_drops_weapon_then_ready_costs_5_sr() -> None:
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    ev, _ = play(eng, s, [100, 19], "attack:0:enemy_0", "defend", "no_defence")
    assert kinds(ev, "fumble")[0].data["effect"] == "drop_weapon"
    c = s.combatants[0]
    assert not c.is_ready(0)
    assert eng.legal_mask(s)[eng.catalogue.index("ready:0")]
    play(eng, s, [], "attack:0:enemy_0")
    assert c.intent.steps[0].sr == 12  # 7 + 5 to recover the weapon


def test_vector_20_fumble_loses_next_attack() -> None:
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    play(eng, s, [100, 6], "attack:0:enemy_0", "defend", "no_defence")
    assert s.combatants[0].lose_attack
    ev, _ = play(eng, s, [], "attack:0:enemy_0", "defend")
    assert kinds(ev, "attack_lost")[0].data["result"] == "lost_to_fumble"


def test_vector_21_flee_gives_a_free_undefendable_blow() -> None:
    eng, s = fight([WARRIOR], [{"template": "broo"}], distance=1)
    ev, roller = play(eng, s, [30, 4, 2, 9], "flee", "defend")
    (att,) = kinds(ev, "attack")
    assert att.actor == 1 and att.data["free"] and att.data["defence"] == "none"
    assert kinds(ev, "damage")[0].data["amount"] == 7 - 4  # 1d6+1 (4+1) + 1d4 (2), abdomen armour 4
    assert s.combatants[0].status == Status.FLED
    assert eng.outcome(s).results == (SideResult.FLED, SideResult.WIN)


def test_vector_22_same_sr_higher_dex_first() -> None:
    """A (DEX 14) and B (DEX 12) both strike at SR 7: A resolves first and its critical to the head
    kills B outright, so B never strikes."""
    eng, s = fight([WARRIOR], [WARRIOR], distance=1)
    a = s.combatants[0]
    a.spec = dataclasses.replace(a.spec, dex=14)
    ev, roller = play(eng, s, [], "attack:0:enemy_0", "attack:0:enemy_0")
    ev, roller = play(eng, s, [1, 2, 19], "no_defence")
    assert roller.remaining == 0
    assert s.combatants[1].status == Status.DEAD and len(kinds(ev, "attack")) == 1
    assert eng.outcome(s).winner == 0


def test_vector_22_equal_dex_simultaneous() -> None:
    """Equal DEX: both blows are rolled before statuses apply, so both can drop (A23)."""
    eng, s = fight([WARRIOR], [WARRIOR], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "attack:0:enemy_0")
    ev1, _ = play(eng, s, [1, 2, 19], "no_defence")
    assert eng.pending(s).kind == DecisionKind.REACT and eng.pending(s).actor == 0
    ev2, _ = play(eng, s, [1, 2, 19], "no_defence")
    assert [c.status for c in s.combatants] == [Status.DEAD, Status.DEAD]
    assert eng.outcome(s).results == (SideResult.DRAW, SideResult.DRAW)


def test_missile_only_shield_parry_and_two_shots() -> None:
    """Vector 1 in the engine: the archer (DEX 15, DEX SR 2) shoots at SR 2 and 9; an arrow can be
    parried only with a shield, never dodged (§11, §13)."""
    eng, s = fight([{"template": "lunar_archer"}], [WARRIOR], distance=60)
    play(eng, s, [], "attack:0:enemy_0", "close:enemy_0")
    assert [st.sr for st in s.combatants[0].intent.steps] == [2, 9]
    mask = eng.legal_mask(s)
    names = [eng.catalogue.name(i) for i in mask.nonzero()[0]]
    assert names == ["parry:1", "no_defence"]


def test_successive_parry_penalty_applies() -> None:
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    s.combatants[1].parries = 2
    ev, _ = play(eng, s, [60, 50, 1, 1, 12], "attack:0:enemy_0", "defend", "parry:1")
    assert kinds(ev, "defence")[0].data["chance"] == 5


def test_illegal_action_names_action_and_decision() -> None:
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    with pytest.raises(IllegalActionError, match=r"parry:0.*DECLARE decision of combatant 0"):
        eng.step(s, eng.catalogue.index("parry:0"), ScriptedRoller([]))


def test_engaged_caster_gets_no_then_step() -> None:
    """Engaged at the start of the round: defend and cast, never cast and attack (§7.2, A16)."""
    eng, s = fight([WARRIOR], [BARE_BROO], distance=1)
    play(eng, s, [], "cast:bladesharp:self", "power:1")
    assert eng.pending(s).actor == 1


def test_vector_2_vasana_in_the_engine() -> None:
    """DEX SR 3, a 2-MP spell (SR 4), then re-ready the bow (+5) and shoot (+3): SR 12 under the
    rule
    reading, allowed; 13 under the seed-literal reading (the spell counts 5), not allowed (A3)."""
    for reading, legal in (("rule", True), ("seed_literal", False)):
        eng, s = fight(
            [{"template": "lunar_archer", "ready": []}],  # bow slung: a hand free for the spell
            [WARRIOR],
            distance=60,
            options={"spell_sr_reading": reading},
        )
        c = s.combatants[0]
        c.spec = dataclasses.replace(c.spec, dex_sr=3)
        play(eng, s, [], "cast:protection:self", "power:2")
        assert c.intent.steps[0].sr == 4
        assert bool(eng.legal_mask(s)[eng.catalogue.index("attack:0:enemy_0")]) is legal
