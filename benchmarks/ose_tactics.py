"""Step back and shoot, or trade blows? What a trained OSE policy does, in GM terms.

Loads a training run dir, plays ``--fights`` fights of its scenario (paired seeds ``seed..``) with the
policy on its own side against a scripted agent (or another run dir), and reports the policy's
win/loss/flee/draw rates with Wilson 95% intervals plus how it fought: the moves it chose (step back,
hold, close, declared withdrawals and retreats), missile shots by range band, melee blows given and taken,
and the share of fights in which blows were traded at all (docs/ose.md "Training results")::

    .venv/bin/python benchmarks/ose_tactics.py /tmp/ose-run --against by-the-book --fights 500 [--json]

With ``--tactics`` it prints instead the tactics section (every named tactic of the system, by-the-book and the
run on the same seeds; docs/selfplay.md). Each tactic is also a function of this module taking watched fights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena, fight_seeds
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.evaluation.tactics import FightLog
from npc_tactics.evaluation.tactics.bench import run_dir_main
from npc_tactics.systems.ose import tactics

CHOICES = ("move_away", "hold", "close", "declare_withdraw", "declare_retreat", "shoot", "melee", "cast")


def measure(run_dir: str, against: str, fights: int, seed: int = 0) -> dict[str, Any]:
    """Play the fights and return the breakdown as plain data (see module docstring)."""
    policy = load_policy_agent(run_dir)
    side = policy.side
    arena = Arena.build(policy.system, policy.scenario, policy.options)
    opponent = agent_factory(arena.system, against)
    results: Counter[str] = Counter()
    choices: Counter[str] = Counter()
    bands: Counter[str] = Counter()
    blows = Counter({"given": 0, "taken": 0})
    traded = rounds = 0
    sides = [c.side for c in arena.scenario.combatants]  # OSE Scenario: combatant index -> side
    for s in fight_seeds(seed, fights):
        rngs = agent_rngs(s, arena.sides)
        agents = [policy if k == side else opponent(arena.engine, rngs[k]) for k in range(arena.sides)]
        rec = play_fight(arena.engine, arena.encoder, arena.scenario, agents, s, keep_events=True)
        results[rec.results[side]] += 1
        rounds += rec.rounds
        for verb, n in rec.actions[side].items():
            choices[verb.split(":")[0]] += int(n)
        melee_here = 0
        for e in rec.events or []:
            if e.kind != "attack" or e.actor is None:
                continue
            mine = sides[e.actor] == side
            if e.data.get("missile"):
                if mine:
                    bands[str(e.data.get("range"))] += 1
            else:
                blows["given" if mine else "taken"] += 1
                melee_here += 1
        traded += melee_here > 0
    rates = {}
    for result in ("win", "loss", "fled", "draw"):
        k = results.get(result, 0)
        lo, hi = wilson_interval(k, fights)
        rates[result] = {"count": k, "rate": k / fights, "low": lo, "high": hi}
    return {
        "run": str(run_dir),
        "system": arena.system,
        "scenario": arena.scenario_name,
        "side": side,
        "against": against,
        "fights": fights,
        "seed": seed,
        "rates": rates,
        "rounds_per_fight": rounds / fights,
        "choices_per_fight": {c: choices.get(c, 0) / fights for c in CHOICES},
        "shots_by_range": {b: bands.get(b, 0) for b in ("short", "medium", "long")},
        "melee_blows": dict(blows),
        "fights_with_melee": traded,
    }


def render(data: dict[str, Any]) -> str:
    lines = [
        f"{data['run']} ({data['system']}/{data['scenario']}, side {data['side']}) vs "
        f"{data['against']}: {data['fights']} fights from seed {data['seed']}"
    ]
    for result, r in data["rates"].items():
        lines.append(
            f"  {result:5s} {r['count']:4d}  {100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]"
        )
    lines.append(f"  rounds per fight {data['rounds_per_fight']:.1f}")
    lines.append(
        "  choices per fight: "
        + ", ".join(f"{c} {n:.2f}" for c, n in data["choices_per_fight"].items() if n)
    )
    shots = data["shots_by_range"]
    lines.append(f"  shots: short {shots['short']}, medium {shots['medium']}, long {shots['long']}")
    mb = data["melee_blows"]
    lines.append(
        f"  melee blows given {mb['given']}, taken {mb['taken']}; "
        f"fights with any melee {data['fights_with_melee']} of {data['fights']}"
    )
    return "\n".join(lines)


def retreat_when_losing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Retreat when losing (``npc_tactics.evaluation.tactics.retreat_when_losing``; docs/selfplay.md)."""
    return tactics.retreat_when_losing(logs, "ose")


def spell_timing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Spell timing (``npc_tactics.systems.ose.tactics.ose_spell_timing``; docs/selfplay.md)."""
    return tactics.ose_spell_timing(logs, "ose")


def focus_fire(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Focus fire (``npc_tactics.evaluation.tactics.focus_fire``; docs/selfplay.md)."""
    return tactics.focus_fire(logs, "ose")


def main(argv: list[str] | None = None) -> int:
    return run_dir_main(__doc__, "ose", measure, render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
