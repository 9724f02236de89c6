"""The answer of ``suggest``: ranked moves with probabilities and odds, the turn plan, trust and notes, as a
readable table (``format``) and as JSON (``to_dict``, also the body of ``POST /suggest``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npc_tactics.gm.advice.odds import MoveOdds
from npc_tactics.gm.advice.trust import Trust
from npc_tactics.gm.advice.turn import TurnPlan
from npc_tactics.i18n import translator

__all__ = ["RankedMove", "Suggestion"]


@dataclass(frozen=True)
class RankedMove:
    action: int
    name: str
    probability: float
    label: str = ""
    odds: MoveOdds | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.name, "index": self.action, "label": self.label or self.name,
                "probability": round(self.probability, 4),
                "odds": self.odds.to_dict() if self.odds is not None else None,
                "within_best": bool(self.odds.within_best) if self.odds is not None else None}


@dataclass(frozen=True)
class Suggestion:
    system: str
    actor: str
    decision: str
    round: int
    moves: list[RankedMove]
    notes: list[str] = field(default_factory=list)
    situation_text: str = ""
    assumptions: list[str] = field(default_factory=list)
    ranked_by: str = "policy"
    odds: int = 0
    opponent: str | None = None
    seed: int = 0
    out_of_distribution: list[tuple[str, float, float, float]] = field(default_factory=list)
    turn: TurnPlan | None = None
    trust: Trust | None = None
    card_rule: dict[str, Any] | None = None
    legal_moves: int = 0
    lang: str = "en"
    context: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "actor": self.actor,
            "decision": self.decision,
            "context": {k: v for k, v in self.context.items() if isinstance(v, str | int | float | bool)},
            "round": self.round,
            "ranked_by": self.ranked_by,
            "legal_moves": self.legal_moves,
            "moves": [m.to_dict() for m in self.moves],
            "odds": {"rollouts": self.odds, "opponent": self.opponent, "seed": self.seed} if self.odds else None,
            "out_of_distribution": [{"feature": n, "value": round(v, 4), "min": lo, "max": hi}
                                    for n, v, lo, hi in self.out_of_distribution],
            "turn": self.turn.to_dict() if self.turn is not None else None,
            "trust": self.trust.to_dict() if self.trust is not None else None,
            "card_rule": self.card_rule,
            "notes": list(self.notes),
            "assumptions": list(self.assumptions),
            "lang": self.lang,
        }

    def format(self) -> str:
        _ = translator(self.lang)
        lines = [_("{actor} ({system}, round {round}, {kind} decision):").format(
            actor=self.actor, system=self.system, round=self.round, kind=self.decision.lower())]
        width = max([28] + [len(m.label or m.name) for m in self.moves])
        if self.odds:
            lines.append("      " + _("move").ljust(width) + "  " + _("policy").rjust(6) + "  "
                         + _("win [95% interval]").ljust(19) + "  " + _("fled").rjust(5) + "  "
                         + _("dead").rjust(5) + "  " + _("rounds").rjust(6))
        for rank, m in enumerate(self.moves, 1):
            name = (m.label or m.name).ljust(width)
            if m.odds is None:
                bar = "#" * int(round(m.probability * 30))
                lines.append(f"  {rank:2d}. {name}  {m.probability:6.1%} {bar}")
                continue
            o = m.odds
            win = f"{o.win.rate:6.1%} [{o.win.low:.0%}-{o.win.high:.0%}]"
            mark = " *" if o.within_best else ""
            lines.append(f"  {rank:2d}. {name}  {m.probability:6.1%}  {win:<19}  {o.fled.rate:5.0%}  "
                         f"{o.dead.rate:5.0%}  {o.rounds:6.1f}{mark}")
        if self.odds:
            lines.append("  " + _("{n} rollouts per move against {opponent} (seed {seed}); * = win rate within "
                                  "the best move's 95% interval").format(n=self.odds, opponent=self.opponent,
                                                                          seed=self.seed))
        if self.card_rule:
            lines.append("  " + _("card rule: {text}").format(text=self.card_rule["text"]))
        if self.turn is not None:
            lines.append("  " + self.turn.text(_))
        if self.trust is not None:
            lines.extend("  " + _("trust: {line}").format(line=t) for t in self.trust.lines(_))
        lines.extend("  " + _("note: {note}").format(note=n) for n in self.notes)
        lines.extend("  " + _("assumed: {a}").format(a=a) for a in self.assumptions)
        return "\n".join(lines)
