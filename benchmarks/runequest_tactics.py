"""Dodge or parry? How a trained RuneQuest policy defends, by the class of the incoming weapon.

Loads a training run dir, plays ``--fights`` fights of its scenario (paired seeds ``seed..``) with
the policy on its own side against a scripted agent (or another run dir), and counts, from the event
log (``keep_events=True``, tallied by ``systems/runequest/rules/profile.py``), every defence the policy's
side chose per incoming weapon class (light / medium / great / shield / missile / natural): parry,
dodge, or no defence. Also prints the policy's win/loss/flee/draw rates with Wilson 95% intervals,
so one command gives the issue-3 "Done means" behaviour figure (runequest.md "Training results")::

    .venv/bin/python benchmarks/runequest_tactics.py /tmp/runequest-dodge-10min --against by-the-book \
        --fights 500 [--json]

Free blows at a fugitive (neither parried nor dodged, §21) are not choices and are left out.

With ``--tactics`` it prints instead the tactics section (every named tactic of the system, by-the-book and the
run on the same seeds; docs/selfplay.md). Each tactic is also a function of this module taking watched fights.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena, fight_seeds
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.evaluation.tactics import FightLog
from npc_tactics.evaluation.tactics.bench import run_dir_main
from npc_tactics.systems.runequest import tactics

CLASSES = ("light", "medium", "great", "shield", "missile", "natural")
HOWS = ("parry", "dodge", "none")


def defence_counts(profile: Mapping[str, Any]) -> Counter[tuple[str, str]]:
    """``(incoming class, parry|dodge|none)`` counts from one side's tactic profile
    (``parry_vs_<class>``, ``dodge_vs_<class>``, ``no_defence_vs_<class>``; ``profile.py``)."""
    out: Counter[tuple[str, str]] = Counter()
    for key, n in profile.items():
        for prefix, how in (("parry_vs_", "parry"), ("dodge_vs_", "dodge"), ("no_defence_vs_", "none")):
            if key.startswith(prefix):
                out[(key.removeprefix(prefix), how)] += int(n)
    return out


def measure(run_dir: str, against: str, fights: int, seed: int = 0) -> dict[str, Any]:
    """Play the fights and return the breakdown as plain data (see module docstring)."""
    policy = load_policy_agent(run_dir)
    side = policy.side
    arena = Arena.build(policy.system, policy.scenario, policy.options)
    opponent = agent_factory(arena.system, against)
    counts: Counter[tuple[str, str]] = Counter()
    results: Counter[str] = Counter()
    for s in fight_seeds(seed, fights):
        rngs = agent_rngs(s, arena.sides)
        agents = [policy if k == side else opponent(arena.engine, rngs[k]) for k in range(arena.sides)]
        rec = play_fight(arena.engine, arena.encoder, arena.scenario, agents, s, keep_events=True)
        counts += defence_counts(rec.tactic_profile[side])
        results[rec.results[side]] += 1
    by_class: dict[str, dict[str, int]] = {}
    for (wclass, how), n in counts.items():
        by_class.setdefault(wclass, {h: 0 for h in HOWS})[how if how in HOWS else "none"] += n
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
        "defences": {c: by_class[c] for c in CLASSES if c in by_class},
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
    lines.append("  incoming   parry  dodge   none   (defences chosen by the policy's side)")
    for wclass, row in data["defences"].items():
        lines.append(f"  {wclass:8s} {row['parry']:6d} {row['dodge']:6d} {row['none']:6d}")
    return "\n".join(lines)


def retreat_when_losing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Retreat when losing (``npc_tactics.evaluation.tactics.retreat_when_losing``; docs/selfplay.md)."""
    return tactics.retreat_when_losing(logs, "runequest")


def dodge_vs_parry(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Dodge vs parry (``npc_tactics.systems.runequest.tactics.dodge_vs_parry``; docs/selfplay.md)."""
    return tactics.dodge_vs_parry(logs, "runequest")


def spell_timing(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Spell timing (``npc_tactics.systems.runequest.tactics.runequest_spell_timing``; docs/selfplay.md)."""
    return tactics.runequest_spell_timing(logs, "runequest")


def focus_fire(logs: Sequence[FightLog]) -> dict[str, Any]:
    """Focus fire (``npc_tactics.evaluation.tactics.focus_fire``; docs/selfplay.md)."""
    return tactics.focus_fire(logs, "runequest")


def main(argv: list[str] | None = None) -> int:
    return run_dir_main(__doc__, "runequest", measure, render, argv)


if __name__ == "__main__":
    raise SystemExit(main())
