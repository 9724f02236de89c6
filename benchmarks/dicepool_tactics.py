"""What a trained dice-pool NPC learned: win rates and its attack/DEFENSE split by situation.

Loads a training run dir (``load_policy_agent``; falls back to the latest checkpoint when
``model.zip`` is missing), plays N fights on paired seeds against each named scripted agent with
``play_fight(..., keep_events=True)`` and prints, per opponent, the learner's win/draw/loss rates
(Wilson 95% intervals) and the mean number of dice it moved to DEFENSE before each melee blow, broken
down by who holds the next action slot (docs/dicepool.md D5: dice in DEFENSE last until the
combatant's own next slot, so they only matter when an enemy acts before it) and by the target's
current DEFENSE, and the free blows given and taken when someone leaves melee (H6). The issue-5
"Done means" figure is the contrast between ``next = enemy`` and ``next = self``.

    .venv/bin/python benchmarks/dicepool_tactics.py RUN_DIR [--opponents aggressive,cautious]
        [--fights 500] [--seed 0] [--tactics] [--json]

With ``--tactics`` it prints instead the tactics section (every named tactic of the dice pool, by-the-book and
the run on the same seeds against the first of ``--opponents``; docs/selfplay.md). Each tactic is also a
function of this module taking watched fights.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import make_agent
from npc_tactics.agents.policy import PolicyAgent, load_policy_agent
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.evaluation.tactics import FightLog, render_tactics
from npc_tactics.evaluation.tactics.bench import tactics_section
from npc_tactics.registry import get_system
from npc_tactics.systems.dicepool import tactics

SITUATIONS = ("self", "ally", "enemy", "new_turn")


def _split_stats(dice: list[int]) -> dict[str, Any]:
    n = len(dice)
    return {
        "blows": n,
        "mean_defense_dice": round(float(np.mean(dice)), 3) if n else None,
        "all_attack_share": round(sum(1 for d in dice if d == 0) / n, 3) if n else None,
        "histogram": {str(k): v for k, v in sorted(Counter(dice).items())},
    }


def measure(agent: PolicyAgent, opponent: str, fights: int, seed: int, scenario: str | None = None) -> dict[str, Any]:
    """Play ``fights`` fights (seeds ``seed..seed+fights-1``), the learner on its trained side."""
    info = get_system(agent.system)
    engine = info.load("engine")(dict(agent.options))
    encoder = info.load("encoder")(engine)
    name = scenario or agent.scenario
    loaded = info.load("content").load_scenario(name)
    side = agent.side
    probe, _ = engine.new_combat(loaded, RngRoller(np.random.default_rng(0)))
    sides = [c.side for c in probe.combatants]
    lapse_at_slot = probe.rules.defense_dice_until != "turn_end"
    lapse_at_turn = probe.rules.defense_dice_until != "next_slot"
    free_blows: Counter[str] = Counter()
    results: Counter[str] = Counter()
    verbs: Counter[str] = Counter()
    by_next: dict[str, list[int]] = defaultdict(list)
    by_target_def: dict[str, list[int]] = defaultdict(list)
    for s in range(seed, seed + fights):
        rngs = agent_rngs(s, 2)
        opp = make_agent(get_system(agent.system), opponent, engine, rngs[1 - side])
        agents = [agent, opp] if side == 0 else [opp, agent]
        rec = play_fight(engine, encoder, loaded, agents, s, keep_events=True)
        results[rec.results[side]] += 1
        verbs.update({v: n for v, n in rec.actions[side].items() if v != "split"})
        targets: dict[int, int] = {}
        for e in rec.events or []:
            if e.kind == "round_start" and lapse_at_turn:
                targets.clear()  # DEFENSE dice lapse at the new initiative roll (defense_dice_until)
            if e.kind == "action" and e.actor is not None and lapse_at_slot:
                targets[e.actor] = 0  # DEFENSE dice lapse at the start of one's slot (D5)
            if e.kind == "free_blow" and e.actor is not None:
                free_blows["given" if sides[e.actor] == side else "taken"] += 1
            if e.kind == "split" and e.actor is not None:
                targets[e.actor] = int(e.data.get("dice", 0))
            if e.kind != "split" or e.actor is None or sides[e.actor] != side:
                continue
            dice = int(e.data.get("dice", 0))
            by_next[str(e.data.get("next", "new_turn"))].append(dice)
            turtled = targets.get(e.target, 0) if e.target is not None else 0
            by_target_def["target_has_defense_dice" if turtled else "target_open"].append(dice)
    rates = {}
    for key in ("win", "draw", "loss", "fled"):
        lo, hi = wilson_interval(results[key], fights)
        rates[key] = {"count": results[key], "rate": results[key] / fights, "low": lo, "high": hi}
    return {
        "opponent": opponent,
        "fights": fights,
        "rates": rates,
        "split_by_next": {k: _split_stats(by_next[k]) for k in SITUATIONS if by_next[k]},
        "split_by_target": {k: _split_stats(v) for k, v in sorted(by_target_def.items())},
        "slot_actions_per_fight": {v: round(n / fights, 3) for v, n in verbs.most_common()},
        "free_blows_per_fight": {k: round(free_blows[k] / fights, 3) for k in ("given", "taken")},
    }


def _row(label: str, s: dict[str, Any]) -> str:
    mean, share = s["mean_defense_dice"], s["all_attack_share"]
    return f"    {label:<24} {s['blows']:>13} {mean:>5.2f} {share:>10.2f}  {s['histogram']}"


def _fmt_rate(r: dict[str, Any]) -> str:
    return f"{r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"


def retreat_when_losing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Retreat when losing (``npc_tactics.evaluation.tactics.retreat_when_losing``; docs/selfplay.md)."""
    return tactics.retreat_when_losing(logs, "dicepool")


def defense_by_next(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Defense by next (``npc_tactics.systems.dicepool.tactics.defense_by_next``; docs/selfplay.md)."""
    return tactics.defense_by_next(logs, "dicepool")


def focus_fire(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Focus fire (``npc_tactics.evaluation.tactics.focus_fire``; docs/selfplay.md)."""
    return tactics.focus_fire(logs, "dicepool")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_dir", type=Path)
    p.add_argument("--opponents", default="aggressive,cautious")
    p.add_argument("--fights", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scenario", default=None, help="default: the run's scenario")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--tactics", action="store_true",
                   help="measure every named tactic of the dice pool for by-the-book and the run against the "
                        "first of --opponents (docs/selfplay.md)")
    args = p.parse_args(argv)
    if args.fights < 1:
        p.error("--fights must be at least 1")
    try:
        agent = load_policy_agent(args.run_dir, deterministic=True)
        if args.tactics:
            first = args.opponents.split(",")[0].strip()
            data = tactics_section("dicepool", str(args.run_dir), first, args.fights, args.seed, args.scenario)
            print(json.dumps(data, indent=2) if args.json else render_tactics(data))
            return 0
    except Exception as exc:  # UserError: one line, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if agent.system != "dicepool":
        print(f"error: {args.run_dir}: trained for {agent.system!r}, not 'dicepool'", file=sys.stderr)
        return 2
    out = {
        "run_dir": str(args.run_dir),
        "checkpoint": str(agent.checkpoint),
        "scenario": args.scenario or agent.scenario,
        "side": agent.side,
        "results": [
            measure(agent, o.strip(), args.fights, args.seed, args.scenario)
            for o in args.opponents.split(",")
            if o.strip()
        ],
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['run_dir']} ({Path(out['checkpoint']).name}), scenario {out['scenario']}, side {out['side']}")
    for r in out["results"]:
        print(
            f"\nvs {r['opponent']} ({r['fights']} fights): win {_fmt_rate(r['rates']['win'])}, "
            f"draw {r['rates']['draw']['rate']:.3f}, loss {r['rates']['loss']['rate']:.3f}"
        )
        print("  dice to DEFENSE by who acts next:   blows  mean  all-attack  histogram")
        for k, s in r["split_by_next"].items():
            print(_row(f"next = {k}", s))
        for k, s in r["split_by_target"].items():
            print(_row(k, s))
        print(f"  slot actions per fight: {r['slot_actions_per_fight']}")
        print(f"  free blows per fight (leaving melee, H6): {r['free_blows_per_fight']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
