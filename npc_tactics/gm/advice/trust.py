"""How far to trust a policy: what it was trained on, for how long, how it did in evaluation, under which
rules. Read from a bundle's ``schema.json`` or a run folder's ``meta.json`` and ``eval_history.csv``; nothing
is loaded or run."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.gm.words.agents import agent_name
from npc_tactics.i18n import Said, said_in, translations
from npc_tactics.locale_format import clauses, integer, percent
from npc_tactics.policy_io.agent import Policy

__all__ = ["Trust", "trust_of"]


def _count(episodes: Any) -> int:
    """The number that chooses the form of "({n} fights)": the episodes when given, else a plural ("? fights")."""
    return int(episodes) if isinstance(episodes, int | float) and not isinstance(episodes, bool) else 2


@dataclass(frozen=True)
class Trust:
    """``evaluation``: the last evaluation's rates per opponent (``opponent``, ``episodes``, ``win_rate`` ...)."""

    source: str
    scenario: str = ""
    timesteps: int | None = None
    trained_rules: str | None = None
    installed_rules: str = ""
    opponents: list[str] = field(default_factory=list)
    evaluation: list[dict[str, Any]] = field(default_factory=list)
    #: runs averaged in an ensemble bundle (1: a single policy); the other fields describe the first
    members: int = 1
    #: the scenarios a distilled policy follows a specialist on (empty: not distilled)
    teachers: list[str] = field(default_factory=list)
    #: play-outs of the search it was trained to follow (expert iteration; 0: none)
    search: int = 0
    #: the retreat specialist it follows where the NPC is losing ("": none)
    losing: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "scenario": self.scenario, "timesteps": self.timesteps,
                "trained_rules_version": self.trained_rules, "installed_rules_version": self.installed_rules,
                "rules_match": self.trained_rules == self.installed_rules, "opponents": list(self.opponents),
                "evaluation": [dict(e) for e in self.evaluation], "members": self.members,
                "teachers": list(self.teachers), "search": self.search, "losing": self.losing}

    def lines(self, _: Any, lang: str = "en") -> list[str]:
        """Plain lines for the table (``_`` translates; numbers written as ``lang`` writes them)."""
        steps = integer(self.timesteps, lang) if self.timesteps is not None else _("unknown")
        out = [_("trained {steps} steps on {scenario} against {opponents}").format(
            steps=steps, scenario=said_in(self.scenario, lang) or "?",
            opponents=", ".join(dict.fromkeys(agent_name(o, lang) for o in self.opponents)) or "?")]
        if self.members > 1:
            out.insert(0, _("an ensemble of {n} trained runs, their odds averaged; the first of them:").format(
                n=self.members))
        if self.teachers:
            out.append(_("distilled with a specialist trained on {scenarios}, whose moves it follows there").format(
                scenarios=", ".join(self.teachers)))
        if self.losing:
            out.append(_("where the NPC is losing (at most half its hit points, or its side well behind), it follows "
                         "a specialist trained to leave hopeless fights alive"))
        ngettext = translations(lang).ngettext
        if self.search:
            out.append(ngettext("then trained to play the moves a search of {n} play-out a decision finds (expert "
                                "iteration)",
                                "then trained to play the moves a search of {n} play-outs a decision finds (expert "
                                "iteration)", self.search).format(n=integer(self.search, lang)))
        if self.evaluation:
            parts = [ngettext("{rate} wins vs {opponent} ({n} fight)", "{rate} wins vs {opponent} ({n} fights)",
                              _count(e.get("episodes"))).format(
                rate=percent(float(e.get("win_rate", 0.0)), lang),
                opponent=agent_name(str(e.get("opponent", "?")), lang), n=e.get("episodes", "?"))
                for e in self.evaluation]
            out.append(_("last evaluation: ") + clauses(parts, lang))
        else:
            out.append(_("no evaluation recorded"))
        if self.trained_rules != self.installed_rules:
            out.append(_("trained under rules {old}, these are rules {new}: its advice may not fit").format(
                old=self.trained_rules or "?", new=self.installed_rules))
        else:
            out.append(_("rules version {v} (as trained)").format(v=self.installed_rules))
        return out


def _last_evaluation(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not rows:
        return []
    last = max(int(r.get("timesteps") or 0) for r in rows)
    return [r for r in rows if int(r.get("timesteps") or 0) == last]


def trust_of(source: str | Path | None, policy: Policy, installed_rules: str) -> Trust | None:
    """The trust record of a bundle (``policy.bundle``) or of a run folder ``source``; None when unknown."""
    bundle = policy.bundle
    if bundle is not None:
        s = bundle.schema
        keys = ("opponent", "episodes", "win_rate", "draw_rate", "flee_rate", "loss_rate")
        evaluation: list[dict[str, Any]] = [{k: e[k] for k in keys if k in e}
                                            for e in _last_evaluation(list(s.training.evaluation))]
        trained_on = (s.scenario if s.training.encounter is None
                      else Said("the encounter distribution {name}", name=s.training.encounter))
        return Trust(f"bundle {bundle.name}", trained_on, s.training.timesteps, s.rules_version, installed_rules,
                     list(s.training.opponents), evaluation, members=max(1, len(s.training.members)),
                     teachers=sorted(s.training.teachers), search=s.training.search, losing=s.training.losing)
    if source is None or not Path(source).is_dir():
        return None
    from npc_tactics.runs import RunDir

    run = RunDir(Path(source))
    try:
        config = run.raw_config()
    except Exception:  # a run whose config cannot be read has no trust record, the ranking still stands
        return None
    rows: list[dict[str, Any]] = []
    history = Path(source) / "eval_history.csv"
    if history.is_file():
        with history.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                try:
                    rows.append({"timesteps": int(row["timesteps"]), "opponent": row["opponent"],
                                 "episodes": int(row["episodes"]), "win_rate": float(row["win_rate"]),
                                 "flee_rate": float(row.get("flee_rate") or 0.0),
                                 "loss_rate": float(row.get("loss_rate") or 0.0)})
                except (KeyError, ValueError):
                    continue
    raw_budget = config.get("budget")
    budget: dict[str, Any] = raw_budget if isinstance(raw_budget, dict) else {}
    steps = max((int(r["timesteps"]) for r in rows), default=None) or budget.get("timesteps")
    evaluation = [{k: v for k, v in e.items() if k != "timesteps"} for e in _last_evaluation(rows)]
    opponents = config.get("opponents") or []
    names = [o if isinstance(o, str) else str(o.get("agent", o)) if isinstance(o, dict) else str(o)
             for o in (opponents if isinstance(opponents, list) else [opponents])]
    return Trust(f"run {run.name}", str(config.get("scenario", "")), int(steps) if steps else None,
                 run.spec_version(), installed_rules, names, evaluation)
