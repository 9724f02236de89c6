"""One fight in progress, shared by the Gymnasium and PettingZoo adapters (no rules here).

A :class:`FightSession` owns the engine state, the dice roller and the reward bookkeeping; adapters decide
who answers each decision. Seeding follows STYLE.md §3: the env's seed spawns separate streams for the dice
and for the opponents, so changing an opponent never changes the dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.envs.rewards import RewardConfig, RewardTracker
from npc_tactics.policy_io.agent import Observation
from npc_tactics.registry import SystemInfo, get_system
from npc_tactics.rules.base import Decision, Engine, Event, Outcome


class FightSession:
    """Engine + scenario + encoder; ``start(seed)`` begins a fight, ``apply(action)`` answers a decision."""

    def __init__(self, system: str, scenario: str | None = None, options: Mapping[str, Any] | None = None,
                 reward: Mapping[str, Any] | RewardConfig | None = None, *, record_rolls: bool = True,
                 encounter: str | None = None) -> None:
        self.record_rolls = record_rolls  # False while training: no ``roll`` events (the dice are the same)
        self.info: SystemInfo = get_system(system)
        self.system = self.info.name
        self.engine: Engine[Any] = self.info.load("engine")(dict(options or {}))
        self.content = self.info.load("content")
        self.scenario_name = scenario or self.info.default_scenario
        self.scenario = self.content.load_scenario(self.scenario_name)
        #: a per-episode scenario source: an encounter distribution draws each fight (npc_tactics.encounters)
        self.generator: Any = None
        if encounter is not None:
            from npc_tactics.encounters.generator import Generator
            from npc_tactics.encounters.spec import load_encounter

            self.generator = Generator(load_encounter(encounter, self.system))
        self.encoder = self.info.load("encoder")(self.engine)
        self.reward_config = RewardConfig.from_mapping(reward)
        self.n_actions = len(self.engine.catalogue)
        self.state: Any = None
        self.roller: RngRoller | None = None
        self.tracker: RewardTracker | None = None
        self.event_counts: Counter[str] = Counter()
        self.round_events: list[Event] = []
        self._decision: Decision | None = None
        self._mask: np.ndarray | None = None
        self._opening: list[Event] = []

    # ----- lifecycle -------------------------------------------------------------------------------
    def start(self, dice_seed: int) -> None:
        self.roller = RngRoller(np.random.default_rng(dice_seed))
        warm: list[Event] = []  # a mid-fight start's warm-up (encounters only)
        if self.generator is None:
            self.state, opening = self.engine.new_combat(self.scenario, self.roller,
                                                          record_rolls=self.record_rolls)
        else:  # this episode's fight, drawn from the distribution (training seeds only, never held-out ones)
            from npc_tactics.encounters.generator import training_seed

            drawn = self.generator.draw(training_seed(dice_seed))
            self.scenario = drawn.scenario
            self.state, opening, warm = drawn.start_with_warmup(self.engine, self.roller,
                                                                 record_rolls=self.record_rolls)
        self.tracker = RewardTracker(self.reward_config, list(self.state.combatants))
        self.event_counts = Counter()
        self.round_events = []
        self._record(opening)
        if warm:
            # a mid-fight start: the round shown (render) is the one the warm-up left in progress; the warm-up
            # is not this fight's log (event_counts), as Encounter.start_combat says
            starts = [k for k, e in enumerate(warm) if e.kind == "round_start"]
            self.round_events = list(warm[starts[-1]:]) if starts else self.round_events + list(warm)
        self._opening = opening  # handed out with the first step's events (reward shaping sees them once)
        self._refresh()

    def _refresh(self) -> None:
        """Cache the pending decision and its mask: they only change when the session applies an action."""
        self._decision = self.engine.pending(self.state)
        self._mask = None

    @property
    def decision(self) -> Decision | None:
        return self._decision

    @property
    def reward_tracker(self) -> RewardTracker:
        """The reward bookkeeping of the fight in progress (``start`` must have been called)."""
        if self.tracker is None:
            raise RuntimeError("no fight in progress: call start(seed) (reset) first")
        return self.tracker

    @property
    def outcome(self) -> Outcome | None:
        return self.engine.outcome(self.state)

    def mask(self, decision: Decision | None = None) -> np.ndarray:
        """The legal mask of the pending decision (cached; read-only by convention), or of ``decision``."""
        if decision is not None and decision is not self._decision:
            return self.engine.legal_mask(self.state, decision)
        if self._mask is None:
            self._mask = self.engine.legal_mask(self.state, self._decision)
        return self._mask

    def observation(self, decision: Decision | None = None) -> Observation:
        """What an agent sees; the vector is encoded only if the agent reads it (scripted agents don't)."""
        decision = decision if decision is not None else self.decision
        if decision is None:
            raise RuntimeError("the fight is over: there is no decision to observe")
        return Observation(None, self.state, decision, self.engine, self.encoder)

    def apply(self, action: int) -> list[Event]:
        """Answer the pending decision (raises IllegalActionError) and record the events."""
        assert self.roller is not None
        self.state, events = self.engine.step(self.state, action, self.roller, inplace=True,
                                              record_rolls=self.record_rolls, mask=self.mask())
        self._refresh()
        self._record(events)
        if self._opening:
            events, self._opening = self._opening + events, []
        return events

    def _record(self, events: list[Event]) -> None:
        for e in events:
            self.event_counts[e.kind] += 1
            if e.kind == "round_start":
                self.round_events = []
            self.round_events.append(e)



def spawn_seeds(rng: np.random.Generator, n: int) -> list[int]:
    """``n`` independent 63-bit seeds drawn from ``rng`` (one per stream: dice, opponents...)."""
    return [int(s) for s in rng.integers(0, 2**63 - 1, size=n, dtype=np.int64)]
