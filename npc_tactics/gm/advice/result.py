"""The answer of ``suggest``: ranked moves with probabilities and odds, the turn plan, trust and notes, as a
readable table (``format``) and as JSON (``to_dict``, also the body of ``POST /suggest``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from npc_tactics.agents.search import Ranked
from npc_tactics.gm.advice.odds import MoveOdds, cannot_tell
from npc_tactics.gm.advice.trust import Trust
from npc_tactics.gm.advice.turn import TurnPlan
from npc_tactics.gm.words.agents import agent_name
from npc_tactics.i18n import said_in, translations, translator
from npc_tactics.locale_format import decimal, integer
from npc_tactics.locale_format import percent as pct

__all__ = ["RankedMove", "SearchSummary", "Suggestion"]


@dataclass(frozen=True)
class RankedMove:
    action: int
    name: str
    probability: float
    label: str = ""
    odds: MoveOdds | None = None
    searched: Ranked | None = None

    def to_dict(self) -> dict[str, Any]:
        s = self.searched
        return {"action": self.name, "index": self.action, "label": self.label or self.name,
                "probability": round(self.probability, 4),
                "odds": self.odds.to_dict() if self.odds is not None else None,
                "within_best": bool(self.odds.within_best) if self.odds is not None else None,
                "search": {"value": round(s.value, 4), "playouts": s.n} if s is not None and s.n else None}


@dataclass(frozen=True)
class SearchSummary:
    """What the decision-time search spent: play-outs, seconds, the time or play-out budget it was given, the
    policy's own move (the search plays another only when it clearly ends better) and who played the other side."""

    playouts: int
    seconds: float
    think: float | None
    budget: int | None
    policy_move: int
    opponent: str

    def to_dict(self) -> dict[str, Any]:
        return {"playouts": self.playouts, "seconds": round(self.seconds, 3), "think": self.think,
                "budget": self.budget, "policy_move": self.policy_move, "opponent": self.opponent}

    def text(self, actor: str, moves: list[RankedMove], lang: str) -> str:
        """One line: what the search spent, what a value means, and whether it overruled the policy."""
        _ = translator(lang)
        line = translations(lang).ngettext(
            "searched {n} play-out in {seconds} s ({actor}'s side played on by the policy; the other side: "
            "{opponent}); value: win 1, draw 0.5, fled 0.25, lost 0, plus 0.25 if {actor} lives",
            "searched {n} play-outs in {seconds} s ({actor}'s side played on by the policy; the other side: "
            "{opponent}); value: win 1, draw 0.5, fled 0.25, lost 0, plus 0.25 if {actor} lives",
            self.playouts).format(n=integer(self.playouts, lang), seconds=decimal(self.seconds, lang, 1), actor=actor,
                                  opponent=agent_name(self.opponent, lang))
        if moves and moves[0].action != self.policy_move:
            own = next((m.label or m.name for m in moves if m.action == self.policy_move), None)
            if own is not None:
                line += "; " + _("the search overrules the policy's own move ({move})").format(move=own)
        elif moves and moves[0].searched is not None and any(
                m.searched is not None and m.searched.n and m.searched.value > moves[0].searched.value
                for m in moves[1:]):
            line += "; " + _("a higher value below is within the noise of these play-outs: the policy's move "
                             "stands")
        return line


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
    search: SearchSummary | None = None

    def odds_verdict(self) -> str | None:
        """"The odds cannot tell these moves apart (N rollouts each)" when the rollouts separate no move from the
        best (then no move is starred); None otherwise."""
        if not cannot_tell([m.odds for m in self.moves]):
            return None
        return translations(self.lang).ngettext(
            "the odds cannot tell these moves apart ({n} rollout each)",
            "the odds cannot tell these moves apart ({n} rollouts each)", self.odds).format(
                n=integer(self.odds, self.lang))

    def shown_rule(self) -> dict[str, Any] | None:
        """The card rule as shown: said plainly when its move is not the top move here
        (:func:`npc_tactics.gm.words.labels.against_top`)."""
        from npc_tactics.gm.words.labels import against_top

        if self.card_rule is None or not self.moves:
            return self.card_rule
        top = self.moves[0]
        return against_top(self.card_rule, top.action, top.label or top.name, self.lang)

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
            "card_rule": self.shown_rule(),
            "odds_verdict": self.odds_verdict(),
            "search": self.search.to_dict() if self.search is not None else None,
            "notes": list(self.notes) + [v for v in (self.odds_verdict(),) if v]
            + ([self.search.text(self.actor, self.moves, self.lang)] if self.search is not None else []),
            "assumptions": [said_in(a, self.lang) for a in self.assumptions],
            "lang": self.lang,
        }

    def format(self) -> str:
        _ = translator(self.lang)
        ngettext = translations(self.lang).ngettext
        lines = [_("{actor} ({system}, round {round}, {kind} decision):").format(
            actor=self.actor, system=self.system, round=self.round, kind=self.decision.lower())]
        width = max([28] + [len(m.label or m.name) for m in self.moves])
        if self.odds:
            lines.append("      " + _("move").ljust(width) + "  " + _("policy").rjust(6) + "  "
                         + _("win [range at 95%]").ljust(19) + "  " + _("draw").rjust(5) + "  "
                         + _("fled").rjust(5) + "  " + _("lost").rjust(5) + "  " + _("dead").rjust(5) + "  "
                         + _("rounds").rjust(6))
        lang = self.lang

        def p(x: float, digits: int = 0, width: int = 5) -> str:
            return pct(x, lang, digits).rjust(width)

        def searched(m: RankedMove) -> str:
            if m.searched is None or not m.searched.n:
                return ""
            return "  " + ngettext("value {value} ({n} play-out)", "value {value} ({n} play-outs)",
                                   m.searched.n).format(value=decimal(m.searched.value, lang, 2),
                                                        n=integer(m.searched.n, lang))

        for rank, m in enumerate(self.moves, 1):
            name = (m.label or m.name).ljust(width)
            if m.odds is None:
                bar = "#" * int(round(m.probability * 30))
                lines.append(f"  {rank:2d}. {name}  {p(m.probability, 1, 6)}{searched(m)} {bar}".rstrip())
                continue
            o = m.odds
            win = f"{p(o.win.rate, 1, 6)} [{pct(o.win.low, lang)}-{pct(o.win.high, lang)}]"
            draw = o.draw.rate if o.draw is not None else 0.0
            mark = " *" if o.within_best else ""
            lines.append(f"  {rank:2d}. {name}  {p(m.probability, 1, 6)}  {win:<19}  {p(draw)}  {p(o.fled.rate)}  "
                         f"{p(o.loss.rate)}  {p(o.dead.rate)}  {decimal(o.rounds, lang).rjust(6)}{mark}{searched(m)}")
        if self.search is not None:
            lines.append("  " + self.search.text(self.actor, self.moves, lang))
        if self.odds:
            verdict = self.odds_verdict()
            legend = verdict or _("* = cannot be told apart from the best expected outcome (win, draw, fled, lost "
                                  "and the NPC's survival; the same dice for every move, 95%)")
            lines.append("  " + ngettext("{n} rollout per move (the other side: {opponent}; seed {seed}); {legend}",
                                         "{n} rollouts per move (the other side: {opponent}; seed {seed}); {legend}",
                                         self.odds).format(
                n=integer(self.odds, lang), opponent=agent_name(str(self.opponent), lang), seed=self.seed,
                legend=legend))
        rule = self.shown_rule()
        if rule:
            lines.append("  " + _("card rule: {text}").format(text=rule["text"]))
        if self.turn is not None:
            lines.append("  " + self.turn.text(_))
        if self.trust is not None:
            lines.extend("  " + _("trust: {line}").format(line=t) for t in self.trust.lines(_, self.lang))
        lines.extend("  " + _("note: {note}").format(note=n) for n in self.notes)
        lines.extend("  " + _("assumed: {a}").format(a=said_in(a, self.lang)) for a in self.assumptions)
        return "\n".join(lines)
