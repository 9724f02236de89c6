"""OSE single-target spells added in issue 26 (Charm Person, Cause Light Wounds, the magic-user's Hold Person),
spell lists by class, the errors for unmodelled spells, Silence against a slower caster, and the scripted
agents' use of the new spells (docs/ose-spells.md)."""

from __future__ import annotations

import numpy as np
import pytest
from ose_helpers import Fight, scenario
from test_spells_area import cast, declare, orcs

from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import DecisionKind, Status
from npc_tactics.systems.ose.agents import ByTheBookAgent
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules import class_spells as S
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.templates import character_template


def test_charm_person_takes_a_person_out_of_the_fight() -> None:
    sc = scenario([{"template": "magic_user_1", "name": "M", "position": 0, "hp": 4, "spells": {"charm_person": 1}}],
                  orcs(15))
    f = Fight(sc, [6, 1, 15])  # the orc saves vs spells on 16: 15 fails
    declare(f, M="cast:charm_person:enemy_0")
    assert f.c("O0").status == Status.INCAPACITATED
    assert f.kinds("status")[-1].data["cause"] == "charm_person"
    f = Fight(sc, [6, 1, 16])
    declare(f, M="cast:charm_person:enemy_0")
    assert f.c("O0").status == Status.ACTIVE


def test_charm_person_does_not_touch_undead_or_big_monsters() -> None:
    for template in ("skeleton", "gnoll"):  # undead; a human-like monster of more than 4+1 HD (a 5 HD gnoll)
        foe = {"template": template, "name": "X", "position": 15, "hp": 5}
        if template == "gnoll":
            foe["hd"] = "5"
        sc = scenario([{"template": "magic_user_1", "name": "M", "position": 0, "hp": 4,
                        "spells": {"charm_person": 1}}], [foe])
        f = Fight(sc, [6, 1, 1])
        cast(f, "M", "cast:charm_person:enemy_0")
        if template == "skeleton":
            assert [e.kind for e in f.events if e.kind in ("spell_unaffected", "save")] == ["spell_unaffected"]
        else:
            assert f.c("X").status == Status.ACTIVE and f.kinds("spell_unaffected")


def test_cause_light_wounds_needs_a_touch_attack() -> None:
    sc = scenario([{"template": "cleric_2", "name": "C", "position": 0, "hp": 8,
                    "spells": {"cause_light_wounds": 1}}], orcs(1.5))
    f = Fight(sc, [6, 1, 19, 5])  # the cleric (THAC0 19) against the orc's AC 6: needs 13; 1d6+1 = 6
    declare(f, C="cast:cause_light_wounds:enemy_0")
    touch = f.kinds("touch_attack")
    assert [(e.data["result"], e.data["need"]) for e in touch] == [("hit", 13)]
    assert f.kinds("damage")[0].data["rolled"] == 6 and f.kinds("damage")[0].data["cause"] == "cause_light_wounds"
    f = Fight(sc, [6, 1, 12])
    declare(f, C="cast:cause_light_wounds:enemy_0")
    assert f.kinds("touch_attack")[0].data["result"] == "miss" and not f.kinds("damage")


def test_cause_light_wounds_is_touch_range() -> None:
    sc = scenario([{"template": "cleric_2", "name": "C", "position": 0, "hp": 8,
                    "spells": {"cause_light_wounds": 1}}], orcs(3))
    assert "cast:cause_light_wounds:enemy_0" not in Fight(sc, [6, 1]).legal()


def test_magic_user_hold_person_is_third_level_and_120_feet() -> None:
    assert T.spell_entry("hold_person", "magic_user") == (3, 120)
    assert T.spell_entry("hold_person", "cleric") == (2, 180)
    mu = {"template": "magic_user_5", "name": "M", "position": 0, "hp": 12, "spells": {"hold_person": 1}}
    assert "cast:hold_person:enemy_0" not in Fight(scenario([mu], orcs(37.5)), [6, 1]).legal()  # 125'
    f = Fight(scenario([mu], orcs(36)), [6, 1, 13])  # 120': in range; 13 - 2 < 16: held
    declare(f, M="cast:hold_person:enemy_0")
    assert f.c("O0").status == Status.INCAPACITATED


def test_spell_lists_by_class() -> None:
    name, t = character_template({"class": "magic_user", "level": 5, "spells": {"hold_person": 1, "web": 2}},
                                 "f", "c")
    assert t.spells[T.SPELL_NAMES.index("hold_person")] == 1
    with pytest.raises(ConfigError, match="is a magic_user spell; a cleric casts cleric spells"):
        character_template({"class": "cleric", "level": 5, "spells": {"web": 1}}, "f", "c")
    with pytest.raises(ConfigError, match="at most 1 spell"):  # level-5 magic-user: one 3rd-level slot
        character_template({"class": "magic_user", "level": 5, "spells": {"fire_ball": 1, "haste": 1}}, "f", "c")


def test_an_unmodelled_spell_is_an_error_naming_it() -> None:
    with pytest.raises(ConfigError, match="cone_of_cold"):
        Fight(scenario([{"template": "magic_user_3", "name": "M", "spells": {"cone_of_cold": 1}}], orcs(15)), [])


def test_default_lists_fill_the_first_three_spell_levels() -> None:
    cc = C.classes()["magic_user"]
    counts = S.default_spells(cc, cc.levels[4])  # level 5: 2 1st, 2 2nd, 1 3rd
    picked = {T.SPELL_NAMES[i]: n for i, n in enumerate(counts) if n}
    assert picked == {"sleep": 1, "magic_missile": 1, "web": 1, "mirror_image": 1, "fire_ball": 1}
    cl = C.classes()["cleric"]
    c6 = {T.SPELL_NAMES[i]: n for i, n in enumerate(S.default_spells(cl, cl.levels[5])) if n}  # 2 2 1 1
    assert c6 == {"cure_light_wounds": 1, "protection_from_evil": 1, "hold_person": 1, "bless": 1, "striking": 1}
    assert S.empty_slots(cl.levels[5], S.default_spells(cl, cl.levels[5]), "cleric") == (0, 0, 0, 1, 0)


def test_silence_from_the_faster_side_stops_a_declared_spell() -> None:
    sc = scenario([{"template": "cleric_4", "name": "C", "position": 0, "hp": 12, "spells": {"silence_15_radius": 1}}],
                  [{"template": "magic_user_1", "name": "M", "position": 15, "hp": 4, "spells": {"sleep": 1}}])
    f = Fight(sc, [6, 1, 2])  # the cleric's side first; M fails its save
    declare(f, C="cast:silence_15_radius:enemy_0", M="cast:sleep:enemy_0")
    blocked = f.kinds("spell_blocked")
    assert [e.data["spell"] for e in blocked] == ["sleep"] and f.c("M").spells[T.SPELL_NAMES.index("sleep")] == 1
    assert f.c("C").status == Status.ACTIVE


def _agent_choice(sc: dict, who: str) -> str:
    f = Fight(sc, [6, 1])
    while f.who() != f"{who}:declare":
        f.do("declare_none")
    d = f.engine.pending(f.state)
    mask = f.engine.legal_mask(f.state)
    agent = ByTheBookAgent(rng=np.random.default_rng(0))
    return A.CATALOGUE.name(agent.choose(f.state, d.actor, DecisionKind.DECLARE, "declare", mask) or 0)


def test_by_the_book_fire_balls_a_cluster_and_not_its_friends() -> None:
    elf = {"template": "elf_9", "name": "E", "position": 0, "hp": 30, "spells": {"fire_ball": 1, "shield": 1}}
    assert _agent_choice(scenario([elf], orcs(30, 31.5, 33)), "E") == "cast:fire_ball:enemy_0"
    friend = {"template": "fighter_3", "name": "F", "position": 28.5, "hp": 20}
    assert _agent_choice(scenario([elf, friend], orcs(30, 31.5)), "E") != "cast:fire_ball:enemy_0"


def test_by_the_book_shields_when_shot_at() -> None:
    elf = {"template": "elf_3", "name": "E", "position": 0, "hp": 10, "spells": {"shield": 1, "magic_missile": 1}}
    archer = {"template": "goblin_archer", "name": "G", "position": 15, "hp": 5}
    assert _agent_choice(scenario([elf], [archer]), "E") == "cast:shield:self"
    assert _agent_choice(scenario([elf], orcs(15)), "E") == "cast:magic_missile:enemy_0"


def test_the_0_2_0_action_rows_keep_their_indices() -> None:
    """Shipped policies read rows 0-48; the new spells' rows come after them."""
    names = A.CATALOGUE.names
    assert (names[3], names[21], names[27], names[43], names[48]) == (
        "cast:magic_missile:enemy_0", "cast:cure_light_wounds:self", "hold", "melee:enemy_0", "melee:enemy_5")
    assert names[49] == "cast:shield:self" and A.N_ACTIONS == 130
    assert all(A.CATALOGUE[i].verb == "cast" for i in range(49, A.N_ACTIONS))
