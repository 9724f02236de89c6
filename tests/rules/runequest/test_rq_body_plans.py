"""Body plans beyond the human (issue 27), forced dice. Tables: ``tables.HIT_LOCATIONS`` "serpent" (tail 01-06, body
07-14 an abdomen with the chest's HP, head 15-20) and "bird" (tail 01 at -2 HP, legs 02-04/05-07 at -1, abdomen
08-09, chest 10-12 at +1, wings 13-14/15-16, head 17-20), the RQG tables as the Chaosium-licensed Foundry RQG wiki
module prints them (hit-locations-serpents, hit-locations-birds-flying); natural weapons have no HP and cannot
parry (A8); a Dodge of 0 cannot be tried (A1), so a python answers a blow with no defence and is not asked."""

from __future__ import annotations

import numpy as np

from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.runequest.rules import tables as T
from tests.rules.runequest.rq_helpers import fight, kinds, play

WARRIOR = {"template": "orlanthi_warrior", "armour": 0}


def test_published_tables_cover_the_d20_and_fit_the_encoder() -> None:
    for name, rows in T.HIT_LOCATIONS.items():
        faces = [f for r in rows for f in range(r.low, r.high + 1)]
        assert faces == list(range(1, 21)), name
        assert len(rows) <= T.MAX_LOCATIONS
    assert T.AIM_SLOTS == 7  # the catalogue's aim:<i> entries, unchanged


def test_a_blow_on_a_python_lands_on_its_body_and_it_cannot_parry_or_dodge() -> None:
    eng, s = fight([WARRIOR], [{"template": "python"}], distance=1)
    python = s.combatants[1]
    assert not any(w.spec.parry for w in python.weapons) and python.spec.dodge == 0
    play(eng, s, [], "attack:0:enemy_0")
    # the python declares an attack too; the warrior's broadsword is at SR 3 + 2 + 2 = 7 before the bite
    d = eng.pending(s)
    assert d.kind == DecisionKind.DECLARE and d.actor == 1
    # broadsword 30 (success), 1D8+1 -> 7 + 1, db 1D4 -> 2, D20 10 -> body (07-14): 10 - 2 AP = 8
    ev, roller = play(eng, s, [30, 7, 2, 10, 99, 99], "defend")
    (dmg,) = kinds(ev, "damage")[:1]
    assert dmg.data["location"] == "body" and dmg.data["amount"] == 8 and dmg.target == 1
    assert python.hp == python.max_hp - 8


def test_a_hawk_dodges_and_a_blow_on_its_wing_uses_the_bird_table() -> None:
    eng, s = fight([WARRIOR], [{"template": "hawk"}], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    d = eng.pending(s)
    assert d.kind == DecisionKind.REACT and d.actor == 1
    legal = [eng.catalogue.name(i) for i in np.flatnonzero(eng.legal_mask(s))]
    assert "dodge" in legal and not [n for n in legal if n.startswith("parry")]
    # no defence: broadsword 30, 1D8+1 -> 3 + 1, db 2, D20 14 -> right wing (13-14), no armour: 6 points on a
    # wing of 2 HP (6 total HP -> the legs' column, 2): the limb cap lets 2L = 4 through and 6 >= 3L severs it (§18)
    ev, _ = play(eng, s, [30, 3, 2, 14], "no_defence")
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "right_wing" and dmg.data["amount"] == 4
    wing = next(loc for loc in s.combatants[1].locations if loc.spec.name == "right_wing")
    assert wing.spec.max_hp == 2 and wing.severed


def test_the_bird_and_serpent_tables_are_the_module_s() -> None:
    """Bands, kinds and HP at a vrok hawk's 13 total HP (columns: legs' 5, chest's 6, arm's 4; the tail 5 - 2)."""
    eng, s = fight([WARRIOR], [{"template": "vrok_hawk"}], distance=1)
    hawk = s.combatants[1]
    assert hawk.max_hp == 13
    assert [(loc.spec.name, loc.spec.kind, loc.spec.max_hp) for loc in hawk.locations] == [
        ("tail", "limb", 3), ("right_leg", "limb", 4), ("left_leg", "limb", 4), ("abdomen", "abdomen", 5),
        ("chest", "chest", 6), ("right_wing", "limb", 5), ("left_wing", "limb", 5), ("head", "head", 5)]
    assert [(r.low, r.high) for r in T.HIT_LOCATIONS["bird"]] == [(1, 1), (2, 4), (5, 7), (8, 9), (10, 12),
                                                                  (13, 14), (15, 16), (17, 20)]
    assert [(r.name, r.kind, r.hp_row, r.low, r.high) for r in T.HIT_LOCATIONS["serpent"]] == [
        ("tail", "limb", "most", 1, 6), ("body", "abdomen", "chest", 7, 14), ("head", "head", "most", 15, 20)]


def test_a_bear_strikes_with_bite_and_claw_in_one_round_at_their_own_strike_ranks() -> None:
    """``several_attacks``: declaring the claw brings the bite in too (house reading of the published creatures'
    several natural attacks, [unverified]). Bear DEX 11 (DEX SR 3), SIZ 26 (SIZ SR 0): claw SR 3 -> 6, bite SR 2
    -> 5; the warrior defends, so both blows come at it, bite first."""
    eng, s = fight([{"template": "bear"}], [WARRIOR], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    steps = sorted((st.sr, s.combatants[0].weapons[st.weapon].spec.name) for st in s.combatants[0].intent.steps)
    assert steps == [(5, "bite"), (6, "claw")]
    assert eng.pending(s).kind == DecisionKind.REACT and eng.pending(s).context["weapon"] == "bite"


def test_a_creature_without_several_attacks_keeps_one_blow() -> None:
    eng, s = fight([{"template": "bear", "several_attacks": False}], [WARRIOR], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    assert [st.sr for st in s.combatants[0].intent.steps] == [6]


# ----- body plans with more than seven locations (issue 27) ------------------------------------------------
# RQG tables as the Chaosium-licensed Foundry VTT RuneQuest Glorantha wiki module prints them
# (sun-dragon-cult/fvtt-module-wiki-rqg, pack-templates/hit-locations-centaurs, -humanoids-winged, -wyverns):
# d20 bands, location kinds and "baseHpDelta" (+1: the chest's HP column, -1: an arm's, 0: the legs').
CENTAUR = {
    "name": "Centaur",
    "characteristics": {"STR": 17, "CON": 13, "SIZ": 22, "DEX": 11, "INT": 13, "POW": 13, "CHA": 11},
    "move": 12,
    "locations": "centaur",
    "armour": 2,
    "skills": {"dodge": 20},
    "weapons": [{"weapon": "spear", "skill": 60}],
    "ready": ["spear"],
    "enc": 0,
}


def _bands(plan: str) -> list[tuple[str, str, int, int, str]]:
    return [(r.name, r.kind, r.low, r.high, r.hp_row) for r in T.HIT_LOCATIONS[plan]]


def test_the_published_centaur_winged_humanoid_and_wyvern_tables() -> None:
    assert _bands("centaur") == [
        ("right_hind_leg", "limb", 1, 2, "arm"), ("left_hind_leg", "limb", 3, 4, "arm"),
        ("hindquarters", "abdomen", 5, 6, "chest"), ("forequarters", "abdomen", 7, 8, "chest"),
        ("right_foreleg", "limb", 9, 10, "arm"), ("left_foreleg", "limb", 11, 12, "arm"),
        ("chest", "chest", 13, 14, "chest"), ("right_arm", "limb", 15, 16, "arm"),
        ("left_arm", "limb", 17, 18, "arm"), ("head", "head", 19, 20, "chest")]
    assert [(n, lo, hi) for n, _, lo, hi, _ in _bands("winged_humanoid")] == [
        ("right_leg", 1, 3), ("left_leg", 4, 6), ("abdomen", 7, 9), ("chest", 10, 10), ("right_wing", 11, 12),
        ("left_wing", 13, 14), ("right_arm", 15, 16), ("left_arm", 17, 18), ("head", 19, 20)]
    assert [(n, lo, hi) for n, _, lo, hi, _ in _bands("wyvern")] == [
        ("tail", 1, 1), ("right_leg", 2, 4), ("left_leg", 5, 7), ("abdomen", 8, 9), ("chest", 10, 12),
        ("right_wing", 13, 14), ("left_wing", 15, 16), ("head", 17, 20)]


def test_a_centaur_has_ten_locations_with_the_published_hp() -> None:
    """CON 13, SIZ 22 (+3), POW 13: 16 HP; RQG location HP at 16-18 total: legs column 6, chest 7, arms 5. The
    centaur's legs and arms take the arm column, quarters, chest and head the chest column."""
    _, s = fight([WARRIOR], [CENTAUR], distance=1)
    c = s.combatants[1]
    assert c.max_hp == 16
    assert [(loc.spec.name, loc.spec.max_hp) for loc in c.locations] == [
        ("right_hind_leg", 5), ("left_hind_leg", 5), ("hindquarters", 7), ("forequarters", 7),
        ("right_foreleg", 5), ("left_foreleg", 5), ("chest", 7), ("right_arm", 5), ("left_arm", 5), ("head", 7)]


def test_a_blow_on_a_centaur_rolls_on_its_own_table() -> None:
    """The centaur only defends; broadsword 30 (success), 1D8+1 -> 7 + 1, db 1D4 -> 2, no defence; D20 13 =
    its chest (13-14): 10 - 2 AP = 8 on a 7-HP chest, >= its HP: the centaur is out of the fight (§18)."""
    eng, s = fight([WARRIOR], [CENTAUR], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    d = eng.pending(s)
    assert d is not None and d.kind == DecisionKind.REACT and d.actor == 1
    ev, roller = play(eng, s, [30, 7, 2, 13], "no_defence")
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "chest" and dmg.data["amount"] == 8 and dmg.target == 1
    assert roller.remaining == 0


def test_an_aimed_blow_at_a_centaur_picks_among_its_last_seven_locations() -> None:
    """The catalogue keeps its seven aim:<i> entries; on a ten-location table aim:<i> names row i + 3 (a
    centaur's forequarters to head), on a seven-row table row i as before [HOUSE]."""
    assert [T.aim_location(7, i) for i in range(7)] == list(range(7))
    assert [T.aim_location(10, i) for i in (0, 6)] == [3, 9]
    eng, s = fight([WARRIOR], [CENTAUR], distance=1)
    play(eng, s, [], "aimed:0:enemy_0")
    d = eng.pending(s)
    assert d is not None and d.kind == DecisionKind.OPTION
    legal = {eng.catalogue.name(i) for i in np.flatnonzero(eng.legal_mask(s))}
    assert legal == {f"aim:{i}" for i in range(7)}
    play(eng, s, [], "aim:6")
    intent = s.combatants[0].intent
    assert intent is not None and intent.loc == 9  # the head
    from npc_tactics.systems.runequest.encoder import RuneQuestEncoder

    enc = RuneQuestEncoder(eng)
    assert enc.encode(s, eng.pending(s)).shape == (enc.size,)
