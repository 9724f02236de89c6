"""Training-time evaluation: the current policy against each opponent on a fixed list of seeds.

The seeds are the same at every evaluation point (paired comparisons across the eval history), and
the policy plays deterministically (argmax of the masked distribution). The full tournament with
intervals and ratings lives in :mod:`npc_tactics.evaluation`; this is the cheap learning curve
written to ``eval_history.csv``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent, AgentFactory
from npc_tactics.training.config import TrainConfig

__all__ = ["evaluate_policy", "EVAL_SEED_OFFSET"]

EVAL_SEED_OFFSET = 1_000_003  #: eval fights use seeds ``seed + offset + i``, disjoint from training workers


def evaluate_policy(model: Any, config: TrainConfig, opponent: str | Agent | AgentFactory, episodes: int,
                    seed: int) -> dict[str, Any]:
    """Play ``episodes`` fights of ``model`` against ``opponent``; rates of each result, mean
    reward/rounds."""
    from npc_tactics.training.envs import make_single_env

    env = make_single_env(config, [opponent], monitor=False)
    results: Counter[str] = Counter()
    rewards: list[float] = []
    rounds: list[int] = []
    try:
        for i in range(episodes):
            obs, info = env.reset(seed=seed + EVAL_SEED_OFFSET + i)
            total = 0.0
            while True:
                mask = env.get_wrapper_attr("action_masks")()
                action, _ = model.predict(obs, deterministic=True, action_masks=mask)
                obs, reward, terminated, truncated, info = env.step(int(action))
                total += float(reward)
                if terminated or truncated:
                    break
            outcome = info.get("outcome") or {"result": "draw", "rounds": 0}
            results[outcome["result"]] += 1
            rounds.append(int(outcome.get("rounds", 0)))
            rewards.append(total)
    finally:
        env.close()
    n = max(episodes, 1)
    name = opponent if isinstance(opponent, str) else getattr(opponent, "name", "opponent")
    return {
        "opponent": name,
        "episodes": episodes,
        "win_rate": results["win"] / n,
        "draw_rate": results["draw"] / n,
        "flee_rate": results["fled"] / n,
        "loss_rate": results["loss"] / n,
        "mean_reward": float(np.mean(rewards)) if rewards else 0.0,
        "mean_rounds": float(np.mean(rounds)) if rounds else 0.0,
    }
