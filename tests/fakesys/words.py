"""The fake system in a GM's words: move names, one sentence per event kind, a summary line per combatant.

Every phrase is one the shipped French catalogue already holds (the fake adds no message of its own), so its
fights are told in English and French like a real system's, only more tersely.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.hooks import SystemWords
from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.gm.words.summary import Tr, hit_points
from npc_tactics.i18n import N_
from npc_tactics.rules.base import ActionSpec, Event

__all__ = ["WORDS"]

_HIT = {"hit": N_("hit"), "miss": N_("miss"), "natural_1": N_("natural 1, a miss"),
        "natural_20": N_("natural 20, a hit")}
_VERBS = {"attack": N_("attack"), "defend": N_("defend"), "flee": N_("flee")}


def label(spec: ActionSpec, w: Words) -> str:
    verb = w._(_VERBS[spec.verb])
    return f"{verb} {w.target(spec)}" if spec.target == "enemy" else verb


def _attack(e: Event, t: Teller) -> str:
    opening = t._("{actor} attacks {target}").format(actor=t.actor(e), target=t.target(e))
    return f"{opening} — {t.term(_HIT, e.data['result'])}."


def _damage(e: Event, t: Teller) -> str:
    return f"{t.target(e)} — {t._('damage')} {int(e.data['amount'])}."


def _morale(e: Event, t: Teller) -> str:
    result = t._("success") if e.data["passed"] else t._("failure")
    return f"{t.actor(e)} — {t._('morale')} — {result}."


SENTENCES: dict[str, Sentence] = {
    "round_start": lambda e, t: t.say("— Round {round} —", e),
    "attack": _attack,
    "damage": _damage,
    "death": lambda e, t: t.say("{who} dies.", e),
    "defend": lambda e, t: t.say("{actor} acts: {what}.", e, what=t._("defend")),
    "flee": lambda e, t: t.say("{actor} flees the fight.", e),
    "morale": _morale,
}


def details(state: Any, i: int, _: Tr, lang: str = "en") -> list[str]:
    return [hit_points(state.combatants[i], _)]


WORDS = SystemWords(label=label, sentences=SENTENCES, details=details)
