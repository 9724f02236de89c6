"""OSE event sentences (events of ``rules/ose``)."""

from __future__ import annotations

import re

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event
from npc_tactics.systems.ose.narrate_effects import EFFECT_CAUSES, EFFECT_SENTENCES
from npc_tactics.systems.ose.narrate_spells import SPELL_CAUSES, SPELL_SENTENCES

__all__ = ["SENTENCES"]

_HIT = {"hit": N_("hit"), "miss": N_("miss"), "natural_1": N_("natural 1, a miss"),
        "natural_20": N_("natural 20, a hit")}
_RANGE = {"short": N_("short"), "medium": N_("medium"), "long": N_("long"), "melee": N_("melee")}
CAUSES = {"melee": N_("melee"), "missile": N_("missile"), "magic_missile": N_("Magic Missile"),
          "damage": N_("damage"), "hit": N_("hit"), "sleep": N_("Sleep"), "hold_person": N_("Hold Person"),
          "morale": N_("morale"), "escaped_distance": N_("out of sight"), "escaped_edge": N_("off the field")}
CAUSES.update(SPELL_CAUSES)
CAUSES.update(EFFECT_CAUSES)
_SIDE = {"none": N_("nobody"), "tie": N_("a tie")}
_SIDE_KEY = re.compile(r"side_(\d+)")


def _side(key: object, t: Teller) -> str:
    """A side result (``side_0``) by the side's name where the telling has it ("side 0" if not); else in words."""
    m = _SIDE_KEY.fullmatch(str(key))
    return t.side(m[1]) if m else t.term(_SIDE, key)


def _rolls(e: Event) -> str:
    return "–".join(str(r) for r in e.data.get("rolls", []))


def _attack(e: Event, t: Teller) -> str:
    result = t.term(_HIT, e.data["result"])
    weapon = t.weapon(e.data.get("weapon"))
    if e.data.get("missile"):
        return t.say("{actor} shoots at {target} with {weapon} at {range} range: {result} ({total} against {need}).",
                     e, weapon=weapon, result=result, range=t.term(_RANGE, e.data.get("range")))
    return t.say("{actor} strikes at {target} with {weapon}: {result} ({total} against {need}).",
                 e, weapon=weapon, result=result)


def _damage(e: Event, t: Teller) -> str:
    return t.fill(t.ngettext("{target} loses {amount} hit point ({cause}); {hp} left.",
                             "{target} loses {amount} hit points ({cause}); {hp} left.", int(e.data["amount"])), e,
                  cause=t.term(CAUSES, e.data.get("cause")))


def _declare(e: Event, t: Teller) -> str:
    result = e.data["result"]
    if result == "cast":
        if e.target is not None and e.target != e.actor:
            return t.say("{actor} declares a spell: {spell} at {target}.", e, spell=t.spell(e.data.get("spell")))
        return t.say("{actor} declares a spell: {spell}.", e, spell=t.spell(e.data.get("spell")))
    if result == "withdraw":
        return t.say("{actor} declares a fighting withdrawal.", e)
    if result == "retreat":
        return t.say("{actor} declares a retreat.", e)
    raise ValueError(result)


def _individual(e: Event, t: Teller) -> str:
    """Option ``initiative: individual`` (ose-bx.md §3): each combatant's d6 + modifier, highest (acting
    first) to lowest. ``rolls`` holds a score per combatant and 0 for those out of the fight, who are left out
    (a score of 0 from a low roll and a negative modifier is left out too: the event cannot tell them apart)."""
    scores = sorted(((int(r), -i) for i, r in enumerate(e.data["rolls"]) if r), reverse=True)
    order = ", ".join(f"{t.name(-i)} {r}" for r, i in scores)
    return t.say("Initiative, each for itself (d6 + modifier): {order}.", e, order=order or t._("nobody"))


def _initiative(e: Event, t: Teller) -> str:
    if e.data["result"] == "individual":
        return _individual(e, t)
    if e.data["result"] == "tie":
        return t.say("Initiative is tied ({rolls}): both sides act at the same time.", e, rolls=_rolls(e))
    return t.say("Initiative ({rolls}): {side} first.", e, rolls=_rolls(e), side=_side(e.data["result"], t))


def _move_order(e: Event, t: Teller) -> str:
    return t.say("Movement order ({rolls}): {side} first.", e, rolls=_rolls(e), side=_side(e.data["result"], t))


def _morale(e: Event, t: Teller) -> str:
    if e.data["result"] == "passed":
        return t.say("{actor} checks morale ({roll} against {morale}) and stands firm.", e)
    return t.say("{actor} checks morale ({roll} against {morale}) and breaks.", e)


def _move(e: Event, t: Teller) -> str:
    result = e.data["result"]
    if result == "close":
        if e.data.get("charge"):
            return t.say("{actor} charges {target} (square {start} to {end}).", e)
        return t.say("{actor} closes in on {target} (square {start} to {end}).", e)
    if result == "withdraw":
        return t.say("{actor} withdraws, still fighting (square {start} to {end}).", e)
    if result == "retreat":
        return t.say("{actor} turns and retreats (square {start} to {end}).", e)
    if result == "away":
        return t.say("{actor} moves away from the enemies (square {start} to {end}).", e)
    raise ValueError(result)


def _save(e: Event, t: Teller) -> str:
    if e.data["result"] == "saved":
        return t.say("{actor} saves against the spell ({roll}, modifier {modifier}, needs {need}).", e)
    return t.say("{actor} fails the saving throw ({roll}, modifier {modifier}, needs {need}).", e)


def _sleep(e: Event, t: Teller) -> str:
    n = int(e.data.get("count", 0))
    return t.ngettext("{actor}'s Sleep puts {count} creature to sleep.",
                      "{actor}'s Sleep puts {count} creatures to sleep.", n).format(actor=t.actor(e), count=n)


def _spell(e: Event, t: Teller) -> str:
    spell = t.spell(e.data.get("spell"))
    if e.data["result"] == "no_target":
        return t.say("{actor} casts {spell}, but the target is gone.", e, spell=spell)
    return t.say("{actor} casts {spell} on {target}.", e, spell=spell)


def _disrupted(e: Event, t: Teller) -> str:
    return t.say("{actor} loses the spell {spell} ({cause}).", e, spell=t.spell(e.data.get("spell")),
                 cause=t.term(CAUSES, e.data.get("cause")))


def _status(e: Event, t: Teller) -> str:
    status = e.data["status"]
    cause = t.term(CAUSES, e.data.get("cause"))
    if status == "dead":
        return t.say("{who} dies ({cause}).", e, cause=cause)
    if status == "fled":
        return t.say("{who} leaves the fight ({cause}).", e, cause=cause)
    if status == "incapacitated":
        return t.say("{who} is out of the fight ({cause}).", e, cause=cause)
    if status == "unconscious":
        return t.say("{who} falls unconscious ({cause}).", e, cause=cause)
    if status == "surrendered":  # a broken morale with no way back (morale.py)
        return t.say("{who} is out of the fight ({cause}).", e, cause=cause)
    if status == "active":  # a downed regenerator rises (rules/effects.py)
        return t.say("{who} rises and fights again ({cause}).", e, cause=cause)
    raise ValueError(status)


def _surprise(e: Event, t: Teller) -> str:
    if e.data["result"] == "none":
        return t.say("Surprise ({rolls}): nobody is surprised.", e, rolls=_rolls(e))
    return t.say("Surprise ({rolls}): {side} surprised.", e, rolls=_rolls(e), side=_side(e.data["result"], t))


SENTENCES: dict[str, Sentence] = {
    "attack": _attack,
    "damage": _damage,
    "declare": _declare,
    "heal": lambda e, t: t.fill(t.ngettext("{target} regains {amount} hit point ({hp} now).",
                                           "{target} regains {amount} hit points ({hp} now).",
                                           int(e.data["amount"])), e),
    "hold": lambda e, t: t.say("Hold Person has no hold on {target}.", e),
    "immune": lambda e, t: t.say("{target} is immune: the blow of {actor} does nothing.", e),
    "initiative": _initiative,
    "morale": _morale,
    "move": _move,
    "move_order": _move_order,
    "round_start": lambda e, t: t.say("— Round {round} —", e),
    "save": _save,
    "set_vs_charge": lambda e, t: t.say("{actor} sets the weapon against the charge of {target}.", e),
    "sleep": _sleep,
    "spell": _spell,
    "spell_disrupted": _disrupted,
    "status": _status,
    "surprise": _surprise,
}
SENTENCES.update(SPELL_SENTENCES)
SENTENCES.update(EFFECT_SENTENCES)
