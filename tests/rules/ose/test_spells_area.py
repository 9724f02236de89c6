"""OSE area spells on the battle line (docs/ose-spells.md): Fire Ball, Lightning Bolt, Web, Phantasmal Force,
Light/Darkness, Silence 15' Radius. Forced dice: initiative first (side 0, side 1), then the spell's dice."""

from __future__ import annotations

import pytest
from ose_helpers import Fight, scenario

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules import legal
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.state import PHASE_MELEE, PHASE_MOVE


def began(f: Fight) -> dict[str, tuple[str, int]]:
    """Combatant -> (condition, rounds) of each condition that began (the rounds it was given)."""
    return {f.state.combatants[e.actor].name: (e.data["condition"], e.data["rounds"])
            for e in f.kinds("condition") if e.data["result"] == "begins"}


def idx(f: Fight, name: str) -> int:
    return next(i for i, c in enumerate(f.state.combatants) if c.name == name)


def elf(spells: dict[str, int], level: int = 9, pos: float = 0) -> dict:
    return {"template": f"elf_{level}", "name": "E", "position": pos, "hp": 30, "spells": spells}


def declare(f: Fight, **choices: str) -> None:
    """Answer every pending declaration: ``choices[name]`` for that combatant, ``declare_none`` otherwise."""
    rnd = f.state.round
    while f.who().endswith(":declare") and f.state.round == rnd:
        f.do(choices.get(f.who().split(":")[0], "declare_none"))


def cast(f: Fight, who: str, action: str) -> None:
    """``who`` declares ``action``, everyone else nothing; then everyone holds until the spell is cast."""
    declare(f, **{who: action})
    while not [e for e in f.kinds("spell") if e.data["result"] != "declared"] and f.who():
        legal_now = f.legal()
        f.do("hold" if "hold" in legal_now else "declare_none" if "declare_none" in legal_now else legal_now[0])


def orcs(*positions: float, hp: int = 30) -> list[dict]:
    return [{"template": "orc", "name": f"O{k}", "position": p, "hp": hp} for k, p in enumerate(positions)]


def test_fire_ball_one_roll_per_caster_level_save_for_half() -> None:
    # E at 0; O0 at 30 m (square 20), O1 at 36 m (24: 4 squares = 20' away, caught), O2 at 37.5 m (25: out)
    sc = scenario([elf({"fire_ball": 1})], orcs(30, 36, 37.5))
    dice = [6, 1] + [4] * 9 + [2, 20]  # 9d6 = 36; O0 fails (2 < 17), O1 saves (20): 18
    f = Fight(sc, dice)
    declare(f, E="cast:fire_ball:enemy_0")
    assert [e.data["count"] for e in f.kinds("area")] == [2]
    dmg = {f.state.combatants[e.target].name: e.data["rolled"] for e in f.kinds("damage")}
    assert dmg == {"O0": 36, "O1": 18}
    assert f.c("O0").status == Status.DEAD and f.c("O1").hp == 12 and f.c("O2").hp == 30


def test_fire_ball_takes_the_casters_friends_and_itself() -> None:
    # F at 1.5 m beside E; the orc adjacent to F: the ball at the orc catches all three
    sc = scenario([elf({"fire_ball": 1}, level=6), {"template": "fighter_3", "name": "F", "position": 1.5,
                                                     "hp": 30}], orcs(3))
    f = Fight(sc, [6, 1] + [1] * 6 + [20, 20, 20])  # 6d6 = 6, everyone saves: 3 each
    declare(f, E="cast:fire_ball:enemy_0")
    caught = sorted(f.state.combatants[e.target].name for e in f.kinds("damage"))
    assert caught == ["E", "F", "O0"] and all(e.data["rolled"] == 3 for e in f.kinds("damage"))


def test_lightning_bolt_runs_sixty_feet_away_from_the_caster() -> None:
    # bolt from O0 (square 10) runs to square 21: O1 at square 21 caught, O2 at 22 not; behind O0 nothing
    sc = scenario([elf({"lightning_bolt": 1}, level=5)], orcs(15, 31.5, 33))
    f = Fight(sc, [6, 1] + [6] * 5 + [1, 1])  # 5d6 = 30, both fail
    declare(f, E="cast:lightning_bolt:enemy_0")
    assert sorted(f.state.combatants[e.target].name for e in f.kinds("damage")) == ["O0", "O1"]
    assert f.c("O2").hp == 30
    assert T.spell_entry("lightning_bolt", "magic_user") == (3, 180)


def test_lightning_bolt_out_of_range_is_not_offered() -> None:
    sc = scenario([elf({"lightning_bolt": 1})], orcs(55.5))  # 37 squares = 185' > 180'
    f = Fight(sc, [6, 1])
    assert "cast:lightning_bolt:enemy_0" not in f.legal()


def test_half_damage_is_at_least_one() -> None:
    sc = scenario([elf({"fire_ball": 1}, level=1 + 5)], orcs(30))
    f = Fight(sc, [6, 1] + [1] * 6 + [20])  # 6 halved = 3
    declare(f, E="cast:fire_ball:enemy_0")
    assert f.kinds("damage")[0].data["rolled"] == 3


def test_web_entangles_the_cube_and_stops_movement() -> None:
    # web range 10' = 2 squares; O0 adjacent to... E at 0, O0 at 3 m (2 squares), O1 at 4.5 m (square 3)
    sc = scenario([{"template": "magic_user_3", "name": "M", "position": 0, "hp": 8, "spells": {"web": 1}}],
                  orcs(3, 4.5, 7.5))
    f = Fight(sc, [6, 1, 2, 3, 1, 1])  # O0 breaks free in 2d4=5 turns, O1 in 2 turns
    declare(f, M="cast:web:enemy_0")
    webbed = {f.state.combatants[e.actor].name: e.data["rounds"] for e in f.kinds("condition")}
    assert webbed == {"O0": 50, "O1": 20}
    assert "webbed" not in f.c("O2").conditions
    # entangled: no move (nor a declared withdrawal) while it lasts; the orc beyond the cube moves freely
    assert legal.act(f.state, idx(f, "O0"), PHASE_MOVE) == [] and legal.act(f.state, idx(f, "O2"), PHASE_MOVE)
    assert A.DECLARE_WITHDRAW not in legal.declare(f.state, idx(f, "O1"))


def test_web_out_of_reach_is_not_offered() -> None:
    sc = scenario([{"template": "magic_user_3", "name": "M", "position": 0, "hp": 8, "spells": {"web": 1}}],
                  orcs(4.5))
    assert "cast:web:enemy_0" not in Fight(sc, [6, 1]).legal()


def test_phantasmal_force_makes_enemies_faint_but_not_friends() -> None:
    sc = scenario([{"template": "magic_user_3", "name": "M", "position": 0, "hp": 8,
                    "spells": {"phantasmal_force": 1}}], orcs(30, 31.5, 36))
    f = Fight(sc, [6, 1, 3, 4, 20])  # O0 fails (faints 1d4 = 4 rounds), O1 saves; O2 is out of the 20' cube
    declare(f, M="cast:phantasmal_force:enemy_0")
    assert began(f) == {"O0": ("fainted", 4)}
    assert f.c("O0").status == Status.ACTIVE  # no real harm: it is not out of the fight


@pytest.mark.parametrize("spell", ["light", "darkness"])
def test_light_on_the_eyes_blinds_and_a_blind_creature_cannot_attack(spell: str) -> None:
    # magic-user 2: 6 turns + 1 per level = 80 rounds; the orc (saves vs spells on 16, as F1) fails on 15
    sc = scenario([{"template": "magic_user_2", "name": "M", "position": 0, "hp": 8, "spells": {spell: 1}}],
                  orcs(1.5))
    f = Fight(sc, [6, 1, 15])
    declare(f, M=f"cast:{spell}:enemy_0")
    assert began(f) == {"O0": ("blind", 80)} and "blind" in f.c("O0").conditions
    assert legal.act(f.state, idx(f, "O0"), PHASE_MELEE) == []  # adjacent, but blind


def test_cleric_light_lasts_twelve_turns() -> None:
    sc = scenario([{"template": "cleric_2", "name": "C", "position": 0, "hp": 8, "spells": {"light": 1}}],
                  orcs(9))
    f = Fight(sc, [6, 1, 1])
    declare(f, C="cast:light:enemy_0")
    assert began(f) == {"O0": ("blind", 120)}


def test_silence_on_a_creature_that_fails_moves_with_it_and_stops_casting() -> None:
    sc = scenario([{"template": "cleric_4", "name": "C", "position": 0, "hp": 12,
                    "spells": {"silence_15_radius": 1}}],
                  [{"template": "magic_user_3", "name": "M", "position": 15, "hp": 8},
                   {"template": "magic_user_3", "name": "N", "position": 19.5, "hp": 8}])
    f = Fight(sc, [6, 1, 2])  # M fails its save
    declare(f, C="cast:silence_15_radius:enemy_0")
    assert began(f) == {"M": ("silenced", 120)}
    # M and N (3 squares = 15' from M) can no longer declare a spell; C, far away, could
    for who in ("M", "N"):
        assert [a for a in legal.declare(f.state, idx(f, who)) if A.CATALOGUE.name(a).startswith("cast:")] == []
    assert f.c("N").spells == f.c("M").spells and sum(f.c("N").spells) > 0


def test_silence_saved_stays_where_the_creature_stood() -> None:
    sc = scenario([{"template": "cleric_4", "name": "C", "position": 0, "hp": 12,
                    "spells": {"silence_15_radius": 1}}],
                  [{"template": "magic_user_3", "name": "M", "position": 15, "hp": 8}])
    f = Fight(sc, [6, 1, 20])
    declare(f, C="cast:silence_15_radius:enemy_0")
    assert began(f) == {"C": ("silence_at:10", 120)} and not f.c("M").conditions
