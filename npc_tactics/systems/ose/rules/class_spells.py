"""Memorised spells of a class-based character: the default list for its slots, and checks of a given one.

A separate module from :mod:`.classes` because it needs the spell table (:mod:`.tables`), which itself
reads the class rows for ``save_row``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.classes import CharacterClass, LevelRow, a

#: The default memorised list: each spell level's slots are dealt in turn to the modelled spells of that level
#: in this order (a referee's pick for a fight). Magic-users: Sleep first (it ends low-level fights), then
#: Magic Missile, Shield, Charm Person; 2nd level Web, Mirror Image, Invisibility, Phantasmal Force; 3rd level
#: Fire Ball, Lightning Bolt, Haste, Hold Person. Clerics: Cure Light Wounds, Protection from Evil, Light;
#: Hold Person, Bless, Silence 15' Radius; Striking. Levels with no modelled spell (4th and up) stay empty.
DEFAULT_PICKS: dict[str, tuple[str, ...]] = {
    "magic_user": ("sleep", "magic_missile", "shield", "charm_person", "web", "mirror_image", "invisibility",
                   "phantasmal_force", "fire_ball", "lightning_bolt", "haste", "hold_person"),
    "cleric": ("cure_light_wounds", "protection_from_evil", "light", "hold_person", "bless", "silence_15_radius",
               "striking"),
}


def _spell_level(name: str, spell_list: str = "") -> int:
    """The spell level of ``name`` on ``spell_list`` (its first list when that list lacks it)."""
    entry = T.spell_entry(name, spell_list) if spell_list else None
    return entry[0] if entry is not None else T.SPELLS[name][0]


def check_spell_names(raw: Any, file: str, path: str) -> None:
    """Refuse a memorised spell the engine does not model, naming it (and the nearest modelled name): one short
    line instead of the full list of valid keys (docs/ose-spells.md lists them)."""
    if not isinstance(raw, Mapping):
        return
    for key in raw:
        if key in T.SPELLS:
            continue
        close = difflib.get_close_matches(str(key), T.SPELL_NAMES, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(file, V.join(path, str(key)[:60]),
                          f"unknown key {V.shown(key)}: not a spell the OSE engine plays{hint} "
                          f"(the {len(T.SPELLS)} it plays: docs/ose-spells.md)")


def default_spells(cc: CharacterClass, row: LevelRow) -> tuple[int, ...]:
    """The memorised list a referee would pick: each spell level's slots dealt in turn to its modelled spells."""
    counts = [0] * len(T.SPELL_NAMES)
    picks = [s for s in DEFAULT_PICKS.get(cc.spell_list, ()) if T.spell_entry(s, cc.spell_list) is not None]
    for lv, n in enumerate(row.slots, start=1):
        here = [s for s in picks if _spell_level(s, cc.spell_list) == lv]
        for k in range(n if here else 0):
            counts[T.SPELL_NAMES.index(here[k % len(here)])] += 1
    return tuple(counts)


def check_spells(cc: CharacterClass, row: LevelRow, counts: tuple[int, ...], file: str, path: str) -> None:
    """Refuse a memorised list off the class's spell list or above its slots of some spell level."""
    used = [0] * len(row.slots)
    for sid, n in enumerate(counts):
        if n == 0:
            continue
        name = T.SPELL_NAMES[sid]
        where = V.join(path, name)
        if cc.spell_list == "none":
            raise ConfigError(file, where, f"{a(cc.name)} casts no spells")
        if T.spell_entry(name, cc.spell_list) is None:
            raise ConfigError(file, where, f"{name} is a {T.SPELLS[name][1]} spell; {a(cc.name)} casts "
                                           f"{cc.spell_list} spells")
        used[_spell_level(name, cc.spell_list) - 1] += n
    for lv, (n, top) in enumerate(zip(used, row.slots, strict=True), start=1):
        if n > top:
            raise ConfigError(file, path, f"a level-{row.level} {cc.name} memorises at most {top} spell(s) of "
                                          f"spell level {lv}, got {n}")


def empty_slots(row: LevelRow, counts: tuple[int, ...], spell_list: str = "") -> tuple[int, ...]:
    """Slots per spell level that ``counts`` leaves unfilled (no modelled spell of that level, or not chosen);
    ``spell_list`` places a spell on two lists (Hold Person) at its level there."""
    used = [0] * len(row.slots)
    for sid, n in enumerate(counts):
        if n:
            used[_spell_level(T.SPELL_NAMES[sid], spell_list) - 1] += n
    return tuple(top - n for top, n in zip(row.slots, used, strict=True))
