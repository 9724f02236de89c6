"""Search at the table: at each decision of its NPC, play the fight on from its most promising legal moves with
sampled dice and play the move whose play-outs end best for the NPC's side; the policy's own move unless
another clearly beats it.

Why it exists: a network alone leaves strength on the table (the lookahead yardstick of
:mod:`npc_tactics.agents.lookahead` gains over by-the-book where the shipped generalist gains nothing), and
the policy it improves on is the best continuation there is. It is :class:`SearchAgent`, named
``search:<policy spec>[@<budget>]`` wherever an agent spec is accepted (:mod:`npc_tactics.agents.resolve`;
docs/search.md).

How a decision is searched (Danihelka et al., *Policy improvement by planning with Gumbel*, ICLR 2022, without
the Gumbel noise: the prior's top moves are taken in order, deterministic for a seed):

* one legal move: it is played, nothing searched;
* the candidates: when the policy gives probabilities (a bundle, a trained run), its ``top_k`` most probable
  legal moves plus its own move; otherwise (a scripted policy, a card) every legal move;
* sequential halving: ``ceil(log2(candidates))`` rounds share the ``budget`` of play-outs; in each round every
  surviving move gets an equal share of what is left, then the worse half (by mean value, ties to the prior)
  is dropped. The policy's own move is never dropped: it is the baseline the last comparison needs, measured on
  as many play-outs as the best challenger;
* a play-out plays the move, then the rest of the fight with the acting side played by the policy and every
  other side by ``opponent`` (by-the-book by default); its value for the acting side is
  ``OUTCOME_VALUE[result] + SURVIVAL_WEIGHT * (the acting NPC is alive)``, the score the GM's odds rank moves by
  (:mod:`npc_tactics.gm.advice.odds`); ``survival_weight`` sets another weight for the actor's life (research:
  how the search's choices move when an NPC values its life more, docs/search.md);
* a leave move is continued by the policy like any other move (the worth of that move followed by the NPC's
  own play, as the GM's odds give it: a RuneQuest retreat out of reach is also a way to step back and fight on).
  With ``play_leaving_through`` the acting NPC keeps leaving instead, taking at each of its later decisions the
  first legal move of its system's ``leave_plan`` (RuneQuest: flee, else retreat): the worth of a retreat
  carried out, which ``benchmarks/retreat_report.py`` measures (docs/search.md, "Retreat when losing");
* common random numbers: play-out ``k`` of every move rolls dice from ``default_rng([seed, k])`` and builds
  side ``s``'s agent from ``default_rng([seed, k, s])`` (the convention of the lookahead agent), ``seed`` drawn
  once per decision from the agent's own generator; so two moves that do the same thing get the same values,
  and moves are compared on the same luck;
* the policy's own move is kept unless the best survivor's mean beats it by more than ``margin`` on their
  shared play-outs: without a margin the agent picks among near-equal moves by noise and those errors add up
  (the lookahead agent measured it: margin 0 lost 5 points to by-the-book on OSE, margin 0.1 gained 2).

Play-outs run through the fight runner's lockstep (:func:`npc_tactics.agents.lockstep.play_chunk`): all
play-outs of a round advance together and the policy answers them in one batched network call per step, with
no event recording. The lookahead agent's one-at-a-time loop counts only wins and calls a network per
decision, so it is not reused here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from npc_tactics.agents.base import Agent, AgentFactory, Observation
from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.agents.lookahead import MAX_PLAYOUT_DECISIONS
from npc_tactics.agents.value import OUTCOME_VALUE, SURVIVAL_WEIGHT
from npc_tactics.dice import RngRoller
from npc_tactics.plugin import System
from npc_tactics.policy_io.agent import Policy
from npc_tactics.rules.base import Decision, Engine, SideResult, status_name

__all__ = ["DEFAULT_BUDGET", "DEFAULT_MARGIN", "DEFAULT_TOP_K", "DEFAULT_Z", "TIMED_BATCH", "Ranked", "SearchAgent",
           "clearly_better", "leave_plan", "search_factory"]

#: Play-outs per searched decision by default (OSE held-out fights: 64 gained +4 points over the network, 256 +10).
DEFAULT_BUDGET = 256
#: Moves kept from the policy's prior (plus its own move).
DEFAULT_TOP_K = 8
#: How many standard errors of the paired difference (the same play-outs of both moves) a move's gain over the
#: policy's own must clear as well: a near tie on few play-outs is noise, and overruling on noise loses games.
DEFAULT_Z = 2.0
#: Play-outs advanced together per batch of a timed search (one batched network call a step for all of them).
TIMED_BATCH = 32
#: How much better (in play-out value, 0 .. 1.25) a move must be to overrule the policy's own.
DEFAULT_MARGIN = 0.05


class Ranked(NamedTuple):
    """One searched move: its mean play-out value for the acting side and how many play-outs measured it."""

    move: int
    value: float
    n: int


def clearly_better(best: Sequence[float], own: Sequence[float], *, margin: float = DEFAULT_MARGIN,
                   z: float = DEFAULT_Z) -> bool:
    """Whether ``best`` beats the policy's ``own`` move on their shared play-outs (play-out k of both shares its
    dice; equal counts) by more than ``margin`` and by ``z`` standard errors of the paired difference: the rule
    that lets a search, or the tracker's advisor, overrule the policy only on evidence (with the margin alone the
    search lost 2 points to the network on OSE's held-out fights, docs/search.md)."""
    n = min(len(best), len(own))
    diff = np.asarray(best[:n], dtype=np.float64) - np.asarray(own[:n], dtype=np.float64)
    gain = float(diff.mean()) if n else 0.0
    if gain <= margin:
        return False
    if n < 2:
        return z == 0.0
    return gain > z * float(diff.std(ddof=1)) / math.sqrt(n)


def leave_plan(engine: Engine[Any]) -> tuple[int, ...]:
    """Catalogue indices of the engine's leave moves in the order an NPC that has chosen to leave takes them (its
    system's tactics hook, ``leave_order``); empty for a system without one."""
    from npc_tactics.registry import get_system

    hooks = get_system(engine.spec.name).tactics_hooks()
    if hooks is None:
        return ()
    by_verb: dict[str, list[int]] = {}
    for action in engine.catalogue:
        by_verb.setdefault(action.verb, []).append(int(action.index))
    return tuple(i for verb in hooks.leave_order for i in by_verb.get(verb, ()))


class SearchAgent:
    """Plays the best of its policy's likely moves by sequential halving over play-outs (module docstring)."""

    name = "search"

    def __init__(self, engine: Engine[Any], rng: np.random.Generator, *, policy: AgentFactory,
                 opponent: AgentFactory, budget: int = DEFAULT_BUDGET, top_k: int = DEFAULT_TOP_K,
                 margin: float = DEFAULT_MARGIN, z: float = DEFAULT_Z, encoder: Any = None,
                 play_leaving_through: bool = False, survival_weight: float = SURVIVAL_WEIGHT) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget: expected a whole number of play-outs, at least 1, got {budget!r}")
        if top_k < 1:
            raise ValueError(f"top_k: expected at least 1, got {top_k}")
        if not 0.0 <= margin <= 1.25:
            raise ValueError(f"margin: expected a play-out value difference in [0, 1.25], got {margin}")
        if not 0.0 <= z <= 10.0:
            raise ValueError(f"z: expected a number of standard errors in [0, 10], got {z}")
        if not 0.0 <= survival_weight <= 4.0:
            raise ValueError(f"survival_weight: expected the worth of the actor's life against a win's 1, in [0, 4], "
                             f"got {survival_weight}")
        self.engine = engine
        self.rng = rng
        self.policy = policy
        self.opponent = opponent
        self.budget = budget
        self.top_k = top_k
        self.margin = margin
        self.z = z
        self.survival_weight = float(survival_weight)
        if encoder is None:
            from npc_tactics.registry import get_system

            encoder = get_system(engine.spec.name).load("encoder")(engine)
        self.encoder = encoder
        #: the leave moves a play-out plays through, in the order taken (empty: every move continued by the policy)
        self.leave_plan = leave_plan(engine) if play_leaving_through else ()
        self._leave = frozenset(self.leave_plan)
        self._own = policy(engine, np.random.default_rng(rng.integers(2**63)))
        #: seconds of each searched decision and play-outs run (benchmarks read them)
        self.timings: list[float] = []
        self.playouts = 0

    # -- the candidates -------------------------------------------------------------------------------

    def candidates(self, observation: Observation, mask: np.ndarray) -> tuple[list[int], int, dict[int, float]]:
        """The moves to search, the policy's own move and the prior of each (empty when it gives none)."""
        legal = [int(a) for a in np.flatnonzero(mask)]
        own = int(self._own.act(observation, mask))
        if not isinstance(self._own, Policy):
            return legal, own, {}
        probs = self._own.action_probabilities(observation.vector, mask)
        prior = {a: float(probs[a]) for a in legal}
        top = sorted(legal, key=lambda a: (-prior[a], a))[:self.top_k]
        return (top if own in top else [*top, own]), own, prior

    # -- play-outs ------------------------------------------------------------------------------------

    def playout_values(self, state: Any, decision: Decision, mask: np.ndarray, moves: list[int],
                       playouts: range, seed: int) -> np.ndarray:
        """``(len(moves), len(playouts))`` values for the side of ``decision``'s actor: play-out ``k`` of move
        ``moves[i]`` with the dice and agents of ``[seed, k]`` (``state`` is not changed; a move may repeat). After
        a leave move the actor keeps leaving when the agent plays leaving through (:attr:`leave_plan`)."""
        engine = self.engine
        side, actor = int(state.combatants[decision.actor].side), int(decision.actor)
        sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
        fights: list[Fight] = []
        for i, move in enumerate(moves):
            for j, k in enumerate(playouts):
                dice = RngRoller(np.random.default_rng([seed, k]))
                after, _ = engine.step(state, int(move), dice, record_rolls=False, mask=mask)
                agents: list[Agent] = [(self.policy if s == side else self.opponent)(
                    engine, np.random.default_rng([seed, k, s])) for s in range(sides)]
                leaving = (actor, self.leave_plan) if int(move) in self._leave else None
                fights.append(Fight(i, j, seed, after, dice, agents, 0, leaving=leaving))
        play_chunk(engine, self.encoder, fights, MAX_PLAYOUT_DECISIONS)
        self.playouts += len(fights)
        out = np.empty((len(moves), len(playouts)), dtype=np.float64)
        for f in fights:
            outcome = engine.outcome(f.state)
            assert outcome is not None  # play_chunk plays every fight to its end
            result = SideResult(int(outcome.results[side])).name.lower()
            alive = status_name(f.state.combatants[actor].status) != "dead"
            out[f.move, f.index] = OUTCOME_VALUE.get(result, 0.0) + self.survival_weight * alive
        return out

    # -- the search -----------------------------------------------------------------------------------

    def search(self, observation: Observation, mask: np.ndarray, seed: int, *,
               seconds: float | None = None) -> tuple[int, list[Ranked]]:
        """The move to play and every searched move ranked: that move first, then by play-outs and value.

        ``seconds``: think for that long instead of spending ``budget`` play-outs (each halving round gets an
        equal share of the time left and plays batches of play-outs until it is spent, at least one batch), as
        a chess engine's move time: the play-outs it rests on then depend on the machine, so the answer does
        too; a fixed budget is the reproducible search."""
        state, decision = observation.state, observation.decision
        moves, own, prior = self.candidates(observation, mask)
        samples: dict[int, list[float]] = {m: [] for m in moves}
        alive = list(moves)
        rounds = max(1, math.ceil(math.log2(len(moves)))) if len(moves) > 1 else 0
        deadline = None if seconds is None else time.perf_counter() + max(0.0, float(seconds))
        spent = 0
        for r in range(rounds):
            if deadline is None:
                per = max(1, (self.budget - spent) // ((rounds - r) * len(alive)))
                self._play(state, decision, mask, alive, per, seed, samples)
                spent += per * len(alive)
            else:
                ends = time.perf_counter() + (deadline - time.perf_counter()) / (rounds - r)
                batch = max(2, TIMED_BATCH // len(alive))
                while True:
                    self._play(state, decision, mask, alive, batch, seed, samples)
                    if time.perf_counter() >= ends:
                        break
            if r < rounds - 1:
                order = sorted(alive, key=lambda m: (-float(np.mean(samples[m])), -prior.get(m, 0.0), m))
                kept = order[:math.ceil(len(alive) / 2)]
                alive = kept if own in kept else [*kept, own]
        mean = {m: float(np.mean(v)) if v else 0.0 for m, v in samples.items()}
        best = max(alive, key=lambda m: (mean[m], m == own, prior.get(m, 0.0), -m))
        choice = own
        if best != own and samples[own] and self._clearly_better(samples[best], samples[own]):
            choice = best
        rest = sorted((m for m in moves if m != choice), key=lambda m: (-len(samples[m]), -mean[m], m))
        return choice, [Ranked(m, mean[m], len(samples[m])) for m in (choice, *rest)]

    def _clearly_better(self, best: list[float], own: list[float]) -> bool:
        return clearly_better(best, own, margin=self.margin, z=self.z)

    def _play(self, state: Any, decision: Decision, mask: np.ndarray, alive: list[int], per: int, seed: int,
              samples: dict[int, list[float]]) -> None:
        """``per`` more play-outs of every move of ``alive``: the next play-out numbers, the same for each (the
        survivors of a round have had equal counts since the start)."""
        done = len(samples[alive[0]])
        values = self.playout_values(state, decision, mask, alive, range(done, done + per), seed)
        for m, row in zip(alive, values, strict=True):
            samples[m].extend(row.tolist())

    def rank(self, state: Any, decision: Decision, *, seed: int | None = None,
             seconds: float | None = None) -> list[Ranked]:
        """What ``act`` would weigh at ``decision``: the searched moves, the one it plays first (a single legal
        move: that move with no play-outs). ``seed`` defaults to one drawn from the agent's generator;
        ``seconds``: a timed search (see :meth:`search`) instead of the budget."""
        mask = self.engine.legal_mask(state, decision)
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return [Ranked(int(legal[0]), float("nan"), 0)]
        seed = int(self.rng.integers(2**63)) if seed is None else int(seed)
        return self.search(Observation(None, state, decision, self.engine, self.encoder), mask, seed,
                           seconds=seconds)[1]

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        started = time.perf_counter()
        choice, _ = self.search(observation, mask, int(self.rng.integers(2**63)))
        self.timings.append(time.perf_counter() - started)
        return choice


def search_factory(policy: AgentFactory, opponent: AgentFactory, *, budget: int = DEFAULT_BUDGET,
                   top_k: int = DEFAULT_TOP_K, margin: float = DEFAULT_MARGIN, z: float = DEFAULT_Z,
                   system: System | None = None, play_leaving_through: bool = False,
                   survival_weight: float = SURVIVAL_WEIGHT) -> AgentFactory:
    """An :data:`AgentFactory` of :class:`SearchAgent` s (one per fight, seeded by the fight's stream); with
    ``system`` (the engines' system) each agent's encoder is that system's, else it is looked up from the engine."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"budget: expected a whole number of play-outs, at least 1, got {budget!r}")

    def build(engine: Engine[Any], rng: np.random.Generator) -> Agent:
        encoder = system.load("encoder")(engine) if system is not None else None
        return SearchAgent(engine, rng, policy=policy, opponent=opponent, budget=budget, top_k=top_k,
                           margin=margin, z=z, encoder=encoder, play_leaving_through=play_leaving_through,
                           survival_weight=survival_weight)

    return build
