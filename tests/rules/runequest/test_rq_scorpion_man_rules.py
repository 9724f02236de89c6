"""What the scorpion man needs, played (forced dice). Sources:

* the Chaosium-licensed Foundry RQG wiki module (sun-dragon-cult/fvtt-module-wiki-rqg, commit 34492dc),
  ``module/i18n/en/rqgCompendiumContent.json`` ``bestiary.scorpionMan.notes``: "A scorpion man can attack with club
  and sting the same melee round. The sting injects a systemic poison with a potency equal to the CON of the
  scorpion man." Hence ``several_attacks: [club, sting]`` and ``poison: {weapon: sting, potency: CON}``;
* poison as Chaosium's Basic Roleplaying prints it (brp.chaosium.com, "6.10 Poison"; RQG's own wording was not
  found in a public copy, [unverified] against RQG): POT against the victim's CON on the resistance table; overcome:
  the full POT off total hit points, resisted: half (rounded up); not in the round of the poisoning: three combat
  rounds later for a fast-acting poison unless the poison says otherwise;
* location HP as the Foundry RQG system computes them (sun-dragon-cult/fvtt-system-rqg,
  ``src/items/hit-location-item/hit-location-lifecycle.ts``: ``max(2, ceil(totalHitPoints / 3)) + baseHpDelta``),
  which gives the §15 table's three columns exactly and the creature tables' -2 and +2 (``most-2``, ``most+2``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import DecisionKind, Event, EventSink, Status
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import statblock as SB
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.statblock_print import format_stat_block
from npc_tactics.systems.runequest.rules.statblock_text import parse_text
from npc_tactics.systems.runequest.rules.state import RQState
from tests.rules.runequest.rq_helpers import fight, kinds, play

SCORPION = {"template": "scorpion_man"}
#: Orlanthi warrior, no armour: CON 13, 14 HP; against the scorpion man's POT 11 the poison has 50 + 5 x (11 - 13)
#: = 40% on the resistance table
WARRIOR = {"template": "orlanthi_warrior", "armour": 0}
CLUB, STING = 0, 1


def _steps(s: RQState, i: int = 0) -> list[tuple[int, str, bool]]:
    c = s.combatants[i]
    assert c.intent is not None
    return [(st.sr, c.weapons[st.weapon].spec.name, st.readied) for st in c.intent.steps]


# ----- club and sting in one round ----------------------------------------------------------------------------
def test_the_shipped_scorpion_man_has_club_and_sting_together_and_a_sting_of_potency_con() -> None:
    t = shipped_bestiary()["scorpion_man"]
    assert t["several_attacks"] == ["club", "sting"] and t["poison"] == {"weapon": "sting", "potency": "CON"}
    _, s = fight([SCORPION], [WARRIOR])
    spec = s.combatants[0].spec
    assert (spec.several, spec.poison_weapon, spec.poison_potency, spec.poison_delay) == ((CLUB, STING), STING, 11,
                                                                                         poison.DELAY_ROUNDS)


@pytest.mark.parametrize("declared", ["attack:0:enemy_0", "attack:1:enemy_0"])
def test_declaring_the_club_or_the_sting_brings_the_other_in_at_its_own_strike_rank(declared: str) -> None:
    """DEX 14 (DEX SR 2), SIZ 19 (SIZ SR 1): club 2 + 1 + 4 = SR 7, sting 2 + 1 + 4 = SR 7 (the module's 7)."""
    eng, s = fight([SCORPION], [WARRIOR])
    play(eng, s, [], declared)
    first = "club" if declared.startswith("attack:0") else "sting"
    other = "sting" if first == "club" else "club"
    assert _steps(s) == [(7, first, False), (7, other, False)]


def test_a_club_not_in_hand_is_readied_in_the_strike_ranks_and_left_out_past_sr_12() -> None:
    """The club not ready: 7 + 5 = SR 12, readied as it strikes. Closing 3 m with move and ready not combined
    (option ``combine_move_and_ready: false``): sting 7 + 1 = 8, club 7 + 1 + 5 = 13 > 12: left out (§6)."""
    eng, s = fight([{**SCORPION, "ready": []}], [WARRIOR])
    play(eng, s, [], "attack:1:enemy_0")
    assert _steps(s) == [(7, "sting", False), (12, "club", True)]
    eng, s = fight([{**SCORPION, "ready": []}], [WARRIOR], distance=4, options={"combine_move_and_ready": False})
    play(eng, s, [], "attack:1:enemy_0")
    assert _steps(s) == [(8, "sting", False)]


def test_a_broken_club_stays_out_and_true_keeps_meaning_the_natural_weapons() -> None:
    eng, s = fight([SCORPION], [WARRIOR])
    s.combatants[0].weapons[CLUB].hp = 0
    play(eng, s, [], "attack:1:enemy_0")
    assert _steps(s) == [(7, "sting", False)]
    eng, s = fight([{**SCORPION, "several_attacks": True}], [WARRIOR])  # true: natural weapons only (the sting)
    play(eng, s, [], "attack:0:enemy_0")
    assert _steps(s) == [(7, "club", False)]


def test_several_attacks_are_not_split_as_well() -> None:
    """A club skill over 100% would be offered a split (A1); striking with club and sting, it is not [HOUSE]: the
    next decision is the warrior's statement of intent, not the scorpion man's number of attacks."""
    eng, s = fight([{**SCORPION, "weapons": [{"weapon": "club", "skill": 150, "sr": 4, "hp": 4},
                                              {"name": "sting", "skill": 55, "damage": "1d6", "sr": 4,
                                               "natural": True, "type": "impale"}]}], [WARRIOR])
    play(eng, s, [], "attack:0:enemy_0")
    d, it = eng.pending(s), s.combatants[0].intent
    assert d is not None and it is not None
    assert d.kind == DecisionKind.DECLARE and d.actor == 1 and len(it.steps) == 2


def _round_one(dice: list[int], warrior: dict[str, Any] = WARRIOR
               ) -> tuple[RuneQuestEngine, RQState, list[Event]]:
    """Round 1: the scorpion man stings (the club comes too), the warrior defends and takes both blows undefended.
    Dice per blow: D100 attack, weapon 1D6, damage bonus 1D6, D20 location; the sting (declared) strikes first."""
    eng, s = fight([SCORPION], [warrior])
    play(eng, s, [], "attack:1:enemy_0", "defend")
    d = eng.pending(s)
    assert d is not None and d.kind == DecisionKind.REACT and d.actor == 1 and d.context["weapon"] == "sting"
    ev, roller = play(eng, s, dice, "no_defence", "no_defence")
    assert roller.remaining == 0
    return eng, s, ev


def test_both_blows_land_in_one_round_and_the_sting_leaves_a_dose() -> None:
    """Sting 30 (success at 55%), 1 + 1 on the right leg (D20 1): 2 HP, through no armour: a dose of POT 11, due at
    the end of round 1 + 3 = 4. Club 30, 1 + 1 on the head (D20 20): 2 HP, no dose (the club is not poisoned)."""
    eng, s, ev = _round_one([30, 1, 1, 1, 30, 1, 1, 20])
    attacks = kinds(ev, "attack")
    assert [(a.data["weapon"], a.data["sr"], a.data["result"]) for a in attacks] == [("sting", 7, "hit"),
                                                                                     ("club", 7, "hit")]
    (dose,) = kinds(ev, "poison")
    assert (dose.actor, dose.target, dict(dose.data)) == (0, 1, {"weapon": "sting", "potency": 11, "delay": 3,
                                                                 "result": "injected"})
    assert s.doses == [(4, 1, 11, 0)] and s.combatants[1].hp == 10 and s.round == 2
    assert "poisoned" in eng.describe(s)


def test_a_cloned_fight_keeps_its_own_doses() -> None:
    _, s, _ = _round_one([30, 1, 1, 1, 30, 1, 1, 20])
    twin = s.clone()
    twin.doses.append((5, 1, 3, 0))
    assert s.doses == [(4, 1, 11, 0)] and twin.doses == [(4, 1, 11, 0), (5, 1, 3, 0)]


def test_armour_that_stops_the_sting_stops_the_poison() -> None:
    """8 AP: the sting's 1 + 1 and the club's 1 + 1 are absorbed: no dose ("injects": only through armour)."""
    _, s, ev = _round_one([30, 1, 1, 1, 30, 1, 1, 20], {**WARRIOR, "armour": 8})
    assert len(kinds(ev, "absorbed")) == 2 and not kinds(ev, "poison") and s.doses == []


@pytest.mark.parametrize(("roll", "result", "lost"), [(40, "overcome", 11), (41, "resisted", 6), (1, "overcome", 11),
                                                      (100, "resisted", 6)])
def test_the_dose_takes_effect_at_the_end_of_round_four(roll: int, result: str, lost: int) -> None:
    """Rounds 2-3 (both defend) roll nothing; at the end of round 4 one D100 against 40%: at or under, the poison
    overcomes CON 13 and takes its POT 11 off total HP (10 -> -1: dead at the end of the round, §19); over, it is
    resisted and takes half, rounded up (6: 10 -> 4, still standing). No location takes it."""
    eng, s, _ = _round_one([30, 1, 1, 1, 30, 1, 1, 20])
    ev, roller = play(eng, s, [], "defend", "defend", "defend", "defend")
    assert roller.remaining == 0 and s.round == 4 and not kinds(ev, "poison")
    ev, roller = play(eng, s, [roll], "defend", "defend")
    assert roller.remaining == 0
    (effect,) = kinds(ev, "poison")
    assert dict(effect.data) == {"potency": 11, "con": 13, "chance": 40, "amount": lost, "result": result}
    (dmg,) = kinds(ev, "damage")
    assert (dmg.actor, dmg.target, dmg.data["amount"], dmg.data["location"], dmg.data["result"]) == (
        0, 1, lost, "", "poison")
    w = s.combatants[1]
    assert w.hp == 10 - lost and s.doses == []
    assert sum(loc.damage for loc in w.locations) == 4  # the two blows only
    assert w.status == (Status.DEAD if lost == 11 else Status.ACTIVE)


def test_the_resistance_chance_and_half_rounded_up() -> None:
    """POT vs CON on the resistance table (50% + 5% a point, 5..95, the MP table's); a dose waiting does nothing
    before its round; doses of the dead are dropped."""
    _, s, _ = _round_one([30, 1, 1, 1, 30, 1, 1, 20])
    sink = EventSink(ScriptedRoller([]), 3)
    s.round = 3
    poison.take_effect(s, sink)
    assert s.doses == [(4, 1, 11, 0)] and not sink.events
    s.doses = [(3, 1, 7, 0), (3, 1, 30, 0)]
    sink = EventSink(ScriptedRoller([96, 5]), 3)
    poison.take_effect(s, sink)
    got = [(e.data["chance"], e.data["amount"], e.data["result"]) for e in sink.events if e.kind == "poison"]
    assert got == [(20, 4, "resisted"), (95, 30, "overcome")]  # 50 - 5 x 6; 50 + 5 x 17, capped
    s.doses = [(3, 1, 7, 0)]
    s.combatants[1].status = Status.DEAD
    poison.take_effect(s, EventSink(ScriptedRoller([]), 3))
    assert s.doses == []


# ----- a GM's own venomous creature --------------------------------------------------------------------------
GIANT_SCORPION = """Giant scorpion
STR 18  CON 14  SIZ 16  DEX 10  INT 2  POW 8  CHA 3
Move 6
Skills: Dodge 10%
Armor: 4
Body: quadruped
Weapon  %   Damage    SR  HP
Claw    50  1D6+1D6   6   -
Sting   45  1D4+1D6   7   -
Several attacks: yes
Poison: Sting, potency 14, delay 0
"""


def test_a_gm_s_pasted_venomous_creature_round_trips_and_poisons_at_once() -> None:
    """``delay 0``: the dose takes effect at the end of the round of the sting. Claw SR 3 + 2 + 1 = 6, sting
    3 + 2 + 2 = 7 (several attacks: yes); claw 30, 1 + 1, D20 1; sting 30, 1 + 1, D20 1 (right leg, no armour):
    a dose of POT 14 against CON 13: 55%; roll 55: overcome, 14 HP: 14 - 4 - 14 = -4, dead."""
    t = SB.check_template(parse_text(GIANT_SCORPION, "gm.yaml", "giant"), SB.equipment(), "gm.yaml", "giant")
    assert t["poison"] == {"weapon": "sting", "potency": 14, "delay": 0} and t["several_attacks"] is True
    text = format_stat_block(t)
    assert "Poison: Sting, potency 14, delay 0\n" in text and "Several attacks: yes\n" in text
    again = SB.check_template(parse_text(text, "gm.yaml", "giant"), SB.equipment(), "gm.yaml", "giant")
    assert again == t and format_stat_block(again) == text
    eng, s = fight([{"name": "Giant scorpion", "stat_block": GIANT_SCORPION}], [WARRIOR])
    play(eng, s, [], "attack:1:enemy_0", "defend")
    ev, roller = play(eng, s, [30, 1, 1, 1, 30, 1, 1, 1, 55], "no_defence", "no_defence")
    assert roller.remaining == 0
    assert [(e.data["result"], e.data.get("amount")) for e in kinds(ev, "poison")] == [("injected", None),
                                                                                         ("overcome", 14)]
    assert s.combatants[1].status == Status.DEAD


def test_the_scorpion_man_s_stat_block_prints_and_reads_its_two_new_lines() -> None:
    t = shipped_bestiary()["scorpion_man"]
    text = format_stat_block(t)
    assert "Several attacks: Club, Sting\nPoison: Sting, potency CON\n" in text
    once = SB.check_template(parse_text(text, "f.yaml", "e"), SB.equipment(), "f.yaml", "e")
    assert once["several_attacks"] == ["club", "sting"] and once["poison"] == {"weapon": "sting", "potency": "CON"}


BAD_FIELDS = [
    ({"poison": {"weapon": "claw", "potency": "CON"}}, "e.poison.weapon: unknown weapon 'claw'"),
    ({"poison": {"weapon": "sting", "potency": "STR"}}, "e.poison.potency: expected a number 1..99 or CON"),
    ({"poison": {"weapon": "sting", "potency": 0}}, "e.poison.potency: 0 is out of range"),
    ({"poison": {"weapon": "sting", "potency": 11, "delay": 21}}, "e.poison.delay: 21 is out of range"),
    ({"poison": {"weapon": "sting", "potency": 11, "dose": 2}}, "e.poison.dose: unknown key"),
    ({"poison": {"weapon": "sting"}}, "e.poison.potency: missing required key"),
    ({"poison": "sting"}, "e.poison: expected a mapping"),
    ({"several_attacks": ["club", "sling"]}, "e.several_attacks[1]: 'sling' is a missile weapon"),
    ({"several_attacks": ["club"]}, "e.several_attacks: expected a list of 2 to 4 weapon names, got 1"),
    ({"several_attacks": ["club", "club"]}, "e.several_attacks[1]: given twice"),
    ({"several_attacks": ["club", "axe"]}, "e.several_attacks[1]: unknown weapon 'axe'"),
    ({"several_attacks": "yes"}, "e.several_attacks: expected true or false"),
]


@pytest.mark.parametrize(("change", "expected"), BAD_FIELDS, ids=[f"bad{i}" for i in range(len(BAD_FIELDS))])
def test_a_bad_field_is_one_line_naming_it(change: dict[str, Any], expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        SB.check_template({**shipped_bestiary()["scorpion_man"], **change}, SB.equipment(), "f.yaml", "e")
    assert "\n" not in str(info.value) and expected in str(info.value), str(info.value)


@pytest.mark.parametrize("line", ["Poison: Sting", "Poison: Sting, potency lots", "Poison: Sting, potency 12, "
                                  "delay soon", "Poison: Sting, potency 12, delay 2, dose 3", "Poison: , potency 3"])
def test_a_bad_poison_line_names_its_line(line: str) -> None:
    text = "STR 13 CON 12 SIZ 13 DEX 10 INT 9 POW 9 CHA 5\nWeapon % Damage SR HP\nSting 40 1D6 7 -\n" + line + "\n"
    with pytest.raises(ConfigError, match="line 4: .*expected the poisoned weapon and its potency"):
        parse_text(text, "f.yaml", "e")


def test_a_scenario_entry_that_drops_the_poisoned_weapon_is_refused_at_the_field() -> None:
    with pytest.raises(ConfigError, match=r"combatants\[0\]\.poison\.weapon: unknown weapon 'sting'"):
        fight([{**SCORPION, "weapons": [{"weapon": "club", "skill": 55}], "several_attacks": False}], [WARRIOR])


# ----- the -2 and +2 columns -----------------------------------------------------------------------------------
def test_location_hp_columns_are_the_foundry_formula_at_every_total() -> None:
    """max(2, ceil(total / 3)) + delta: 0 legs/abdomen/head, +1 chest, -1 arms (the §15 table, unchanged), and the
    creature tables' -2 and +2; a -2 location keeps 1 HP at totals of 6 or less [HOUSE: the formula gives 0]."""
    for total in range(1, 61):
        base = max(2, math.ceil(total / 3))
        got = [calc.location_hp(total, col) for col in ("most", "chest", "arm", "most-2", "most+2")]
        assert got == [base, base + 1, base - 1, max(1, base - 2), base + 2], total
    assert calc.location_hp(6, "most-2") == T.MIN_LOCATION_HP == 1


def test_the_body_plans_use_them_and_the_templates_keep_their_location_hp() -> None:
    """Without its ``location_hp`` the scorpion man's legs come out at the module's 3 (13 HP: 5 - 2) and the
    harpy's chest and head at 6 (10 HP: 4 + 2); the shipped templates still list those figures."""
    assert shipped_bestiary()["scorpion_man"]["location_hp"]["right_hind_leg"] == 3
    assert shipped_bestiary()["harpy"]["location_hp"] == {"chest": 6, "head": 6}
    for entry in ({"template": "scorpion_man"}, {"template": "harpy"}):
        _, shipped = fight([entry], [WARRIOR])
        _, derived = fight([{**entry, "location_hp": {}}], [WARRIOR])
        assert [loc.spec for loc in derived.combatants[0].locations] == [
            loc.spec for loc in shipped.combatants[0].locations]


def test_a_gm_table_may_name_the_new_columns() -> None:
    """CON 13, SIZ 10, POW 10: 13 HP, the legs' column 5: a ``most-2`` leg 3, a ``most+2`` body 7."""
    gm: dict[str, Any] = {
        "name": "Thing",
        "characteristics": {"STR": 10, "CON": 13, "SIZ": 10, "DEX": 10, "INT": 10, "POW": 10, "CHA": 10},
        "hit_locations": [{"name": "leg", "d20": "1-10", "kind": "limb", "hp_row": "most-2"},
                          {"name": "body", "d20": "11-20", "kind": "chest", "hp_row": "most+2"}],
        "weapons": [{"name": "claw", "skill": 40, "damage": "1d6", "sr": 2, "natural": True}]}
    _, s = fight([gm], [WARRIOR])
    assert [(loc.spec.name, loc.spec.max_hp) for loc in s.combatants[0].locations] == [("leg", 3), ("body", 7)]
    with pytest.raises(ConfigError, match=r"hp_row: unknown HP column 'most-3'"):
        fight([{**gm, "hit_locations": [{**gm["hit_locations"][0], "d20": "1-20", "hp_row": "most-3"}]}], [WARRIOR])
