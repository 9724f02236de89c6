"""Sentences of the spell events of :mod:`.events_spells`, and the causes they add (added to :mod:`.narrate`)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event

__all__ = ["SPELL_CAUSES", "SPELL_SENTENCES"]

#: lasting effects in the GM's words (``mirror_image_<n>`` and ``silence_at:<square>`` are read by their stem)
CONDITIONS: dict[str, str] = {
    "shield": N_("a magic shield"), "protection_from_evil": N_("Protection from Evil"),
    "invisible": N_("invisibility"), "mirror_image": N_("a mirror image"), "blind": N_("blindness"),
    "webbed": N_("a web"), "fainted": N_("a faint"), "haste": N_("Haste"), "bless": N_("a blessing"),
    "striking": N_("a striking weapon"), "silenced": N_("a silence"), "silence_at": N_("a silence"),
}
_HIT = {"hit": N_("hit"), "miss": N_("miss"), "natural_1": N_("natural 1, a miss"),
        "natural_20": N_("natural 20, a hit")}


def _stem(name: object) -> str:
    text = str(name)
    if text.startswith("mirror_image_"):
        return "mirror_image"
    return text.split(":", 1)[0]


def _condition(e: Event, t: Teller) -> str:
    stem = _stem(e.data.get("condition"))
    what = t.term(CONDITIONS, stem)
    result = e.data["result"]
    if stem == "silence_at":  # a silence left at a square, kept on its caster
        square = str(e.data.get("condition", "")).split(":", 1)[-1]
        if result == "begins":
            return t.fill(t.ngettext("A silence stays at square {square} for {rounds} round.",
                                     "A silence stays at square {square} for {rounds} rounds.",
                                     int(e.data["rounds"])), e, square=square)
        return t.say("The silence at square {square} ends.", e, square=square)
    if result == "begins":
        if int(e.data.get("rounds", 0)) < 0:
            return t.say("{actor} is under {what} for the rest of the fight.", e, what=what)
        return t.fill(t.ngettext("{actor} is under {what} for {rounds} round.",
                                 "{actor} is under {what} for {rounds} rounds.", int(e.data["rounds"])), e, what=what)
    if result == "ends":
        return t.say("{actor} is no longer under {what}.", e, what=what)
    if result == "broken":
        return t.say("{actor} attacks or casts: {what} ends.", e, what=what)
    if result == "absorbed":
        return t.say("The blow at {actor} strikes {what}, which vanishes.", e, what=what)
    raise ValueError(result)


def _area(e: Event, t: Teller) -> str:
    n = int(e.data.get("count", 0))
    spell = t.spell(e.data.get("spell"))
    return t.ngettext("{actor}'s {spell} takes {count} creature.",
                      "{actor}'s {spell} takes {count} creatures.", n).format(actor=t.actor(e), spell=spell, count=n)


def _touch(e: Event, t: Teller) -> str:
    return t.say("{actor} reaches out to touch {target}: {result} ({total} against {need}).", e,
                 result=t.term(_HIT, e.data["result"]))


SPELL_SENTENCES: dict[str, Sentence] = {
    "condition": _condition,
    "area": _area,
    "touch_attack": _touch,
    "spell_unaffected": lambda e, t: t.say("{spell} has no hold on {target}.", e, spell=t.spell(e.data.get("spell"))),
    "spell_blocked": lambda e, t: t.say("{actor} cannot speak the words of {spell} in the silence.", e,
                                        spell=t.spell(e.data.get("spell"))),
}
#: status and damage causes the spells add (e.g. a spell's id -> its name in the GM's words)
SPELL_CAUSES: dict[str, str] = {
    "charm_person": N_("Charm Person"), "fire_ball": N_("Fire Ball"), "lightning_bolt": N_("Lightning Bolt"),
    "cause_light_wounds": N_("Cause Light Wounds"), "silence": N_("Silence 15' Radius"),
}
