"""The embedded items of a Foundry VTT OSE actor (``vttred/ose``: weapon, armor, spell, ability, item,
container) as what the OSE engine reads: attack forms of a stat line, ``weapons.yaml`` and ``armour.yaml``
names, the engine's spell names.

Why a name table: Foundry items are named freely by the referee ("Two-Handed Sword", "Longbow",
"Chain Mail +1"), while the engine's content uses fixed keys (``two_handed_sword``, ``long_bow``,
``chainmail``). A name that matches nothing is listed back to the referee, never guessed silently.
Item fields read (``src/module/item/data-model-*.js``): weapon ``damage``, ``bonus``, ``counter.max``
(attacks a round), ``pattern`` (attack routine colour; ``transparent`` = every routine), ``melee``,
``missile``, ``save``, ``tags``, ``equipped``; armor ``type`` (unarmored, light, heavy, shield), ``ac.value``,
``equipped``; spell ``lvl``, ``class``, ``memorized``, ``cast``; any item ``containerId`` (inside a container:
carried, not in hand) and ``quantity.value``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.statline_fields import weapon_forms
from npc_tactics.systems.ose.rules.templates import armour

__all__ = ["AMMO_WORDS", "Item", "armour_name", "attack_form", "blank", "count", "effect_words", "items_of", "key",
           "missile_names", "quantity", "spell_name", "weapon_name", "whole"]

#: Spellings of the OSE weapons that differ from ``weapons.yaml`` once letters only are kept.
WEAPON_ALIASES = {
    "longsword": "sword", "normalsword": "sword", "broadsword": "sword", "quarterstaff": "staff",
    "lightcrossbow": "crossbow", "heavycrossbow": "crossbow", "warhammer": "war_hammer", "pole": "polearm",
    "shortbows": "short_bow", "longbows": "long_bow", "daggers": "dagger", "javelins": "javelin",
    "spears": "spear", "throwingaxe": "hand_axe",
}
#: Words in an armour's name -> ``armour.yaml`` (checked in that order: "leather" before "plate").
ARMOUR_WORDS = (("leather", "leather"), ("chain", "chainmail"), ("plate", "plate_mail"),
                ("unarmoured", "none"), ("unarmored", "none"))
#: Missile weapons -> the words of their ammunition items (``quantity.value`` is the ammo).
AMMO_WORDS = {"short_bow": ("arrow",), "long_bow": ("arrow",), "crossbow": ("bolt", "quarrel"),
              "sling": ("stone", "bullet")}
_MAGIC = re.compile(r"\s*[+-]\s*\d+\s*$")
_PAREN = re.compile(r"\(([^()]*)\)")
_EFFECTS = W.lookup(W.EFFECTS)


@dataclass(frozen=True, slots=True)
class Item:
    """One embedded item: its index in ``items`` (for messages), type, name and ``system`` fields."""

    index: int
    type: str
    name: str
    system: Mapping[str, Any]

    @property
    def where(self) -> str:
        return f"items[{self.index}]"

    @property
    def label(self) -> str:
        return f"{self.where} {self.name!r}"

    @property
    def in_container(self) -> bool:
        return bool(self.system.get("containerId"))

    @property
    def equipped(self) -> bool:
        return self.system.get("equipped") is True


def items_of(raw: Any, unused: list[str]) -> list[Item]:
    """The actor's items that are mappings with a type and a name; anything else is listed as unused."""
    out: list[Item] = []
    if raw is None:
        return out
    if not isinstance(raw, list):
        unused.append(f"items: expected a list of items, got {type(raw).__name__}; ignored")
        return out
    for i, it in enumerate(raw):
        name = it.get("name") if isinstance(it, Mapping) else None
        kind = it.get("type") if isinstance(it, Mapping) else None
        system = it.get("system", it.get("data")) if isinstance(it, Mapping) else None
        if not isinstance(name, str) or not isinstance(kind, str) or not isinstance(system, Mapping):
            unused.append(f"items[{i}]: not an item (a name, a type and system data); ignored")
            continue
        out.append(Item(i, kind, " ".join(name.split())[:80], system))
    return out


def key(name: str) -> str:
    """Letters only, lower case, without a magic bonus or a parenthesis: ``"Sword +1 (Flametongue)"`` -> ``sword``."""
    plain = _MAGIC.sub("", _PAREN.sub("", name))
    return re.sub(r"[^a-z]", "", plain.lower())


def weapon_name(name: str) -> str | None:
    """The ``weapons.yaml`` name of an item name, None if it is none of them."""
    k = key(name)
    table = {key(n): n for n in weapon_forms().values()}
    return table.get(k) or WEAPON_ALIASES.get(k)


def attack_form(name: str) -> tuple[str, bool]:
    """(the stat line attack form of an item name, whether it was recognised): natural forms (claw, bite ...),
    special forms (gaze, breath ...) and weapons; anything else is ``weapon`` (False)."""
    words = " ".join(re.sub(r"[^a-z' -]", " ", _MAGIC.sub("", _PAREN.sub("", name)).lower()).replace("-", " ").split())
    words = W.FORM_ALIASES.get(words, words)
    known = (*W.NATURAL_FORMS, *W.SAVE_FORMS, *W.SPECIAL_FORMS)
    for cand in (words, words[:-1] if words.endswith("s") else words):
        if cand in known:
            return cand, True
    weapon = weapon_name(name)
    if weapon is not None:
        return weapon.replace("_", " "), True
    return "weapon", False


def effect_words(item: Item) -> list[str]:
    """The stat line effects an item names: in parentheses of its name (``Claw (paralysis)``), its tags, and its
    ``save`` when that is the effect's own name (a save vs paralysis is paralysis; other saves name no effect)."""
    texts = [m.strip() for m in _PAREN.findall(item.name)]
    for tag in item.system.get("tags") or []:
        value = tag.get("value") if isinstance(tag, Mapping) else tag
        if isinstance(value, str):
            texts.append(value)
    if item.system.get("save") == "paralysis":
        texts.append("paralysis")
    out: list[str] = []
    for text in texts:
        for part in re.split(r"[,+/;]| and ", text.lower()):
            effect = _EFFECTS.get(" ".join(part.split()))
            if effect is not None and effect not in out:
                out.append(effect)
    return out


def armour_name(item: Item) -> tuple[str | None, str]:
    """(the ``armour.yaml`` name of an armor item or None, a note when the AC differs from the table's)."""
    table, _shield = armour()
    low = item.name.lower()
    name = next((n for word, n in ARMOUR_WORDS if word in low), None)
    ac = item.system.get("ac", {}).get("value") if isinstance(item.system.get("ac"), Mapping) else None
    if name is None and item.system.get("type") == "unarmored":
        name = "none"
    if name is None and isinstance(ac, int):
        name = next((n for n, (a, _mv) in table.items() if a == ac), None)
    if name is None:
        return None, f"{item.label}: no armour of armour.yaml ({', '.join(table)}) by name or AC; ignored"
    note = ""
    if isinstance(ac, int) and ac != table[name][0]:
        note = (f"{item.label}: AC {ac} read as {name} (AC {table[name][0]}); "
                f"the difference (magic armour?) is not carried")
    return name, note


def spell_name(item: Item) -> str | None:
    """The engine's spell of a spell item (``Magic Missile`` -> ``magic_missile``), None if not modelled.
    Hold Person is the cleric's (2nd level) unless the item says Magic-User or 3rd level: the magic-user's
    spell is a different one the engine does not model."""
    k = key(item.name)
    found = next((n for n in T.SPELL_NAMES if key(n) == k), None)
    if found is None:
        return None
    cls = key(str(item.system.get("class", "")))
    lvl = item.system.get("lvl")
    if cls and cls != key(T.SPELLS[found][1]):  # "Magic-User" -> magicuser, "Cleric" -> cleric
        return None
    if isinstance(lvl, int) and lvl not in (0, T.SPELLS[found][0]):
        return None
    return found


def whole(value: Any) -> int | None:
    """A whole number of a Foundry field (number inputs may store text such as ``"9"``), None if it is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,9}\s*", value):
        return int(value)
    return None


def blank(value: Any) -> bool:
    """True for a value that says nothing: empty text, list or object, 0, false, or an object of such values
    (Foundry's defaults, e.g. ``retainer: {enabled: false, loyalty: 0, wage: ""}``)."""
    if isinstance(value, Mapping):
        return all(blank(v) for v in value.values())
    return value in (None, "", 0, False) or value == []


def missile_names() -> frozenset[str]:
    """The missile weapons of ``weapons.yaml`` (bows, crossbow, sling, javelin)."""
    from npc_tactics.systems.ose.rules.templates import weapons

    return frozenset(n for n, w in weapons().items() if w["missile"])


def count(value: Any, default: int = 0) -> int:
    """A non-negative whole number of an item field, else ``default``."""
    n = whole(value)
    return default if n is None else max(n, 0)


def quantity(item: Item) -> int:
    q = item.system.get("quantity")
    return count(q.get("value"), 1) if isinstance(q, Mapping) else 1
