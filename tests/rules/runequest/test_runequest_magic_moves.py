"""Magic (§4, Published data), knockback, retreat (§21), surprise (§3.2) and shields against
missiles (§12)."""

from __future__ import annotations

from rq_helpers import fight, kinds, play

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import SideResult, Status
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine

WARRIOR = {"template": "orlanthi_warrior"}
SHAMAN = {"template": "shaman"}
BROO = {"template": "broo"}


def test_disruption_ignores_armour_after_beating_mp() -> None:
    """Shaman (MP 18, POW x 5 = 90%) vs broo (MP 9): resistance 95%; 1D3 to a random location, no
    armour."""
    eng, s = fight([SHAMAN], [BROO], distance=16)
    ev, roller = play(eng, s, [10, 20, 12, 3], "cast:disruption:enemy_0", "defend", "close:enemy_0")
    assert roller.remaining == 0
    (spell,) = kinds(ev, "spell")
    assert spell.data["result"] == "success" and spell.data["sr"] == 3
    (dmg,) = kinds(ev, "damage")
    assert (dmg.data["amount"], dmg.data["location"], dmg.data["armour"]) == (3, "chest", 0)
    assert s.combatants[0].mp == 17


def test_failed_spirit_spell_costs_one_mp_and_resisted_spell_costs_its_mp() -> None:
    eng, s = fight([SHAMAN], [BROO], distance=16)
    ev, _ = play(eng, s, [99], "cast:befuddle:enemy_0", "defend", "defend")
    assert kinds(ev, "spell")[0].data["result"] == "failure" and s.combatants[0].mp == 17
    eng, s = fight([SHAMAN], [BROO], distance=16)
    ev, _ = play(eng, s, [10, 96], "cast:befuddle:enemy_0", "defend", "defend")
    assert kinds(ev, "spell")[0].data["result"] == "resisted" and s.combatants[0].mp == 16


def test_befuddle_stops_attacks() -> None:
    eng, s = fight([SHAMAN], [BROO], distance=2)  # engaged: defend and cast, no then-step
    play(eng, s, [10, 20], "cast:befuddle:enemy_0", "defend")
    broo = s.combatants[1]
    assert broo.befuddled_rounds > 0
    play(eng, s, [], "defend")  # round 2: the shaman declares first
    mask = eng.legal_mask(s)
    names = {eng.catalogue.name(i) for i in mask.nonzero()[0]}
    assert not any(n.startswith(("attack", "aimed", "cast", "knockback")) for n in names)
    assert {"defend", "retreat", "flee"} <= names


def test_heal_and_rune_shield() -> None:
    eng, s = fight([{**WARRIOR, "ready": ["broadsword"]}], [BROO], distance=30)  # a hand free
    c = s.combatants[0]
    c.locations[2].damage = 3  # abdomen
    c.hp -= 3
    assert eng.legal_mask(s)[eng.catalogue.index("cast:heal:self")]
    ev, _ = play(eng, s, [10], "cast:heal:self", "power:2", "defend", "defend")
    assert kinds(ev, "heal")[0].data["amount"] == 2 and c.hp == c.max_hp - 1
    ev, _ = play(eng, s, [10], "cast:shield:self", "power:2", "defend", "defend")
    (spell,) = kinds(ev, "spell")
    assert spell.data["sr"] == 1 and c.rune_points == 1 and c.shield_spell == 2  # Rune points: no SR


def test_knockback_disengages_then_free_flight() -> None:
    """A12 ``push`` house rule: a successful unparried knockback pushes the foe 3 m back; next round
    the attacker, no longer engaged, flees without giving a free blow."""
    eng, s = fight([WARRIOR], [BROO], distance=1, options={"knockback_rule": "push"})
    ev, _ = play(eng, s, [30], "knockback:enemy_0", "defend", "no_defence")
    assert kinds(ev, "knockback")[0].data["result"] == "success" and not kinds(ev, "damage")
    assert abs(s.combatants[1].pos - s.combatants[0].pos) >= 3
    ev, roller = play(eng, s, [], "flee", "defend")
    assert not kinds(ev, "attack") and s.combatants[0].status == Status.FLED
    assert eng.outcome(s).results == (SideResult.FLED, SideResult.WIN)


def test_retreat_round_then_disengaged() -> None:
    eng, s = fight([WARRIOR], [BROO], distance=1)
    ev, roller = play(eng, s, [80, 30, 2, 1], "retreat", "attack:0:enemy_0", "parry:1")
    assert roller.remaining == 0
    assert kinds(ev, "attack")[0].data["result"] == "deflect"
    assert [e.data["result"] for e in kinds(ev, "retreat")] == ["disengaged"]
    assert abs(s.combatants[1].pos - s.combatants[0].pos) >= 3 and not s.combatants[0].engaged_start


def test_surprise_adds_strike_ranks() -> None:
    eng = RuneQuestEngine()
    scen = {
        "name": "ambush",
        "distance": 2,
        "surprised": 0,
        "sides": [{"name": "a", "combatants": [WARRIOR]}, {"name": "b", "combatants": [BROO]}],
    }
    s, _ = eng.new_combat(scen, ScriptedRoller([]))
    play(eng, s, [], "attack:0:enemy_0")
    assert s.combatants[0].intent.steps[0].sr == 7 + 3


def test_shield_covers_chest_against_arrows() -> None:
    """A9: no parry attempted, the arrow hits the chest, which a medium shield covers: the shield
    (12 HP) soaks the 6 points like P1. Without passive cover, 6 - 4 armour = 2 reach the chest."""
    for cover, expected in ((True, []), (False, [2])):
        eng, s = fight(
            [{"template": "lunar_archer"}],
            [WARRIOR],
            distance=60,
            options={"shield_passive_cover": cover},
        )
        ev, _ = play(eng, s, [30, 5, 12], "attack:0:enemy_0", "close:enemy_0", "no_defence")
        assert [e.data["amount"] for e in kinds(ev, "damage")] == expected
        assert s.combatants[1].weapons[1].hp == 12
