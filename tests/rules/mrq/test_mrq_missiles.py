"""Missile and thrown weapons, range and movement, Knockback (§15) and unusual conditions (§16), forced dice.

Position unless said otherwise: A (side 0, the shooter) and D (side 1) apart, ``metres`` between them::

    A ......30 m...... D
"""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.mrq.agents import AGENTS
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.actions import EFFECT_IDX, IDX, TARGETED
from npc_tactics.systems.mrq.rules.bestiary import build_profile
from npc_tactics.systems.mrq.rules.content import load_scenario, scenario_from_mapping
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary
from npc_tactics.systems.mrq.rules.state import BROKEN, DROPPED, READY
from npc_tactics.systems.mrq.rules.tables import APART, CHEST, CLOSE, LONG, MAX_GAP
from tests.rules.mrq.helpers import W, duel, kinds, sink


def _apart(att: str = "archer", dfd: str = "sword_and_shield", metres: int = 30, **kw):  # type: ignore[no-untyped-def]
    eng, st = duel(att, dfd, distance="apart", **kw)
    st.set_metres(0, 1, metres)
    return eng, st


def _shoot(eng, st, s, reaction: str | None = "no_reaction"):  # type: ignore[no-untyped-def]
    eng._act(st, s, 0, "shoot", 0)
    if reaction is not None:
        assert st.decision.kind == DecisionKind.REACT and st.decision.context["missile"]
        X.answer_react(st, s, reaction)


def test_shoot_legality_range_engagement_ammo_prone() -> None:
    eng, st = _apart(metres=30)
    assert TARGETED["shoot"][0] in eng.act_options(st, 0)
    assert TARGETED["shoot"][0] not in eng.act_options(st, 1)  # no missile weapon
    st.set_metres(0, 1, 121)  # beyond double the short bow's 60 m
    assert TARGETED["shoot"][0] not in eng.act_options(st, 0)
    st.set_metres(0, 1, 30)
    st.combatants[0].ammo = 0
    assert TARGETED["shoot"][0] not in eng.act_options(st, 0)
    st.combatants[0].ammo = 5
    st.combatants[0].prone = True
    assert TARGETED["shoot"][0] not in eng.act_options(st, 0)
    st.combatants[0].prone = False
    st.set_distance(0, 1, LONG)  # engaged in melee: no shooting
    assert TARGETED["shoot"][0] not in eng.act_options(st, 0)


def test_range_halves_the_skill_beyond_the_weapon_range() -> None:
    _, st = _apart(metres=60)
    assert M.missile_skill(st, 0, 1) == 70
    st.set_metres(0, 1, 61)
    assert M.missile_skill(st, 0, 1) == 35
    assert M.missile_dm(st.combatants[0]) == ""  # fired: no damage modifier
    _, st = _apart("javelineer", "swordsman")
    assert M.missile_dm(st.combatants[0]) == "1d2"  # thrown: STR 14 + SIZ 13 = 27


def test_reactions_against_a_missile() -> None:
    """Only a shield blocks a missile; anyone standing can evade (Acrobatics, §11)."""
    eng, st = _apart(dfd="sword_and_shield")
    eng._act(st, sink(), 0, "shoot", 0)
    assert set(X.react_options(st)) == {
        IDX["defend"],
        IDX["precise_defence"],
        IDX["no_reaction"],
        IDX["evade"],
    }
    eng, st = _apart(dfd="swordsman")
    eng._act(st, sink(), 0, "shoot", 0)
    assert set(X.react_options(st)) == {IDX["no_reaction"], IDX["evade"]}
    assert st.combatants[0].ammo == 11


def test_evade_a_missile_all_or_nothing() -> None:
    """Arrow 30 (success) vs Acrobatics 40 (success, higher roll): the defender wins, no damage, no effect
    (its effects need contact with the shooter)."""
    eng, st = _apart(dfd="swordsman")
    s = sink(30, 40)
    _shoot(eng, st, s, "evade")
    assert kinds(s, "attack")[0]["result"] == "defender_partial"
    assert st.exchange is None and not kinds(s, "damage") and s.roller.remaining == 0
    eng, st = _apart(dfd="swordsman", att_prof={"dm": ""})
    s = sink(30, 90, 5, 11)  # evade fails: attacker wins at margin 1, full damage, no DP
    _shoot(eng, st, s, "evade")
    X.answer_effect(st, s, "bypass_armour", None)
    assert kinds(s, "damage")[0]["amount"] == 5 and kinds(s, "damage")[0]["dp"] == 0


def test_shield_block_impale_embeds_then_extract() -> None:
    """Arrow 30 vs shield defence 90 (failure): attacker margin 1. Impale: 1d8 at 8, no damage modifier;
    shield DP 6 halved → 3; chest armour 4 → 1 wounds the chest: the arrow stays in (−20%). The warrior
    then pulls it out: Brute Force 10 ≤ 26, 1d8 = 5 to the chest, armour ignored."""
    eng, st = _apart()
    s = sink(30, 90, 11)
    _shoot(eng, st, s, "defend")
    legal = set(X.legal_effects(st, st.exchange))
    for name in ("disarm", "bash", "entangle", "trip", "riposte"):
        assert EFFECT_IDX[name][0] not in legal
    for name in ("impale", "maximise_damage", "bypass_armour", "expose_defender"):
        assert EFFECT_IDX[name][0] in legal
    X.answer_effect(st, s, "impale", None)
    d = st.combatants[1]
    assert st.decision is None and s.roller.remaining == 0  # no OPTION: the shooter is far away
    assert d.loc_hp[CHEST] == 8 - 1 and d.impaled == 1 and F.penalty(d) == 20
    assert IDX["extract_missile"] in eng.act_options(st, 1)
    s = sink(10, 5)
    eng._act(st, s, 1, "extract_missile", -1)
    assert d.loc_hp[CHEST] == 8 - 1 - 5 and d.impaled == 0 and not d.embedded
    assert IDX["extract_missile"] not in eng.act_options(st, 1)


def test_missile_fumble_uses_the_missile_table() -> None:
    """Arrow rolls 00 against an undefended target: missile table d20 = 4, the bow lands 1d2 m away."""
    eng, st = _apart()
    s = sink(100, 4, 1)
    _shoot(eng, st, s, "no_reaction")
    f = kinds(s, "fumble")[0]
    assert (f["table"], f["result"]) == ("missile", "weapon dropped") and s.roller.remaining == 0
    a = st.combatants[0]
    assert a.missile_state == DROPPED and a.weapon_state == READY
    assert TARGETED["shoot"][0] not in eng.act_options(st, 0)
    assert IDX["ready_weapon"] in eng.act_options(st, 0)
    eng._act(st, sink(), 0, "ready_weapon", -1)
    assert a.missile_state == READY


def test_missile_fumble_weapon_lost_bow_and_javelin() -> None:
    from npc_tactics.systems.mrq.rules.fumbles import apply_fumble

    _, st = _apart()
    apply_fumble(st, sink(11), 0, 1, "missile")  # bowstring breaks
    assert st.combatants[0].missile_state == BROKEN and not M.can_shoot(st, 0)
    _, st = _apart("javelineer")
    apply_fumble(st, sink(11), 0, 1, "missile")  # another javelin is lost
    assert st.combatants[0].ammo == 2 and st.combatants[0].missile_state == READY


def test_advance_charge_and_fall_back_with_a_gap() -> None:
    eng, st = _apart("swordsman", "archer", metres=30)
    assert TARGETED["charge"][0] not in eng.act_options(st, 0)  # 30 m > two moves (8 m)
    eng._act(st, sink(), 0, "advance", 0)
    assert st.distance(0, 1) == APART and st.metres(0, 1) == 26
    st.set_metres(0, 1, 8)
    assert TARGETED["charge"][0] in eng.act_options(st, 0)
    st.set_metres(0, 1, 4)
    eng._act(st, sink(), 0, "advance", 0)
    assert st.distance(0, 1) == LONG and st.metres(0, 1) == 0
    assert IDX["fall_back"] not in eng.act_options(st, 1)  # engaged
    st.set_distance(0, 1, APART)
    eng._act(st, sink(), 1, "fall_back", -1)
    assert st.metres(0, 1) == 4
    st.set_metres(0, 1, MAX_GAP - 1)
    eng._act(st, sink(), 1, "fall_back", -1)
    assert st.metres(0, 1) == MAX_GAP


def test_knockback_house_option() -> None:
    """Option ``knockback`` (house, off by default since rules 0.3.0: the source's Knockback rule is cut).
    Great axe 2d6+2, Maximise: 6 + 6 + 2 = 14 > SIZ 13 → knocked back 1 m (close → long), Acrobatics roll 90
    fails → prone. Half sword DP 4 → 2 and armour 10 leave 2 damage. Without the option: nothing."""
    _, st = duel(
        "great_axe",
        "swordsman",
        {"knockback": True},
        distance="close",
        att_prof={"dm": ""},
        def_prof={"armour": (10,) * 7},
    )
    s = sink(30, 90, 6, 4, 11, 90)
    X.start_attack(st, s, 0, 1, "normal")
    X.answer_react(st, s, "defend")
    X.answer_effect(st, s, "maximise_damage", None)
    k = kinds(s, "knockback")[0]
    assert (k["result"], k["metres"]) == ("fell", 1) and s.roller.remaining == 0
    assert st.distance(0, 1) == LONG and st.combatants[1].prone
    assert kinds(s, "damage")[0]["amount"] == 2
    _, st = duel(
        "great_axe",
        "swordsman",
        {},
        distance="close",
        att_prof={"dm": ""},
        def_prof={"armour": (10,) * 7},
    )
    s = sink(30, 90, 6, 4, 11)
    X.start_attack(st, s, 0, 1, "normal")
    X.answer_react(st, s, "defend")
    X.answer_effect(st, s, "maximise_damage", None)
    assert not kinds(s, "knockback") and st.distance(0, 1) == CLOSE and s.roller.remaining == 0


def test_knockback_rider_braces_with_the_mount_siz() -> None:
    """§13: a rider passing a simple Riding test adds its mount's SIZ (26) against Knockback."""
    _, st = duel(
        "great_axe",
        "mounted_lancer",
        {"knockback": True},
        distance="long",
        att_prof={"dm": ""},
        def_prof={"armour": (10,) * 7},
    )
    s = sink(30, 90, 6, 11, 10)  # lance DP irrelevant: the rider parries with its kite shield (8)
    X.start_attack(st, s, 0, 1, "normal")
    X.answer_react(st, s, "defend")
    X.answer_effect(st, s, "maximise_damage", None)
    assert kinds(s, "knockback")[0]["result"] == "braced" and not st.combatants[1].prone


def test_swimming_caps_weapon_skill_at_athletics() -> None:
    """§16: weapon skill cannot exceed Athletics while swimming (sword-and-shield: STR 13 + DEX 12 = 25)."""
    scen = scenario_from_mapping(
        {
            "sides": [
                {"combatants": [{"template": "sword_and_shield", "condition": "swimming"}]},
                {"combatants": [{"template": "archer"}]},
            ]
        }
    )
    st = MRQEngine().build_state(scen)
    assert F.base_skill(st.combatants[0]) == 25 and F.base_skill(st.combatants[1]) == 50
    with pytest.raises(ConfigError, match=r"combatants\[0\]\.condition: unknown condition 'flying'"):
        scenario_from_mapping(
            {
                "sides": [
                    {"combatants": [{"template": "wolf", "condition": "flying"}]},
                    {"combatants": [{"template": "archer"}]},
                ]
            },
            "x.yaml",
        )


def test_missile_content_validation() -> None:
    raw = dict(load_bestiary()["archer"])
    with pytest.raises(ConfigError, match=r"t\.weapon: 'shortbow' is a missile weapon"):
        build_profile("t", {**raw, "weapon": "shortbow"}, "b.yaml", "t", W)
    with pytest.raises(ConfigError, match=r"t\.missile: missile, missile_skill and ammo"):
        build_profile("t", {**raw, "ammo": 0}, "b.yaml", "t", W)
    with pytest.raises(ConfigError, match=r"t\.missile: 'broadsword' is not a missile weapon"):
        build_profile("t", {**raw, "missile": "broadsword"}, "b.yaml", "t", W)
    scen = load_scenario("archer_vs_shield")
    st = MRQEngine().build_state(scen)
    assert st.distance(0, 1) == APART and st.metres(0, 1) == 30 and st.combatants[0].ammo == 12


def _obs(eng: MRQEngine, st, actor: int) -> Observation:  # type: ignore[no-untyped-def]
    from npc_tactics.rules.base import Decision

    d = Decision(actor, st.combatants[actor].side, DecisionKind.ACT, 1, {"ca": 1, "free_attack": False})
    st.decision = d
    return Observation(np.zeros(1, dtype=np.float32), st, d, eng)


def test_by_the_book_archer_shoots_then_falls_back() -> None:
    agent = AGENTS["by-the-book"].factory(MRQEngine(), np.random.default_rng(0))
    eng, st = _apart(metres=30)
    obs = _obs(eng, st, 0)
    assert agent.act(obs, eng.legal_mask(st, obs.decision)) == TARGETED["shoot"][0]
    st.set_metres(0, 1, 10)  # the warrior (4 m a move) could charge next: open the gap
    obs = _obs(eng, st, 0)
    assert agent.act(obs, eng.legal_mask(st, obs.decision)) == IDX["fall_back"]


def test_archer_scenarios_play_to_the_end_with_shots() -> None:
    eng = MRQEngine()
    agents = [
        AGENTS["by-the-book"].factory(eng, np.random.default_rng(1)),
        AGENTS["aggressive"].factory(eng, np.random.default_rng(2)),
    ]
    shots = 0
    for seed in range(4):
        roller = RngRoller(np.random.default_rng(seed))
        st, _ = eng.new_combat(load_scenario("skirmish_missiles"), roller)
        while (d := eng.pending(st)) is not None:
            mask = eng.legal_mask(st, d)
            a = agents[d.side].act(Observation(np.zeros(1), st, d, eng), mask)
            assert mask[a]
            st, ev = eng.step(st, a, roller, inplace=True)
            shots += sum(1 for e in ev if e.kind == "attack" and e.data["mode"] == "missile")
        assert eng.outcome(st) is not None
        assert all(c.hp <= c.max_hp for c in st.combatants)
    assert shots > 0
