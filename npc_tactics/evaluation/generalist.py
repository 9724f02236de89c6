"""Paired fights on a set of encounters: the held-out evaluation of a generalist policy.

Every (encounter, repeat) pair is one fight seed shared by every agent evaluated, so two agents on side 0 meet
the same opponents with the same dice (paired seeds, STYLE.md §7). Figures per side-0 agent and opponent:
win rate with its Wilson interval, the flee-and-survive rate when not winning (the NPC side ended the fight
with at least one combatant fled alive, among the fights it did not win), and mean rounds.

The Wilson interval treats the 1,000 fights of a held-out report as independent; they are 100 encounters x 10
dice seeds, and which 100 encounters were drawn matters more than the dice. :func:`encounter_bootstrap` gives the
interval that resamples whole encounters (the uncertainty of "on fights like these"), for one agent's rate and
for the paired difference between two agents on the same fights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.agents.resolve import AgentFactory
from npc_tactics.evaluation.fight import FightRecord, agent_rngs, play_fight
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.plugin import System


@dataclass(frozen=True)
class Figures:
    """One agent (side 0) against one opponent (side 1) over a set of fights."""

    agent: str
    opponent: str
    fights: int
    wins: int
    not_won: int
    fled_alive_when_not_won: int
    rounds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights if self.fights else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.fights)

    @property
    def flee_rate(self) -> float:
        return self.fled_alive_when_not_won / self.not_won if self.not_won else 0.0

    @property
    def flee_ci(self) -> tuple[float, float]:
        return wilson_interval(self.fled_alive_when_not_won, self.not_won)

    def to_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "opponent": self.opponent, "fights": self.fights, "wins": self.wins,
                "win_rate": round(self.win_rate, 4), "win_ci": [round(x, 4) for x in self.win_ci],
                "not_won": self.not_won, "fled_alive_when_not_won": self.fled_alive_when_not_won,
                "flee_rate": round(self.flee_rate, 4), "flee_ci": [round(x, 4) for x in self.flee_ci],
                "mean_rounds": round(self.rounds, 2)}


def figures(agent: str, opponent: str, records: Iterable[FightRecord]) -> Figures:
    recs = list(records)
    not_won = [r for r in recs if r.results[0] != "win"]
    fled = sum(1 for r in not_won if r.statuses[0].get("fled", 0) > 0)
    rounds = sum(r.rounds for r in recs) / len(recs) if recs else 0.0
    return Figures(agent, opponent, len(recs), sum(r.results[0] == "win" for r in recs), len(not_won), fled,
                   rounds)


def fight_seed(encounter_index: int, repeat: int, seed: int = 0) -> int:
    """The dice seed of repeat ``repeat`` of encounter ``encounter_index`` (shared by every agent)."""
    return seed + 100_003 * encounter_index + repeat


def play_encounters(
    system: System,
    encounters: Sequence[Any],
    agent: AgentFactory,
    opponent: AgentFactory,
    repeats: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[FightRecord]:
    """``repeats`` fights per encounter (scenario objects or drawn :class:`Encounter` s), ``agent`` on side 0."""
    info = system
    engine = info.load("engine")(dict(options or {}))
    encoder = info.load("encoder")(engine)
    out = []
    for i, enc in enumerate(encounters):
        for r in range(repeats):
            s = fight_seed(i, r, seed)
            rngs = agent_rngs(s, 2)
            agents = [agent(engine, rngs[0]), opponent(engine, rngs[1])]
            out.append(play_fight(engine, encoder, enc, agents, s))
            if progress is not None:
                progress(1)
    return out


def encounter_bootstrap(wins: Sequence[bool], repeats: int, baseline: Sequence[bool] | None = None, *,
                        resamples: int = 4000, seed: int = 0) -> dict[str, float]:
    """95% percentile intervals that resample whole encounters: ``wins`` lists each fight's win in
    :func:`play_encounters` order (encounter-major, ``repeats`` fights each). Returns ``rate``, ``low``,
    ``high``; with ``baseline`` (another agent's wins on the same fights) also the paired difference
    ``diff``, ``diff_low``, ``diff_high`` (this agent minus the baseline)."""
    w = np.asarray(wins, dtype=float)
    if repeats < 1 or len(w) == 0 or len(w) % repeats:
        raise ValueError(f"encounter_bootstrap: {len(w)} fights do not split into encounters of {repeats}")
    per = w.reshape(-1, repeats).mean(axis=1)
    idx = np.random.default_rng(seed).integers(0, len(per), size=(resamples, len(per)))
    rates = per[idx].mean(axis=1)
    out = {"rate": float(per.mean()), "low": float(np.percentile(rates, 2.5)),
           "high": float(np.percentile(rates, 97.5))}
    if baseline is not None:
        b = np.asarray(baseline, dtype=float)
        if b.shape != w.shape:
            raise ValueError(f"encounter_bootstrap: baseline has {len(b)} fights, expected {len(w)}")
        diff = per - b.reshape(-1, repeats).mean(axis=1)
        diffs = diff[idx].mean(axis=1)
        out.update({"diff": float(diff.mean()), "diff_low": float(np.percentile(diffs, 2.5)),
                    "diff_high": float(np.percentile(diffs, 97.5))})
    return out
