"""The leaderboard's tactic profile (evaluation/tactic_profile.py).

Two kinds of test. Hand-written event logs whose counts are worked out in the comments (focus fire, spell
timing by initiative, wound bands). And real fights with forced dice (a fixed cycle of faces, no RNG) driven by
test policies that make a known choice at every decision: the profile, read from the event log, must give back
the counts of the choices made (dodges, parries, dice moved to DEFENSE, special effects, retreats) and of the
final state (who fled, at what wound level).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import Roller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.tactic_profile import derive, side_profile, wound_fraction
from npc_tactics.rules.base import Event, Status


@dataclass
class C:
    side: int
    status: Status = Status.ACTIVE
    hp: int = 10
    max_hp: int = 10


@dataclass
class S:
    combatants: list[C]


def test_focus_fire_counts_joins_among_eligible_attacks(fake_system: str) -> None:
    # Side 0 = combatants 0, 1, 2; side 1 = 3, 4.
    # Round 1: 0->3 (first attack of the round: not eligible), 1->3 (eligible, joins), 2->4 (eligible, no join).
    # Round 2: 0->4 (first: not eligible), 4 goes down, 1->3 (only one enemy up: not eligible).
    # Round 3: 1->3 (first of the round), 1->3 again (only its own earlier attack: not eligible).
    ev = [
        Event("attack", 1, 0, 3), Event("attack", 1, 1, 3), Event("attack", 1, 2, 4),
        Event("attack", 2, 0, 4), Event("status", 2, None, 4, {"status": "dead"}), Event("attack", 2, 1, 3),
        Event("attack", 3, 1, 3), Event("attack", 3, 1, 3),
        Event("attack", 3, 3, 0),  # side 1's attack: not side 0's
    ]
    state = S([C(0), C(0), C(0), C(1), C(1, Status.DEAD)])
    p = side_profile(fake_system, ev, state, 0)
    assert (p["attacks"], p["focus_eligible"], p["focus_joined"]) == (7, 2, 1)
    assert derive(p, 1)["focus_fire_rate"] == 0.5
    assert side_profile(fake_system, ev, state, 1)["focus_eligible"] == 0  # one attacker: never eligible


def test_flight_wound_bands_and_standing_from_the_final_state(fake_system: str) -> None:
    # Combatant 0 fled having lost 3 of 10 HP (band 25-50%), 1 fled unhurt (0-25%), 2 died, 3 is still up.
    state = S([C(0, Status.FLED, 7), C(0, Status.FLED, 10), C(0, Status.DEAD, -2), C(0), C(1)])
    p = side_profile(fake_system, [], state, 0)
    assert p["fled"] == 2 and p["flight_fight"] == 1 and p["combatants"] == 4 and p["standing"] == 3
    assert p["flee_wound_band_1"] == 1 and p["flee_wound_band_0"] == 1
    assert p["flee_wound_sum"] == pytest.approx(0.3)
    d = derive(p, 1)
    assert d["flee_wound_mean"] == pytest.approx(0.15) and d["flee_rate"] == 1.0
    assert wound_fraction(C(0, hp=-5)) == 1.0


def test_ose_spell_timing_follows_the_rounds_initiative() -> None:
    # Round 1 side 0 wins initiative and casts; round 2 side 1 wins and side 0's spell is disrupted;
    # round 3 is a tie and side 0 casts.
    ev = [
        Event("initiative", 1, data={"result": "side_0"}), Event("spell", 1, 0, 1, {"result": "cast"}),
        Event("initiative", 2, data={"result": "side_1"}), Event("spell_disrupted", 2, 0, None, {}),
        Event("declare", 2, 0, None, {"result": "withdraw"}),
        Event("initiative", 3, data={"result": "tie"}), Event("spell", 3, 0, 1, {"result": "cast"}),
        Event("spell", 3, 1, 0, {"result": "cast"}),
    ]
    state = S([C(0), C(1)])
    d = derive(side_profile("ose", ev, state, 0), 1)
    assert d["spell_initiative"] == {"lost": {"cast": 0, "disrupted": 1}, "tie": {"cast": 1, "disrupted": 0},
                                     "won": {"cast": 1, "disrupted": 0}}
    assert d["retreats_per_fight"] == 1.0
    assert derive(side_profile("ose", ev, state, 1), 1)["spell_initiative"] == {"tie": {"cast": 1, "disrupted": 0}}


class CycleRoller(Roller):
    """Forced dice: a fixed cycle of faces, each folded onto the die asked for (no RNG anywhere)."""

    def __init__(self, pattern: list[int]) -> None:
        self.pattern = pattern
        self.k = 0

    def die(self, sides: int) -> int:
        value = self.pattern[self.k % len(self.pattern)]
        self.k += 1
        return (value - 1) % sides + 1


FACES = [37, 81, 14, 62, 5, 99, 23, 70, 48, 11, 90, 56, 2, 77]
Choose = Callable[[Any, Any, Any, np.ndarray, int], int]


def forced_fight(system: str, scenario: str, choose: Choose, shift: int = 0
                 ) -> tuple[list[Event], Any, list[tuple[Any, int, Any]]]:
    """Play a fight on forced dice; ``choose(engine, state, decision, legal, n)`` picks every move. Returns
    the events, the final state and ``(decision, action, engine)`` for every choice."""
    arena = Arena.build(system, scenario)
    engine = arena.engine
    roller = CycleRoller(FACES[shift:] + FACES[:shift])
    state, events = engine.new_combat(arena.scenario, roller)
    events = list(events)
    choices = []
    n = 0
    while engine.outcome(state) is None:
        decision = engine.pending(state)
        mask = engine.legal_mask(state, decision)
        action = choose(engine, state, decision, np.flatnonzero(mask), n)
        choices.append((decision, action, engine))
        state, new = engine.step(state, action, roller, inplace=True, mask=mask)
        events.extend(new)
        n += 1
        assert n < 5000
    return events, state, choices


def prefer(*verbs: str) -> Choose:
    """Take the first legal action whose verb is in ``verbs`` (in that order), else cycle through the legal
    ones."""

    def choose(engine: Any, state: Any, decision: Any, legal: np.ndarray, n: int) -> int:
        for verb in verbs:
            for a in legal:
                if engine.catalogue[int(a)].verb == verb:
                    return int(a)
        return int(legal[n % len(legal)])

    return choose


def _fled(state: Any, side: int) -> int:
    return sum(1 for c in state.combatants if c.side == side and c.status == Status.FLED)


@pytest.mark.parametrize("verb", ["dodge", "parry"])
@pytest.mark.parametrize("shift", [0, 3, 5, 9])
def test_runequest_defences_match_the_choices(verb: str, shift: int) -> None:
    events, state, choices = forced_fight("runequest", "dodge_duel", prefer(verb), shift)
    made: Counter[str] = Counter()
    for decision, action, engine in choices:
        how = engine.catalogue[action].verb
        if decision.side == 0 and how in ("dodge", "parry"):
            made[f"{how}_vs_{decision.context['wclass']}"] += 1
    p = side_profile("runequest", events, state, 0)
    got = {k: v for k, v in p.items() if k.startswith(("dodge_vs_", "parry_vs_"))}
    assert sum(v for k, v in made.items() if k.startswith(verb)) > 0
    assert got == dict(made)
    assert p.get("fled", 0) == _fled(state, 0)


@pytest.mark.parametrize("to_defence", [0, 2, 5])
@pytest.mark.parametrize("shift", [0, 7])
def test_dicepool_split_counts_the_dice_moved_to_defence(to_defence: int, shift: int) -> None:
    moved = pool = 0

    def choose(engine: Any, state: Any, decision: Any, legal: np.ndarray, n: int) -> int:
        nonlocal moved, pool
        if engine.catalogue[int(legal[0])].verb == "split":
            options = {engine.catalogue[int(a)].option: int(a) for a in legal}
            pick = max(o for o in options if o <= to_defence)
            if decision.side == 0:
                moved += pick
                pool += int(decision.context["pool"])
            return options[pick]
        return prefer("strike")(engine, state, decision, legal, n)

    events, state, _ = forced_fight("dicepool", "melee_duel", choose, shift)
    p = side_profile("dicepool", events, state, 0)
    assert pool > 0
    assert (p["split_defence"], p["split_pool"]) == (moved, pool)
    assert derive(p, 1)["defence_share"] == pytest.approx(moved / pool)


@pytest.mark.parametrize("scenario", ["shield_vs_greataxe", "skirmish_2v2", "wolf_pack"])
@pytest.mark.parametrize("shift", [0, 4])
def test_mrq_special_effects_match_the_choices(scenario: str, shift: int) -> None:
    order = ("bypass_armour", "maximise_damage", "choose_location", "disarm", "trip", "riposte", "deflect_blow")
    events, state, choices = forced_fight("mrq", scenario, prefer("attack", "defend", *order), shift)
    made: Counter[str] = Counter()
    for decision, action, engine in choices:
        verb = engine.catalogue[action].verb
        if decision.side == 0 and verb in order + ("maximum_parry", "attacker_misses", "attacker_vulnerable"):
            made[verb] += 1
    p = side_profile("mrq", events, state, 0)
    got = {k.removeprefix("effect:"): v for k, v in p.items() if k.startswith("effect:")}
    assert sum(made.values()) > 0
    assert got == dict(made)
    assert p["effects_picked"] == sum(made.values())


def test_ose_withdrawals_and_flights_match_the_choices_and_final_state() -> None:
    events, state, choices = forced_fight("ose", "losing_band", prefer("declare_withdraw", "withdraw", "melee"))
    declared = sum(1 for d, a, e in choices if d.side == 0 and e.catalogue[a].verb == "declare_withdraw")
    p = side_profile("ose", events, state, 0)
    assert declared > 0 and p["retreats"] == declared
    assert p["fled"] == _fled(state, 0) and p["flight_fight"] == (1 if p["fled"] else 0)
    bands = sum(p.get(f"flee_wound_band_{k}", 0) for k in range(4))
    assert bands == p["fled"]
