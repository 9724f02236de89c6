"""Fights from drawn encounters through the runner: each fight's encounter (wounds and spent resources
included, via Encounter.start_combat) depends on its seed alone, never on K or the number of processes."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.encounters.generator import Generator
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.encounters.spec import load_encounter
from npc_tactics.registry import make_engine
from npc_tactics.rollouts import FightJob, FightTask, FromEncounter, FromScenario, iter_tasks, run_fights
from npc_tactics.rollouts.fights import ENCOUNTER_SEED_BASE

SEEDS = list(range(10, 34))
AGENTS = ["by-the-book", "random"]


def _key(results: list) -> list[tuple]:
    return [(r.seed, r.results, r.rounds, r.reason, r.decisions, r.statuses, r.sides) for r in results]


@pytest.mark.parametrize("system", ["ose", "mrq"])
def test_drawn_fights_do_not_depend_on_k_or_processes(system: str) -> None:
    start = FromEncounter.distribution("generalist", system)
    one = run_fights(system, start, AGENTS, SEEDS, k=1, workers=1)
    wide = run_fights(system, start, AGENTS, SEEDS, k=64, workers=1)
    odd = run_fights(system, start, AGENTS, SEEDS, k=5, workers=2)
    assert _key(one) == _key(wide) == _key(odd)
    # the seeds draw different fights (sizes differ), so the start really is drawn per fight
    assert len({len(r.sides) for r in one}) > 1
    # a fight's result is the same whichever other seeds run beside it
    alone = run_fights(system, start, AGENTS, SEEDS[5:6], k=1, workers=1)
    assert _key(alone) == _key(one[5:6])


def test_a_drawn_fight_is_its_encounters_start_combat() -> None:
    """The runner's fight starts from start_combat (wear applied), not engine.new_combat on the scenario."""
    system = "ose"
    engine = make_engine(system)
    spec = load_encounter("generalist", system)
    gen = Generator(spec)
    worn = next(s for s in range(200) if gen.draw(ENCOUNTER_SEED_BASE + s).wounds)
    drawn = gen.draw(ENCOUNTER_SEED_BASE + worn)
    state, _ = drawn.start_combat(engine, RngRoller(np.random.default_rng(worn)), record_rolls=False)
    fresh, _ = engine.new_combat(drawn.scenario, RngRoller(np.random.default_rng(worn)), record_rolls=False)
    assert [c.hp for c in state.combatants] != [c.hp for c in fresh.combatants]
    rec = run_fights(engine, FromEncounter(spec=spec), AGENTS, [worn], workers=1, record=True, keep_events=True)
    plain = run_fights(engine, FromScenario(drawn.scenario), AGENTS, [worn], workers=1, record=True,
                       keep_events=True)
    assert rec[0].sides == tuple(int(c.side) for c in state.combatants)
    assert rec[0].record is not None and plain[0].record is not None
    assert rec[0].record.to_dict() != plain[0].record.to_dict()


def test_heldout_set_walks_the_fixed_fights() -> None:
    system = "runequest"
    fixed = load_heldout(system)
    start = FromEncounter.heldout(system)
    engine = make_engine(system)
    job = FightJob(engine, (start,), tuple(AGENTS))
    seeds = [0, 1, len(fixed)]  # seed len(fixed) plays fixed[0] again, with other dice
    results = list(iter_tasks(job, [FightTask(0, s, (0, 1)) for s in seeds], k=2, workers=1))
    for r in results:
        expected, _ = fixed[r.seed % len(fixed)].start_combat(engine, RngRoller(np.random.default_rng(r.seed)),
                                                              record_rolls=False)
        assert r.sides == tuple(int(c.side) for c in expected.combatants)


def test_bad_encounter_starts_are_refused() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        FromEncounter()
    with pytest.raises(ValueError, match="draws ose encounters"):
        run_fights("mrq", FromEncounter.distribution("generalist", "ose"), AGENTS, [1], workers=1)
