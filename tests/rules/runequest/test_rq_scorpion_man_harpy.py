"""Two published RQG creatures on their own hit-location tables (issue 27: "a shipped creature of each new kind"),
forced dice. Source: the Chaosium-licensed Foundry VTT RuneQuest Glorantha wiki module
(sun-dragon-cult/fvtt-module-wiki-rqg, commit 34492dc): ``pack-templates/hit-locations-scorpion-men`` and
``-harpies`` (d20 bands ``dieFrom``-``dieTo``, ``hitLocationType``, ``baseHpDelta``, ``naturalAp``),
``pack-templates/bestiary-chaos-monsters/scorpion-man.yaml`` and ``harpy.yaml`` (characteristics, HP, skills,
weapons). Location HP = the §15 legs' column of the total HP + the module's ``baseHpDelta``: the -2 and +2 offsets
are the columns ``most-2`` and ``most+2`` (``tables.LOCATION_HP_OFFSETS``), and the templates' ``location_hp`` still
gives the module's figures (the same)."""

from __future__ import annotations

import pytest

from npc_tactics.encounters import compose
from npc_tactics.evaluation.fight import play_fight
from npc_tactics.rollouts.record import agent_rngs
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.runequest.agents import ByTheBookAgent
from npc_tactics.systems.runequest.encoder import RuneQuestEncoder
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary
from npc_tactics.systems.runequest.rules.damage import hit_location
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.state import RQState
from tests.rules.runequest.rq_helpers import fight, kinds, play

WARRIOR = {"template": "orlanthi_warrior", "armour": 0}

#: hit-locations-scorpion-men.yaml: (location, kind, dieFrom, dieTo, baseHpDelta); naturalAp 3 everywhere
SCORPION_MAN = [
    ("right_hind_leg", "limb", 1, 1, -2), ("right_middle_leg", "limb", 2, 2, -2),
    ("right_foreleg", "limb", 3, 4, -2), ("left_hind_leg", "limb", 5, 5, -2),
    ("left_middle_leg", "limb", 6, 6, -2), ("left_foreleg", "limb", 7, 8, -2), ("tail", "limb", 9, 10, 0),
    ("thorax", "chest", 11, 12, 0), ("chest", "chest", 13, 14, 1), ("right_arm", "limb", 15, 16, -1),
    ("left_arm", "limb", 17, 18, -1), ("head", "head", 19, 20, 0)]
#: hit-locations-harpies.yaml; naturalAp 1 everywhere
HARPY = [
    ("right_leg", "limb", 1, 2, 0), ("left_leg", "limb", 3, 4, 0), ("abdomen", "abdomen", 5, 7, 1),
    ("chest", "chest", 8, 9, 2), ("right_wing", "limb", 10, 13, 1), ("left_wing", "limb", 14, 17, 1),
    ("head", "head", 18, 20, 2)]
COLUMN = {"most": 0, "chest": 1, "arm": -1, "most-2": -2, "most+2": 2}


@pytest.mark.parametrize(("plan", "published"), [("scorpion_man", SCORPION_MAN), ("harpy", HARPY)])
def test_the_published_tables(plan: str, published: list[tuple[str, str, int, int, int]]) -> None:
    rows = T.HIT_LOCATIONS[plan]
    assert [(r.name, r.kind, r.low, r.high) for r in rows] == [p[:4] for p in published]
    # the plan's column is the module's offset: the §15 table's 0, +1, -1, and the creature tables' -2, +2
    for r, p in zip(rows, published, strict=True):
        assert COLUMN[r.hp_row] == p[4], r.name
    assert len(rows) <= T.MAX_LOCATIONS


@pytest.mark.parametrize(("template", "published"), [("scorpion_man", SCORPION_MAN), ("harpy", HARPY)])
def test_every_d20_roll_lands_in_its_published_band(template: str,
                                                    published: list[tuple[str, str, int, int, int]]) -> None:
    _, s = fight([WARRIOR], [{"template": template}], distance=1)
    c = s.combatants[1]
    for name, _, low, high, _ in published:
        for d20 in range(low, high + 1):
            assert c.locations[hit_location(c, d20)].spec.name == name, (template, d20)


def test_the_scorpion_man_s_location_hp_and_armour() -> None:
    """STR 2D6+12, CON 3D6, SIZ 2D6+12, POW 2D6 -> 19, 11, 19, 7: HP 11 + 2 (SIZ 19) = 13, the module's 13. Legs'
    column at 13 HP: 5; the legs -2 -> 3, tail and thorax 5, chest +1 -> 6, arms -1 -> 4, head 5; 3 AP each."""
    _, s = fight([WARRIOR], [{"template": "scorpion_man"}], distance=1)
    c = s.combatants[1]
    assert c.max_hp == 13 and calc.location_hp(13, "most") == 5
    assert [(loc.spec.name, loc.spec.max_hp) for loc in c.locations] == [
        (n, 5 + delta) for n, _, _, _, delta in SCORPION_MAN]
    assert {loc.spec.armour for loc in c.locations} == {3}


def test_the_harpy_s_location_hp_and_armour() -> None:
    """STR 3D6, CON 3D6, SIZ 2D6, POW 3D6 -> 11, 11, 7, 11: HP 11 - 1 (SIZ 7) = 10, the module's 10. Legs' column
    at 10 HP: 4; abdomen and wings +1 -> 5, chest and head +2 -> 6; 1 AP each."""
    _, s = fight([WARRIOR], [{"template": "harpy"}], distance=1)
    c = s.combatants[1]
    assert c.max_hp == 10 and calc.location_hp(10, "most") == 4
    assert [(loc.spec.name, loc.spec.max_hp) for loc in c.locations] == [(n, 4 + delta) for n, *_, delta in HARPY]
    assert {loc.spec.armour for loc in c.locations} == {1}


def test_the_stat_blocks_as_the_module_gives_them() -> None:
    """Skills: base + gained + the skill-category modifier (agility +5, manipulation +5 for both). Scorpion man:
    Dodge 28 + 20 + 5, sting 25 + 25 + 5, club 15 + 35 + 5, sling 5 + 40 + 5. Harpy: Dodge 28 + 32 + 5, claw
    25 + 0 + 5. The book's SR column: DEX SR 2 + SIZ SR 1 + the sting's 4 = the module's 7."""
    b = shipped_bestiary()
    sm, hp = b["scorpion_man"], b["harpy"]
    assert sm["characteristics"] == {"STR": 19, "CON": 11, "SIZ": 19, "DEX": 14, "INT": 7, "POW": 7, "CHA": 11}
    assert hp["characteristics"] == {"STR": 11, "CON": 11, "SIZ": 7, "DEX": 14, "INT": 11, "POW": 11, "CHA": 4}
    assert (sm["move"], sm["armour"], sm["skills"]["dodge"]) == (8, 3, 53)
    assert (hp["move"], hp["armour"], hp["skills"]["dodge"]) == (10, 1, 65)
    _, s = fight([{"template": "harpy"}], [{"template": "scorpion_man"}], distance=1)
    harpy, scorpion = s.combatants
    assert [(w.spec.name, w.spec.skill, w.spec.damage, w.spec.sr, w.spec.parry) for w in scorpion.weapons] == [
        ("club", 55, "1d6", 4, True), ("sting", 55, "1d6", 4, False), ("sling", 50, "1d8", 0, False)]
    assert scorpion.spec.db == "1d6" and scorpion.spec.dex_sr + scorpion.spec.siz_sr + 4 == 7
    assert [(w.spec.name, w.spec.skill, w.spec.damage, w.spec.parry) for w in harpy.weapons] == [
        ("claw", 30, "1d6", False)]
    assert harpy.spec.db == ""
    for name in ("scorpion_man", "harpy"):
        assert b[name]["kind"] == "chaos" and b[name]["faction"] == "Chaos"
        assert "fvtt-module-wiki-rqg" not in b[name]["source"] and "Foundry RQG wiki module" in b[name]["source"]


def _no_defence_blow(template: str, d20: int, dice: list[int]) -> tuple[RuneQuestEngine, RQState, list[Event]]:
    eng, s = fight([WARRIOR], [{"template": template}], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    d = eng.pending(s)
    assert d is not None and d.kind == DecisionKind.REACT and d.actor == 1
    ev, roller = play(eng, s, [30, *dice, d20], "no_defence")
    assert roller.remaining == 0
    return eng, s, ev


def test_a_blow_on_a_scorpion_man_s_middle_leg_puts_it_down() -> None:
    """Broadsword 30 (success), 1D8+1 -> 8 + 1, db 1D4 -> 4, D20 2: the right middle leg (02): 13 - 3 AP = 10 on
    a 3-HP leg: the limb cap lets 2 x 3 = 6 through, 10 >= 3 x 3 severs it, and a useless leg puts the creature
    down (§18, "leg" in the name, as every leg of the engine's tables)."""
    _, s, ev = _no_defence_blow("scorpion_man", 2, [8, 4])
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "right_middle_leg" and dmg.data["amount"] == 6 and dmg.target == 1
    sm = s.combatants[1]
    leg = next(loc for loc in sm.locations if loc.spec.name == "right_middle_leg")
    assert leg.severed and sm.prone and sm.hp == 13 - 6


def test_a_blow_on_a_scorpion_man_s_tail_disables_it_but_it_stays_up() -> None:
    """D20 9: the tail (09-10), a limb of 5 HP: 1D8+1 -> 5 + 1, db 1D4 -> 2, 8 - 3 AP = 5 >= its HP: useless (not
    severed, under 3 x 5), and not a leg: the scorpion man keeps its feet."""
    _, s, ev = _no_defence_blow("scorpion_man", 9, [5, 2])
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "tail" and dmg.data["amount"] == 5
    sm = s.combatants[1]
    tail = next(loc for loc in sm.locations if loc.spec.name == "tail")
    assert tail.useless and not tail.severed and not sm.prone


def test_a_blow_on_a_harpy_s_wing_leaves_it_standing_and_on_its_leg_puts_it_down() -> None:
    """Harpy wing (D20 12: right wing 10-13), 5 HP, 1 AP: 1D8+1 -> 4 + 1, db 1D4 -> 1, 6 - 1 = 5: useless, a limb
    that is no leg (flight is not modelled: it stays up). Its left leg (D20 3: 03-04), 4 HP: 3 + 1 + 1 - 1 = 4:
    useless, and down."""
    _, s, ev = _no_defence_blow("harpy", 12, [4, 1])
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "right_wing" and dmg.data["amount"] == 5
    harpy = s.combatants[1]
    assert next(loc for loc in harpy.locations if loc.spec.name == "right_wing").useless and not harpy.prone
    _, s, ev = _no_defence_blow("harpy", 3, [3, 1])
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "left_leg" and dmg.data["amount"] == 4
    harpy = s.combatants[1]
    assert next(loc for loc in harpy.locations if loc.spec.name == "left_leg").useless and harpy.prone


def test_an_aimed_blow_at_a_scorpion_man_picks_among_its_last_seven_locations() -> None:
    """Twelve rows: aim:<i> names row i + 5, the left foreleg (aim:0) to the head (aim:6) [HOUSE]; the
    observation keeps its size."""
    assert [T.aim_location(12, i) for i in range(7)] == list(range(5, 12))
    eng, s = fight([WARRIOR], [{"template": "scorpion_man"}], distance=1)
    size = RuneQuestEncoder(eng).size
    play(eng, s, [], "aimed:0:enemy_0", "aim:0")
    intent = s.combatants[0].intent
    assert intent is not None and s.combatants[1].locations[intent.loc].spec.name == "left_foreleg"
    enc = RuneQuestEncoder(eng)
    assert enc.size == size and enc.encode(s, eng.pending(s)).shape == (size,)


@pytest.mark.parametrize(("template", "foes"), [("scorpion_man", 2), ("harpy", 1)])
def test_a_composed_fight_plays_to_its_end_by_the_book(template: str, foes: int) -> None:
    eng = RuneQuestEngine()
    scenario = compose("runequest", [[(template, 1)], [("orlanthi_warrior", foes)]])
    for seed in range(3):
        agents = [ByTheBookAgent(eng, rng) for rng in agent_rngs(seed, 2)]
        rec = play_fight(eng, RuneQuestEncoder(eng), scenario, agents, seed)
        assert rec.rounds >= 1 and rec.decisions > 0 and rec.reason
        attacks = sum(n for (side, kind, _), n in rec.event_counts.items() if side == 0 and kind == "attack")
        assert attacks > 0, (template, seed, rec.event_counts)
