"""The advisor of a tracked fight: at an NPC's decision, the move to play and two or three alternatives, ranked by
what a GM means by "best" for the NPC's side, with the odds in plain words.

Why not ``suggest``'s ranking: it starts from a situation file and ranks by win rate, which says nothing when
every move wins about 0% (a retreat that saves the band and a last stand that loses it look alike). Here the
state is the fight's own, and each candidate is played on ``odds`` times to the end (the NPC side by the
policy, the other side by ``opponent``; :mod:`npc_tactics.rollouts`, common random numbers across moves):

* the NPC side's result shares: win, draw, fled, lost (they add to 100%);
* the acting NPC's survival (not dead at the end);
* the score: ``win + draw/2 + fled/4`` (lost counts 0) plus ``SURVIVAL_WEIGHT`` x survival, the mean over
  rollouts (:func:`npc_tactics.gm.advice.odds.rollout_value`, shared with ``suggest``). A side that flees keeps
  its lives; an NPC that lives can fight another day.

The move to play is the policy's own unless the best-scoring candidate beats it clearly: by more than the
search's margin and by two standard errors of their paired difference
(:func:`npc_tactics.agents.search.clearly_better`, the search agent's rule; a highest mean over 24 plays is
often noise, and overruling on noise is what made the margin-only search lose to the network). A move "cannot
be told apart" from the one to play when the paired difference of their scores (rollout k of both moves shares
its dice seed) is not below zero at 95%. When every candidate is tied, the answer says the odds cannot tell them
apart with that many rollouts instead of starring them all. The candidates are the policy's ``top`` most
probable legal moves; without rollouts they are ranked by the policy alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.search import clearly_better
from npc_tactics.gm.advice.odds import not_worse, rollout_value
from npc_tactics.gm.advice.unusual import rests_on, unusual_lines
from npc_tactics.gm.words.labels import card_rule
from npc_tactics.i18n import translations, translator
from npc_tactics.locale_format import percent as pct
from npc_tactics.plugin import System
from npc_tactics.rollouts import RolloutJob, run_rollouts

__all__ = ["MoveAdvice", "advise", "pct"]

#: Candidates rolled out: the policy's most probable legal moves.
TOP = 5
#: Alternatives shown under the move to play.
ALTERNATIVES = 3
DOMAIN = "web"


@dataclass(frozen=True)
class MoveAdvice:
    action: int
    name: str
    label: str
    probability: float
    shares: dict[str, float] | None = None  #: win, draw, fled, lost
    survival: float | None = None
    score: float | None = None
    tied: bool = False  #: cannot be told apart from the best with these rollouts

    def to_dict(self, actor: str, lang: str) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.name, "index": self.action, "label": self.label,
                               "probability": round(self.probability, 4), "tied": self.tied}
        if self.shares is not None and self.survival is not None and self.score is not None:
            out.update(shares={k: round(v, 4) for k, v in self.shares.items()}, survival=round(self.survival, 4),
                       score=round(self.score, 4), odds_text=odds_text(self.shares, self.survival, actor, lang))
        return out


def odds_text(shares: dict[str, float], survival: float, actor: str, lang: str) -> str:
    _ = translator(lang, DOMAIN)
    return _("wins {win}, draw {draw}, flees {fled}, loses {lost}; {actor} lives {survive}").format(
        win=pct(shares["win"], lang), draw=pct(shares["draw"], lang), fled=pct(shares["fled"], lang),
        lost=pct(shares["lost"], lang), actor=actor, survive=pct(survival, lang))


def advise(engine: Any, encoder: Any, state: Any, policy: Any, bundle: Path | None, system: System,
           label: Callable[[Any, Any, int], str], *, lang: str = "en", odds: int = 24, seed: int = 0,
           opponent: str = "by-the-book", top: int = TOP, workers: int | None = 1) -> dict[str, Any]:
    """The advisor's answer at the pending decision of ``state`` (see the module docstring)."""
    _ = translator(lang, DOMAIN)
    ngettext = translations(lang, DOMAIN).ngettext
    decision = engine.pending(state)
    mask = engine.legal_mask(state, decision)
    vector = encoder.encode(state, decision)
    probs = np.asarray(policy.action_probabilities(vector, mask), dtype=float)
    legal = [int(a) for a in np.flatnonzero(mask)]
    by_policy = sorted(legal, key=lambda a: (-float(probs[a]), a))
    candidates = by_policy[:max(1, top)]
    actor = str(state.combatants[decision.actor].name)
    notes: list[str] = []
    outside = policy.out_of_range(vector) if hasattr(policy, "out_of_range") else []
    if outside:  # what is unusual, by creature and in the game's words
        notes.extend(unusual_lines(system, state, decision, outside, lang))
        notes.append(rests_on(lang, rollouts=odds, fallback=False) if odds <= 0 else
                     ngettext("the ranking rests on the {n} play per move more than on the policy",
                              "the ranking rests on the {n} plays per move more than on the policy", odds).format(
                                  n=odds))
    if decision.side != getattr(policy, "side", decision.side):
        notes.append(_("the policy was trained for the other side; it ranks this move from its own side's view"))
    moves: list[MoveAdvice] = []
    if odds > 0 and len(legal) > 1:
        spec = str(bundle) if bundle is not None else "by-the-book"
        sides = tuple(spec if s == decision.side else opponent for s in range(int(engine.spec.sides)))
        runs = run_rollouts(RolloutJob(engine, state, decision.actor, decision.side, sides), candidates, odds,
                            seed=seed, workers=workers)
        values = {m: [rollout_value(r) for r in rs] for m, rs in runs.items()}
        top_scored = max(candidates, key=lambda m: (sum(values[m]) / odds, float(probs[m]), -m))
        own = candidates[0]  # the policy's most probable move
        best = top_scored if clearly_better(values[top_scored], values[own]) else own
        for m in candidates:
            rs = runs[m]
            shares = {key: sum(r.result == res for r in rs) / odds
                      for key, res in (("win", "win"), ("draw", "draw"), ("fled", "fled"), ("lost", "loss"))}
            moves.append(MoveAdvice(m, engine.catalogue.name(m), label(state, decision, m), float(probs[m]), shares,
                                    sum(r.actor != "dead" for r in rs) / odds, sum(values[m]) / odds,
                                    m == best or not_worse(values[best], values[m])))
        moves.sort(key=lambda a: (a.action != best, -(a.score or 0.0), -a.probability, a.action))
        if len(moves) > 1 and all(a.tied for a in moves):
            notes.append(ngettext("with {n} play per move the odds cannot tell these moves apart; the first is the "
                                  "policy's choice among them",
                                  "with {n} plays per move the odds cannot tell these moves apart; the first is the "
                                  "policy's choice among them", odds).format(n=odds))
            moves.sort(key=lambda a: (-a.probability, a.action))
        elif top_scored != best:
            notes.append(ngettext("{move} scored higher over {n} play per move, but not clearly enough to overrule "
                                  "the policy",
                                  "{move} scored higher over {n} plays per move, but not clearly enough to overrule "
                                  "the policy", odds).format(move=label(state, decision, top_scored), n=odds))
    else:
        moves = [MoveAdvice(m, engine.catalogue.name(m), label(state, decision, m), float(probs[m]))
                 for m in candidates]
    rule = card_rule(str(bundle) if bundle is not None else None, system, engine, state, decision, lang,
                     top=moves[0].action)
    shown = {a.action for a in moves[:1 + ALTERNATIVES]}
    return {
        "actor": actor, "actor_index": int(decision.actor), "side": int(decision.side),
        "do": moves[0].to_dict(actor, lang),
        "do_text": _("Do: {move}").format(move=moves[0].label),
        "alternatives": [a.to_dict(actor, lang) for a in moves[1:1 + ALTERNATIVES]],
        "more": [{"action": engine.catalogue.name(a), "index": a, "label": label(state, decision, a),
                  "probability": round(float(probs[a]), 4)} for a in by_policy if a not in shown],
        "ranked_by": "rollouts" if moves and moves[0].score is not None else "policy",
        "odds": odds if moves and moves[0].score is not None else 0,
        "card_rule": rule, "notes": notes, "legal_moves": len(legal),
    }
