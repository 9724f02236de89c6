"""OSE Hold Person's two ways (rules/spells_hold.py, docs/ose-spells.md "Hold Person"), forced dice.

[SRD-he] itaiag/OSE.SRD.Wiki ``4. Magic/Cleric Spells/2 - Hold Person.md`` (commit 9e35b35): "It may be cast in
two ways: 1. Against an individual: the target's saving throw is penalised by -2. 2. Against a group: 1d4
individuals in the group are targeted." Option ``hold_person_mode``: single (default), group, best.

The battle line in these tests (squares of 1.5 m; the cleric's side wins initiative 6-1 and casts first)::

    square:  0 ... 20   21   22   23   24
             C     O0   O1   O2   O3   O4        C: cleric_4 (Hold Person, 180' = 36 squares)
                   (the group of a cast at O1: squares 19-23, O1 first, then O0 and O2, then O3)

An orc saves vs spells on 16: against a single Hold Person (-2) it fails on 1-17, in a group on 1-15.
"""

from __future__ import annotations

from typing import Any

import pytest
from ose_helpers import Fight, scenario
from test_spells_area import declare

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules import spells_hold as H
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.options import DEFAULT_OPTIONS, OPTION_CHOICES
from npc_tactics.systems.ose.rules.tables import SPELL_NAMES

H_SID = SPELL_NAMES.index("hold_person")
CLERIC = {"template": "cleric_4", "name": "C", "position": 0, "hp": 14, "spells": {"hold_person": 1}}


def line(*names_at: tuple[str, str, float]) -> list[dict[str, Any]]:
    return [{"template": t, "name": n, "position": p, "hp": 30} for t, n, p in names_at]


ORCS = line(("orc", "O0", 30), ("orc", "O1", 31.5), ("orc", "O2", 33), ("orc", "O3", 34.5), ("orc", "O4", 36))


def hold(dice: list[int], mode: str | None, foes: list[dict[str, Any]] = ORCS, target: int = 1,
         friends: list[dict[str, Any]] | None = None) -> Fight:
    f = Fight(scenario([CLERIC, *(friends or [])], foes), dice, None if mode is None else {"hold_person_mode": mode})
    declare(f, C=f"cast:hold_person:enemy_{target}")
    return f


def saves(f: Fight) -> list[tuple[str, int, str]]:
    return [(f.state.combatants[e.actor].name, e.data["modifier"], e.data["result"]) for e in f.kinds("save")]


def group_rolls(f: Fight) -> list[int]:
    """The 1d4 of each group-way cast (a ``roll`` event for ``cast`` of expression 1d4)."""
    return [e.data["total"] for e in f.kinds("roll") if e.data["why"] == "cast" and e.data["expr"] == "1d4"]


def held(f: Fight) -> set[str]:
    return {c.name for c in f.state.combatants if c.status == Status.INCAPACITATED}


def test_the_option_is_declared_with_the_engines_play_as_default() -> None:
    assert DEFAULT_OPTIONS["hold_person_mode"] == "single"
    assert OPTION_CHOICES["hold_person_mode"] == ("single", "group", "best")
    with pytest.raises(ValueError, match="hold_person_mode"):
        OSEEngine({"hold_person_mode": "all"})


@pytest.mark.parametrize("mode", [None, "single"])
def test_single_one_target_saves_at_minus_2(mode: str | None) -> None:
    f = hold([6, 1, 17], mode)  # 17 - 2 = 15 < 16: held
    assert saves(f) == [("O1", -2, "failed")] and held(f) == {"O1"} and not group_rolls(f)
    f = hold([6, 1, 18], mode)  # 18 - 2 = 16: saved
    assert saves(f) == [("O1", -2, "saved")] and held(f) == set()


def test_group_1d4_of_the_group_nearest_the_target_first_each_saving_normally() -> None:
    f = hold([6, 1, 3, 15, 16, 1], "group")  # 1d4 = 3: O1 (15 fails), O0 (16 saves), O2 (1 fails)
    assert group_rolls(f) == [3]
    assert saves(f) == [("O1", 0, "failed"), ("O0", 0, "saved"), ("O2", 0, "failed")]
    assert held(f) == {"O1", "O2"}
    assert f.kinds("status")[-1].data["cause"] == "hold_person"
    assert sum(c.spells[H_SID] for c in f.state.combatants if c.name == "C") == 0  # one spell spent


def test_group_of_four_reaches_two_squares_and_no_further() -> None:
    f = hold([6, 1, 4, 1, 1, 1, 1], "group")  # O1, O0, O2, O3 (2 squares off); O4 (3 squares) never
    assert [n for n, _, _ in saves(f)] == ["O1", "O0", "O2", "O3"] and held(f) == {"O0", "O1", "O2", "O3"}
    f = hold([6, 1, 1, 1], "group")  # 1d4 = 1: the declared target alone, at no penalty
    assert saves(f) == [("O1", 0, "failed")] and group_rolls(f) == [1]


def test_group_takes_no_friend_and_no_creature_it_cannot_hold() -> None:
    """The caster's fighter stands in the group's squares; a skeleton (undead) and a 5 HD gnoll (above 4+1 HD)
    stand beside the declared orc: the 1d4 go to the orc and the orc beyond them."""
    foes = line(("skeleton", "S", 30), ("orc", "O1", 31.5), ("gnoll", "G", 33), ("orc", "O3", 34.5))
    foes[2]["hd"] = "5"
    friend = [{"template": "fighter_2", "name": "F", "position": 28.5, "hp": 12}]  # square 19
    f = hold([6, 1, 4, 2, 3], "group", foes, friends=friend)
    assert group_rolls(f) == [4]
    assert saves(f) == [("O1", 0, "failed"), ("O3", 0, "failed")] and held(f) == {"O1", "O3"}


def test_a_group_declared_at_a_creature_it_cannot_hold_still_targets_it_first() -> None:
    foes = line(("skeleton", "S", 31.5), ("orc", "O1", 33))
    f = hold([6, 1, 1], "group", foes, target=0)  # 1d4 = 1: the skeleton only, unaffected
    assert [e.kind for e in f.events if e.kind in ("hold", "save")] == ["hold"] and group_rolls(f) == [1]
    f = hold([6, 1, 2, 5], "group", foes, target=0)  # 1d4 = 2: and the orc
    assert [e.kind for e in f.events if e.kind in ("hold", "save")] == ["hold", "save"]
    assert held(f) == {"O1"}


def test_the_chances_a_caster_weighs() -> None:
    f = Fight(scenario([CLERIC], ORCS), [6, 1])
    s = f.state
    assert H.fail_chance(s, 2, -2) == pytest.approx(17 / 20) and H.fail_chance(s, 2, 0) == pytest.approx(15 / 20)
    orcs = [c.name for c in s.combatants]
    assert [orcs[j] for j in H.group_targets(s, 0, 2)] == ["O1", "O0", "O2", "O3"]
    # four orcs: 0.75 x (1 + 3/4 + 2/4 + 1/4) = 1.875 expected held, against 0.85 for one at -2
    assert H.group_expected(s, H.group_targets(s, 0, 2)) == pytest.approx(0.75 * 2.5)
    assert H.single_expected(s, 2) == pytest.approx(0.85)


def test_best_casts_at_a_group_when_it_holds_more_and_at_one_when_alone() -> None:
    f = hold([6, 1, 2, 15, 15], "best")  # four orcs in reach: the group way
    assert group_rolls(f) == [2] and saves(f) == [("O1", 0, "failed"), ("O0", 0, "failed")]
    lone = line(("orc", "O0", 30))
    f = hold([6, 1, 17], "best", lone, target=0)  # alone: 0.75 in a group of one, 0.85 at -2
    assert not group_rolls(f) and saves(f) == [("O0", -2, "failed")]


def test_best_prefers_one_at_minus_2_when_the_group_beside_it_cannot_be_held() -> None:
    foes = line(("skeleton", "S", 30), ("orc", "O1", 31.5), ("skeleton", "T", 33))
    f = hold([6, 1, 17], "best", foes)
    assert not group_rolls(f) and saves(f) == [("O1", -2, "failed")]


def test_the_shipped_caster_duel_plays_every_way() -> None:
    """The evil priest of caster_duel casts Hold Person: random legal play ends every fight in every mode."""
    import numpy as np

    from npc_tactics.dice import RngRoller
    from npc_tactics.systems.ose.rules.content import load_scenario

    for mode in ("single", "group", "best"):
        engine = OSEEngine({"hold_person_mode": mode})
        for seed in range(5):
            rng, roller = np.random.default_rng(seed), RngRoller(np.random.default_rng(100 + seed))
            state, _ = engine.new_combat(load_scenario("caster_duel"), roller)
            while (d := engine.pending(state)) is not None:
                mask = engine.legal_mask(state, d)
                assert mask.any()
                state, _ = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller, inplace=True)
