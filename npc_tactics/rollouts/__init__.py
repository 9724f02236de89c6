"""Many fights at once: the lockstep runner (K fights advanced together, one batched network call per policy
per step, any executor, per-fight seeds) behind the GM's odds, probes, tournaments and encounter odds; and the
Monte-Carlo rollouts of a fight from a state. Free of gm and evaluation imports (it sits between the agents and
the evaluation)."""

from npc_tactics.rollouts.executors import Executor, InlineExecutor, ProcessExecutor, default_workers
from npc_tactics.rollouts.fights import (
    DEFAULT_K,
    FightJob,
    FightResult,
    FightTask,
    FromEncounter,
    FromScenario,
    FromState,
    iter_tasks,
    run_fights,
)
from npc_tactics.rollouts.record import FightRecord
from npc_tactics.rollouts.run import Rollout, RolloutJob, rollout_seeds, run_rollouts

__all__ = ["DEFAULT_K", "Executor", "FightJob", "FightRecord", "FightResult", "FightTask", "FromEncounter",
           "FromScenario", "FromState", "InlineExecutor", "ProcessExecutor", "Rollout", "RolloutJob",
           "default_workers", "iter_tasks", "rollout_seeds", "run_fights", "run_rollouts"]
