"""Sentences of the attack-effect events of :mod:`.events_effects`, and the causes they add (added to
:mod:`.narrate`)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event

__all__ = ["EFFECT_CAUSES", "EFFECT_SENTENCES"]

EFFECTS = {"paralysis": N_("paralysis"), "poison": N_("poison"), "petrification": N_("petrification"),
           "energy drain": N_("energy drain"), "disease": N_("disease"), "blood drain": N_("blood drain"),
           "charm": N_("charm"), "breath": N_("the breath"), "gaze_petrification": N_("the petrifying gaze"),
           "gaze_paralysis": N_("the paralysing gaze"), "gaze_charm": N_("the charm"),
           "constriction": N_("constriction"), "hold": N_("the hold"), "swallow": N_("swallowing")}
BREATHS = {"fire": N_("fire"), "cold": N_("frost"), "acid": N_("acid"), "gas": N_("poison gas"),
           "lightning": N_("lightning"), "petrification": N_("petrifying gas")}
SAVES = {"death": N_("death"), "wands": N_("wands"), "paralysis": N_("paralysis"), "breath": N_("breath"),
         "spells": N_("spells")}
DAMAGE_KINDS = {"fire": N_("fire"), "cold": N_("cold"), "lightning": N_("lightning"), "acid": N_("acid"),
                "gas": N_("gas"), "poison": N_("poison")}
WEAPON_NEEDS = {"silver": N_("a silver or magic weapon"), "magic": N_("a magic weapon")}


def _effect(e: Event, t: Teller) -> str:
    effect = t.term(EFFECTS, e.data["effect"])
    result = e.data["result"]
    if result == "unaffected" and e.data["effect"] == "swallow":
        return t.say("{target} is too big for {actor} to swallow.", e)
    if result == "unaffected":
        return t.say("{target} is not affected by the {effect}.", e, effect=effect)
    if result == "affected":
        return t.say("{target} is struck by {effect}.", e, effect=effect)
    if result == "drains":
        return t.say("{actor}, latched on, drains {target}'s blood.", e)
    if result == "averted":
        return t.say("{target} averts its eyes from {actor}'s gaze.", e)
    if result == "mirror":
        return t.say("{target} fights {actor} by a mirror, safe from its gaze.", e)
    if result in _HOLDS:
        return _hold(e, t, result)
    save = t.term(SAVES, e.data.get("save"))
    if result == "saved":
        return t.say("{target} saves against {effect} (save versus {save}: {roll}, needs {need}).", e,
                     effect=effect, save=save)
    return t.say("{target} fails the save against {effect} (save versus {save}: {roll}, needs {need}).", e,
                 effect=effect, save=save)


_HOLDS = ("held", "squeezes", "automatic", "swallowed", "digests", "released")


def _hold(e: Event, t: Teller, result: str) -> str:
    """Holds, constriction and swallowing (rules/holds.py)."""
    if result == "held":
        if e.data["effect"] == "constriction":
            return t.say("{actor} coils round {target}.", e)
        return t.say("{actor} holds {target} fast.", e)
    if result == "squeezes":
        return t.say("{actor} squeezes {target} in its coils.", e)
    if result == "automatic":
        return t.say("{actor} strikes {target}, held fast, without an attack roll.", e)
    if result == "swallowed":
        return t.say("{actor} swallows {target} whole.", e)
    if result == "digests":
        return t.say("{target} is being digested inside {actor}.", e)
    return t.say("{target} is freed from inside {actor}.", e)


def _drain(e: Event, t: Teller) -> str:
    if e.data["result"] == "slain":
        return t.say("{actor} drains the last of {target}'s life.", e)
    return t.fill(t.ngettext("{actor} drains a level from {target}: level {level} now, {lost} hit point lost "
                             "({hp} of {max_hp} left).",
                             "{actor} drains a level from {target}: level {level} now, {lost} hit points lost "
                             "({hp} of {max_hp} left).", int(e.data["lost"])), e)


def _resist(e: Event, t: Teller) -> str:
    kind = t.term(DAMAGE_KINDS, e.data["damage_kind"])
    if e.data["result"] == "immune":
        return t.say("{target} is immune to {kind}.", e, kind=kind)
    return t.say("{target} takes only half damage from {kind} ({amount}).", e, kind=kind)


def _breath(e: Event, t: Teller) -> str:
    n, amount = int(e.data.get("count", 0)), int(e.data["damage"])
    damage = t.ngettext("{n} damage", "{n} damage", amount).format(n=amount)  # "1 point de dégâts"
    text = t.ngettext("{actor} breathes {breath} at {target} ({damage}): {count} creature in the area.",
                      "{actor} breathes {breath} at {target} ({damage}): {count} creatures in the area.", n)
    return text.format(actor=t.actor(e), target=t.target(e), breath=t.term(BREATHS, e.data["breath"]),
                       damage=damage, count=n)


EFFECT_SENTENCES: dict[str, Sentence] = {
    "breath": _breath,
    "effect": _effect,
    "drain": _drain,
    "unharmed": lambda e, t: t.say("{target} is unharmed: only {needs} can hurt it.", e,
                                   needs=t.term(WEAPON_NEEDS, e.data["needs"])),
    "resist": _resist,
    "regenerate": lambda e, t: t.fill(t.ngettext("{actor} regenerates {amount} hit point ({hp} now).",
                                                 "{actor} regenerates {amount} hit points ({hp} now).",
                                                 int(e.data["amount"])), e),
}
#: status and damage causes the attack effects add
EFFECT_CAUSES: dict[str, str] = {
    "paralysis": N_("paralysis"), "poison": N_("poison"), "petrification": N_("petrification"),
    "energy_drain": N_("energy drain"), "regenerating": N_("down, regenerating"),
    "regeneration": N_("regenerated"), "charm": N_("charmed"), "blood_drain": N_("blood drain"),
    "breath": N_("breath weapon"), "gaze_petrification": N_("turned to stone"), "gaze_paralysis": N_("paralysed"),
    "gaze_charm": N_("charmed"), "fire": N_("fire"), "cold": N_("frost"), "acid": N_("acid"), "gas": N_("poison gas"),
    "lightning": N_("lightning"), "constriction": N_("constriction"), "digestion": N_("digestion"),
    "swallowed": N_("swallowed"), "released": N_("released"),
}
