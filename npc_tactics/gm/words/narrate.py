"""A fight told blow by blow in plain words, from its event log, in English or French.

Every event kind an engine emits is declared in its system's ``events.py`` (:mod:`npc_tactics.rules.events`) and
has a sentence in its ``narrate.py`` (a dict ``SENTENCES`` from kind to a function of the event and a
:class:`Teller`, reached through the words hook ``SystemWords.sentences``); dice rolls share one sentence here.
An event with no sentence is still shown, as its raw kind and data, and flagged ``raw`` (unless its kind is
declared ``silent``) so a test can insist that none of the shipped scenarios ever needs that fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from npc_tactics.gm.words.vocab import LOCATIONS, LOCATIONS_IN, SPELLS, WEAPONS, word
from npc_tactics.i18n import N_, translations
from npc_tactics.plugin import System
from npc_tactics.rules.base import Event

__all__ = ["ROLL_WHY", "Teller", "bodies_of", "echoes", "narrate_event", "roll_why", "sentences_of", "teller",
           "why_known"]


@dataclass(frozen=True, slots=True)
class Teller:
    """The words of one telling: gettext functions, the combatants' names by index, the sides' names (those
    the GM gave, e.g. on the tracker; none: "side 0") and the combatants' body plans by index (a dice-pool
    fighter's ``body_plan``, which names its hit locations: a hound's "arm" is its foreleg; none or "": a
    humanoid, or a system whose fighters have no plan)."""

    _: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    names: Sequence[str]
    sides: Sequence[str] = ()
    bodies: Sequence[str] = ()

    def name(self, index: int | None) -> str:
        if index is not None and 0 <= index < len(self.names):
            return self.names[index]
        return self._("someone")

    def body(self, index: int | None) -> str:
        """The body plan of combatant ``index`` ("quadruped"), or "" when the telling does not know it."""
        if index is not None and 0 <= index < len(self.bodies):
            return self.bodies[index]
        return ""

    def actor(self, e: Event) -> str:
        return self.name(e.actor)

    def side(self, index: int | str) -> str:
        """Side ``index`` by its name, or "side 0" when the telling has no names for the sides."""
        k = int(index)
        if 0 <= k < len(self.sides):
            return self.sides[k]
        return self._("side {side}").format(side=k)

    def target(self, e: Event) -> str:
        return self.name(e.target)

    def who(self, e: Event) -> str:
        """The combatant an event is about: its target when it has one, else its actor."""
        return self.name(e.target if e.target is not None else e.actor)

    def weapon(self, key: object) -> str:
        return self.term(WEAPONS, key)

    def location(self, key: object) -> str:
        return self.term(LOCATIONS, key)

    def location_in(self, key: object) -> str:
        return self.term(LOCATIONS_IN, key)

    def spell(self, key: object) -> str:
        return self.term(SPELLS, key)

    def term(self, table: Mapping[str, str], key: object) -> str:
        """The translated phrase of ``key`` in ``table`` (every data word of a sentence comes through here)."""
        return word(table, key, self._)

    def say(self, template: str, e: Event, **extra: Any) -> str:
        """``template`` translated and filled with the event's actor, target, data and ``extra``."""
        return self.fill(self._(template), e, **extra)

    def fill(self, text: str, e: Event, **extra: Any) -> str:
        """``text``, already translated, filled as :meth:`say` fills its template: a sentence whose words agree
        with a number is ``t.fill(t.ngettext(singular, plural, n), e)`` ("1 point de dégâts", "2 points")."""
        fields: dict[str, Any] = {k: v for k, v in e.data.items() if isinstance(k, str)}
        fields.update(actor=self.actor(e), target=self.target(e), who=self.who(e), round=e.round)
        fields.update(extra)
        return text.format(**fields)


Sentence = Callable[[Event, Teller], str]

#: what a roll was for (the ``why`` of ``roll`` events), every system
ROLL_WHY: dict[str, str] = {
    "attack": N_("attack"), "damage": N_("damage"), "heal": N_("healing"), "hit points": N_("hit points"),
    "initiative": N_("initiative"), "morale": N_("morale"), "move order": N_("movement order"),
    "save": N_("saving throw"), "sleep": N_("Sleep"), "surprise": N_("surprise"), "cast": N_("casting"),
    "damage_bonus": N_("damage bonus"), "disruption": N_("Disruption"), "dodge": N_("dodge"),
    "fumble": N_("fumble"), "fumble_location": N_("fumble location"), "hit_location": N_("hit location"),
    "hit location": N_("hit location"),
    "knockback_dex": N_("knockback (DEX)"), "parry": N_("parry"), "resistance": N_("resistance"),
    "first_aid": N_("first aid"), "attack_reroll": N_("attack reroll"), "initiative_reroll": N_("initiative reroll"),
    "shot": N_("shot"), "shot_reroll": N_("shot reroll"), "tie_break": N_("tie break"),
    "weapon_damage": N_("weapon damage"), "defence": N_("defence"), "damage modifier": N_("damage modifier"),
    "damage weapon": N_("Damage Weapon"), "deflection points": N_("Deflection Points"),
    "disarm": N_("disarm"), "entangle trip": N_("entangle trip"), "evade charge": N_("evade the charge"),
    "extraction damage": N_("extraction damage"), "free from entanglement": N_("breaking free"),
    "trip": N_("trip"), "armour piece lost": N_("armour piece lost"),
    "Combat Actions lost": N_("Combat Actions lost"), "Combat Actions prone": N_("Combat Actions lost when prone"),
    "Endurance vs weapon skill": N_("Endurance against weapon skill"),
    "Resilience vs weapon skill": N_("Resilience against weapon skill"),
    "Endurance: numb limb": N_("Endurance: numb limb"),
    "Brute Force: extract a missile": N_("Brute Force: extract a missile"),
    "Brute Force: pull the weapon free": N_("Brute Force: pull the weapon free"),
    "keep footing after bash": N_("keeping one's footing"), "keep footing after knockback": N_("keeping one's footing"),
    "fumble table": N_("fumble table"), "hit location (rider)": N_("hit location"),
    "missile fumble": N_("missile fumble"), "ally hit": N_("ally hit"), "riding": N_("Riding"),
    "initiative tie": N_("initiative tie"), "first_aid_fumble": N_("first aid fumble"),
    "first_aid_heal": N_("first aid healing"), "hit location (1d10+10)": N_("hit location from above"),
    "metres the weapon lands away": N_("how far the weapon lands"), "strike rank": N_("strike rank"),
    "which limb": N_("which limb"), "melee fumble": N_("melee fumble"), "natural fumble": N_("natural weapon fumble"),
    "pull-free damage": N_("pull-free damage"), "fumble damage": N_("fumble damage"),
    "breath": N_("breath weapon"), "drain": N_("energy drain"), "revive": N_("rising again"),
    # characteristics rolled from dice when a GM's stat block gives them as dice (MRQ, RuneQuest)
    "STR": N_("STR"), "CON": N_("CON"), "SIZ": N_("SIZ"), "INT": N_("INT"), "POW": N_("POW"), "DEX": N_("DEX"),
    "CHA": N_("CHA"),
    "fumble: weapon damage": N_("fumble: weapon damage"), "fumble: limb damage": N_("fumble: limb damage"),
}
_SIDE = re.compile(r"^(.*) side (\d+)$")
_OPPOSED = re.compile(r"^(.*) \(opposed\)$")


def why_known(why: str) -> bool:
    """Whether the purpose of a roll has a catalogue entry (else it is shown as the engine wrote it)."""
    m = _SIDE.match(why) or _OPPOSED.match(why)
    return why_known(m.group(1)) if m else why in ROLL_WHY


def roll_why(why: str, t: Teller) -> str:
    """The translated purpose of a roll (``initiative side 0`` -> ``initiative (side 0)``, or ``initiative
    (Goblins)`` when the teller has the sides' names)."""
    m = _SIDE.match(why)
    if m:
        return t._("{what} ({side})").format(what=roll_why(m.group(1), t), side=t.side(m.group(2)))
    m = _OPPOSED.match(why)
    if m:
        return t._("{what} (opposed)").format(what=roll_why(m.group(1), t))
    return t.term(ROLL_WHY, why)


def _roll(e: Event, t: Teller) -> str:
    faces = ", ".join(str(f) for f in e.data.get("faces", []))
    why = roll_why(str(e.data.get("why", "")), t)
    if e.actor is None:
        return t.say("Roll of {expr} for {why}: {faces} = {total}.", e, why=why, faces=faces)
    return t.say("{actor} rolls {expr} for {why}: {faces} = {total}.", e, why=why, faces=faces)


COMMON: dict[str, Sentence] = {"roll": _roll}


def sentences_of(system: System) -> Mapping[str, Sentence]:
    """The sentences of a system's event kinds (its own, then the common ones)."""
    return {**COMMON, **system.system_words().sentences}


def _silent(system: System, kind: str) -> bool:
    """Whether ``system`` declares ``kind`` as needing no sentence (told only in verbose mode, or never)."""
    info = system
    declared = info.event_catalogue().get(kind) if info.provides("events") else None
    return declared is not None and bool(declared.silent)


def echoes(system: System) -> frozenset[str]:
    """The event kinds told only in verbose mode besides rolls: those repeating what the story has just told
    (``SystemWords.echoes``) and those the system declares silent."""
    info = system
    silent = info.event_catalogue().silent if info.provides("events") else frozenset()
    return info.system_words().echoes | silent


def teller(names: Sequence[str], lang: str = "en", sides: Sequence[str] = (), bodies: Sequence[str] = ()) -> Teller:
    """The words of a telling in ``lang``: combatants ``names`` by index, ``sides`` named (else "side 0"), the
    combatants' ``bodies`` (their body plans, :func:`bodies_of`; else "")."""
    tr = translations(lang)
    return Teller(tr.gettext, tr.ngettext, tuple(names), tuple(sides), tuple(bodies))


def bodies_of(state: Any) -> tuple[str, ...]:
    """The body plan of each combatant of a fight's ``state`` by index, for :func:`teller`: a fighter's
    ``body_plan`` where its system gives one (the dice pool's), else "" (and none without a state)."""
    if state is None:
        return ()
    return tuple(str(getattr(c, "body_plan", "") or "") for c in state.combatants)


def narrate_event(system: System, event: Event, t: Teller) -> tuple[str, bool]:
    """``(sentence, raw)``: the event in plain words, or its raw kind and data if it has none (``raw`` true unless
    the system declares the kind silent)."""
    fn = sentences_of(system).get(event.kind)
    if fn is not None:
        try:
            text = fn(event, t)
            return text[:1].upper() + text[1:], False
        except (KeyError, IndexError, ValueError, TypeError):  # data the sentence did not expect
            pass
    data = ", ".join(f"{k}={v}" for k, v in event.data.items())
    return f"[{event.kind}] {t.actor(event)} -> {t.target(event)}: {data}", not _silent(system, event.kind)
