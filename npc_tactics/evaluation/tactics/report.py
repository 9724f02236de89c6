"""The tactics section of an evaluation report: each named tactic of a system, measured for several players on
the same seeds, as plain data (:func:`measure_tactics`) and as Markdown (:func:`render_tactics`).

A player is a scripted agent name, a training run folder or an exported bundle folder. Every player sits on
the same side against the same opponent on the same fight seeds (paired), so the figures differ only by the
player's choices. A trained policy plays deterministically (its most probable move).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from npc_tactics.agents import agent_entries
from npc_tactics.agents.base import Agent, AgentFactory
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.stats import outcome_rates
from npc_tactics.evaluation.tactics.observe import FightLog, play_watched
from npc_tactics.evaluation.tactics.systems import EXTRAS, TACTICS

__all__ = ["load_player", "measure_tactics", "render_tactics", "tactics_of"]


def load_player(system: str, spec: str) -> tuple[Agent | AgentFactory, int | None, Mapping[str, Any], str | None]:
    """``(agent or factory, trained side or None, rules options, trained scenario or None)`` of a player spec."""
    if spec in agent_entries(system):
        return agent_factory(system, spec), None, {}, None
    path = Path(spec)
    if (path / "schema.json").is_file() and (path / "policy.onnx").is_file():
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        bundle = load_bundle_agent(path, deterministic=True)
        return bundle, bundle.side, bundle.options, bundle.scenario
    from npc_tactics.agents.policy import load_policy_agent

    policy = load_policy_agent(path, deterministic=True)
    return policy, policy.side, policy.options, policy.scenario


def tactics_of(logs: Sequence[FightLog], system: str) -> dict[str, Any]:
    """Every tactic of ``system`` measured on the same watched fights, plus the side's results."""
    out: dict[str, Any] = {"results": outcome_rates(log.result for log in logs)}
    for name, fn in TACTICS[system]:
        out[name] = fn(logs, system)
    return out


def measure_tactics(system: str, players: Sequence[str], *, against: str = "by-the-book",
                    scenario: str | None = None, side: int | None = None, fights: int = 200,
                    seed: int = 0) -> dict[str, Any]:
    """Play ``fights`` paired fights per player against ``against`` and measure the system's tactics.

    The scenario, side and rules options default to those of the first trained player (else the system's
    default scenario, side 0, no options)."""
    loaded = [(spec, *load_player(system, spec)) for spec in players]
    trained = next((p for p in loaded if p[2] is not None), None)
    seat: int = side if side is not None else (trained[2] or 0 if trained is not None else 0)
    options = dict(trained[3]) if trained is not None else {}
    scenario = scenario or (trained[4] if trained is not None else None)
    arena = Arena.build(system, scenario, options)
    foe = agent_factory(arena.system, against)
    out: dict[str, Any] = {"system": arena.system, "scenario": arena.scenario_name, "side": seat,
                           "against": against, "fights": fights, "seeds": [seed, seed + fights - 1],
                           "players": {}}
    for spec, watched, *_ in loaded:
        logs = play_watched(arena, watched, foe, seat, fights, seed, extra=EXTRAS.get(arena.system))
        out["players"][_label(spec)] = tactics_of(logs, arena.system)
    return out


def _label(spec: str) -> str:
    return Path(spec).name if ("/" in spec or Path(spec).exists()) else spec


def _pct(entry: Any) -> str:
    if not isinstance(entry, Mapping) or entry.get("rate") is None:
        return "–"
    n = f" of {entry['n']}" if "n" in entry else ""
    chance = f" (chance {100 * entry['chance']:.0f}%)" if entry.get("chance") is not None else ""
    return f"{100 * entry['rate']:.1f}% [{100 * entry['low']:.1f}, {100 * entry['high']:.1f}]{n}{chance}"


def _cell(value: Any) -> str:
    if isinstance(value, Mapping) and "rate" in value:
        return _pct(value)
    if isinstance(value, Mapping):
        return "; ".join(f"{k} {_cell(v)}" for k, v in value.items()) or "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return "–" if value is None else str(value)


def render_tactics(data: Mapping[str, Any]) -> str:
    """The tactics section as Markdown: one table per tactic, one column per player."""
    players = list(data["players"])
    lines = [
        "## Tactics",
        "",
        f"{data['system']} / {data['scenario']}, players on side {data['side']} against {data['against']}, "
        f"{data['fights']} fights each on seeds {data['seeds'][0]}..{data['seeds'][1]} (Wilson 95% intervals; "
        "definitions in docs/selfplay.md).",
    ]
    first = data["players"][players[0]]
    for tactic in first:
        lines += ["", f"### {tactic.replace('_', ' ')}", "", "| figure | " + " | ".join(players) + " |",
                  "| --- | " + " | ".join("---" for _ in players) + " |"]
        for key in first[tactic]:
            cells = [_cell(data["players"][p][tactic].get(key)) for p in players]
            lines.append(f"| {key} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
