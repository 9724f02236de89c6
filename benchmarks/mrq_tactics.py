"""Special-effect choices of a trained MRQ NPC against the scripted by-the-book priority (issue 4, "Done means").

Plays ``--fights`` paired-seed fights (dice from ``default_rng(seed)``, agents from
``npc_tactics.evaluation.fight.agent_rngs``) of the run's scenario with four players in the learner's seat,
all against the same ``--opponent``:

* ``trained``: the run's policy for every decision;
* ``by-the-book``: the scripted priority for every decision;
* ``trained+book-effects``: the policy, but its special effects picked by the by-the-book priority;
* ``book+trained-effects``: by-the-book, but its special effects picked by the policy.

The two hybrids isolate what the effect choices are worth: same moves, same dice stream, only the EFFECT
decisions swapped. For each player it prints the win rate (Wilson 95%), the effect frequencies by role,
margin and the weapon kind the winner struck with (the keys of ``systems/mrq/rules/profile.py``), and, at every
EFFECT decision, whether the by-the-book priority would have picked the same effect in that very state
(the disagreement rate, Wilson 95%, overall and per role/margin/weapon kind).

    python benchmarks/mrq_tactics.py RUN_DIR [--opponent by-the-book] [--fights 500] [--seed 0]
                                     [--scenario NAME_OR_YAML] [--tactics] [--json]

With ``--tactics`` it prints instead the tactics section (every named tactic of MRQ, by-the-book and the run on
the same seeds; docs/selfplay.md). Each tactic is also a function of this module taking watched fights.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import make_agent
from npc_tactics.agents.base import Agent, Observation
from npc_tactics.agents.policy import PolicyAgent, load_policy_agent
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.stats import rate_entry
from npc_tactics.evaluation.tactics import FightLog, render_tactics
from npc_tactics.evaluation.tactics.bench import tactics_section
from npc_tactics.registry import get_system
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.mrq import tactics
from npc_tactics.systems.mrq.rules import fighters as F

PLAYERS = ("trained", "by-the-book", "trained+book-effects", "book+trained-effects")


@dataclass(slots=True)
class Pick:
    """One EFFECT decision of the learner's seat: where it happened and what each priority chose."""

    role: str
    margin: int
    weapon_kind: str
    chosen: str
    book: str
    policy: str


@dataclass(slots=True)
class Probe:
    """The learner's seat: ``acts`` answers ACT/REACT/OPTION decisions, ``effects`` answers EFFECT ones; both
    the policy's and the by-the-book choice are recorded at every EFFECT decision."""

    acts: Agent
    effects: Agent
    policy: PolicyAgent
    book: Agent
    name: str = "probe"
    picks: list[Pick] = field(default_factory=list)

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        d = observation.decision
        if d.kind != DecisionKind.EFFECT:
            return int(self.acts.act(observation, mask))
        choice = int(self.effects.act(observation, mask))
        book = int(self.book.act(observation, mask))
        pol = int(self.policy.act(observation, mask))
        st = observation.state
        ex = st.exchange
        shot = ex is not None and ex.mode == "missile" and d.context.get("role") == "attacker"
        names = observation.engine.catalogue
        self.picks.append(
            Pick(
                role=str(d.context.get("role")),
                margin=int(d.context.get("margin", 0)),
                weapon_kind=F.strike_item(st.combatants[d.actor], shot).kind,
                chosen=names[choice].name,
                book=names[book].name,
                policy=names[pol].name,
            )
        )
        return choice


def _rate(count: int, n: int) -> dict[str, Any]:
    return rate_entry(count, n) if n else {"count": 0, "rate": 0.0, "low": 0.0, "high": 1.0}


def _pct(e: dict[str, Any]) -> str:
    return f"{100 * e['rate']:.1f}% [{100 * e['low']:.1f}-{100 * e['high']:.1f}]"


def _summarise(results: list[str], picks: list[Pick]) -> dict[str, Any]:
    n = len(results)
    freq: dict[str, Counter[str]] = {}
    agree: dict[str, list[int]] = {}
    for p in picks:
        key = f"{p.role}:margin_{p.margin}:{p.weapon_kind}"
        freq.setdefault(key, Counter())[p.chosen] += 1
        agree.setdefault(key, [0, 0])
        agree[key][0] += p.chosen != p.book
        agree[key][1] += 1
    differ = sum(p.chosen != p.book for p in picks)
    totals: Counter[str] = Counter(p.chosen.split(":")[0] for p in picks)
    return {
        "fights": n,
        "win": _rate(results.count("win"), n),
        "draw": _rate(results.count("draw"), n),
        "loss": _rate(results.count("loss"), n),
        "fled": _rate(results.count("fled"), n),
        "effect_decisions": len(picks),
        "effects_per_fight": len(picks) / n if n else 0.0,
        "effects": dict(totals.most_common()),
        "effects_by_situation": {k: dict(v.most_common()) for k, v in sorted(freq.items())},
        "differs_from_book": _rate(differ, len(picks)),
        "differs_from_book_by_situation": {k: {**_rate(d, m), "n": m} for k, (d, m) in sorted(agree.items())},
    }


def run(
    run_dir: str | Path,
    opponent: str = "by-the-book",
    fights: int = 500,
    seed: int = 0,
    scenario: str | None = None,
) -> dict[str, Any]:
    """Play the four players of the module docstring against ``opponent`` on the run's scenario (or
    ``scenario``, a name or YAML path); return the JSON-ready figures."""
    policy = load_policy_agent(run_dir, deterministic=True)
    if policy.system != "mrq":
        raise SystemExit(f"{run_dir}: trained for {policy.system!r}, this benchmark is for 'mrq'")
    info = get_system("mrq")
    engine = info.load("engine")(policy.options or None)
    encoder = info.load("encoder")(engine)
    scenario_name = scenario or policy.scenario
    scen = info.load("content").load_scenario(scenario_name)
    side = policy.side
    out: dict[str, Any] = {
        "run": str(run_dir),
        "checkpoint": str(policy.checkpoint),
        "scenario": scenario_name,
        "side": side,
        "opponent": opponent,
        "seeds": [seed, seed + fights - 1],
        "players": {},
    }
    for player in PLAYERS:
        results: list[str] = []
        picks: list[Pick] = []
        for s in range(seed, seed + fights):
            rngs = agent_rngs(s, 2)
            book = make_agent(get_system("mrq"), "by-the-book", engine, rngs[side])
            acts: Agent = policy if player.startswith("trained") else book
            effects: Agent = policy if player in ("trained", "book+trained-effects") else book
            probe = Probe(acts, effects, policy,
                          make_agent(get_system("mrq"), "by-the-book", engine, np.random.default_rng(0)))
            other = make_agent(get_system("mrq"), opponent, engine, rngs[1 - side])
            seats: list[Agent] = [probe, other] if side == 0 else [other, probe]
            rec = play_fight(engine, encoder, scen, seats, s)
            results.append(rec.result(side))
            picks.extend(probe.picks)
        out["players"][player] = _summarise(results, picks)
    return out


def _print(report: dict[str, Any]) -> None:
    print(f"mrq / {report['scenario']}: learner seat {report['side']} vs {report['opponent']}, "
          f"seeds {report['seeds'][0]}..{report['seeds'][1]} ({report['checkpoint']})")
    print("\nWin rates (Wilson 95%):")
    for name, p in report["players"].items():
        print(f"  {name:<22} win {_pct(p['win'])}  loss {_pct(p['loss'])}  "
              f"effects/fight {p['effects_per_fight']:.2f}")
    for name in ("trained", "by-the-book"):
        p = report["players"][name]
        print(f"\nEffect choices of {name} (role:margin:weapon kind -> counts):")
        for key, counts in p["effects_by_situation"].items():
            total = sum(counts.values())
            cells = ", ".join(f"{e} {100 * c / total:.0f}%" for e, c in counts.items())
            print(f"  {key:<28} n={total:<5} {cells}")
    p = report["players"]["trained"]
    print(f"\nTrained NPC's effect picks that differ from by-the-book in the same state: "
          f"{_pct(p['differs_from_book'])} of {p['effect_decisions']}")
    for key, e in p["differs_from_book_by_situation"].items():
        print(f"  {key:<28} {_pct(e)} of {e['n']}")


def retreat_when_losing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Retreat when losing (``npc_tactics.evaluation.tactics.retreat_when_losing``; docs/selfplay.md)."""
    return tactics.retreat_when_losing(logs, "mrq")


def special_effects(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Special effects (``npc_tactics.systems.mrq.tactics.special_effects``; docs/selfplay.md)."""
    return tactics.special_effects(logs, "mrq")


def focus_fire(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Focus fire (``npc_tactics.evaluation.tactics.focus_fire``; docs/selfplay.md)."""
    return tactics.focus_fire(logs, "mrq")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="a training run dir of an mrq preset (its config.yaml and policy.pt are read)")
    parser.add_argument("--opponent", default="by-the-book", help="scripted opponent name (default by-the-book)")
    parser.add_argument("--fights", type=int, default=500, help="paired-seed fights per player (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first fight (default 0)")
    parser.add_argument("--scenario", default=None, help="scenario name or YAML path (default: the run's)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--tactics", action="store_true",
                        help="measure every named tactic of MRQ for by-the-book and the run (docs/selfplay.md)")
    args = parser.parse_args(argv)
    if args.fights < 1:
        parser.error("--fights must be at least 1")
    if args.tactics:
        data = tactics_section("mrq", args.run_dir, args.opponent, args.fights, args.seed, args.scenario)
        print(json.dumps(data, indent=2) if args.json else render_tactics(data))
        return 0
    report = run(args.run_dir, args.opponent, args.fights, args.seed, args.scenario)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    else:
        _print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
