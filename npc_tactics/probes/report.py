"""Probe results as text (terminal), Markdown (``--out``) and JSON: per probe the agent's choice, the best move,
every move's rates with intervals; overall the share of probes passed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.probes.run import ContinuationResult, ProbeResult

__all__ = ["format_results", "markdown", "summary"]


def summary(agent: str, results: Sequence[ProbeResult]) -> dict[str, Any]:
    """The JSON document: the agent, the share passed (with its Wilson interval) overall and per system and
    tactic, and every probe."""
    def share(items: Sequence[ProbeResult]) -> dict[str, Any]:
        passed = sum(r.passed for r in items)
        low, high = wilson_interval(passed, len(items)) if items else (0.0, 0.0)
        return {"passed": passed, "probes": len(items), "share": round(passed / len(items), 4) if items else 0.0,
                "low": round(low, 4), "high": round(high, 4)}

    systems = sorted({r.system for r in results})
    tactics = sorted({r.tactic for r in results})
    return {"agent": agent, **share(results),
            "by_system": {s: share([r for r in results if r.system == s]) for s in systems},
            "by_tactic": {t: share([r for r in results if r.tactic == t]) for t in tactics},
            "results": [r.to_dict() for r in results]}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _gap(result: ProbeResult, cont: ContinuationResult) -> str:
    """The choice's lag behind the best, in points with its paired 95% interval, and what the probe forgives."""
    g = cont.gap
    forgiven = f", tolerance {result.tolerance}" if result.tolerance else ""
    return f"{100 * g.mean:.1f} points behind the best [{100 * g.low:.1f}, {100 * g.high:.1f}]{forgiven}"


def _table(result: ProbeResult, cont: ContinuationResult) -> list[str]:
    lines = [f"  continuation {cont.continuation.label}: best {cont.of(cont.best).name}"
             + ("" if cont is result.reference else
                f"  (choice {'not clearly worse' if cont.passed else 'clearly worse'}: {_gap(result, cont)})")]
    for m in cont.moves:
        mark = ("*" if m.action == cont.best else " ") + (">" if m.action == result.choice else " ")
        lines.append(f"   {mark} {m.label[:58]:<58} win {_pct(m.win.rate):>4} [{_pct(m.win.low)}-{_pct(m.win.high)}]"
                     f"  alive {_pct(m.survival.rate):>4} [{_pct(m.survival.low)}-{_pct(m.survival.high)}]"
                     f"  {m.rounds:4.1f} rd")
    return lines


def format_results(agent: str, results: Sequence[ProbeResult]) -> str:
    """What the terminal shows."""
    lines: list[str] = []
    for r in results:
        verdict = "PASS" if r.passed else "FAIL"
        lines.append(f"{verdict} {r.system}/{r.name} ({r.tactic}; {r.actor}, {r.decision}; measure: {r.measure}, "
                     f"{r.rollouts} rollouts per move)")
        lines.append(f"  choice: {r.choice_name}; best: {r.reference.of(r.best).name}; "
                     f"choice {_gap(r, r.reference)}")
        lines.append(f"  why: {r.why}")
        for cont in r.continuations:
            lines.extend(_table(r, cont))
        if r.changes_with_continuation:
            lines.append("  the best move changes with the continuation policy (both shown)")
        lines.extend(f"  note: {n}" for n in r.notes)
    s = summary(agent, results)
    lines.append(f"{agent}: {s['passed']} of {s['probes']} probes passed ({_pct(s['share'])}, "
                 f"95% interval {_pct(s['low'])}-{_pct(s['high'])}); * = best move, > = the agent's choice")
    return "\n".join(lines)


def markdown(agent: str, results: Sequence[ProbeResult], command: str) -> str:
    """A report a reader can follow without the terminal: the summary tables, then every probe."""
    s = summary(agent, results)
    out = [f"# Probes: {agent}", "", f"Reproduce: `{command}`", "",
           f"**{s['passed']} of {s['probes']} probes passed ({_pct(s['share'])}, 95% interval "
           f"{_pct(s['low'])}-{_pct(s['high'])}).** A probe passes unless the agent's move is clearly worse than the "
           "best move under the reference continuation: the paired gap (best minus choice on the same rollouts) "
           "has a 95% interval above the probe's tolerance.", "",
           "| system | passed | share |", "|---|---|---|"]
    out += [f"| {k} | {v['passed']}/{v['probes']} | {_pct(v['share'])} |" for k, v in s["by_system"].items()]
    out += ["", "| tactic | passed | share |", "|---|---|---|"]
    out += [f"| {k} | {v['passed']}/{v['probes']} | {_pct(v['share'])} |" for k, v in s["by_tactic"].items()]
    for r in results:
        out += ["", f"## {'PASS' if r.passed else 'FAIL'}: {r.system}/{r.name}", "",
                f"{r.tactic}; {r.actor} at a {r.decision} decision; measure **{r.measure}**; {r.rollouts} rollouts "
                f"per move. Choice: `{r.choice_name}`; best: `{r.reference.of(r.best).name}`; the choice is "
                f"{_gap(r, r.reference)}.", "",
                f"Why: {r.why}", ""]
        for cont in r.continuations:
            out += [f"Continuation `{cont.continuation.label}` (best `{cont.of(cont.best).name}`):", "",
                    "| move | win [95%] | survival [95%] | rounds |", "|---|---|---|---|"]
            for m in cont.moves:
                tag = (" **best**" if m.action == cont.best else "") + (" (choice)" if m.action == r.choice else "")
                out.append(f"| {m.label}{tag} | {_pct(m.win.rate)} [{_pct(m.win.low)}-{_pct(m.win.high)}] | "
                           f"{_pct(m.survival.rate)} [{_pct(m.survival.low)}-{_pct(m.survival.high)}] | "
                           f"{m.rounds:.1f} |")
            out.append("")
        if r.changes_with_continuation:
            out.append("The best move changes with the continuation policy.")
        out += [f"Note: {n}" for n in r.notes]
    return "\n".join(out) + "\n"
