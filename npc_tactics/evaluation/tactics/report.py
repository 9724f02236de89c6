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
from npc_tactics.agents.resolve import factory_of
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.stats import outcome_rates, rate_entry
from npc_tactics.evaluation.tactics.common import COMMON_TACTICS, focus_fire
from npc_tactics.evaluation.tactics.hooks import DecisionFacts, Tactic, tactics_hooks
from npc_tactics.evaluation.tactics.observe import FightLog, play_watched
from npc_tactics.plugin import System

__all__ = ["decision_facts", "load_player", "measure_tactics", "named_tactics", "render_skirmish_focus",
           "render_tactics", "skirmish_focus", "tactics_of"]


def named_tactics(system: str) -> tuple[tuple[str, Tactic], ...]:
    """The system's named tactics in report order (its tactics hook's; the common ones if it has none)."""
    hooks = tactics_hooks(system)
    return hooks.tactics if hooks is not None else COMMON_TACTICS


def decision_facts(system: str) -> DecisionFacts | None:
    """The system's facts added to each watched decision's context (its tactics hook's), or None."""
    hooks = tactics_hooks(system)
    return hooks.decision_facts if hooks is not None else None


def load_player(system: System, spec: str
                ) -> tuple[Agent | AgentFactory, int | None, Mapping[str, Any], str | None]:
    """``(agent or factory, trained side or None, rules options, trained scenario or None)`` of a player spec."""
    if spec in agent_entries(system):
        return factory_of(system, spec), None, {}, None
    if spec.startswith("card:"):
        from npc_tactics.agents.resolve import trained_side

        return factory_of(system, spec), trained_side(spec), {}, None
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
    for name, fn in named_tactics(system):
        out[name] = fn(logs, system)
    return out


def measure_tactics(system: System, players: Sequence[str], *, against: str = "by-the-book",
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
    foe = factory_of(arena.plugin, against)
    out: dict[str, Any] = {"system": arena.system, "scenario": arena.scenario_name, "side": seat,
                           "against": against, "fights": fights, "seeds": [seed, seed + fights - 1],
                           "players": {}}
    for spec, watched, *_ in loaded:
        logs = play_watched(arena, watched, foe, seat, fights, seed, extra=decision_facts(arena.system))
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


def skirmish_focus(system: System, band: str, *, against: str = "aggressive", scenario: str | None = None,
                   side: int | None = None, fights: int = 500, seed: int = 0) -> dict[str, Any]:
    """Focus fire of a trained band against a scripted band, on paired seeds (docs/selfplay.md "Focus fire").

    Three watched series on the same seeds: ``band`` on its side against ``against`` (its focus rates and
    results); the same fights watched from the other seat (the scripted band's focus rates as it fights the
    trained band); and ``against`` itself on the band's seat against ``against`` (the scripted band's focus in
    the band's shoes). The band plays deterministically, so the first two series are the same fights."""
    watched, trained_side, options, trained_scenario = load_player(system, band)
    seat = side if side is not None else (trained_side or 0)
    arena = Arena.build(system, scenario or trained_scenario, options)
    if arena.sides != 2:
        raise ValueError(f"{arena.system} has {arena.sides} sides; the focus comparison needs two")
    foe = factory_of(arena.plugin, against)
    extra = decision_facts(arena.system)
    as_factory: AgentFactory = watched if not isinstance(watched, Agent) or isinstance(watched, type) else \
        (lambda engine, rng: watched)  # a ready agent, shared by every fight
    mine = play_watched(arena, watched, foe, seat, fights, seed, extra=extra)
    theirs = play_watched(arena, foe, as_factory, 1 - seat, fights, seed, extra=extra)
    scripted = play_watched(arena, foe, foe, seat, fights, seed, extra=extra)

    def series(logs: Sequence[FightLog]) -> dict[str, Any]:
        wins = sum(log.result == "win" for log in logs)
        return {"win": rate_entry(wins, len(logs)), "focus_fire": focus_fire(logs, arena.system),
                "rounds": round(sum(log.record.rounds for log in logs) / len(logs), 2)}

    return {"system": arena.system, "scenario": arena.scenario_name, "side": seat, "band": _label(band),
            "against": against, "fights": fights, "seeds": [seed, seed + fights - 1],
            "trained_band": series(mine), "scripted_band_facing_it": series(theirs),
            "scripted_band_on_its_seat": series(scripted)}


def render_skirmish_focus(data: Mapping[str, Any]) -> str:
    """The focus comparison as a Markdown table (rates with Wilson 95% intervals and the random-pick rate)."""
    rows = (("trained_band", f"{data['band']} (side {data['side']})"),
            ("scripted_band_facing_it", f"{data['against']} (side {1 - data['side']}, facing it)"),
            ("scripted_band_on_its_seat", f"{data['against']} on side {data['side']} (same opponent)"))
    lines = [f"Focus fire, {data['system']} / {data['scenario']}: {data['band']} against {data['against']}, "
             f"{data['fights']} fights on seeds {data['seeds'][0]}..{data['seeds'][1]}", "",
             "| band | win | same round | previous ally | most wounded | attacks with a choice | rounds |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for key, label in rows:
        s = data[key]
        f = s["focus_fire"]
        lines.append(f"| {label} | {_pct(s['win'])} | {_pct(f['same_round'])} | {_pct(f['previous_ally'])} | "
                      f"{_pct(f['most_wounded'])} | {f['attacks_with_choice']} | {s['rounds']} |")
    return "\n".join(lines) + "\n"
