"""What a suite produced, as plain JSON-ready data (``results.json``): the reports render only this.

It holds no wall-clock time and no worker count (those go to ``timing.json``), so the same suite writes it
byte for byte again whatever ``--workers`` is.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.leaderboard.runner import SectionSums
from npc_tactics.leaderboard.suite import Suite
from npc_tactics.leaderboard.tally import AgentTally

__all__ = ["build_results"]


def _pooled(box: SectionSums, label: str, seats: tuple[int, ...], scenario: int | None = None) -> AgentTally:
    out = AgentTally()
    for (ci, lab, seat), tally in box.agents.items():
        if lab == label and seat in seats and (scenario is None or ci == scenario):
            out.merge(tally)
    return out


def _section(box: SectionSums) -> dict[str, Any]:
    plan = box.plan
    section = plan.section
    ratings = {(r.agent, r.seat): r.to_dict() for r in box.rater.table()}
    rows = []
    for label in plan.labels:
        both = _pooled(box, label, (0, 1))
        row = {"agent": label, **both.summary(),
               "ratings": {f"side{s}": ratings[(label, s)] for s in (0, 1) if (label, s) in ratings}}
        rows.append(row)
    rows.sort(key=lambda r: (-r["score"], r["agent"]))
    scenarios = []
    for ci, arena in enumerate(plan.arenas):
        scenarios.append({
            "scenario": section.scenarios[ci].label,
            "options": dict(arena.engine.options),
            "pairings": [
                {"side0": p.agents[0], "side1": p.agents[1], "fights": p.fights, "rates": [p.rates(0), p.rates(1)],
                 "mean_rounds": p.mean_rounds, "reasons": dict(sorted(p.tally.reasons.items()))}
                for p in box.pairings[ci]
            ],
            "agents": {
                label: {f"side{s}": _pooled(box, label, (s,), ci).summary() for s in (0, 1)
                        if _pooled(box, label, (s,), ci).fights}
                for label in plan.labels
            },
        })
    profiles: dict[str, Any] = {}
    for label in plan.labels:
        profiles[label] = {"all": _pooled(box, label, (0, 1)).profile_summary(section.system)}
        for s in (0, 1):
            seat = _pooled(box, label, (s,))
            if seat.fights:
                profiles[label][f"side{s}"] = seat.profile_summary(section.system)
    return {
        "label": section.label,
        "system": section.system,
        "scenarios": [s.label for s in section.scenarios],
        "agents": plan.labels,
        "agent_specs": list(section.agents),
        "pairings": [list(p) for p in plan.pairs],
        "leaderboard": rows,
        "by_scenario": scenarios,
        "profiles": profiles,
    }


def build_results(suite: Suite, sums: list[SectionSums]) -> dict[str, Any]:
    """The whole report's data (see the module docstring)."""
    return {
        "suite": {"name": suite.name, "question": suite.question, "description": suite.description,
                  "fights_per_pairing": suite.fights, "seed": suite.seed,
                  "seeds": [suite.seed, suite.seed + suite.fights - 1]},
        "fights": sum(p.fights for box in sums for row in box.pairings for p in row),
        "sections": [_section(box) for box in sums],
    }
