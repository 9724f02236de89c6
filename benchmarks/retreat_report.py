"""Retreat when losing, controlled (issue 28): on held-out fights the NPC side is losing badly, does the shipped
network leave alive more often than by-the-book, and does leaving pay?

``npc_tactics.evaluation.tactics.common.retreat_when_losing`` only observes who left (the agent chooses, so its
survival comparison is not controlled). Here, per system, on the first ``--encounters`` held-out fights of
``benchmarks/generalist_report.py`` (``--repeats`` dice seeds each, ``fight_seed(i, r)`` as ``play_encounters``
gives them), the shipped bundle ("network") and by-the-book play side 0 against by-the-book on the same fights and
dice:

* **losing badly**: a decision of a side-0 combatant where one of the system's leave moves (its tactics hook's
  ``leave_verbs``) is legal, the cheap pre-filter passes (the actor at <= 50% HP, or its side's standing HP
  share at most half the enemy's), and ``--playouts`` play-outs from that state with both sides played by
  by-the-book (its own move at the decision included; dice ``[seed, k]``) win at most :data:`THRESHOLD` of the
  time. A combatant is checked at each candidate decision until its first losing-badly state;
* **left alive**: among combatants that reached a losing-badly state, the share that ended the fight fled;
* **leaving pays**: at each combatant's first losing-badly state (from both agents' fights), the best legal leave
  move against fighting on (the network's most probable legal non-leave move: both arms are then the network's
  play, differing only in this move), ``--playouts`` play-outs each
  on common random numbers (play-out ``k`` of both rolls ``[seed, k]``), then the NPC side played by the network
  and side 1 by by-the-book, exactly the play-outs of ``SearchAgent.playout_values``. Values are the search
  agent's (``npc_tactics.agents.value``: win 1, draw 1/2, fled 1/4, loss 0, plus 1/4 when the actor is not
  dead); survival is the actor standing or fled at the end. With several leave moves the best is chosen on
  separate play-outs (other dice), so the comparison is not biased by the choice. The leave move is measured two
  ways on the same play-out dice: **carried out** (the actor keeps leaving, its system's ``leave_plan``, as the
  search plays it with ``play_leaving_through``) and **once** (then the network plays on, as the search and the
  GM's odds value it by default; the only measure until 2026-12-07). ``--leave-once`` compares the once arm
  with fighting on instead of the carried-out one.

``--search N`` plays side 0's fights with the search agent over the network at ``N`` play-outs a decision instead
of the network alone (the answer a GM gets at the table); the play-outs above stay the network's.

Intervals are 95% percentile bootstraps that resample encounters (clusters), not decisions.

    python benchmarks/retreat_report.py --systems ose runequest mrq dicepool --encounters 100 --repeats 10 \
        --playouts 64 --out reports/retreat
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent, AgentFactory, Observation
from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.agents.lookahead import MAX_PLAYOUT_DECISIONS
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.agents.search import leave_plan, search_factory
from npc_tactics.agents.value import SURVIVAL_WEIGHT, outcome_value
from npc_tactics.dice import RngRoller
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.evaluation.fight import MAX_DECISIONS, agent_rngs
from npc_tactics.evaluation.generalist import fight_seed
from npc_tactics.evaluation.losing import is_losing, leave_actions
from npc_tactics.evaluation.tactics.common import SURVIVED
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision, SideResult, Status, status_name

SYSTEMS = ("ose", "runequest", "mrq", "dicepool")
AGENTS = ("network", "by-the-book")
#: the NPC side's estimated win probability at or below which it is losing badly
THRESHOLD = 0.25
RESAMPLES = 4000


@dataclass
class Bench:
    """One system's engine, encoder, shipped network (one deterministic agent) and by-the-book."""

    system: str
    engine: Any
    encoder: Any
    network: Any
    book: AgentFactory
    leave: frozenset[int]
    #: the leave moves in the order a leaving actor takes them (empty: a leave move is not played through)
    plan: tuple[int, ...] = ()
    #: play-outs a decision of the search that plays side 0's "network" fights (0: the network alone)
    search: int = 0
    #: that search's weight of the actor's life and whether it plays its leave moves through
    survival_weight: float = SURVIVAL_WEIGHT
    search_through: bool = False

    def npc(self, engine: Any, rng: np.random.Generator) -> Agent:
        return self.network  # deterministic: one agent serves every fight and play-out

    def factory(self, name: str) -> AgentFactory:
        if name != "network":
            return self.book
        if self.search:
            return search_factory(self.npc, self.book, budget=self.search, survival_weight=self.survival_weight,
                                  play_leaving_through=self.search_through)
        return self.npc

    @property
    def npc_label(self) -> str:
        if not self.search:
            return "network"
        extra = "" if self.survival_weight == SURVIVAL_WEIGHT else f", life {self.survival_weight:g}"
        return f"search@{self.search}{extra}{', leaving played through' if self.search_through else ''}"


def load_bench(system: str, bundle: Path | None = None, *, through: bool = True, search: int = 0,
               survival_weight: float = SURVIVAL_WEIGHT, search_through: bool = False) -> Bench:
    """Load the bundle as the generalist report does (``load_bundle_agent``): raises on a stale bundle."""
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    plugin = get_system(system)
    engine = plugin.load("engine")({})
    return Bench(system, engine, plugin.load("encoder")(engine), load_bundle_agent(bundle or shipped_bundle(system)),
                 agent_factory(system, "by-the-book"), leave_actions(system, engine),
                 leave_plan(engine) if through else (), search, survival_weight, search_through)


# -- states ---------------------------------------------------------------------------------------------------

@dataclass
class Spot:
    """A candidate decision of a side-0 combatant: a leave move legal and the pre-filter passed."""

    encounter: int
    repeat: int
    agent: str
    order: int
    actor: int
    state: Any
    decision: Decision
    mask: np.ndarray
    win: float = math.nan


def leave_moves(bench: Bench, mask: np.ndarray) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask) if int(a) in bench.leave]


def is_candidate(bench: Bench, state: Any, decision: Decision, mask: np.ndarray) -> bool:
    """Worth play-outs: a way out is legal and the actor is hurt or its side is well behind (``is_losing``)."""
    return is_losing(state, int(decision.actor), mask, bench.leave)


class Recorder:
    """Side 0's agent, unchanged, that keeps a clone of every candidate state it is asked about."""

    def __init__(self, bench: Bench, agent: Agent, encounter: int, repeat: int, label: str) -> None:
        self.bench, self.agent, self.encounter, self.repeat, self.label = bench, agent, encounter, repeat, label
        self.name = str(getattr(agent, "name", label))
        self.spots: list[Spot] = []
        self.decisions = 0

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        state, decision = observation.state, observation.decision
        if is_candidate(self.bench, state, decision, mask):
            self.spots.append(Spot(self.encounter, self.repeat, self.label, self.decisions, int(decision.actor),
                                   self.bench.engine.clone(state), decision, np.array(mask, dtype=bool)))
        self.decisions += 1
        return int(self.agent.act(observation, mask))


def play_recorded(bench: Bench, encounter: Any, index: int, repeat: int, label: str,
                  seed: int) -> tuple[list[Spot], Any]:
    """Repeat ``repeat`` of held-out fight ``index`` as ``play_encounters`` plays it (same dice and agent
    streams): its candidate states and final state."""
    s = fight_seed(index, repeat, seed)
    rngs = agent_rngs(s, 2)
    recorder = Recorder(bench, bench.factory(label)(bench.engine, rngs[0]), index, repeat, label)
    roller = RngRoller(np.random.default_rng(s))
    state, _ = encounter.start_combat(bench.engine, roller)
    fight = Fight(0, 0, s, state, roller, [recorder, bench.book(bench.engine, rngs[1])], 1)
    play_chunk(bench.engine, bench.encoder, [fight], MAX_DECISIONS)
    return recorder.spots, fight.state


# -- play-outs ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class End:
    """How one play-out ended for the acting combatant's side."""

    result: str
    value: float
    survived: bool


def playout_ends(bench: Bench, spot: Spot, moves: Sequence[int | None], playouts: int, seed: int,
                 npc: AgentFactory) -> list[list[End]]:
    """``SearchAgent.playout_values`` keeping each end: play-out ``k`` of every move rolls ``[seed, k]`` and
    builds side ``s``'s agent from ``[seed, k, s]``; ``npc`` plays the actor's side afterwards, by-the-book the
    other. A move of None lets the actor's side agent choose it (a play-out of the state itself). After a leave
    move the actor keeps leaving (``bench.plan``), as in the search's play-outs."""
    engine, state = bench.engine, spot.state
    side = int(state.combatants[spot.actor].side)
    fights: list[Fight] = []
    for i, move in enumerate(moves):
        for k in range(playouts):
            dice = RngRoller(np.random.default_rng([seed, k]))
            after = engine.clone(state) if move is None else engine.step(
                state, int(move), dice, record_rolls=False, mask=spot.mask)[0]
            agents = [(npc if s == side else bench.book)(engine, np.random.default_rng([seed, k, s]))
                      for s in range(2)]
            leaving = (spot.actor, bench.plan) if bench.plan and move in bench.leave else None
            fights.append(Fight(i, k, seed, after, dice, agents, 0, leaving=leaving))
    play_chunk(engine, bench.encoder, fights, MAX_PLAYOUT_DECISIONS)
    out: list[list[End]] = [[] for _ in moves]
    for f in fights:
        outcome = engine.outcome(f.state)
        assert outcome is not None  # play_chunk plays every fight to its end
        result = SideResult(int(outcome.results[side])).name.lower()
        actor = f.state.combatants[spot.actor]
        out[f.move].append(End(result, outcome_value(result, status_name(actor.status) != "dead"),
                               Status(int(actor.status)) in SURVIVED))
    return out


def spot_seed(seed: int, spot: Spot, stream: int) -> int:
    """The play-out seed of a state: the same for both agents' fights at the same decision number."""
    entropy = [seed, spot.encounter, spot.repeat, spot.order, stream]
    return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])


def win_probability(bench: Bench, spot: Spot, playouts: int, seed: int) -> float:
    (ends,) = playout_ends(bench, spot, [None], playouts, spot_seed(seed, spot, 0), bench.book)
    return sum(e.result == "win" for e in ends) / len(ends)


def first_losing(bench: Bench, spots: list[Spot], playouts: int, seed: int) -> dict[int, Spot]:
    """Each combatant's first losing-badly state (its later candidates are not played out)."""
    found: dict[int, Spot] = {}
    for spot in spots:
        if spot.actor not in found:
            spot.win = win_probability(bench, spot, playouts, seed)
            if spot.win <= THRESHOLD:
                found[spot.actor] = spot
    return found


@dataclass
class Pair:
    """Leave against fight on at one losing-badly state (means over the paired play-outs)."""

    agent: str
    win: float
    leave: str
    fight_on: str
    value_leave: float
    value_fight: float
    survival_leave: float
    survival_fight: float
    #: the other way of playing the leave move (once when the compared one is carried out, and the reverse)
    value_other: float = math.nan
    survival_other: float = math.nan


def fight_on_move(bench: Bench, spot: Spot) -> int | None:
    """The network's most probable legal non-leave move (None when leaving is all there is)."""
    stay = np.array(spot.mask, dtype=bool)
    stay[list(bench.leave)] = False
    if not stay.any():
        return None
    obs = Observation(None, spot.state, spot.decision, bench.engine, bench.encoder)
    probs = bench.network.action_probabilities(obs.vector, spot.mask)
    return int(np.flatnonzero(stay)[np.argmax(probs[stay])])


def leave_vs_fight(bench: Bench, spot: Spot, playouts: int, seed: int) -> Pair | None:
    """The best leave move against fighting on at ``spot`` on shared dice (None when no non-leave move is legal)."""
    stay = fight_on_move(bench, spot)
    if stay is None:
        return None
    leaves = leave_moves(bench, spot.mask)
    if len(leaves) > 1:  # chosen on other dice: the measured play-outs do not pick their own winner
        trial = playout_ends(bench, spot, leaves, max(4, playouts // 2), spot_seed(seed, spot, 2), bench.npc)
        leaves = [leaves[int(np.argmax([np.mean([e.value for e in row]) for row in trial]))]]
    lv, st = playout_ends(bench, spot, [leaves[0], stay], playouts, spot_seed(seed, spot, 1), bench.npc)
    other = replace(bench, plan=() if bench.plan else leave_plan(bench.engine))
    (ot,) = playout_ends(other, spot, [leaves[0]], playouts, spot_seed(seed, spot, 1), bench.npc)
    name = bench.engine.catalogue.name
    return Pair(spot.agent, spot.win, name(leaves[0]), name(stay), float(np.mean([e.value for e in lv])),
                float(np.mean([e.value for e in st])), float(np.mean([e.survived for e in lv])),
                float(np.mean([e.survived for e in st])), float(np.mean([e.value for e in ot])),
                float(np.mean([e.survived for e in ot])))


# -- per encounter --------------------------------------------------------------------------------------------

@dataclass
class EncounterFigures:
    """Plain numbers of one held-out fight per agent (what the bootstrap resamples)."""

    encounter: int
    fights: int
    #: per agent: ``reached`` (fights with a losing-badly state), ``candidates``, ``checked`` (played out),
    #: ``losing`` (combatants that reached one), ``left_alive`` (of those, ended fled)
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {a: Counter() for a in AGENTS})
    pairs: list[Pair] = field(default_factory=list)


def measure_encounter(bench: Bench, encounter: Any, index: int, repeats: int, playouts: int,
                      seed: int) -> EncounterFigures:
    """Both agents on ``repeats`` dice seeds of one held-out fight: counts and the compared states."""
    out = EncounterFigures(index, repeats)
    for repeat in range(repeats):
        for label in AGENTS:
            spots, final = play_recorded(bench, encounter, index, repeat, label, seed)
            losing = first_losing(bench, spots, playouts, seed)
            out.counts[label].update(
                reached=bool(losing), candidates=len(spots), checked=sum(not math.isnan(s.win) for s in spots),
                losing=len(losing),
                left_alive=sum(Status(int(final.combatants[a].status)) == Status.FLED for a in losing))
            out.pairs += [p for s in losing.values() if (p := leave_vs_fight(bench, s, playouts, seed)) is not None]
    return out


# -- figures --------------------------------------------------------------------------------------------------

def cluster_ratio(num: np.ndarray, den: np.ndarray, rng: np.random.Generator,
                  base: tuple[np.ndarray, np.ndarray] | None = None) -> dict[str, float | None]:
    """sum(num) / sum(den) over encounters with its encounter-resampled 95% interval; with ``base`` (another
    ratio on the same encounters) the paired difference of the two instead."""
    idx = rng.integers(0, len(num), size=(RESAMPLES, len(num)))

    def ratio(n: np.ndarray, d: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(n.sum(axis=-1) / d.sum(axis=-1), dtype=np.float64)

    est, boot = ratio(num, den), ratio(num[idx], den[idx])
    if base is not None:
        est, boot = est - ratio(*base), boot - ratio(base[0][idx], base[1][idx])
    boot = boot[np.isfinite(boot)]
    if not np.isfinite(est) or len(boot) == 0:
        return {"est": None, "low": None, "high": None}
    return {"est": float(est), "low": float(np.percentile(boot, 2.5)), "high": float(np.percentile(boot, 97.5))}


def summarise(system: str, rows: list[EncounterFigures], playouts: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    fights = np.array([r.fights for r in rows], dtype=np.float64)

    def col(key: str, agent: str) -> np.ndarray:
        return np.array([r.counts[agent][key] for r in rows], dtype=np.float64)

    reached = {a: col("reached", a) for a in AGENTS}
    alive = {a: (col("left_alive", a), col("losing", a)) for a in AGENTS}
    gain = np.array([sum(p.value_leave - p.value_fight for p in r.pairs) for r in rows])
    surv = np.array([sum(p.survival_leave - p.survival_fight for p in r.pairs) for r in rows])
    gain_other = np.array([sum(p.value_other - p.value_fight for p in r.pairs) for r in rows])
    surv_other = np.array([sum(p.survival_other - p.survival_fight for p in r.pairs) for r in rows])
    npairs = np.array([len(r.pairs) for r in rows], dtype=np.float64)
    pairs = [p for r in rows for p in r.pairs]
    return {
        "system": system, "encounters": len(rows), "fights": int(fights.sum()), "playouts": playouts,
        "threshold": THRESHOLD, "losing_share": {a: cluster_ratio(reached[a], fights, rng) for a in AGENTS},
        "losing_share_diff": cluster_ratio(reached["network"], fights, rng, (reached["by-the-book"], fights)),
        "left_alive": {a: cluster_ratio(*alive[a], rng) for a in AGENTS},
        "left_alive_diff": cluster_ratio(*alive["network"], rng, alive["by-the-book"]),
        "losing_combatants": {a: int(col("losing", a).sum()) for a in AGENTS},
        "candidates": {a: int(col("candidates", a).sum()) for a in AGENTS},
        "checked": {a: int(col("checked", a).sum()) for a in AGENTS},
        "states": len(pairs), "states_by_agent": {a: sum(p.agent == a for p in pairs) for a in AGENTS},
        "win_at_states": float(np.mean([p.win for p in pairs])) if pairs else None,
        "value_leave": float(np.mean([p.value_leave for p in pairs])) if pairs else None,
        "value_fight": float(np.mean([p.value_fight for p in pairs])) if pairs else None,
        "value_diff": cluster_ratio(gain, npairs, rng), "survival_diff": cluster_ratio(surv, npairs, rng),
        "value_diff_other": cluster_ratio(gain_other, npairs, rng),
        "survival_diff_other": cluster_ratio(surv_other, npairs, rng),
        "leave_moves": {m: sum(p.leave == m for p in pairs) for m in sorted({p.leave for p in pairs})},
    }


def measure(system: str, encounters: int, playouts: int, seed: int = 0, repeats: int = 1,
            progress: Callable[[str], None] | None = None, bundle: Path | None = None, *, through: bool = True,
            search: int = 0, survival_weight: float = SURVIVAL_WEIGHT, search_through: bool = False) -> dict[str, Any]:
    """One system's figures (or ``error`` when its bundle does not load, e.g. an encoder changed under it); the
    shipped bundle unless ``bundle`` names another (a candidate)."""
    started = time.perf_counter()
    try:
        bench = load_bench(system, bundle, through=through, search=search, survival_weight=survival_weight,
                           search_through=search_through)
    except Exception as exc:  # noqa: BLE001  (a stale bundle: the other systems are still measured)
        return {"system": system, "error": str(exc).splitlines()[0]}
    fights = load_heldout(system)[:encounters]
    rows = []
    for i, enc in enumerate(fights):
        rows.append(measure_encounter(bench, enc, i, repeats, playouts, seed))
        if progress is not None and ((i + 1) % 10 == 0 or i + 1 == len(fights)):
            progress(f"{system}: {i + 1}/{len(fights)} fights, {time.perf_counter() - started:.0f} s")
    out = summarise(system, rows, playouts, seed)
    out["npc"], out["played_through"] = bench.npc_label, bool(bench.plan)
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["per_encounter"] = [{"encounter": r.encounter, "fights": r.fights, "pairs": [asdict(p) for p in r.pairs],
                             "counts": {a: dict(c) for a, c in r.counts.items()}} for r in rows]
    return out


# -- the report -----------------------------------------------------------------------------------------------

def _ci(c: dict[str, Any], pct: bool = True, sign: bool = False) -> str:
    if c["est"] is None:
        return "–"
    f = "{:" + "+" * sign + (".1%}" if pct else ".3f}")
    return f"{f.format(c['est'])} [{f.format(c['low'])}, {f.format(c['high'])}]"


HEADER = ("| system | fights (encounters x seeds) | losing badly: network / book | left alive when losing badly: "
          "network / book | network − book | leave − fight on: value | survival | states |\n"
          "|---|---|---|---|---|---|---|---|")


def table_row(r: dict[str, Any]) -> str:
    if "error" in r:
        return f"| {r['system']} | not measured: {r['error']} | | | | | | |"
    ls, la, n = r["losing_share"], r["left_alive"], r["losing_combatants"]
    return (f"| {r['system']} | {r['encounters']} x {r['fights'] // r['encounters']} | "
            f"{_ci(ls['network'])} / {_ci(ls['by-the-book'])} | "
            f"{_ci(la['network'])} of {n['network']} / {_ci(la['by-the-book'])} of {n['by-the-book']} | "
            f"{_ci(r['left_alive_diff'], sign=True)} | {_ci(r['value_diff'], pct=False, sign=True)} | "
            f"{_ci(r['survival_diff'], sign=True)} | {r['states']} |")


def render(results: list[dict[str, Any]]) -> str:
    lines = [HEADER, *(table_row(r) for r in results), ""]
    for r in results:
        if "error" in r:
            continue
        lines.append(f"- {r['system']}: side 0 played by {r.get('npc', 'network')} (\"network\" in the row); "
                     f"the table's leave move {'carried out' if r.get('played_through', True) else 'played once'}; "
                     f"{r['playouts']} play-outs per estimate; candidate states network "
                     f"{r['candidates']['network']} / book {r['candidates']['by-the-book']} (played out "
                     f"{r['checked']['network']} / {r['checked']['by-the-book']}); states compared (mean "
                     f"estimated win {r['win_at_states'] or 0:.1%}) "
                     f"{r['states_by_agent']['network']} from network fights, {r['states_by_agent']['by-the-book']}"
                     f" from book's; mean value leave {r['value_leave'] or 0:.3f}, fight on "
                     f"{r['value_fight'] or 0:.3f}; leave moves {r['leave_moves']}; {r['seconds']:.0f} s")
        if "value_diff_other" in r:
            way = "once (then the network plays on)" if r.get("played_through", True) else "carried out"
            lines.append(f"  - the leave move {way} instead, against fighting on: value "
                         f"{_ci(r['value_diff_other'], pct=False, sign=True)}, survival "
                         f"{_ci(r['survival_diff_other'], sign=True)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", nargs="+", default=list(SYSTEMS), help="systems (space or comma separated)")
    ap.add_argument("--encounters", type=int, default=100, help="the first N held-out fights (all 100 default)")
    ap.add_argument("--playouts", type=int, default=32, help="play-outs per win estimate and per compared move")
    ap.add_argument("--repeats", type=int, default=1, help="dice seeds per held-out fight")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="also write report.md and report.json here")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--bundle", action="append", default=[], metavar="SYSTEM=DIR",
                    help="measure this bundle as the network instead of the shipped one (repeat per system)")
    ap.add_argument("--search", type=int, default=0, metavar="N",
                    help="play side 0's fights with the search over the network, N play-outs a decision")
    ap.add_argument("--survival-weight", type=float, default=SURVIVAL_WEIGHT, metavar="W",
                    help=f"with --search: the worth of the acting NPC's life against a win's 1 in its play-outs "
                         f"(default {SURVIVAL_WEIGHT}, the odds' own)")
    ap.add_argument("--search-through", action="store_true",
                    help="with --search: the search plays its leave moves through (the actor keeps leaving)")
    ap.add_argument("--leave-once", action="store_true",
                    help="the table's leave move played once (then the network plays on) instead of carried out; "
                         "the other way is given below the table either way")
    args = ap.parse_args(argv)
    bundles: dict[str, Path] = {}
    for spec in args.bundle:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            ap.error(f"--bundle: expected SYSTEM=DIR, got {spec!r}")
        bundles[name] = Path(path)
    systems = [s for item in args.systems for s in item.split(",") if s]
    from npc_tactics.registry import SYSTEMS as KNOWN

    unknown = [s for s in systems if s not in KNOWN]
    if unknown:
        ap.error(f"--systems: unknown system {unknown[0]!r}; valid systems: {', '.join(sorted(KNOWN))}")
    if args.search < 0:
        ap.error(f"--search: expected 0 (the network alone) or more play-outs, got {args.search}")
    if not 0.0 <= args.survival_weight <= 4.0:
        ap.error(f"--survival-weight: expected a number in [0, 4], got {args.survival_weight:g}")
    if not args.search and (args.search_through or args.survival_weight != SURVIVAL_WEIGHT):
        ap.error("--survival-weight and --search-through set the search's play-outs: give --search N as well")
    for name in ("encounters", "playouts", "repeats"):
        if getattr(args, name) < 1:
            ap.error(f"--{name}: expected at least 1, got {getattr(args, name)}")

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    started = time.perf_counter()
    results = [measure(s, args.encounters, args.playouts, args.seed, args.repeats, None if args.quiet else progress,
                       bundles.get(s), through=not args.leave_once, search=args.search,
                       survival_weight=args.survival_weight, search_through=args.search_through) for s in systems]
    text = render(results) + f"\n\n({time.perf_counter() - started:.0f} s)\n"
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "report.md").write_text("# Retreat when losing, controlled\n\n" + text, encoding="utf-8")
        (args.out / "report.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    print(json.dumps(results, indent=1) if args.json else text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
