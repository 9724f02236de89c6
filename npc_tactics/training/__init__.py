"""YAML-driven MaskablePPO training with run folders, atomic checkpoints and resume.

* :mod:`npc_tactics.training.config`: ``TrainConfig`` (pydantic), ``load_train_config``,
  ``list_presets``;
* :mod:`npc_tactics.training.train`: ``train(config, out_dir, resume=..., timesteps=..., seed=...)
  -> run dir``;
* :mod:`npc_tactics.training.run_dir`: the run folder layout and atomic writes;
* :func:`npc_tactics.agents.policy.load_policy_agent`: a trained run as an agent.

Importing this package is cheap (no torch); ``train`` imports SB3 when called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.training.config import TrainConfig, list_presets, load_train_config

__all__ = ["TrainConfig", "list_presets", "load_train_config", "train"]


def train(config: TrainConfig, out_dir: Path | None = None, **kwargs: Any) -> Path:
    """See :func:`npc_tactics.training.train.train` (imported lazily: it pulls in torch and SB3)."""
    from npc_tactics.training.train import train as _train

    return _train(config, out_dir, **kwargs)
