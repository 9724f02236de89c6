"""One dice-pool combatant as the GM's summary shows it: hit points, serious wounds by location (named by its body
plan: a hound's wounded "arm" slot is its foreleg), position in metres, the weapon in hand; and a location's words
by body plan (:func:`location_words`, :func:`location_in_words`), which the narration of a blow uses too."""

from __future__ import annotations

from functools import cache
from typing import Any

from npc_tactics.gm.words.summary import Tr, hit_points, metres, weapon_words
from npc_tactics.gm.words.vocab import LOCATIONS, LOCATIONS_IN, word
from npc_tactics.systems.dicepool.rules.sheet_labels import labels, slug
from npc_tactics.systems.dicepool.rules.tables import LOCATIONS as DP_LOCATIONS

__all__ = ["details", "location_in_words", "location_words"]


@cache
def _location_keys(plan: str, slot: str) -> tuple[str, ...]:
    """The catalogue's location keys (gm/words/vocab.LOCATIONS and LOCATIONS_IN) that name ``slot`` of body plan
    ``plan``: its English label in content/sheet_labels.yaml as a key ("left foreleg": ``left_foreleg``), or, for a
    label of several parts ("pelvis and tail"), one key per part. A plan or label the catalogue does not know (no
    plan: "", a spot that is no slot: an aimed shot's "weapon") keeps the slot's own name (the humanoid one)."""
    table = labels().plan_locations.get(plan)
    if table is None:
        return (slot,)
    english = table.label(slot, "en")
    whole = slug(english)
    if whole in LOCATIONS and whole in LOCATIONS_IN:
        return (whole,)
    parts = tuple(slug(part) for part in english.split(" and "))
    known = all(p in LOCATIONS and p in LOCATIONS_IN for p in parts)
    return parts if len(parts) > 1 and known else (slot,)


def _phrase(table: dict[str, str], plan: str, slot: object, _: Tr) -> str:
    words = [word(table, key, _) for key in _location_keys(plan, "" if slot is None else str(slot))]
    if len(words) == 1:
        return words[0]
    return _("{some} and {last}").format(some=", ".join(words[:-1]), last=words[-1])


def location_words(plan: str, slot: object, _: Tr) -> str:
    """Slot ``slot`` of the 2d6 table (``tables.LOCATIONS``) as the GM calls it on a creature of body plan ``plan``,
    in the language of ``_``: "the left foreleg" / "la patte avant gauche"; "the pelvis and the tail" / "le bassin
    et la queue"."""
    return _phrase(LOCATIONS, plan, slot, _)


def location_in_words(plan: str, slot: object, _: Tr) -> str:
    """Where a blow lands: slot ``slot`` on a creature of body plan ``plan`` after "takes 3 damage": "in the left
    foreleg" / "à la patte avant gauche"; "in the pelvis and in the tail" / "au bassin et à la queue"; no slot:
    "somewhere"."""
    return _phrase(LOCATIONS_IN, plan, slot, _)


def details(state: Any, i: int, _: Tr, lang: str = "en") -> list[str]:
    c = state.combatants[i]
    bits = [hit_points(c, _)]
    serious = [location_words(c.body_plan, DP_LOCATIONS[k], _) for k, s in enumerate(c.serious) if s]
    if serious:
        bits.append(_("serious wounds: {locations}").format(locations=", ".join(serious)))
    bits.append(_("at {m} m").format(m=metres(c.position, lang)))
    bits.append(weapon_words(c.weapon.name if c.weapon is not None else "", _))
    return bits
