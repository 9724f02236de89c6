"""Knockback (§21, A12: the published damage-vs-SIZ test and the ``push`` house rule) and the
weapon-to-spell hand switch (+5 SR, §4, A15)."""

from __future__ import annotations

from rq_helpers import fight, kinds, play

from npc_tactics.rules.base import DecisionKind, SideResult, Status
from npc_tactics.systems.runequest.rules.intents import free_hand_after

WARRIOR = {"template": "orlanthi_warrior"}  # STR 14 SIZ 14 (db 1D4), broadsword 70%, medium shield
BROO = {"template": "broo"}  # SIZ 13, DEX 10
SKIRMISHER = {"template": "orlanthi_skirmisher"}  # DEX SR 1, SIZ SR 2, shortsword SR 3, Bladesharp 2


def _names(eng, s) -> set[str]:  # type: ignore[no-untyped-def]
    return {eng.catalogue.name(i) for i in eng.legal_mask(s).nonzero()[0]}


def test_published_knockback_special_beats_siz_and_target_falls() -> None:
    """Special (roll 10 <= 14): broadsword 2D8+1 + 1D4 = 7+6+1+3 = 17 > SIZ 13 -> knocked back (1 m
    per 5 over, at least out of reach), attacker disengaged; DEX x 5 = 50%, roll 70: falls (loses
    its next attack). No damage is applied."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    ev, roller = play(eng, s, [10, 7, 6, 3, 70], "knockback:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0
    (att,) = kinds(ev, "attack")
    assert att.data["weapon"] == "broadsword" and att.data["sr"] == 7  # DEX 3 + SIZ 2 + weapon 2
    (kb,) = kinds(ev, "knockback")
    assert kb.data["result"] == "success" and kb.data["damage"] == 17 and kb.data["siz"] == 13
    assert kb.data["metres"] == 3 and kb.data["fell"] is True
    assert not kinds(ev, "damage") and s.combatants[1].hp == s.combatants[1].max_hp
    assert s.combatants[1].lose_attack
    assert abs(s.combatants[1].pos - s.combatants[0].pos) >= 3
    ev, _ = play(eng, s, [], "flee", "defend")  # no longer engaged: no free blow
    assert not kinds(ev, "attack") and s.combatants[0].status == Status.FLED


def test_published_knockback_fails_when_damage_not_over_siz() -> None:
    """Normal hit: 1D8+1 + 1D4 = 8+1+4 = 13, not over SIZ 13: no push, still engaged, no DEX roll."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    before = s.combatants[1].pos
    ev, roller = play(eng, s, [30, 8, 4], "knockback:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0
    (kb,) = kinds(ev, "knockback")
    assert kb.data["result"] == "failure" and kb.data["damage"] == 13
    assert s.combatants[1].pos == before and not s.combatants[0].disengaged
    assert not s.combatants[1].lose_attack


def test_published_knockback_dex_roll_keeps_target_standing() -> None:
    eng, s = fight([WARRIOR], [BROO], distance=1)
    ev, roller = play(eng, s, [10, 8, 8, 4, 50], "knockback:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0
    (kb,) = kinds(ev, "knockback")
    assert kb.data["damage"] == 21 and kb.data["fell"] is False and kb.data["metres"] == 3
    assert not s.combatants[1].lose_attack


def test_push_house_rule_option() -> None:
    """``knockback_rule: push`` (v0 house reading): the shield knocks, a hit pushes 3 m, no dice."""
    eng, s = fight([WARRIOR], [BROO], distance=1, options={"knockback_rule": "push"})
    ev, roller = play(eng, s, [30], "knockback:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0
    assert kinds(ev, "attack")[0].data["weapon"] == "medium_shield"
    assert kinds(ev, "knockback")[0].data["result"] == "success" and not kinds(ev, "damage")
    assert abs(s.combatants[1].pos - s.combatants[0].pos) >= 3
    ev, _ = play(eng, s, [], "flee", "defend")
    assert eng.outcome(s).results == (SideResult.FLED, SideResult.WIN)


def test_bad_knockback_rule_is_rejected() -> None:
    import pytest

    with pytest.raises(ValueError, match="knockback_rule"):
        fight([WARRIOR], [BROO], options={"knockback_rule": "shove"})


def test_thrown_javelin_then_spell_at_plus_5() -> None:
    """Javelin ready, hand free after the throw: shot at DEX SR 3, then Bladesharp at 3 + 5 (hand
    switch) + 3 (DEX SR) = 11, +1 per extra MP -> 2 points at SR 12. Rune Shield is not offered (§4:
    the switch rule is for spirit magic)."""
    eng, s = fight([dict(WARRIOR, ready=["javelin"])], [BROO], distance=15)
    play(eng, s, [], "attack:2:enemy_0")
    d = eng.pending(s)
    assert d is not None and d.kind == DecisionKind.DECLARE and s.phase == "then"
    names = _names(eng, s)
    assert "cast:bladesharp:self" in names and "defend" in names
    assert not any(n.startswith(("attack", "aimed", "knockback", "cast:shield")) for n in names)
    play(eng, s, [], "cast:bladesharp:self")
    assert {"power:1", "power:2"} <= _names(eng, s)
    play(eng, s, [], "power:2")
    steps = s.combatants[0].intent.steps
    assert [(st.verb, st.sr) for st in steps] == [("attack", 3), ("cast", 12)]
    ev, roller = play(eng, s, [90, 10], "defend", "no_defence")
    assert roller.remaining == 0
    (spell,) = kinds(ev, "spell")
    assert spell.data["sr"] == 12 and spell.data["result"] == "success"
    assert s.combatants[0].bladesharp == 2


def test_melee_then_spell_only_within_12_sr() -> None:
    """Skirmisher charges 2 m (0 SR) and strikes at 1 + 2 + 3 = 6; the spell then fits at 6 + 5 + 1
    = 12 with one MP only."""
    eng, s = fight([SKIRMISHER], [BROO], distance=3)
    play(eng, s, [], "attack:0:enemy_0")
    assert s.phase == "then"
    names = _names(eng, s)
    assert {"cast:bladesharp:self", "cast:protection:self", "defend"} <= names
    play(eng, s, [], "cast:protection:self")
    assert _names(eng, s) == {"power:1"}
    play(eng, s, [], "power:1")
    assert [st.sr for st in s.combatants[0].intent.steps] == [6, 12]


def test_no_weapon_then_spell_when_too_slow_engaged_or_hands_full() -> None:
    # broadsword 7 + 5 + 3 > 12: the declaration ends with the attack
    eng, s = fight([WARRIOR], [BROO], distance=3)
    play(eng, s, [], "attack:0:enemy_0")
    assert s.phase == "declare" and eng.pending(s).actor == 1
    # engaged at the start of the round: attack-and-defend, never attack-and-cast (A16)
    eng, s = fight([SKIRMISHER], [BROO], distance=1)
    play(eng, s, [], "attack:0:enemy_0")
    assert s.phase == "declare" and eng.pending(s).actor == 1
    # broadsword and shield ready: a thrown javelin leaves no hand free
    warrior = fight([WARRIOR], [BROO])[1].combatants[0]
    assert not free_hand_after(warrior, 2)
    assert free_hand_after(fight([dict(WARRIOR, ready=["javelin"])], [BROO])[1].combatants[0], 2)


def test_spell_then_spell_still_costs_prepare() -> None:
    """A15 unchanged: spell -> second spell = first SR + 5 + DEX SR."""
    eng, s = fight([SKIRMISHER], [BROO], distance=30)
    play(eng, s, [], "cast:protection:self", "power:1", "cast:bladesharp:self", "power:1")
    steps = s.combatants[0].intent.steps
    assert [(st.verb, st.spell, st.sr) for st in steps] == [("cast", "protection", 1), ("cast", "bladesharp", 7)]
