"""The encounter builder: a target it provably can reach (built from a known group's measured odds), the same
proposals whatever the worker count, every system, and the distance and 'meets' it ranks by."""

from __future__ import annotations

import math

import pytest

from npc_tactics.errors import UserError
from npc_tactics.gm.advice.odds import Rate
from npc_tactics.gm.encounter.builder import ROUND_WEIGHT, build_encounter, distance, enumerate_groups, meets
from npc_tactics.gm.encounter.odds import EncounterOdds, odds_of
from npc_tactics.gm.encounter.spec import parse_target
from npc_tactics.registry import get_system

PARTY = "fighter_2, cleric_2"
OSE = get_system("ose")
MRQ = get_system("mrq")


def _odds(win: int, death: int, rounds: float, n: int = 100, half: float = 0.5) -> EncounterOdds:
    zero = Rate.of(0, n)
    return EncounterOdds(n, Rate.of(win, n), zero, Rate.of(death, n), zero, zero, rounds,
                         (rounds - half, rounds + half))


def test_distance_is_the_norm_of_the_violations() -> None:
    target = parse_target("win=0.7,pc_death<0.1,rounds=4-8")
    assert distance(target, _odds(70, 5, 6.0)) == 0.0
    assert distance(target, _odds(60, 5, 6.0)) == pytest.approx(0.1)
    assert distance(target, _odds(70, 20, 6.0)) == pytest.approx(0.1)
    assert distance(target, _odds(70, 5, 2.0)) == pytest.approx(2 * ROUND_WEIGHT)
    assert distance(target, _odds(60, 20, 10.0)) == pytest.approx(math.sqrt(0.01 + 0.01 + (2 * ROUND_WEIGHT) ** 2))
    assert distance(target, {"win": 0.7, "pc_death": 0.3, "rounds": 5.0}) == pytest.approx(0.2)


def test_meets_asks_each_interval_to_reach_its_bound() -> None:
    target = parse_target("win=0.7,rounds=4-8")
    assert meets(target, _odds(66, 0, 6.0))  # 0.66 [0.56-0.75] holds 0.7
    assert not meets(target, _odds(50, 0, 6.0))  # 0.5 [0.40-0.60] does not
    assert not meets(target, _odds(70, 0, 3.0, half=0.4))  # rounds [2.6-3.4] below 4
    assert meets(target, _odds(70, 0, 3.7, half=0.4))


def test_groups_of_one_or_two_templates_up_to_the_side_limit() -> None:
    groups = enumerate_groups(["goblin", "orc"], 6)
    assert len(groups) == 6 + 6 + 15
    assert (("goblin", 4),) in groups and (("goblin", 1), ("orc", 5)) in groups
    assert all(sum(c for _, c in g) <= 6 for g in groups)


def test_a_target_made_from_a_known_group_is_reached() -> None:
    """goblin x3 against the party measured on 400 fights gives the target; the search (which enumerates
    goblin x3 among 27 groups) must come back with a group within 0.08 of it: about two standard errors of its
    own estimates (280 fights each), so the tolerance is sampling noise and nothing else."""
    known = odds_of(OSE, party=PARTY, foes="goblin x3", fights=400, seed=11, workers=1)["odds"]
    target = parse_target(f"win={known['win']['rate']:.3f},"
                          f"rounds={known['rounds'] - 0.5:.2f}-{known['rounds'] + 0.5:.2f}")
    out = build_encounter(OSE, PARTY, target, pool="goblin, orc", budget=2000, seed=3, workers=2)
    best = out["proposals"][0]
    assert best["distance"] <= 0.08, out["proposals"]
    assert best["meets"]
    assert [p["distance"] for p in out["proposals"]] == sorted(p["distance"] for p in out["proposals"])
    assert out["fights"] <= 2000 and out["groups_enumerated"] == 27


def test_the_proposals_do_not_depend_on_the_worker_count() -> None:
    target = parse_target("win=0.5,rounds=2-6")
    one = build_encounter(MRQ, "sword_and_shield, spearman", target, budget=600, seed=4, workers=1)
    two = build_encounter(MRQ, "sword_and_shield, spearman", target, budget=600, seed=4, workers=2)
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


@pytest.mark.parametrize(("system", "party"), [("ose", "fighter_3, cleric_2, thief_2"),
                                                ("runequest", "humakti_swordsman, orlanthi_warrior"),
                                                ("mrq", "greatsword_knight"), ("dicepool", "haru, markus")])
def test_every_system_gives_proposals_best_first(system: str, party: str) -> None:
    out = build_encounter(get_system(system), party, parse_target("win=0.7,pc_death<0.2"), budget=400, top=3, seed=1,
                          workers=1)
    assert 1 <= len(out["proposals"]) <= 3
    dists = [p["distance"] for p in out["proposals"]]
    assert dists == sorted(dists)
    for p in out["proposals"]:
        assert 0 <= p["odds"]["win"]["rate"] <= 1 and p["odds"]["fights"] > 40


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"budget": 50}, "--budget: expected 100"),
    ({"top": 0}, "--top: expected 1 to 20"),
    ({"pool": "goblin, dragon"}, "--pool: unknown template 'dragon'"),
    ({"max_foes": 9}, "--max-foes: expected 1 to 6"),
    ({"foe_policy": "nobody"}, "--foe-policy: unknown agent 'nobody'"),
])
def test_bad_builder_options_name_themselves(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(UserError) as caught:
        build_encounter(OSE, PARTY, parse_target("win=0.7"), **kwargs)  # type: ignore[arg-type]
    assert fragment in str(caught.value)


def test_groups_the_system_cannot_field_are_skipped() -> None:
    """An MRQ lancer's mount takes a slot of the six: four lancers are refused by the scenario parser, and the
    search goes on without them."""
    out = build_encounter(MRQ, "spearman, sword_and_shield", parse_target("win=0.5"), pool="mounted_lancer, wolf",
                          budget=400, top=2, seed=2, workers=1)
    assert out["groups_refused"] > 0 and out["proposals"]
    for p in out["proposals"]:
        assert dict(p["groups"]).get("mounted_lancer", 0) <= 3
