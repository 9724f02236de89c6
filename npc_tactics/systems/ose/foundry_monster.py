"""A Foundry VTT OSE monster (``system`` of an actor of type ``monster``) as an OSE stat line and the template
fields a stat line cannot carry (a missile weapon, undead, immunities, spells, a description).

The stat line is built as a :class:`~.rules.statline.MonsterStats` and printed by
:func:`~.rules.statline_print.format_stat_line`, then parsed back, so the entry says exactly what the parser
reads. Attacks come from the weapon items (``counter.max`` attacks a round each) of one attack routine:
Foundry groups a monster's weapons and abilities by ``pattern`` colour, ``transparent`` ones belonging to
every routine; a stat line holds one routine, so the first coloured group is used and the others listed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.ose import foundry_items as I
from npc_tactics.systems.ose.rules import statline as S
from npc_tactics.systems.ose.rules import statline_fields as F
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.statline_print import format_stat_line

__all__ = ["monster"]

#: ``system`` keys of a monster read here; the rest is listed (retainer, languages, encumbrance, config ...).
READ = ("ac", "aac", "hp", "thac0", "saves", "movement", "details", "attacks", "spells", "initiative")
#: ``system.saves`` keys in the stat line's order D W P B S (OSE: death, wands, paralysis, breath, spells).
SAVE_KEYS = ("death", "wand", "paralysis", "breath", "spell")
#: Details read; ``biography`` becomes the entry's description.
DETAILS_READ = ("alignment", "xp", "specialAbilities", "appearing", "treasure", "morale", "movement", "biography")
#: The skeleton's immunities (bestiary.yaml): what an item named "Undead" gives.
UNDEAD_IMMUNE = ["sleep", "hold", "charm", "poison"]
_FOUNDRY_HD = re.compile(r"\s*([0-9]+)\s*d\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*")
_TAG = re.compile(r"<[^>]*>")


def _get(system: Mapping[str, Any], *path: str) -> Any:
    value: Any = system
    for part in path:
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def _number(value: Any, where: str, path: str, low: int, high: int, what: str) -> int:
    """A whole number of a Foundry field (its number inputs may store text such as ``"9"``); ``what`` a
    :class:`~npc_tactics.i18n.Said` so that the error is said in the GM's language."""
    n = I.whole(value)
    if n is None or not low <= n <= high:
        raise ConfigError(where, path, Said("{value}: expected {what} ({low}..{high})", value=shown(value), what=what,
                                            low=low, high=high))
    return n


def _hd(system: Mapping[str, Any], where: str, notes: list[str]) -> tuple[int, int, bool, int]:
    """(hd, plus, half, asterisks) of ``hp.hd``: Foundry's roll formula (``2d8``, ``4d8+1``, ``1d4`` = ½ HD) or the
    books' notation (``2*``, ``4+1``, ``1-1``, ``½``); asterisks also from ``details.specialAbilities``."""
    text = _get(system, "hp", "hd")
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(where, "system.hp.hd", Said("{value}: expected the monster's Hit Dice, e.g. 2d8 or 2*",
                                                      value=shown(text)))
    m = _FOUNDRY_HD.fullmatch(text)
    stars = I.count(_get(system, "details", "specialAbilities"))
    if m is not None:
        n, sides, sign, plus = int(m[1]), int(m[2]), m[3], int(m[4] or 0)
        bonus = -plus if sign == "-" else plus
        if (n, sides, bonus) == (1, 4, 0):
            return 1, 0, True, stars
        if sides != 8 or not 1 <= n <= F.MAX_HD or not -7 <= bonus <= F.MAX_HD:
            raise ConfigError(where, "system.hp.hd", Said("{value}: expected OSE Hit Dice (d8s, e.g. 2d8, 4d8+1, "
                                                          "or 1d4 for ½ HD)", value=shown(text)))
        return n, bonus, False, stars
    try:
        hd, plus, half, written, _hp = S.read_field("HD", text)
    except S.StatLineError as exc:
        raise ConfigError(where, "system.hp.hd",
                          Said("{token}: {what}", token=shown(text), what=exc.detail)) from None
    if written and stars and written != stars:
        notes.append(f"system.hp.hd: {written} asterisk(s), system.details.specialAbilities {stars}: the HD's kept")
    return hd, plus, half, written or stars


def _hp(system: Mapping[str, Any], hd: int, plus: int, half: bool, notes: list[str]) -> int | None:
    top = I.count(_get(system, "hp", "max"))
    low, high = (1, 4) if half else (max(1, hd + plus), hd * 8 + plus)
    if top and not low <= top <= high:
        notes.append(f"system.hp.max: {top} hp is not possible for these Hit Dice ({low} to {high}); left out")
        return None
    return top or None


def _saves(system: Mapping[str, Any], hd: int, plus: int, half: bool, where: str,
           notes: list[str]) -> tuple[tuple[int, int, int, int, int], str | None]:
    raw = [_get(system, "saves", k, "value") for k in SAVE_KEYS]
    default = F.default_save_as(hd, plus, half)
    if all(not v for v in raw):
        notes.append(f"system.saves: not set (all 0); the OSE table by Hit Dice ({default}) is used")
        return F.read_saves(default)
    saves = tuple(_number(v, where, f"system.saves.{k}.value", 1, 20, Said("a saving throw"))
                  for k, v in zip(SAVE_KEYS, raw, strict=True))
    row = (saves[0], saves[1], saves[2], saves[3], saves[4])
    codes = [default, "NH", *(str(n) for n in sorted(range(1, 15), key=lambda n: abs(n - hd)))]
    code = next((c for c in codes if S.saves_of(c) == row), None)
    return row, code


def _movement(system: Mapping[str, Any], where: str, notes: list[str]) -> tuple[tuple[str, int], ...]:
    base = _number(_get(system, "movement", "base") if _get(system, "movement", "base") is not None else 120,
                   where, "system.movement.base", 0, 999, Said("feet per turn"))
    text = _get(system, "details", "movement")
    if not isinstance(text, str) or not text.strip():
        return (("", base),)
    try:
        rates = S.read_field("MV", text)
    except S.StatLineError as exc:
        notes.append(f"system.details.movement: {shown(text)}: {exc.detail}; only movement.base ({base}') is read")
        return (("", base),)
    foot = next((feet for mode, feet in rates if not mode), None)
    if foot is not None and foot != base:
        notes.append(f"system.details.movement: {foot}' on foot, system.movement.base {base}': the base is kept")
    return (("", base), *((mode, feet) for mode, feet in rates if mode))


def _routine(items: list[I.Item], unused: list[str]) -> list[I.Item]:
    """The weapon items of the attack routine: every ``transparent`` one and the first coloured group."""
    weapons = [it for it in items if it.type == "weapon" and not it.in_container]
    colours = [str(it.system.get("pattern") or "transparent") for it in weapons]
    chosen = next((c for c in colours if c != "transparent"), None)
    out = []
    for it, colour in zip(weapons, colours, strict=True):
        if colour in ("transparent", chosen):
            out.append(it)
        else:
            unused.append(f"{it.label}: attack pattern {colour!r}, another routine than {chosen!r}; a stat line "
                          f"holds one routine")
    return out


def _attacks(items: list[I.Item], where: str, unused: list[str],
             notes: list[str]) -> tuple[list[S.Attack], str | None]:
    """The stat line's attacks, and a missile weapon of weapons.yaml (a template field, not an attack)."""
    attacks: list[S.Attack] = []
    missile: str | None = None
    missiles = I.missile_names()
    for it in _routine(items, unused):
        form, known = I.attack_form(it.name)
        weapon = I.weapon_name(it.name)
        if (it.system.get("missile") is True and it.system.get("melee") is not True) or weapon in missiles:
            if weapon in missiles and missile is None:
                missile = weapon
            else:
                unused.append(f"{it.label}: a missile attack the stat line cannot carry; ignored")
            continue
        damage_text = str(it.system.get("damage") or "").strip()
        bonus = it.system.get("bonus")
        damage = None
        if damage_text:
            if not re.fullmatch(r"[0-9d+\- ]+", damage_text, re.I):
                raise ConfigError(where, f"{it.where}.system.damage", Said("{value}: expected dice such as 1d6 or "
                                                                           "2d4+1", value=shown(damage_text)))
            extra = f"{bonus:+d}" if isinstance(bonus, int) and not isinstance(bonus, bool) and bonus else ""
            damage = F.canonical_dice(damage_text + extra, it.name)
            if extra:
                notes.append(f"{it.label}: bonus {extra} added to damage; its to-hit part is not carried")
        effects = tuple(I.effect_words(it))
        if damage is None and not effects:
            unused.append(f"{it.label}: no damage and no effect; ignored")
            continue
        if not known:
            notes.append(f"{it.label}: not an attack form or a weapon of weapons.yaml; read as 'weapon'")
        if it.system.get("save") and it.system.get("save") != "paralysis" and not effects:
            notes.append(f"{it.label}: calls for a save vs {it.system.get('save')}, naming no effect; not carried")
        n = I.count(_get(it.system, "counter", "max")) or 1
        attack = S.Attack(min(n, F.MAX_COUNT), form, damage, effects)
        same = next((k for k, a in enumerate(attacks) if (a.form, a.damage, a.effects) == (form, damage, effects)),
                    None)
        if same is None:
            attacks.append(attack)
        else:
            attacks[same] = S.Attack(min(attacks[same].count + attack.count, F.MAX_COUNT), form, damage, effects)
    return attacks, missile


def _legacy_attacks(system: Mapping[str, Any], where: str) -> tuple[S.Attack, ...]:
    """The old free-text ``system.attacks`` (``"2 × claw (1d3), 1 × bite (1d6)"``), used when no weapon item is."""
    text = system.get("attacks")
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(where, "items", Said("no weapon item and no system.attacks: a stat line needs an attack"))
    try:
        return tuple(S.read_field("Att", text))
    except S.StatLineError as exc:
        raise ConfigError(where, "system.attacks",
                          Said("{token}: {what}", token=shown(text), what=exc.detail)) from None


def _text(system: Mapping[str, Any], notes: list[str]) -> dict[str, Any]:
    """Alignment, XP, number appearing and treasure type; an unreadable value is noted and left out."""
    out: dict[str, Any] = {}
    al = _get(system, "details", "alignment")
    if isinstance(al, str) and al.strip():
        try:
            out["alignment"] = F.read_alignment(" ".join(al.split()))
        except S.StatLineError:
            notes.append(f"system.details.alignment: {shown(al)} is not an OSE alignment; left out")
    xp = I.count(_get(system, "details", "xp"))
    if xp:
        out["xp"] = min(xp, 10_000_000)
    d, w = (_get(system, "details", "appearing", k) for k in ("d", "w"))
    ds, ws = (str(v).strip() if v not in (None, 0, "0") else "" for v in (d, w))
    if ds or ws:
        out["number_appearing"] = f"{ds or '0'} ({ws})" if ws else ds
    tt = _get(system, "details", "treasure", "type")
    if isinstance(tt, str) and tt.strip():
        out["treasure"] = " ".join(tt.split())[:40]
    return out


def _extras(system: Mapping[str, Any], items: list[I.Item], missile: str | None,
            unused: list[str]) -> dict[str, Any]:
    """The template fields besides the stat line: missile, undead and immunities, spells, init_mod, description."""
    out: dict[str, Any] = {}
    if missile:
        out["missile"] = missile
    for it in items:
        if it.type == "ability":
            if I.key(it.name) == "undead":
                out.update(undead=True, immune=list(UNDEAD_IMMUNE))
            else:
                unused.append(f"{it.label}: a special ability the engine does not read; kept in the description")
        elif it.type == "armor":
            unused.append(f"{it.label}: armour of a monster; its AC is the stat line's")
        elif it.type in ("item", "container"):
            unused.append(f"{it.label}: equipment or treasure; ignored")
    spells: dict[str, int] = {}
    for it in items:
        if it.type == "spell":
            name = I.spell_name(it)
            if name is None:
                unused.append(f"{it.label}: a spell the engine does not model; ignored")
            else:
                spells[name] = spells.get(name, 0) + max(I.count(it.system.get("memorized")), 1)
    if spells:
        out["spells"] = {k: min(v, 9) for k, v in spells.items()}
    init = _get(system, "initiative", "mod")
    if isinstance(init, int) and not isinstance(init, bool) and init:
        out["init_mod"] = max(-3, min(3, init))
    bio = _get(system, "details", "biography")
    text = " ".join(_TAG.sub(" ", bio).split()) if isinstance(bio, str) else ""
    abilities = [it.name for it in items if it.type == "ability" and I.key(it.name) != "undead"]
    if abilities:
        text = (text + " " if text else "") + "Abilities: " + ", ".join(abilities) + "."
    if text:
        out["description"] = text[:300]
    return out


def monster(name: str, system: Mapping[str, Any], items: list[I.Item], where: str, unused: list[str],
            notes: list[str]) -> tuple[str | dict[str, Any], dict[str, Any]]:
    """(the user-bestiary entry, the situation combatant) of a monster actor."""
    hd, plus, half, stars = _hd(system, where, notes)
    ac_raw, aac_raw = _get(system, "ac", "value"), _get(system, "aac", "value")
    ac = _number(ac_raw, where, "system.ac.value", -10, 10, Said("a descending armour class"))
    if isinstance(aac_raw, int) and aac_raw and aac_raw != T.ac_to_aac(ac):
        notes.append(f"system.aac.value: [{aac_raw}] disagrees with AC {ac} [{T.ac_to_aac(ac)}]; AC is kept")
    thac0 = _number(_get(system, "thac0", "value") or T.monster_thac0(hd, max(plus, 0)), where,
                    "system.thac0.value", 1, 25, Said("THAC0"))
    morale = _get(system, "details", "morale")
    ml = _number(morale, where, "system.details.morale", 2, 12, Said("a morale score; set it on the monster sheet"))
    attacks, missile = _attacks(items, where, unused, notes)
    saves, code = _saves(system, hd, plus, half, where, notes)
    stats = S.MonsterStats(
        ac=ac, hd=hd, hd_plus=plus, half_hd=half, asterisks=stars, hp=_hp(system, hd, plus, half, notes),
        attacks=tuple(attacks) or _legacy_attacks(system, where), thac0=thac0,
        movement=_movement(system, where, notes), saves=saves, save_as=code, morale=ml, **_text(system, notes),
    )
    line = format_stat_line(stats)
    try:
        S.parse_stat_line(line)
    except S.StatLineError as exc:  # a value no stat line can hold (e.g. an unknown effect): one line, the actor's
        raise ConfigError(where, "", Said("the stat line {line} does not read: {error}", line=shown(line, 200),
                                          error=exc.message)) from None
    for key in system:
        if key not in READ and not I.blank(system[key]):
            unused.append(f"system.{key}: not used in a fight by the engine")
    details = _get(system, "details")
    for key in details if isinstance(details, Mapping) else ():
        if key not in DETAILS_READ and not I.blank(details[key]):
            unused.append(f"system.details.{key}: not used in a fight by the engine")
    if _get(system, "details", "treasure", "table"):
        unused.append("system.details.treasure.table: a Foundry roll table; ignored")
    extras = _extras(system, items, missile, unused)
    entry: str | dict[str, Any] = {"stat_line": line, **extras} if extras else line
    combatant: dict[str, Any] = {"name": name, "stat_block": line}
    hp, top = I.count(_get(system, "hp", "value")), I.count(_get(system, "hp", "max"))
    if top:
        combatant.update({"hp": min(hp, top), "max_hp": top} if hp >= 1 else {"hp": 0, "status": "dead"})
    for key in ("missile", "spells"):
        if key in extras:
            combatant[key] = extras[key]
    if "immune" in extras:
        combatant["immune"] = extras["immune"]
        notes.append("undead: a combatant cannot say so (only a bestiary entry can); its immunities are given")
    return entry, combatant
