"""The out-of-training warning in a GM's words: what in this fight the policy rarely met, said by creature.

A bundle knows the range each observation feature took in training (``policy.out_of_range``); a name such as
``enemy_1.control_spells`` means nothing at the table. Here each feature outside its range becomes a trait of
the creature its slot holds in this fight ("Orrin: spells that take foes out") or a fact about the fight ("a
longer fight than any the policy trained on"); the traits are grouped by creature, said once, and creatures
with the same traits are named together::

    Ghoul 1 and Ghoul 2: paralysing attacks, more attacks a round; the policy rarely met that.

The phrases of a system's own fields come from its package (``systems/<name>/unusual.py``, the plugin's
``unusual`` hook, an :class:`UnusualWords`); the fields every system has are phrased here; a field named in
neither still reads as words ("an unusual value: routine damage"), never as a raw name. Phrases are marked
``N_`` and translated in the ``npc_tactics`` domain. What the answer rests on instead is :func:`rests_on`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from npc_tactics.gm.words.agents import agent_name
from npc_tactics.i18n import N_, translations, translator
from npc_tactics.plugin import System
from npc_tactics.rules.base import ally_slots, enemy_slots

__all__ = ["SHARED", "UnusualWords", "rests_on", "unusual_lines"]

DOMAIN: Final = "npc_tactics"
#: (phrase when above the range met in training, phrase when below): noun phrases, "" when that side reads
#: no better than the generic fallback
Pair = tuple[str, str]


@dataclass(frozen=True)
class UnusualWords:
    """One system's phrases for its observation fields (``N_``-marked, domain ``npc_tactics``).

    ``combatant``: a combatant field (``hp``, ``control_spells`` ...) -> (above, below), a trait of the
    creature; ``context``: a fight field (``round``, ``incoming_skill`` ...) -> (above, below), a fact about
    the fight or the decision."""

    combatant: Mapping[str, Pair] = field(default_factory=dict)
    context: Mapping[str, Pair] = field(default_factory=dict)


#: The fields every system's encoder has (the shared layout, :mod:`npc_tactics.encoders.base`, and the common
#: hit-point and distance fields); a system's own table overrides any of them.
SHARED: Final = UnusualWords(
    combatant={
        "hp": (N_("many hit points left"), N_("few hit points left")),
        "max_hp": (N_("many hit points"),
                   N_("few hit points")),
        "active": (N_("still fighting"), N_("out of the fight")),
        "dead": (N_("dead"), ""), "fled": (N_("fled"), ""),
        "distance": (N_("far away"), N_("close by")),
        "armour": (N_("heavy armour"), N_("light armour")),
        "prone": (N_("on the ground"), N_("standing")),
    },
    context={
        "round": (N_("a long fight"), N_("an early round")),
        "rounds_left": (N_("many rounds left"), N_("few rounds left")),
    },
)


def _pair(table: Mapping[str, Pair], shared: Mapping[str, Pair], name: str) -> Pair:
    return table.get(name) or shared.get(name) or ("", "")


def _words(system: System) -> UnusualWords:
    return system.unusual_words() or UnusualWords()


def _who(state: Any, decision: Any, slot: str) -> tuple[int, str] | None:
    """(combatant index, name) of an observation slot, or None for a slot empty in this fight."""
    if slot == "self":
        return int(decision.actor), str(state.combatants[decision.actor].name)
    group, _sep, num = slot.partition("_")
    if not num.isdigit():
        return None
    slots = enemy_slots if group == "enemy" else ally_slots
    indices = slots(state.combatants, decision.actor)
    k = int(num)
    return (int(indices[k]), str(state.combatants[indices[k]].name)) if k < len(indices) else None


def _humane(name: str) -> str:
    """A field's name as words: ``loc_left_arm`` -> "left arm", ``p_hit_melee`` -> "hit melee"."""
    words = [w for w in name.split("_") if w not in ("loc", "p", "n")]
    return " ".join(words) or name


def _join(names: Sequence[str], _: Any) -> str:
    if len(names) == 1:
        return names[0]
    return _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])


def unusual_lines(system: System, state: Any, decision: Any, outside: Sequence[tuple[str, float, float, float]],
                  lang: str = "en") -> list[str]:
    """The GM's sentences for ``outside`` (``(field, value, min, max)`` of each feature outside its training
    range, as ``policy.out_of_range`` gives them) in the fight ``state`` at ``decision``: one per group of
    creatures sharing the same unusual traits, then one for the fight itself; empty when nothing is outside."""
    _ = translator(lang, DOMAIN)
    own = _words(system)
    traits: dict[int, list[str]] = {}
    names: dict[int, str] = {}
    facts: list[str] = []
    more = {"ally": 0, "enemy": 0}
    for name, value, _low, high in outside:
        slot, _sep, what = name.partition(".")
        above = value > high
        if slot == "decision":
            phrase = _("a kind of decision the policy rarely had to make")
        elif slot == "context":
            pair = _pair(own.context, SHARED.context, what)
            phrase = _(pair[0] if above else pair[1]) if pair[0 if above else 1] else \
                _("an unusual moment of the fight: {what}").format(what=_humane(what))
        elif what == "present":  # a slot filled that training never filled: the band is bigger than ever met
            group = "enemy" if slot.startswith("enemy") else "ally"
            more[group] += 1
            continue
        else:
            who = _who(state, decision, slot)
            pair = _pair(own.combatant, SHARED.combatant, what)
            text = _(pair[0] if above else pair[1]) if pair[0 if above else 1] else \
                _("an unusual value: {what}").format(what=_humane(what))
            if who is None:
                facts.append(text)
                continue
            index, names[index] = who
            traits.setdefault(index, [])
            if text not in traits[index]:
                traits[index].append(text)
            continue
        if phrase not in facts:
            facts.append(phrase)
    if more["ally"]:
        facts.append(_("more combatants on the NPC's side than the policy fought beside"))
    if more["enemy"]:
        facts.append(_("more enemies than the policy ever fought"))
    groups: dict[tuple[str, ...], list[str]] = {}
    for index in sorted(traits, key=lambda i: (i != decision.actor, i)):
        groups.setdefault(tuple(traits[index]), []).append(names[index])
    lines = [_("{who}: {what}; the policy rarely met that").format(who=_join(who, _), what=", ".join(what))
             for what, who in groups.items()]
    if facts:
        lines.append(_("{what}; the policy rarely met that").format(what=", ".join(dict.fromkeys(facts))))
    return lines


def rests_on(lang: str, *, rollouts: int, fallback: bool, opponent: str | None = None) -> str:
    """What the answer rests on when the fight is unlike training: with ``fallback``, ``rollouts`` plays per move
    with the NPCs played on by the book (the policy's own choice set aside); else the policy's ranking, to
    be trusted less."""
    _ = translator(lang, DOMAIN)
    if fallback:
        return translations(lang, DOMAIN).ngettext(
            "the moves are therefore ranked by {n} play of the rest of the fight per move (the NPCs play on by the "
            "book; the other side: {opponent}), not by the policy's own choice",
            "the moves are therefore ranked by {n} plays of the rest of the fight per move (the NPCs play on by the "
            "book; the other side: {opponent}), not by the policy's own choice", rollouts).format(
                n=rollouts, opponent=agent_name(opponent or "by-the-book", lang))
    return _("the policy still ranks the moves here: trust its order less than usual")
