"""Body plans beyond the human (issue 27), forced dice. Tables: ``tables.HIT_LOCATIONS`` "serpent" (classic
RuneQuest snake: tail 01-06, body 07-14, head 15-20) and "bird" (legs 01-02/03-04, body 05-12, wings 13-15/16-18,
head 19-20), both [PUB, unverified against the RQG Bestiary]; natural weapons have no HP and cannot parry (A8); a
Dodge of 0 cannot be tried (A1), so a python answers a blow with no defence and is not asked."""

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
    # no defence: broadsword 30, 1D8+1 -> 3 + 1, db 2, D20 14 -> right wing (13-15), no armour: 6 points on a
    # wing of 1 HP (6 total HP -> the arm column, 1): the limb cap lets 2L = 2 through and 6 >= 3L severs it (§18)
    ev, _ = play(eng, s, [30, 3, 2, 14], "no_defence")
    (dmg,) = kinds(ev, "damage")
    assert dmg.data["location"] == "right_wing" and dmg.data["amount"] == 2
    wing = next(loc for loc in s.combatants[1].locations if loc.spec.name == "right_wing")
    assert wing.spec.max_hp == 1 and wing.severed


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
