"""Monte-Carlo rollouts of a fight from a state: per-rollout seeds, common random numbers across moves, a
process pool whose size does not change the results. Used by the GM's odds (``gm.odds``); free of gm imports
(it sits between the agents and the evaluation)."""

from npc_tactics.rollouts.run import Rollout, RolloutJob, default_workers, rollout_seeds, run_rollouts

__all__ = ["Rollout", "RolloutJob", "default_workers", "rollout_seeds", "run_rollouts"]
