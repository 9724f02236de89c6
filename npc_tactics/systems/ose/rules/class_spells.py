"""Memorised spells of a class-based character: the default list for its slots, and checks of a given one.

A separate module from :mod:`.classes` because it needs the spell table (:mod:`.tables`), which itself
reads the class rows for ``save_row``.
"""

from __future__ import annotations

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.classes import CharacterClass, LevelRow, a

#: The default memorised list: each spell level's slots are dealt in turn to the modelled spells of that level
#: in this order (a referee's pick: Sleep first, it ends low-level fights; Cure Light Wounds before Hold
#: Person only matters if both ever share a level). Levels with no modelled spell stay empty.
DEFAULT_PICKS: dict[str, tuple[str, ...]] = {
    "magic_user": ("sleep", "magic_missile"),
    "cleric": ("cure_light_wounds", "hold_person"),
}


def _spell_level(name: str) -> int:
    return T.SPELLS[name][0]


def default_spells(cc: CharacterClass, row: LevelRow) -> tuple[int, ...]:
    """The memorised list a referee would pick: each spell level's slots dealt in turn to its modelled spells."""
    counts = [0] * len(T.SPELL_NAMES)
    picks = [s for s in DEFAULT_PICKS.get(cc.spell_list, ()) if T.SPELLS[s][1] == cc.spell_list]
    for lv, n in enumerate(row.slots, start=1):
        here = [s for s in picks if _spell_level(s) == lv]
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
        if T.SPELLS[name][1] != cc.spell_list:
            raise ConfigError(file, where, f"{name} is a {T.SPELLS[name][1]} spell; {a(cc.name)} casts "
                                           f"{cc.spell_list} spells")
        used[_spell_level(name) - 1] += n
    for lv, (n, top) in enumerate(zip(used, row.slots, strict=True), start=1):
        if n > top:
            raise ConfigError(file, path, f"a level-{row.level} {cc.name} memorises at most {top} spell(s) of "
                                          f"spell level {lv}, got {n}")


def empty_slots(row: LevelRow, counts: tuple[int, ...]) -> tuple[int, ...]:
    """Slots per spell level that ``counts`` leaves unfilled (no modelled spell of that level, or not chosen)."""
    used = [0] * len(row.slots)
    for sid, n in enumerate(counts):
        if n:
            used[_spell_level(T.SPELL_NAMES[sid]) - 1] += n
    return tuple(top - n for top, n in zip(row.slots, used, strict=True))
