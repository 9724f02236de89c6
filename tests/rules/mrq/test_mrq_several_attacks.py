"""Several attacks a round for creatures with more than one natural weapon (issue 27), forced dice.

Rules (docs/rules/mrq-opposed.md): the structure of a fight is MRQ1's, "les rounds de combat et les Actions de
Combat (AC) s'appliquent toujours" (§1, source line 1 note): every attack spends one Combat Action and is one
opposed test with one weapon (§1, §2, A18); a creature "with several attacks" makes them on its Combat Actions
(the lion's stat block prints its own Combat Actions for that). Which weapon each Combat Action uses is the
creature's stat-block data (``weapon`` then ``other_weapons``, in the order listed): [HOUSE] the engine strikes
with them in turn, one per attack Combat Action, from the main weapon again each round, because the action
catalogue (101 entries, unchanged) has no weapon choice. Each weapon keeps its own skill, damage dice, reach and
the location it strikes from (a bite: the head) for natural fumbles and Damage weapon (A19).
"""

from __future__ import annotations

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import DecisionKind, EventSink
from npc_tactics.systems.mrq.rules import acts
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.bestiary import build_profile, load_weapons
from npc_tactics.systems.mrq.rules.damage import damage_item
from npc_tactics.systems.mrq.rules.statblock_print import format_stat_block
from npc_tactics.systems.mrq.rules.statblock_text import parse_stat_block
from npc_tactics.systems.mrq.rules.state import MRQState
from npc_tactics.systems.mrq.rules.tables import HEAD
from tests.rules.mrq.helpers import duel, kinds, sink

CLAW_LOC = 4  # the brown bear's claws strike from its right front leg (statblock_words.NATURAL "claw": arm)


def _attack_undefended(st: MRQState, s: EventSink, effect: str) -> None:
    """The bear's attack Combat Action on the knight, who does not react (A3), one effect picked."""
    acts.do_act(st, s, 0, "attack", 0)
    assert st.decision is not None and st.decision.kind == DecisionKind.REACT
    X.answer_react(st, s, "no_reaction")
    assert st.decision is not None and st.decision.kind == DecisionKind.EFFECT
    X.answer_effect(st, s, effect, None)


def test_the_bear_claws_on_its_first_attack_and_bites_on_its_second() -> None:
    """Brown bear (creatures.yaml): claw 55% 1D6 (main), bite 45% 1D8 (other_weapons); STR 26 + SIZ 26 = 52:
    damage modifier +1D12 (§17.1). DEX 11: 2 Combat Actions (§1), one attack with each weapon."""
    _, st = duel("brown_bear", "knight", distance="close")
    bear = st.combatants[0]
    assert bear.prof.cas == 2 and [w.name for w in bear.prof.other_attacks] == ["bite"]
    assert bear.prof.other_skills == (45,) and bear.prof.other_locs == (HEAD,)

    # 1st Combat Action: the claw. Roll 20 <= 55: success against an undefended knight, margin 1, one effect:
    # Maximise damage (one claw die at 6) + 1D12 (3) = 9, D20 7 = abdomen, minus the knight's 6 AP -> 3
    F.next_strike(bear)
    s = sink(20, 3, 7)
    _attack_undefended(st, s, "maximise_damage")
    (att,) = kinds(s, "attack")
    assert att["att_skill"] == 55 and not kinds(s, "natural_attack")
    (dmg,) = kinds(s, "damage")
    assert (dmg["rolled"], dmg["location"], dmg["amount"]) == (9, "abdomen", 3)

    # 2nd Combat Action: the bite, at its own 45%. Roll 30: success; Bypass armour; 1D8 (5) + 1D12 (5) = 10
    # on the right arm (D20 14), no armour: 10 on a 5-HP arm = Major Wound (-5); Resilience 90 vs bite 10
    st.decision = st.exchange = None
    assert F.next_strike(bear) and F.attack_item(bear)[1].name == "bite" and F.strike_skill(bear) == 45
    s = sink(30, 5, 5, 14, 90, 10)
    _attack_undefended(st, s, "bypass_armour")
    assert kinds(s, "natural_attack") == [{"weapon": "bite", "skill": 45}]
    (att,) = kinds(s, "attack")
    assert att["att_skill"] == 45
    (dmg,) = kinds(s, "damage")
    assert (dmg["rolled"], dmg["location"], dmg["amount"]) == (10, "right_arm", 10)
    # the wound's Resilience test opposes the weapon skill of the blow: the bite's 45% (§17)
    (test,) = kinds(s, "opposed_test")
    assert test["other_skill"] == 45
    assert isinstance(s.roller, ScriptedRoller) and s.roller.remaining == 0


def test_the_turn_starts_again_with_the_main_weapon_each_round() -> None:
    eng, st = duel("brown_bear", "knight", distance="close")
    bear = st.combatants[0]
    bear.attacks, bear.strike = 1, 0
    F.next_strike(bear)
    assert bear.strike == 1
    eng.new_round(st, sink(1, 1))  # Strike Ranks: one d10 each
    assert (bear.attacks, bear.strike) == (0, 0)
    assert not F.next_strike(bear) and F.attack_item(bear)[1].name == "bear_claw"


def test_the_act_decision_sets_the_weapon_before_the_mask_is_read() -> None:
    """The weapon of the next attack is chosen when the creature is asked for its Combat Action, so the mask,
    the observation and the attack all see the same weapon (reach under the house reach rule, A23)."""
    eng, st = duel("brown_bear", "knight", distance="close")
    bear = st.combatants[0]
    bear.attacks = 1
    eng.new_round(st, sink(10, 1))  # the bear (SR (11+5)/2 + 10) acts first
    bear.attacks = 1  # as if it had attacked once this round already
    eng.advance(st, sink())
    assert st.decision is not None and st.decision.actor == 0 and st.decision.kind == DecisionKind.ACT
    assert bear.strike == 1 and F.attack_item(bear)[1].name == "bite"


def test_a_useless_head_leaves_the_claw() -> None:
    """A bite needs its head (A19: a natural weapon is its limb): with the head useless, the bear's second
    attack falls back on its main weapon, and no natural_attack is told."""
    _, st = duel("brown_bear", "knight", distance="close")
    bear = st.combatants[0]
    bear.attacks = 1
    F.next_strike(bear)
    bear.useless |= 1 << HEAD
    assert not F.other_usable(bear) and F.attack_item(bear)[1].name == "bear_claw" and F.strike_skill(bear) == 55
    s = sink(99, 99)
    acts.do_act(st, s, 0, "attack", 0)
    assert not kinds(s, "natural_attack")


def test_damage_weapon_on_the_bite_hurts_the_head() -> None:
    """Damage weapon against a natural weapon hurts that limb (A19, A21): while the bear bites, the limb is its
    head (6 damage minus its 3 AP of hide), not the claw's front leg."""
    _, st = duel("brown_bear", "knight", distance="close")
    bear = st.combatants[0]
    bear.attacks = 1
    F.next_strike(bear)
    before = bear.loc_hp[:]
    s = sink(99, 99)
    damage_item(st, s, 1, 0, F.MAIN, 6, "test")
    lost = [b - a for b, a in zip(before, bear.loc_hp, strict=True)]
    assert lost[HEAD] == 6 - bear.prof.natural[HEAD] and lost[CLAW_LOC] == 0


def test_creatures_with_one_weapon_and_weapon_users_are_unchanged() -> None:
    """Only further *natural* weapons are played: the wolf (one bite) and the knight never switch; a spare
    manufactured weapon in other_weapons stays listed, not played."""
    _, st = duel("wolf", "knight", distance="close")
    for c in st.combatants:
        assert c.prof.other_attacks == () and not F.next_strike(c) and c.strike == 0
    raw = {"style": "one_handed", "skill": 50, "weapon": "broadsword",
           "characteristics": {"str": 12, "con": 12, "siz": 12, "int": 12, "pow": 12, "dex": 12},
           "other_weapons": [{"name": "dagger", "skill": 40, "damage": "1d4+1"},
                             {"name": "kick", "skill": 30, "damage": "1d6"}]}
    p = build_profile("x", raw, "t.yaml", "x", load_weapons())
    assert [w.name for w in p.other_attacks] == ["kick"] and p.other_skills == (30,)


def test_a_pasted_stat_block_with_two_natural_rows_attacks_with_both() -> None:
    """The book's weapon table: the first row is the main weapon, a further natural row is another attack."""
    text = ("Cave lion\nSTR 22 CON 11 SIZ 16 INT 5 POW 10 DEX 19\nCombat Actions 4\n"
            "Weapons\nClaw 60% 1D8\nBite 50% 1D10\n")
    raw = parse_stat_block(text)
    p = build_profile("lion", raw, "t.yaml", "lion", load_weapons())
    assert p.cas == 4 and p.weapon.name == "claw" and [w.damage for w in p.other_attacks] == ["1d10"]
    again = parse_stat_block(format_stat_block("lion", raw))
    assert build_profile("lion", again, "t.yaml", "lion", load_weapons()) == p
