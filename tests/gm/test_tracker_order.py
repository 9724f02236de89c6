"""The order each system's rules give, on the tracker (issue 29): a fight stepped into its rounds shows, at each
step, exactly the order the engine state holds (OSE initiative groups and phase, RuneQuest's strike-rank
schedule, MRQ's Strike Rank order and Combat Actions left, the dice-pool slot queue), with the acting combatant
marked; and the sides, named and given to the GM or the advisor, are kept by a saved fight."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.gm.table.fight_file import fight_from_dict, fight_to_dict
from npc_tactics.gm.table.fight_view import order_hook, order_view, view
from npc_tactics.gm.table.tracker import Fight, SideSpec
from npc_tactics.i18n import translator
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Status

pytestmark = pytest.mark.integration


def ose_rows(s: Any) -> list[tuple[int, int | None]]:
    if s.stage == 0:  # declarations: no initiative rolled for this round yet
        return [(i, None) for i, c in enumerate(s.combatants) if c.status == Status.ACTIVE]
    return [(i, s.initiative[s.combatants[i].side]) for g in s.groups for i in g]


def rq_rows(s: Any) -> list[tuple[int, int | None]]:
    if s.schedule:
        return [(e[2], e[0]) for e in s.schedule]
    declared = [(i, st.sr) for i, c in enumerate(s.combatants)
                if c.status == Status.ACTIVE and i not in s.declare_queue and c.intent is not None
                for st in c.intent.steps]
    return declared + [(i, None) for i in s.declare_queue]


def mrq_rows(s: Any) -> list[tuple[int, int | None]]:
    return [(i, s.combatants[i].sr) for i in s.order if s.combatants[i].status == Status.ACTIVE
            and s.combatants[i].cas > 0]


def dp_rows(s: Any) -> list[tuple[int, int | None]]:
    return [(c, rank) for rank, c in s.queue]


CASES: dict[str, tuple[str, str, Callable[[Any], list[tuple[int, int | None]]], str]] = {
    "ose": ("goblin", "fighter_2", ose_rows, "initiative"),
    "runequest": ("broo", "dark_troll", rq_rows, "strike rank"),
    "mrq": ("bandit", "broo", mrq_rows, "strike rank"),
    "dicepool": ("bandit", "brawler", dp_rows, "action rank"),
}


@pytest.mark.parametrize("system", sorted(CASES))
def test_the_order_is_the_engines_at_each_step(system: str) -> None:
    npc, pc, expected, word = CASES[system]
    fight = Fight(system, sides=[SideSpec("Raiders", "npc"), SideSpec("Adventurers", "pc")], seed=5)
    for _ in range(2):
        fight.add(0, npc)
        fight.add(1, pc)
    assert order_hook(get_system(system)) is not None
    assert order_view(fight, "en") is None  # not started: no order
    fight.start()
    rounds, checked = set(), 0
    for _ in range(60):
        if fight.outcome() is not None:
            break
        o = order_view(fight, "en")
        assert o is not None
        assert [(r["index"], r["number"]) for r in o["rows"]] == expected(fight.state)
        names = [str(c.name) for c in fight.state.combatants]
        for r in o["rows"]:
            assert r["name"] == names[r["index"]]
            assert r["side_name"] == ("Raiders", "Adventurers")[r["side"]]
            assert r["acting"] == (r["index"] == fight.decision.actor)
            if r["number"] is not None:
                assert word in r["text"] and str(r["number"]) in r["text"]
        rounds.add(fight.state.round)
        checked += 1
        fight.play(fight.legal()[0])
    assert checked >= 20 and len(rounds) >= 2, (checked, rounds)  # stepped into a second round
    assert view(fight, "en")["order"] == order_view(fight, "en")


def test_ose_says_which_side_acts_first_and_the_phase_in_both_languages() -> None:
    fight = Fight("ose", sides=[SideSpec("Goblins", "npc"), SideSpec("Adventurers", "pc")], seed=5)
    for _ in range(2):
        fight.add(0, "goblin")
        fight.add(1, "fighter_2")
    fight.start()
    seen = set()
    for _ in range(40):
        s = fight.state
        if fight.outcome() is not None:
            break
        en, fr = order_view(fight, "en"), order_view(fight, "fr")
        assert en is not None and fr is not None
        if s.stage == 1 and len(s.groups) == 2:
            first = ("Goblins", "Adventurers")[s.combatants[s.groups[0][0]].side]
            assert en["notes"][0] == f"{first} act first"
            assert fr["notes"][0] == translator("fr", "web")("{side} act first").format(side=first)
            now = [r["index"] for r in en["rows"] if r["now"]]
            assert now == s.groups[s.group_idx]
            seen.add(en["phase"])
        fight.play(fight.legal()[0])
    assert "move" in seen or "melee" in seen


MRQ_CA = "Combat Actions left"


def test_mrq_shows_the_combat_actions_left_as_the_engine_counts_them() -> None:
    fight = Fight("mrq", seed=2)
    fight.add(0, "bandit")
    fight.add(1, "berserker")
    fight.start()
    for _ in range(12):
        if fight.outcome() is not None:
            break
        o = order_view(fight, "en")
        assert o is not None
        for r in o["rows"]:
            c = fight.state.combatants[r["index"]]
            assert f"{MRQ_CA}: {c.cas - c.ca_done}" in r["text"]
        fight.play(fight.legal()[0])


def test_sides_are_named_given_to_gm_or_advisor_and_kept_by_a_saved_fight() -> None:
    fight = Fight("ose", seed=1)
    fight.add(0, "goblin")
    fight.add(1, "fighter_2")
    fight.set_side(0, name="Goblins", control="pc")
    fight.set_side(1, name="Adventurers", control="npc")
    fight.start()
    assert fight.who_decides() in ("pc", "npc")
    assert fight.sides[fight.decision.side].control == ("pc", "npc")[fight.decision.side]
    fight.set_side(1, name="The party")  # names change at any time
    v = view(fight, "fr")
    assert [(s["name"], s["control"]) for s in v["sides"]] == [("Goblins", "pc"), ("The party", "npc")]
    assert {c["side_name"] for c in v["combatants"]} == {"Goblins", "The party"}
    back = fight_from_dict(json.loads(json.dumps(fight_to_dict(fight))))
    assert [(s.name, s.control) for s in back.sides] == [("Goblins", "pc"), ("The party", "npc")]
    assert view(back, "en")["order"] == view(fight, "en")["order"]
    with pytest.raises(ConfigError) as bad:
        fight.set_side(0, name="The party")
    assert bad.value.field == "sides[0].name"
    with pytest.raises(ConfigError) as bad:
        fight.set_side(0, name=" ")
    assert bad.value.field == "sides[0].name"


def test_with_the_pcs_dice_typed_control_is_chosen_before_the_start() -> None:
    fight = Fight("ose", seed=1, dice="pcs")
    fight.add(0, "goblin")
    fight.add(1, "fighter_2")
    fight.set_side(0, control="pc")  # before the start: fine
    fight.set_side(0, control="npc")
    fight.start()
    assert view(fight, "en")["can_change_control"] is False
    with pytest.raises(ConfigError) as bad:
        fight.set_side(0, control="pc")
    assert bad.value.field == "sides[0].control"
    fight.set_side(0, name="Goblins")
    assert fight.sides[0].name == "Goblins"
