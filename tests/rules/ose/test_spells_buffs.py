"""OSE spells on the caster or its friends (docs/ose-spells.md): Shield, Protection from Evil, Mirror Image,
Invisibility, Haste, Bless, Striking, and the condition hooks the attack code asks (rules/conditions.py)."""

from __future__ import annotations

from ose_helpers import Fight, scenario
from test_spells_area import began, cast, declare, idx, orcs

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import EventSink
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules import legal
from npc_tactics.systems.ose.rules.state import PHASE_MELEE, PHASE_MISSILE


def mu(spells: dict[str, int], level: int = 3, pos: float = 0, name: str = "M") -> dict:
    return {"template": f"magic_user_{level}", "name": name, "position": pos, "hp": 10, "spells": spells}


def test_shield_sets_ac_2_against_missiles_and_4_against_the_rest() -> None:
    f = Fight(scenario([mu({"shield": 1})], orcs(15)), [6, 1])
    declare(f, M="cast:shield:self")
    m = idx(f, "M")
    assert began(f) == {"M": ("shield", 20)}  # 2 turns
    assert (K.armour_class(f.state, m, True), K.armour_class(f.state, m, False)) == (2, 4)
    assert f.c("M").prof.ac == 8  # the spell does not touch the profile (AC 9, DEX)


def test_shield_keeps_a_better_own_ac() -> None:
    f = Fight(scenario([{"template": "elf_9", "name": "E", "position": 0, "hp": 30, "spells": {"shield": 1}}],
                       orcs(15)), [6, 1])
    declare(f, E="cast:shield:self")
    e = idx(f, "E")
    assert f.c("E").prof.ac == 4 and K.armour_class(f.state, e, True) == 2 and K.armour_class(f.state, e, False) == 4


def test_a_lasting_spell_is_not_offered_twice() -> None:
    f = Fight(scenario([mu({"shield": 2})], orcs(30)), [6, 1])
    declare(f, M="cast:shield:self")
    assert "cast:shield:self" not in [f.engine.catalogue.name(a) for a in legal.declare(f.state, idx(f, "M"))]


def test_conditions_count_down_and_end() -> None:
    f = Fight(scenario([mu({"shield": 1})], orcs(30)), [6, 1])
    m = idx(f, "M")
    f.state.combatants[m].conditions["shield"] = 2
    sink = EventSink(ScriptedRoller([]))
    K.end_of_round(f.state, sink)
    assert f.state.combatants[m].conditions == {"shield": 1}
    K.end_of_round(f.state, sink)
    assert f.state.combatants[m].conditions == {}
    assert [(e.kind, e.data["result"]) for e in sink.events] == [("condition", "ends")]
    f.state.combatants[m].conditions["invisible"] = -1
    K.end_of_round(f.state, sink)
    assert f.state.combatants[m].conditions == {"invisible": -1}  # until broken


def test_protection_from_evil_minus_one_to_enemies_plus_one_to_saves() -> None:
    f = Fight(scenario([mu({"protection_from_evil": 1}, level=1)], orcs(1.5)), [6, 1])
    declare(f, M="cast:protection_from_evil:self")
    m, o = idx(f, "M"), idx(f, "O0")
    assert began(f)["M"] == ("protection_from_evil", 60)  # magic-user: 6 turns
    assert K.to_hit_bonus(f.state, o, m, False) == -1 and K.save_bonus(f.state, m) == 1
    assert K.to_hit_bonus(f.state, m, o, False) == 0


def test_cleric_protection_from_evil_lasts_twelve_turns() -> None:
    f = Fight(scenario([{"template": "cleric_2", "name": "C", "position": 0, "hp": 8,
                         "spells": {"protection_from_evil": 1}}], orcs(15)), [6, 1])
    declare(f, C="cast:protection_from_evil:self")
    assert began(f)["C"] == ("protection_from_evil", 120)


def test_mirror_image_takes_attacks_one_image_each() -> None:
    f = Fight(scenario([mu({"mirror_image": 1})], orcs(15)), [6, 1, 3])  # 1d4 = 3 images, 6 turns
    declare(f, M="cast:mirror_image:self")
    m, o = idx(f, "M"), idx(f, "O0")
    assert sorted(f.c("M").conditions) == ["mirror_image_1", "mirror_image_2", "mirror_image_3"]
    assert {e.data["rounds"] for e in f.kinds("condition")} == {60}
    sink = EventSink(ScriptedRoller([]))
    assert [K.attack_absorbed(f.state, sink, o, m) for _ in range(4)] == [True, True, True, False]
    assert [e.data["result"] for e in sink.events] == ["absorbed"] * 3


def test_invisibility_hides_from_enemies_until_it_attacks() -> None:
    sc = scenario([mu({"invisibility": 1}), {"template": "fighter_3", "name": "F", "position": 1.5, "hp": 20}],
                  [{"template": "goblin_archer", "name": "G", "position": 15, "hp": 5}])
    f = Fight(sc, [6, 1])
    cast(f, "M", "cast:invisibility:ally_0")
    ff, g = idx(f, "F"), idx(f, "G")
    assert began(f) == {"F": ("invisible", -1)}
    assert not K.targetable(f.state, g, ff) and K.targetable(f.state, idx(f, "M"), ff)
    sink = EventSink(ScriptedRoller([]))
    K.break_invisibility(f.state, sink, ff)
    assert "invisible" not in f.c("F").conditions and sink.events[0].data["result"] == "broken"


def test_an_invisible_enemy_cannot_be_shot() -> None:
    sc = scenario([mu({"invisibility": 1})], [{"template": "goblin_archer", "name": "G", "position": 15, "hp": 5}])
    f = Fight(sc, [6, 1])
    declare(f, M="cast:invisibility:self")
    assert legal.act(f.state, idx(f, "G"), PHASE_MISSILE) == []


def test_haste_takes_the_casters_side_within_thirty_feet() -> None:
    # M at 0, F at 9 m (6 squares: in), W at 10.5 m (7: out); the orc at 4.5 m is not hasted
    sc = scenario([mu({"haste": 1}, level=5), {"template": "fighter_3", "name": "F", "position": 9, "hp": 20},
                   {"template": "fighter_3", "name": "W", "position": 10.5, "hp": 20}], orcs(30))
    f = Fight(sc, [6, 1])
    cast(f, "M", "cast:haste:self")
    assert began(f) == {"M": ("haste", 30), "F": ("haste", 30)}
    assert K.strikes_per_round(f.state, idx(f, "F")) == 2 and K.move_multiplier(f.state, idx(f, "F")) == 2
    assert K.strikes_per_round(f.state, idx(f, "W")) == 1


def test_bless_allies_not_in_melee() -> None:
    # C at 0, F at 3 m (in the 20' square, free), W at 4.5 m engaged with the orc at 6 m
    sc = scenario([{"template": "cleric_4", "name": "C", "position": 0, "hp": 12, "spells": {"bless": 1}},
                   {"template": "fighter_3", "name": "F", "position": 3, "hp": 20},
                   {"template": "fighter_3", "name": "W", "position": 4.5, "hp": 20}], orcs(6))
    f = Fight(sc, [6, 1])
    cast(f, "C", "cast:bless:ally_0")
    assert sorted(began(f)) == ["C", "F"]
    c, o = idx(f, "F"), idx(f, "O0")
    assert (K.to_hit_bonus(f.state, c, o, False), K.damage_bonus(f.state, c), K.morale_bonus(f.state, c)) == (1, 1, 1)


def test_striking_adds_a_d6_and_makes_the_weapon_magic() -> None:
    sc = scenario([{"template": "cleric_6", "name": "C", "position": 0, "hp": 12, "spells": {"striking": 1}},
                   {"template": "fighter_3", "name": "F", "position": 6, "hp": 20}], orcs(30))
    f = Fight(sc, [6, 1])
    cast(f, "C", "cast:striking:ally_0")
    c, o = idx(f, "F"), idx(f, "O0")
    assert began(f) == {"F": ("striking", 10)} and K.magic_weapon(f.state, c)
    assert K.extra_damage(f.state, EventSink(ScriptedRoller([5])), c, o) == 5
    assert K.extra_damage(f.state, EventSink(ScriptedRoller([])), idx(f, "C"), o) == 0


def test_striking_range_thirty_feet() -> None:
    sc = scenario([{"template": "cleric_6", "name": "C", "position": 0, "hp": 12, "spells": {"striking": 1}},
                   {"template": "fighter_3", "name": "F", "position": 10.5, "hp": 20}], orcs(30))
    f = Fight(sc, [6, 1])
    assert "cast:striking:ally_0" not in f.legal() and "cast:striking:self" in f.legal()


def test_fainted_does_nothing_webbed_may_still_strike() -> None:
    f = Fight(scenario([mu({})], orcs(1.5)), [6, 1])
    o = idx(f, "O0")
    f.state.combatants[o].conditions["webbed"] = 5
    assert legal.act(f.state, o, PHASE_MELEE) and not K.can_move(f.state, o)
    f.state.combatants[o].conditions = {"fainted": 2}
    assert legal.act(f.state, o, PHASE_MELEE) == [] and not K.can_cast(f.state, o)
