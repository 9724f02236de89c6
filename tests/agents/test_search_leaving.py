"""A leave move played through: with ``play_leaving_through`` the search's play-outs have an NPC that chose to leave
keep leaving (its system's ``leave_plan``; off by default), and a fight of the lockstep with ``leaving`` never asks
the actor's agent while a way out is legal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.base import Observation
from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.agents.search import SearchAgent, leave_plan
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.tactics.hooks import Tactics, tactics_hooks
from npc_tactics.probes.spec import load_probe_file
from npc_tactics.registry import get_system, make_engine
from npc_tactics.rules.base import Status

SYSTEMS = ("ose", "runequest", "mrq", "dicepool")


def _flee_when_losing() -> tuple[Any, Any, Any]:
    """RuneQuest's ``flee_when_losing`` probe: Fox, badly hurt, engaged with a great troll."""
    system = get_system("runequest")
    probes = load_probe_file(system.content_dir() / "probes" / "tactics.yaml")
    probe = next(p for p in probes.probes if p.name == "flee_when_losing")
    engine = system.load("engine")({})
    state = system.load("content").load_situation(engine, probe.situation, RngRoller(np.random.default_rng(0)))
    decision = engine.pending(state)
    assert decision is not None
    return engine, state, decision


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_plan_is_every_leave_move_in_the_hook_s_order(system: str) -> None:
    engine = make_engine(system)
    hooks = tactics_hooks(system)
    assert hooks is not None
    plan = leave_plan(engine)
    verbs = [engine.catalogue[a].verb for a in plan]
    assert set(verbs) == hooks.leave_verbs and len(set(plan)) == len(plan)
    assert [v for i, v in enumerate(verbs) if v not in verbs[:i]] == list(hooks.leave_order)


def test_runequest_flees_before_it_retreats() -> None:
    engine = make_engine("runequest")
    assert [engine.catalogue[a].verb for a in leave_plan(engine)] == ["flee", "retreat"]


def test_a_plan_naming_a_verb_that_does_not_leave_is_refused() -> None:
    with pytest.raises(ValueError, match="leave_plan"):
        Tactics(tactics=(), leave_verbs=frozenset({"flee"}), leave_plan=("attack",))
    assert Tactics(tactics=(), leave_verbs=frozenset({"b", "a", "c"}), leave_plan=("c",)).leave_order == ("c", "a", "b")


class _Asked:
    """An agent that answers like ``inner`` and notes, for each decision of ``actor``, whether a move of
    ``plan`` was legal."""

    def __init__(self, inner: Any, actor: int, plan: tuple[int, ...], seen: list[bool]) -> None:
        self.inner, self.actor, self.plan, self.seen = inner, actor, plan, seen

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        if int(observation.decision.actor) == self.actor:
            self.seen.append(any(mask[a] for a in self.plan))
        return int(self.inner.act(observation, mask))


def _play_after_retreat(leaving: bool, seed: int) -> tuple[list[bool], Any]:
    engine, state, decision = _flee_when_losing()
    actor = int(decision.actor)
    plan = leave_plan(engine)
    retreat = next(a for a in plan if engine.catalogue[a].verb == "retreat")
    assert engine.legal_mask(state, decision)[retreat]
    dice = RngRoller(np.random.default_rng(seed))
    after, _ = engine.step(state, retreat, dice, record_rolls=False)
    seen: list[bool] = []
    aggressive = agent_factory("runequest", "aggressive")
    agents = [_Asked(aggressive(engine, np.random.default_rng([seed, s])), actor, plan, seen) for s in range(2)]
    fight = Fight(0, 0, seed, after, dice, agents, 0, leaving=(actor, plan) if leaving else None)
    encoder = get_system("runequest").load("encoder")(engine)
    play_chunk(engine, encoder, [fight], 10_000)
    return seen, fight.state.combatants[actor]


def test_a_leaving_npc_is_never_asked_while_a_way_out_is_legal_and_leaves_or_falls() -> None:
    fled = turned_back = 0
    for seed in range(12):
        seen, fox = _play_after_retreat(True, seed)
        assert not any(seen)  # its agent answered only decisions without a way out (reactions)
        fled += fox.status == Status.FLED
        seen, fox = _play_after_retreat(False, seed)
        turned_back += any(seen)
    assert fled >= 6  # the first statement after the retreat is a flight, out of the troll's reach
    assert turned_back >= 6  # continued by ``aggressive``, Fox is asked with a way out legal (unless it fell first)


def test_the_search_values_a_retreat_played_through_as_a_way_out() -> None:
    engine, state, decision = _flee_when_losing()
    mask = engine.legal_mask(state, decision)
    plan = leave_plan(engine)
    book = agent_factory("runequest", "by-the-book")
    aggressive = agent_factory("runequest", "aggressive")
    values = {}
    assert SearchAgent(engine, np.random.default_rng(0), policy=aggressive, opponent=book).leave_plan == ()
    for through in (True, False):
        search = SearchAgent(engine, np.random.default_rng(0), policy=aggressive, opponent=book, budget=8,
                             play_leaving_through=through)
        assert search.leave_plan == (plan if through else ())
        values[through] = search.playout_values(state, decision, mask, list(plan), range(64), seed=7)
    # the retreat and the flight, each carried out, keep Fox alive far more often than turning back to fight
    assert (values[True] >= 0.25).mean() > (values[False] >= 0.25).mean() + 0.2


def test_the_weight_of_the_actor_s_life_moves_each_value_by_its_survival_only() -> None:
    engine, state, decision = _flee_when_losing()
    mask = engine.legal_mask(state, decision)
    moves = leave_plan(engine)[:1]
    book = agent_factory("runequest", "by-the-book")
    values = [SearchAgent(engine, np.random.default_rng(0), policy=book, opponent=book, survival_weight=w)
              .playout_values(state, decision, mask, list(moves), range(32), seed=3) for w in (0.25, 1.0)]
    step = values[1] - values[0]
    assert set(np.round(step, 9).ravel()) <= {0.0, 0.75} and (step > 0).any()  # 0.75 more for each life kept
    for bad in (-0.1, 4.5):
        with pytest.raises(ValueError, match="survival_weight"):
            SearchAgent(engine, np.random.default_rng(0), policy=book, opponent=book, survival_weight=bad)
