"""The lockstep runner: a fight depends only on its seed, never on K, the number of processes or the
executor; recorded and light fights agree; play_fight, tournaments and rollouts are fights of the runner."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents import agent_entries
from npc_tactics.agents.lockstep import PAD_WIDTH, BatchedPolicy
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.registry import available_systems, get_system
from npc_tactics.rollouts import (
    FightJob,
    FightTask,
    FromScenario,
    FromState,
    RolloutJob,
    iter_tasks,
    rollout_seeds,
    run_fights,
    run_rollouts,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEEDS = list(range(40, 70))


def _key(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.task, r.seed, r.results, r.rounds, r.reason, r.decisions, r.statuses) for r in results]


@pytest.mark.parametrize("system", sorted(available_systems()))
def test_scripted_fights_do_not_depend_on_k_or_processes(system: str) -> None:
    agents = ["by-the-book", "random"]
    one = run_fights(system, get_system(system).default_scenario, agents, SEEDS, k=1, workers=1)
    wide = run_fights(system, get_system(system).default_scenario, agents, SEEDS, k=64, workers=1)
    odd = run_fights(system, get_system(system).default_scenario, agents, SEEDS, k=7, workers=2)
    assert _key(one) == _key(wide) == _key(odd)
    assert [r.seed for r in one] == SEEDS and [r.task for r in one] == list(range(len(SEEDS)))
    assert all(r.results[0] in ("win", "loss", "draw", "fled") for r in one)


@pytest.mark.parametrize("system", sorted(available_systems()))
def test_recorded_fights_are_play_fight(system: str) -> None:
    """The runner's record of a fight is play_fight's, and recording changes no dice."""
    arena = Arena.build(system)
    entries = agent_entries(get_system(system))
    specs = ["aggressive", "random"]
    recorded = run_fights(system, arena.scenario, specs, SEEDS[:8], k=3, workers=1, record=True)
    light = run_fights(system, FromScenario(arena.scenario), specs, SEEDS[:8], k=8, workers=1)
    assert [(r.results, r.end_round, r.decisions) for r in recorded] == [
        (r.results, r.end_round, r.decisions) for r in light]
    for r in recorded:
        agents = [entries[s].factory(arena.engine, g) for s, g in zip(specs, agent_rngs(r.seed, 2), strict=True)]
        single = play_fight(arena.engine, arena.encoder, arena.scenario, agents, r.seed)
        assert r.record is not None and r.record.to_dict() == single.to_dict()


def test_rollouts_are_fights_from_a_state_after_the_move() -> None:
    info = get_system("mrq")
    engine = info.load("engine")({})
    state = info.load("content").load_situation(engine, EXAMPLES / "mrq_situation.yaml",
                                                RngRoller(np.random.default_rng(0)))
    decision = engine.pending(state)
    move = int(np.flatnonzero(engine.legal_mask(state, decision))[0])
    agents = ("by-the-book", "aggressive")
    rolled = run_rollouts(RolloutJob(engine, state, decision.actor, decision.side, agents), [move], 10, seed=2,
                          workers=1)[move]
    fights = run_fights(engine, FromState(state, move), agents, rollout_seeds(2, 10), workers=1)
    assert [(r.result, r.rounds, r.decisions) for r in rolled] == [
        (f.results[decision.side], f.rounds, f.decisions) for f in fights]
    assert all(f.decisions >= 1 for f in fights)


class _ListExecutor:
    """A foreign executor: every chunk through a plain list comprehension, chunks handed over in reverse
    and put back in order (like an executor that schedules as it likes but maps in order)."""

    workers = 3

    def __init__(self) -> None:
        self.setups = 0

    @contextmanager
    def session(self, setup: Callable[[Any], None], job: Any) -> Iterator[Any]:
        setup(job)
        self.setups += 1
        outer = self

        class _Map:
            def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
                chunks = list(items)
                done = {i: fn(c) for i, c in reversed(list(enumerate(chunks)))}
                assert outer.setups == 1
                return iter(done[i] for i in range(len(chunks)))

        yield _Map()


def test_a_pluggable_executor_gives_the_same_fights() -> None:
    scenario = get_system("ose").default_scenario
    executor = _ListExecutor()
    mine = run_fights("ose", scenario, ["cautious", "random"], SEEDS, k=5, executor=executor)
    ref = run_fights("ose", scenario, ["cautious", "random"], SEEDS, k=64, workers=1)
    assert executor.setups == 1 and _key(mine) == _key(ref)


def test_tasks_mix_starts_and_seats() -> None:
    info = get_system("ose")
    engine = info.load("engine")({})
    content = info.load("content")
    starts = (FromScenario(content.load_scenario("goblin_duel")), FromScenario(content.load_scenario("goblin_band")))
    job = FightJob(engine, starts, ("by-the-book", "aggressive", "random"))
    tasks = [FightTask(st, s, seats) for st in (0, 1) for s in SEEDS[:6] for seats in ((0, 1), (2, 0))]
    mixed = list(iter_tasks(job, tasks, k=4, workers=2))
    alone = run_fights(engine, starts[1], ["random", "by-the-book"], SEEDS[:6], workers=1)
    assert [r.task for r in mixed] == list(range(len(tasks)))
    assert _key([m for m in mixed if m.start == 1 and m.seats == (2, 0)])[0][1:] == _key(alone)[0][1:]
    with pytest.raises(ValueError, match="roster entry"):
        list(iter_tasks(job, [FightTask(0, 1, (0, 5))], workers=1))


def test_padding_makes_height_dependent_networks_batch_invariant() -> None:
    """A network whose rows change with the batch's height is detected and always called PAD_WIDTH high."""
    weights = np.random.default_rng(1).normal(size=(6, 4)).astype(np.float32)
    heights: list[int] = []

    def quirky(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        heights.append(len(obs))
        logits = obs @ weights + (1e-3 if len(obs) < 8 else 0.0)  # short batches round differently
        p = np.exp(logits) * masks
        return p / p.sum(axis=1, keepdims=True)

    batched = BatchedPolicy(quirky, 6, 4)
    assert batched.width == PAD_WIDTH
    heights.clear()
    obs = np.random.default_rng(2).normal(size=(70, 6)).astype(np.float32)
    masks = np.ones((70, 4), dtype=bool)
    whole = batched.probabilities(obs, masks)
    parts = np.concatenate([batched.probabilities(obs[i:i + 3], masks[i:i + 3]) for i in range(0, 70, 3)])
    assert np.array_equal(whole, parts) and set(heights) == {PAD_WIDTH}
    plain = BatchedPolicy(lambda o, m: np.asarray(o[:, :4] * m, dtype=np.float32), 6, 4)
    assert plain.width is None


@pytest.mark.integration
@pytest.mark.parametrize("which", ["bundle", "run"])
def test_policy_fights_do_not_depend_on_k_or_processes(which: str, tiny_bundle: Path, trained_run: Path) -> None:
    spec = str(tiny_bundle if which == "bundle" else trained_run)
    agents = [spec, "by-the-book"]
    one = run_fights("ose", "goblin_duel", agents, SEEDS, k=1, workers=1)
    wide = run_fights("ose", "goblin_duel", agents, SEEDS, k=64, workers=1)
    split = run_fights("ose", "goblin_duel", agents, SEEDS, k=9, workers=2)
    assert _key(one) == _key(wide) == _key(split)
    info = get_system("ose")
    engine = info.load("engine")({})
    state = info.load("content").load_situation(engine, EXAMPLES / "ose_situation.yaml",
                                                RngRoller(np.random.default_rng(0)))
    decision = engine.pending(state)
    moves = [int(a) for a in np.flatnonzero(engine.legal_mask(state, decision))]
    job = RolloutJob(engine, state, decision.actor, decision.side, (spec, "random"))
    assert (run_rollouts(job, moves, 12, seed=4, workers=1, chunk_size=1)
            == run_rollouts(job, moves, 12, seed=4, workers=2, chunk_size=50))


def test_batched_choice_is_the_agents_choice_row_by_row() -> None:
    from npc_tactics.agents.lockstep import _choose, _choose_rows

    rng = np.random.default_rng(3)
    probs = rng.random((200, 9)).astype(np.float32)
    probs[::7] = 0.0  # rows whose legal probabilities sum to 0 fall back to uniform
    probs[1::5, 2] = probs[1::5, 4]  # exact ties
    masks = rng.random((200, 9)) < 0.5
    masks[:, 3] = True
    assert _choose_rows(probs, masks) == [_choose(p, m) for p, m in zip(probs, masks, strict=True)]


def _fights_in_a_worker(seeds: list[int]) -> list[tuple[Any, ...]]:
    return _key(run_fights("ose", "goblin_duel", ["by-the-book", "random"], seeds))


def test_the_runner_runs_inline_inside_a_pool_worker() -> None:
    """A caller that is itself a multiprocessing.Pool worker (a daemon process, which may not have children)
    gets the same fights, played inline."""
    import multiprocessing as mp

    with mp.get_context("fork").Pool(1) as pool:
        inside = pool.apply(_fights_in_a_worker, (SEEDS[:6],))
    assert inside == _fights_in_a_worker(SEEDS[:6])
