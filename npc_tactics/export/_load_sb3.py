"""The one place the exporter gets a trained SB3 policy object out of a run folder.

Kept apart so the loader can change (weights-only loading from the run's validated config) without touching
the exporter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def load_trained_policy(run_dir: str | Path) -> Any:
    """The run's final ``MaskableActorCriticPolicy`` on the CPU, in eval mode. Raises ``UserError``."""
    from npc_tactics.agents.policy import load_policy_agent

    policy = load_policy_agent(run_dir).policy
    policy.set_training_mode(False)
    return policy
