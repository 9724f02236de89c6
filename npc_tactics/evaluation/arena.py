"""The shared set-up of simulations and tournaments: one engine, encoder and scenario, fixed seed
lists."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from npc_tactics.agents.resolve import AgentFactory
from npc_tactics.errors import ConfigError
from npc_tactics.evaluation.fight import FightRecord, ProfileFn, agent_rngs, play_fight
from npc_tactics.plugin import System
from npc_tactics.policy_io.agent import Policy
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Engine

__all__ = ["Arena", "fight_seeds", "progress_bar"]


def fight_seeds(seed: int, fights: int) -> list[int]:
    """The seed of every fight: ``seed, seed+1, ...``, so fight *i* of any run is replayed by
    ``simulate ... --fights 1 --seed <seed+i>``. Every pairing of a tournament uses this same list.
    """
    if fights < 1:
        raise ValueError(f"the number of fights must be at least 1, got {fights}")
    if seed < 0:
        raise ValueError(f"the seed must be a non-negative integer, got {seed}")
    return [seed + i for i in range(fights)]


@dataclass(slots=True)
class Arena:
    """A system's engine and encoder with one loaded scenario: everything a fight needs but the
    agents."""

    system: str
    scenario_name: str
    engine: Engine[Any]
    encoder: Any
    scenario: Any
    sides: int
    #: the system itself (``system`` is its name)
    plugin: System

    @classmethod
    def build(
        cls, system: str | System, scenario: str | None = None, options: Mapping[str, Any] | None = None
    ) -> Arena:
        """Load ``system`` (a :class:`System`, or its name: ``UnknownNameError`` lists systems) and
        ``scenario`` (default: the system's)."""
        info = system if isinstance(system, System) else get_system(system)
        engine = info.load("engine")(dict(options or {}))
        content = info.load("content")
        name = scenario or info.default_scenario
        try:
            loaded = content.load_scenario(name)
        except ConfigError as exc:
            from npc_tactics.configs.sniff import wrong_system_error

            raise wrong_system_error(exc, name, "scenario", info.name, "the system asked for is") from None
        encoder = info.load("encoder")(engine)
        return cls(info.name, str(name), engine, encoder, loaded, int(engine.spec.sides), info)

    def check_agents(self, factories: Sequence[AgentFactory], specs: Sequence[str]) -> None:
        """Refuse, before the first fight, a trained policy whose input or output size does not fit
        this system's encoder and action catalogue (a run whose model and config.yaml disagree)."""
        import numpy as np

        size = int(getattr(self.encoder, "size", 0))
        actions = len(self.engine.catalogue)
        for make, spec in zip(factories, specs, strict=True):
            agent = make(self.engine, np.random.default_rng(0))
            if not isinstance(agent, Policy):  # a scripted agent reads the state, whatever the encoder
                continue
            wants = agent.obs_size
            if size and wants != size:
                raise ConfigError(
                    spec, "", f"its policy reads {wants} observation values but {self.system} gives {size}: "
                    "the model and config.yaml of this run disagree (a model copied from another run or "
                    "an older encoder?)"
                )
            n = agent.n_actions
            if n != actions:
                raise ConfigError(
                    spec, "", f"its policy chooses among {n} actions but {self.system} has {actions}: "
                    "the model and config.yaml of this run disagree"
                )

    def fight(
        self,
        factories: Sequence[AgentFactory],
        seed: int,
        keep_events: bool = False,
        profile: ProfileFn | None = None,
    ) -> FightRecord:
        """Play one fight: side ``k`` by ``factories[k]`` built with the fight's ``k``-th agent
        stream; ``profile`` replaces the system's tactic profile (the leaderboard's)."""
        rngs = agent_rngs(seed, len(factories))
        agents = [make(self.engine, rng) for make, rng in zip(factories, rngs, strict=True)]
        return play_fight(
            self.engine, self.encoder, self.scenario, agents, seed, keep_events=keep_events,
            profile=profile,
        )


@contextmanager
def progress_bar(total: int, description: str, enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr (stdout stays clean for ``--json``); yields ``advance()``."""
    if not enabled:
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
