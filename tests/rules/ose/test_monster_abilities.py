"""Monster abilities with forced dice: several attacks a round, paralysis, energy drain, silver/magic weapons,
regeneration (sources: the OSE SRD monster descriptions, itaiag/OSE.SRD.Wiki@16b6aa2c "7. Monsters/Monster
Stats/{Ghoul,Wight,Troll}.md"; docs/ose-monsters.md)."""

from __future__ import annotations

from typing import Any

import pytest
from ose_helpers import Fight, scenario

from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import EventSink, Status

GHOUL = ("AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), THAC0 18 [+1], "
         "MV 90' (30'), SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25")
WIGHT = ("AC 5 [14], HD 3* (13hp), Att 1 × touch (energy drain), THAC0 17 [+2], MV 90' (30'), "
         "SV D12 W13 P14 B15 S16 (3), ML 12, AL Chaotic, XP 50")
TROLL = ("AC 4 [15], HD 6+3* (30hp), Att 2 × claw (1d6), 1 × bite (1d10), THAC0 13 [+6], MV 120' (40'), "
         "SV D10 W11 P12 B13 S14 (6), ML 10 (8 fear of fire), AL Chaotic, XP 650")
TROLL_ABILITIES = {"regenerate": 3, "regenerate_after": 3, "regenerate_not": ["fire", "acid"], "revives": "2d6"}


def duel(monster: dict[str, Any], hero: dict[str, Any]) -> dict[str, Any]:
    return scenario([{"name": "M", "position": 0, **monster}], [{"name": "H", "position": 1.5, **hero}])


def open_round(f: Fight) -> None:
    """Both declare nothing; the monster's side won initiative (forced) and stands in reach: its melee step."""
    f.do("declare_none", "M:declare")
    f.do("declare_none", "H:declare")
    while f.who() == "M:move":
        f.do("hold")


def test_ghoul_claws_twice_and_bites_each_its_own_roll_and_paralysis_save() -> None:
    # initiative 6 (ghoul) / 1; claw 20 hit, 1d3 = 2, save 15 >= P14 saved; claw 1 miss; bite 19 hit, 1d3 = 1,
    # save 3 < 14: paralysed (2d4 turns: out of the fight)
    f = Fight(duel({"stat_block": GHOUL, "hp": 9}, {"template": "fighter_1", "hp": 8}), [6, 1, 20, 2, 15, 1, 19, 1, 3])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    attacks = f.kinds("attack")
    assert [(e.data["weapon"], e.data["roll"], e.data["result"]) for e in attacks] == [
        ("claw", 20, "natural_20"), ("claw", 1, "natural_1"), ("bite", 19, "hit")]
    saves = [(e.data["effect"], e.data["result"], e.data["roll"], e.data["need"]) for e in f.kinds("effect")]
    assert saves == [("paralysis", "saved", 15, 14), ("paralysis", "failed", 3, 14)]
    assert f.c("H").hp == 5 and f.c("H").status == Status.INCAPACITATED
    assert f.kinds("status")[-1].data["cause"] == "paralysis"


def test_ghoul_paralysis_spares_elves() -> None:
    f = Fight(duel({"stat_block": GHOUL, "hp": 9, "paralysis_spares": ["elf"]}, {"template": "elf_1", "hp": 6}),
              [6, 1, 20, 1, 1, 1])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    assert [e.data["result"] for e in f.kinds("effect")] == ["unaffected"]
    assert f.c("H").status == Status.ACTIVE


def test_routine_stops_when_its_target_falls_unless_retargeting() -> None:
    # the first claw kills H (1 hp): the other claw and the bite are lost (published: silent; docs/ose-monsters.md)
    f = Fight(duel({"stat_block": GHOUL, "hp": 9}, {"template": "fighter_1", "hp": 1}), [6, 1, 20, 3])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    assert len(f.kinds("attack")) == 1 and f.c("H").status == Status.DEAD


def test_wight_drains_a_level_and_only_silver_or_magic_harms_it() -> None:
    # fighter 3 (THAC0 19, hp 15): wight first, touch 20 hits: drained to level 2 (1d8 hp lost = 5); then the
    # fighter's normal sword hits the wight (roll 20) and does nothing
    f = Fight(duel({"stat_block": WIGHT, "hp": 13, "hit_by": "silver"}, {"template": "fighter_3", "hp": 15}),
              [6, 1, 20, 5, 20])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    drain = f.kinds("drain")[0].data
    assert (drain["level"], drain["lost"], drain["hp"], drain["result"]) == (2, 5, 10, "drained")
    h = f.c("H")
    assert h.prof.level == 2 and h.max_hp == 10 and h.prof.thac0 == 19
    assert h.prof.saves == (12, 13, 14, 15, 16)  # fighter 1-3 row (classes.yaml)
    f.do("melee:enemy_0", "H:melee")
    assert f.kinds("unharmed")[0].data["needs"] == "silver" and f.c("M").hp == 13


def test_a_magic_weapon_harms_the_wight_and_adds_its_bonus() -> None:
    f = Fight(duel({"stat_block": WIGHT, "hp": 13, "hit_by": "silver"},
                   {"template": "fighter_3", "hp": 15, "magic_weapon": 1}), [1, 6, 20, 4])
    f.do("declare_none", "M:declare")
    f.do("declare_none", "H:declare")
    while f.who() == "H:move":
        f.do("hold")
    f.do("melee:enemy_0", "H:melee")
    assert f.c("M").hp == 13 - (4 + 2 + 1)  # 1d6 + STR 16 + the sword's +1


def test_level_one_drained_dies() -> None:
    f = Fight(duel({"stat_block": WIGHT, "hp": 13}, {"template": "fighter_1", "hp": 8}), [6, 1, 20])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    assert f.c("H").status == Status.DEAD and f.kinds("drain")[0].data["result"] == "slain"


def test_troll_regenerates_three_a_round_from_three_rounds_after_its_first_wound() -> None:
    troll = {"stat_block": TROLL, "hp": 30, **TROLL_ABILITIES}
    hero = {"template": "fighter_3", "hp": 200}
    # round 1: hero first (initiative 1 / 6), hits for 6; troll misses three times. Rounds 2-4: hero misses
    # (natural 1), troll misses. Regeneration from the end of round 4 (first wounded in round 1, + 3).
    dice = [1, 6, 20, 6, 2, 2, 2]
    for _ in range(3):
        dice += [1, 6, 1, 2, 2, 2]
    f = Fight(duel(troll, hero), dice)
    for rnd in range(4):
        f.do("declare_none", "M:declare")
        f.do("declare_none", "H:declare")
        while f.who() == "H:move":
            f.do("hold")
        f.do("melee:enemy_0", "H:melee")
        while f.who() == "M:move":
            f.do("hold")
        f.do("melee:enemy_0", "M:melee")
        if rnd < 3:
            assert f.c("M").hp == 30 - (6 + 2) and not f.kinds("regenerate")  # 1d6 + STR 16
    assert [e.data["amount"] for e in f.kinds("regenerate")] == [3] and f.c("M").hp == 22 + 3


def test_a_killed_troll_goes_down_and_fire_damage_is_not_regenerated() -> None:
    from npc_tactics.systems.ose.rules import combat, effects

    troll = {"stat_block": TROLL, "hp": 30, **TROLL_ABILITIES}
    f = Fight(duel(troll, {"template": "fighter_3", "hp": 200}), [1, 6, 5])  # the revive roll 2d6: 5 + random
    state, sink = f.state, EventSink(f.roller)
    combat.apply_damage(state, sink, 1, 0, 10, "fire_ball", kind="fire")
    assert state.combatants[0].burnt == 10
    combat.apply_damage(state, sink, 1, 0, 50, "melee")
    t = state.combatants[0]
    assert t.status == Status.INCAPACITATED and t.revive_in >= 2
    # regenerating while down, never past the fire damage
    state.round = t.regen_from
    for _ in range(20):
        effects.end_of_round(state, sink)
        state.round += 1
    assert t.status == Status.ACTIVE and t.hp == 30 - 10


def test_a_troll_burnt_to_death_stays_dead() -> None:
    from npc_tactics.systems.ose.rules import combat

    f = Fight(duel({"stat_block": TROLL, "hp": 30, **TROLL_ABILITIES}, {"template": "fighter_3", "hp": 200}), [1, 6])
    combat.apply_damage(f.state, EventSink(f.roller), 1, 0, 40, "fire_ball", kind="fire")
    assert f.state.combatants[0].status == Status.DEAD


def test_immunity_and_halving_of_damage_kinds() -> None:
    from npc_tactics.systems.ose.rules import combat

    f = Fight(duel({"template": "skeleton", "hp": 8, "halved": ["fire"], "immune": ["cold"]},
                   {"template": "fighter_3", "hp": 20}), [1, 6])
    combat.apply_damage(f.state, EventSink(f.roller), 1, 0, 7, "fire_ball", kind="fire")
    combat.apply_damage(f.state, EventSink(f.roller), 1, 0, 7, "cone", kind="cold")
    assert f.state.combatants[0].hp == 8 - 3


@pytest.mark.parametrize(("extra", "message"), [
    ({"hit_by": "gold"}, "hit_by: unknown weapon kind 'gold'"),
    ({"regenerate": -1}, "regenerate: -1 is out of range: expected 0..100"),
    ({"halved": ["fear"]}, "halved[0]: unknown halved 'fear'"),
    ({"revives": "two rounds"}, "revives:"),
    ({"paralysis_spares": ["gnome"]}, "paralysis_spares[0]: unknown paralysis spares 'gnome'"),
])
def test_bad_ability_fields_are_one_line(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")) as info:
        Fight(duel({"stat_block": GHOUL, **extra}, {"template": "fighter_1"}), [6, 1])
    assert "\n" not in str(info.value)


RED_DRAGON = ("AC -1 [20], HD 10** (45hp), Att 2 × claw (1d8), 1 × bite (4d8), THAC0 11 [+8], "
              "MV 90' (30') / 240' (80') flying, SV D6 W7 P8 B8 S10 (10), ML 10, AL Chaotic, XP 2,300")
RED_BREATH = {"kind": "fire", "damage": "hp", "shape": "cone", "length": 90, "width": 30, "save": "breath",
              "uses": 3, "chance": 3}


def test_a_dragon_breathes_first_a_cone_of_its_hit_points_halved_on_a_save() -> None:
    # dragon (45 hp) first; breath at H: H (fighter 3, B13... fighter 1-3 breath save 15) saves on 15: 22;
    # the second hero, behind H in the cone (3 m further), fails (2): 45
    sc = scenario([{"name": "M", "position": 0, "stat_block": RED_DRAGON, "hp": 45, "breath": RED_BREATH}],
                  [{"name": "H", "position": 1.5, "template": "fighter_3", "hp": 60},
                   {"name": "H2", "position": 4.5, "template": "fighter_3", "hp": 60}])
    f = Fight(sc, [6, 1, 15, 2])
    f.do("declare_none", "M:declare")
    f.do("declare_none", "H:declare")
    while f.who() == "M:move":
        f.do("hold")
    f.do("melee:enemy_0", "M:melee")
    b = f.kinds("breath")[0].data
    assert (b["breath"], b["damage"], b["count"]) == ("fire", 45, 2)
    assert [(e.data["result"], e.data["need"]) for e in f.kinds("effect")] == [("saved", 15), ("failed", 15)]
    assert f.c("H").hp == 60 - 22 and f.c("H2").hp == 60 - 45
    assert not f.kinds("attack")  # the breath replaces the claws and bite
    assert f.c("M").breaths == 1


def test_after_the_first_breath_it_breathes_again_only_on_its_chance() -> None:
    from npc_tactics.systems.ose.rules import breath

    sc = duel({"stat_block": RED_DRAGON, "hp": 45, "breath": RED_BREATH}, {"template": "fighter_3", "hp": 60})
    f = Fight(sc, [6, 1, 4, 3])
    sink = EventSink(f.roller)
    f.state.combatants[0].breaths = 1
    assert not breath.breathes(f.state, sink, 0)  # 4 > 3: claws and bite
    assert breath.breathes(f.state, sink, 0) and f.state.combatants[0].breaths == 2  # 3 <= 3
    f.state.combatants[0].breaths = 3
    assert not breath.breathes(f.state, sink, 0)  # three a day


def test_a_cloud_takes_everyone_around_its_target_and_a_cone_nobody_behind_the_breather() -> None:
    from npc_tactics.systems.ose.rules import breath
    from npc_tactics.systems.ose.rules.state import Breath

    sc = scenario([{"name": "M", "position": 3, "stat_block": RED_DRAGON, "hp": 45},
                   {"name": "Ally", "position": 0, "template": "orc"}],
                  [{"name": "A", "position": 4.5, "template": "fighter_1"},
                   {"name": "B", "position": 13.5, "template": "fighter_1"}])
    f = Fight(sc, [6, 1])
    cone = Breath("fire", "hp", "cone", 6, 3, 3, 3)
    assert breath.area(f.state, 0, 2, cone) == [2]  # the orc is behind the dragon, B beyond 6 squares
    cloud = Breath("gas", "hp", "cloud", 12, 3, 3, 3)
    assert breath.area(f.state, 0, 3, cloud) == [2, 3]  # 6 squares around B: A (6 away) and B


def test_a_medusa_gaze_petrifies_the_enemy_it_attacks_on_a_failed_save() -> None:
    medusa = ("AC 8 [11], HD 4** (18hp), Att 1 × bite (1d6 + poison), 1 × gaze (petrification), THAC0 16 [+3], "
              "MV 90' (30'), SV D10 W11 P12 B13 S14 (4), ML 8, AL Chaotic, XP 175")
    f = Fight(duel({"stat_block": medusa, "hp": 18}, {"template": "fighter_1", "hp": 8}), [6, 1, 5])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    e = f.kinds("effect")[0].data
    assert (e["effect"], e["result"], e["need"], e["save"]) == ("gaze_petrification", "failed", 14, "paralysis")
    assert f.c("H").status == Status.INCAPACITATED and not f.kinds("attack")  # stone: the bite has no target left


def test_a_stirge_latches_on_and_then_drains_without_rolling() -> None:
    stirge = ("AC 7 [12], HD 1* (4hp), Att 1 × beak (1d3 + blood drain), THAC0 19 [0], MV 30' (10') / 180' (60') "
              "flying, SV D12 W13 P14 B15 S16 (2), ML 9, AL Neutral, XP 13")
    # round 1: stirge first, beak 20, 1d3 = 2, latched. Round 2: initiative, the stirge drains 3 (1d3) unrolled
    f = Fight(duel({"stat_block": stirge, "hp": 4}, {"template": "fighter_3", "hp": 30}),
              [6, 1, 20, 2, 1, 1, 3, 6, 1, 3])
    open_round(f)
    f.do("melee:enemy_0", "M:melee")
    assert f.c("M").attached == 1 and f.c("H").hp == 28
    while f.who() != "M:melee":
        name = f.who().split(":")[1]
        f.do({"declare": "declare_none", "move": "hold", "melee": "hold", "missile": "hold"}.get(name, "hold"))
    f.do("melee:enemy_0", "M:melee")
    assert f.kinds("attack")[-1].data["roll"] == 20 and len(f.kinds("attack")) <= 2
    assert [e.data["result"] for e in f.kinds("effect")][-1] == "drains"


def test_a_thief_back_stabs_a_surprised_enemy_plus_four_and_double_damage() -> None:
    # surprise: goblin side 1 (surprised), thief side 6; round 1: only the thief acts. Attack roll 12 + 4 = 16
    # (needs 19 - 6 = 13 anyway), damage 1d6 = 3, x2 = 6 (+STR 0, thief_3 STR 10)
    sc = scenario([{"template": "goblin", "name": "M", "position": 0, "hp": 7}],
                  [{"template": "thief_3", "name": "H", "position": 1.5, "hp": 10}], options={"surprise": True})
    f = Fight(sc, [1, 6, 1, 6, 12, 3])
    while f.who() != "H:melee":
        f.do("hold" if f.who().endswith(":move") else "declare_none")
    f.do("melee:enemy_0", "H:melee")
    a = f.kinds("attack")[0].data
    assert a["backstab"] is True and a["total"] == 12 + 4
    assert f.c("M").hp == 7 - 6
