"""The GM's own MRQ stat blocks (issue 27): derived attributes, dice characteristics rolled with the seed, inline
combatants, pasted text, the printer's round trip over every shipped entry, and the quadruped hit-location table."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import EventSink
from npc_tactics.systems.mrq.rules.bestiary import build_profile, load_weapons, shipped_templates
from npc_tactics.systems.mrq.rules.damage import hit_table, roll_location
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.scenario import scenario_from_mapping
from npc_tactics.systems.mrq.rules.statblock_files import expand, load_bestiary
from npc_tactics.systems.mrq.rules.statblock_print import format_stat_block
from npc_tactics.systems.mrq.rules.statblock_text import parse_stat_block
from npc_tactics.systems.mrq.rules.state import MRQState, Profile
from npc_tactics.systems.mrq.rules.tables import HIT_LOCATION_D20

W = load_weapons()

BEAR = """Brown bear
STR 3D6+15  CON 2D6+6  SIZ 3D6+15  INT 5  POW 3D6  DEX 3D6
Combat Actions 2  Damage Modifier +1D12
D20 Hit Location AP/HP
1-2 Right Hind Leg 3/6
3-4 Left Hind Leg 3/6
5-7 Hindquarters 3/7
8-10 Forequarters 3/8
11-13 Right Front Leg 3/6
14-16 Left Front Leg 3/6
17-20 Head 3/6
Weapons
Type Weapon skill Damage
Claw 60% 1D6
Bite 40% 1D8
Traits: Unintelligent
Kind beast
"""


def _prof(raw: dict[str, Any], roll: Any = None) -> Profile:
    return build_profile("x", raw, "t.yaml", "x", W, None, roll)


def test_attributes_derive_from_characteristics_per_the_tables() -> None:
    """§1 CAs by DEX (19+: 4), §17.1 damage modifier by STR+SIZ (51-60: 1d12) and location HP by SIZ+CON
    (26-30: legs 6, abdomen 7, chest 8, arms 5, head 6)."""
    raw: dict[str, Any] = {"style": "natural", "skill": 60, "weapon": "lion_claw", "unarmed": "lion_claw",
           "characteristics": {"str": 26, "con": 13, "siz": 26, "int": 5, "pow": 11, "dex": 19}}
    p = _prof(raw)
    assert p.cas == 4 and p.dm == "1d12"
    assert p.loc_max == (8, 8, 9, 10, 7, 7, 8)  # SIZ+CON 39: band 36-40, legs 8
    p2 = _prof({**raw, "characteristics": {**raw["characteristics"], "siz": 14, "con": 13}})
    assert p2.loc_max == (6, 6, 7, 8, 5, 5, 6) and p2.dm == "1d6"  # SIZ+CON 27; STR+SIZ 40


def test_a_stat_blocks_own_figures_are_kept_where_it_prints_them() -> None:
    raw = {"style": "one_handed", "skill": 50, "weapon": "broadsword", "combat_actions": 3,
           "damage_modifier": "+1D4", "location_hp": 9,
           "characteristics": {"str": 10, "con": 10, "siz": 10, "int": 10, "pow": 10, "dex": 10}}
    p = _prof(raw)
    assert (p.cas, p.dm, p.loc_max) == (3, "1d4", (9,) * 7)  # no cap from a template: the GM's figures


def test_dice_characteristics_use_their_average_without_a_roller_and_the_roll_with_one() -> None:
    raw = expand(BEAR, "t.yaml", "bear")
    assert raw["characteristics"]["str"] == "3d6+15"
    assert _prof(raw).siz == 26  # 3D6+15 averages 25.5, rounded half up
    forced = {"str": 33, "siz": 18, "con": 8, "pow": 3, "dex": 4, "int": 5}
    p = _prof(raw, lambda expr, key: forced[key])
    assert (p.siz, p.cas) == (18, 1) and p.loc_max[0] == 6  # CAs from the rolled DEX 4; the printed HP match the
    # average SIZ+CON, so they derive from the roll: SIZ+CON 26, legs 6


def test_dice_are_rolled_with_the_fights_seed() -> None:
    data = {"distance": "close", "sides": [{"combatants": [{"template": "knight", "name": "K"}]},
                                           {"combatants": [{"name": "Bear", "stat_block": BEAR}]}]}
    scen = scenario_from_mapping(data, "s.yaml")
    assert scen.rolled and scen.rolled[0][0] == 1

    def bear(seed: int) -> tuple[int, int]:
        state, events = MRQEngine().new_combat(scen, RngRoller(np.random.default_rng(seed)))
        rolls = [e for e in events if e.kind == "roll" and e.data["why"] in ("STR", "SIZ")]
        assert len(rolls) == 2 and all(e.actor == 1 for e in rolls)
        return state.combatants[1].prof.siz, state.combatants[1].prof.dex

    assert bear(1) == bear(1)
    assert len({bear(s) for s in range(6)}) > 1


def test_inline_full_fields_without_template_and_with_template_limits() -> None:
    bear = expand(BEAR, "t.yaml", "bear")
    data = {"sides": [{"combatants": [{"template": "knight"}]}, {"combatants": [{"name": "B", **bear}]}]}
    scen = scenario_from_mapping(data, "s.yaml")
    assert scen.combatants[1][2].body == "quadruped" and scen.combatants[1][2].template == "B"
    bad = {"sides": [{"combatants": [{"template": "knight", "style": "natural"}]}, {"combatants": [{**bear}]}]}
    with pytest.raises(ConfigError, match=r"combatants\[0\]\.style: a combatant with a template may only"):
        scenario_from_mapping(bad, "s.yaml")


def test_several_natural_weapons_keep_the_first_and_list_the_rest() -> None:
    """MRQ1: each attack is a Combat Action with one weapon; the engine strikes with the first (main) one and
    the others are kept in the stat block (``other_weapons``), printed but not played."""
    raw = expand(BEAR, "t.yaml", "bear")
    assert raw["weapon"] == "claw" and raw["other_weapons"] == [{"name": "bite", "skill": 40, "damage": "1d8"}]
    p = _prof(raw)
    assert p.weapon.kind == "natural" and p.weapon.damage == "1d6" and not p.intelligent
    assert p.weapon_loc == 4  # a claw strikes from the right front leg
    assert "Bite 40% 1D8" in format_stat_block("bear", raw)


@pytest.mark.parametrize("name", sorted(shipped_templates()))
def test_every_shipped_entry_round_trips(name: str) -> None:
    raw = load_bestiary()[name]
    text = format_stat_block(name, raw)
    parsed = parse_stat_block(text)
    assert _prof(parsed) == _prof(raw)
    assert format_stat_block(name, parsed) == text


def test_shipped_bestiary_counts_and_tags() -> None:
    shipped = shipped_templates()
    assert len(shipped) >= 30
    kinds = {raw.get("kind", "monster") for _, raw in shipped.values()}
    assert {"human", "humanoid", "beast", "monster", "undead", "mount"} <= kinds
    assert sum(1 for _, raw in shipped.values() if raw.get("body") == "quadruped") >= 8


def _state(foe: str = "brown_bear") -> MRQState:
    data = {"sides": [{"combatants": [{"template": "knight"}]}, {"combatants": [{"template": foe}]}]}
    return MRQEngine().build_state(scenario_from_mapping(data, "s.yaml"))


@pytest.mark.parametrize(("face", "house", "published"), [(17, 5, 6), (3, 0, 1), (7, 2, 2), (11, 3, 4), (20, 6, 6)])
def test_quadruped_hit_locations(face: int, house: int, published: int) -> None:
    """The MRQ-family quadruped table (mythras.skoll.xyz creature templates: 1-2 RHL, 3-4 LHL, 5-7 HQ, 8-10 FQ,
    11-13 RFL, 14-16 LFL, 17-20 head) for the new quadrupeds (``hit_locations: quadruped``); the shipped wolf
    keeps the humanoid bands over the quadruped names, as the shipped fights were played."""
    for foe, want in (("wolf", house), ("brown_bear", published)):
        st = _state(foe)
        sink = EventSink(ScriptedRoller([face]), 1, True)
        assert roll_location(sink, 0, 1, False, hit_table(st, 1)) == want
        assert hit_table(st, 0) == HIT_LOCATION_D20  # the knight keeps the humanoid table


def test_a_stat_blocks_own_d20_column_is_its_table() -> None:
    assert expand(BEAR, "t.yaml", "bear")["hit_locations"] == "quadruped"
    odd: dict[str, Any] = {"style": "one_handed", "skill": 50, "weapon": "broadsword",
           "characteristics": {"str": 10, "con": 10, "siz": 10, "int": 10, "pow": 10, "dex": 10},
           "hit_locations": {"right_leg": "1-4", "left_leg": "5-8", "abdomen": "9-11", "chest": "12",
                             "right_arm": "13-15", "left_arm": "16-18", "head": "19-20"}}
    p = _prof(odd)
    assert [p.hit_table[f] for f in (4, 5, 12, 13)] == [0, 1, 3, 4]
    text = format_stat_block("odd", odd)
    assert "12 Chest" in text and _prof(parse_stat_block(text)) == p
    with pytest.raises(ConfigError, match=r"hit_locations\.left_leg: face 4 is already right_leg"):
        _prof({**odd, "hit_locations": {**odd["hit_locations"], "left_leg": "4-8"}})
    with pytest.raises(ConfigError, match=r"hit_locations: face 12 has no location"):
        _prof({**odd, "hit_locations": {**odd["hit_locations"], "abdomen": "9-10", "chest": "11"}})


@pytest.mark.parametrize("name", sorted(n for n, (f, _) in shipped_templates().items() if f.endswith("creatures.yaml")))
def test_every_new_creature_plays_a_fight_to_its_end(name: str) -> None:
    """Each issue-27 template fights a knight (and a pair of itself against two knights) to an outcome, every
    decision legal."""
    eng = MRQEngine()
    for seed, n in ((1, 1), (2, 2)):
        data = {"distance": "long",
                "sides": [{"combatants": [{"template": name, "name": f"C{k}"} for k in range(n)]},
                          {"combatants": [{"template": "knight", "name": f"K{k}"} for k in range(n)]}]}
        rng = np.random.default_rng(seed)
        state, _ = eng.new_combat(scenario_from_mapping(data, "s.yaml"), RngRoller(rng))
        for step in range(5000):
            if eng.outcome(state) is not None:
                break
            legal = np.flatnonzero(eng.legal_mask(state, eng.pending(state)))
            assert len(legal) > 0
            state, _ = eng.step(state, int(legal[(seed * 7 + step) % len(legal)]), RngRoller(rng))
        assert eng.outcome(state) is not None


def test_the_dice_and_average_layout_with_one_characteristic_a_line() -> None:
    """The MRQ-family layout with a "Dice Average" column (as Mongoose's Legend prints it, e.g. a broo-like
    beastman at jonbrazer.com): one characteristic a line with its average, "1d20 Hit Location AP/HP", "-" for
    no armour."""
    text = """Gruff
    Dice Average
    STR 2d6+6 (13)
    CON 1d6+12 (16)
    SIZ 3d6+5 (16)
    INT 2d6+6 (13)
    POW 3d6 (11)
    DEX 3d6 (11)
    CHA 2d6 (7)
    1d20 Hit Location AP/HP
    1-3 Right Leg -/7
    4-6 Left Leg -/7
    7-9 Abdomen -/8
    10-12 Chest -/9
    13-15 Right Arm -/6
    16-18 Left Arm -/6
    19-20 Head -/7
    Weapons
    Head butt 50% 1D6
    """
    raw = parse_stat_block(text)
    assert raw["characteristics"] == {"str": "2d6+6", "con": "1d6+12", "siz": "3d6+5", "int": "2d6+6",
                                      "pow": "3d6", "dex": "3d6", "cha": "2d6"}
    p = _prof(raw)
    assert p.armour == (0,) * 7 and p.loc_max == (7, 7, 8, 9, 6, 6, 7)  # SIZ+CON 32 at the averages
    assert p.weapon.name == "head_butt" and p.weapon_loc == 6 and p.style == "natural"


def test_new_templates_keep_the_threat_scale() -> None:
    """The encounter builder scales threat by the median template; the issue-27 creatures sit as many below as
    above the old median (javelineer), so every old template keeps its threat and the distributions their draws."""
    from npc_tactics.encounters.compose import threats

    t = threats("mrq")
    new = [n for n, (f, _) in shipped_templates().items() if f.endswith("creatures.yaml")]
    assert t["javelineer"] == 1.0 and t["wolf"] == 0.123 and t["great_axe"] == 3.306
    assert sum(t[n] < 1.0 for n in new) == sum(t[n] > 1.0 for n in new)


def test_a_stat_blocks_own_reactions_count_each_round() -> None:
    """A18: one Reaction per Combat Action (+1 with a shield) unless the stat block gives its own figure."""
    text = BEAR.replace("Combat Actions 2", "Combat Actions 2  Reactions 3")
    raw = expand(text, "t.yaml", "bear")
    assert raw["reactions"] == 3 and _prof(raw).base_reactions == 3
    assert "reactions" not in expand(BEAR.replace("Combat Actions 2", "Combat Actions 2 Reactions 2"), "t", "b")
    data = {"distance": "close", "sides": [{"combatants": [{"template": "knight", "name": "K"}]},
                                           {"combatants": [{"name": "Bear", "stat_block": text}]}]}
    eng = MRQEngine()
    state = eng.build_state(scenario_from_mapping(data, "s.yaml"))
    eng.new_round(state, EventSink(RngRoller(np.random.default_rng(0)), 1, False))
    knight, bear = state.combatants
    assert (bear.reactions, bear.cas) == (3, 2)
    assert knight.reactions == knight.cas + 1  # one per Combat Action and the kite shield's
    assert "Reactions 3" in format_stat_block("bear", raw)
