"""An actor exported from Foundry VTT's OSE system (``vttred/ose``) as an OSE user-bestiary entry or a situation
combatant.

Why an importer and not rules: it only reads another program's JSON and writes what the engine already reads
(a stat line printed by :mod:`.rules.statline_print`, class and level for a character), so every number then
goes through the same loaders and checks as a stat line the referee typed. Fields are those of the system's
data models (``src/module/actor/data-model-monster.js``, ``data-model-character.js`` and ``template.json``,
see docs/foundry.md for the table and the commit read). What the engine does not read is listed in
``unused``, never fatal; what makes the file no Foundry OSE actor at all is one :class:`ConfigError` naming
the file and the field. Nothing in the file is executed: it is JSON, read by :func:`read_actor` as data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.configs.files import parse_json, read_text
from npc_tactics.errors import ConfigError, shown
from npc_tactics.systems.ose import foundry_items as I
from npc_tactics.systems.ose import foundry_monster as M
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.templates import character_template

__all__ = ["MAX_ACTOR_BYTES", "SYSTEM_IDS", "ImportResult", "import_file", "read_actor", "read_data"]

#: Largest actor file read: an export with a long biography and a hundred items is well under 1 MB.
MAX_ACTOR_BYTES = 2 * 1024 * 1024
#: ``_stats.systemId`` of the OSE system (its release and its development build, system.json ``id``).
SYSTEM_IDS = ("ose", "ose-dev")
#: Top-level keys of a Foundry document that describe the file, not the creature: ignored without a word.
METADATA = ("_id", "_key", "_stats", "folder", "sort", "ownership", "permission", "flags", "img", "prototypeToken",
            "token")
#: ``system`` keys of a character read here; the rest is listed (exploration, languages, encumbrance ...).
CHARACTER_READ = ("details", "scores", "hp", "ac", "aac", "thac0", "saves", "movement", "retainer", "spells")
_SLUG = re.compile(r"[^a-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an actor becomes: a user-bestiary entry (``{name: entry}``), a situation combatant, and the actor's
    fields the engine does not read (``unused``) or reads with an assumption (``notes``)."""

    name: str  #: the entry name (letters, digits, _ and -)
    kind: str  #: "monster" or "character"
    entry: str | dict[str, Any]  #: a stat line, or template fields (a stat line plus what it cannot say)
    combatant: dict[str, Any]
    unused: tuple[str, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())

    def document(self, mode: str) -> dict[str, Any]:
        """The YAML document of ``mode``: ``entry`` (a user bestiary file) or ``combatant``."""
        return self.combatant if mode == "combatant" else {"system": "ose", self.name: self.entry}


def import_file(path: str) -> ImportResult:
    """Read the actor file ``path`` (regular file, at most :data:`MAX_ACTOR_BYTES`, strict JSON)."""
    return read_actor(parse_json(read_text(path, MAX_ACTOR_BYTES, "Foundry actor file"), path), path)


def slug(name: str) -> str:
    """An entry name from an actor name: ``"Ghoul (Pack Leader)"`` -> ``ghoul_pack_leader``."""
    s = _SLUG.sub("_", name.lower()).strip("_-")[:60]
    return s if s and s[0] != "-" else f"actor_{s}".strip("_")[:60] or "actor"


def _system_id(data: Mapping[str, Any], where: str) -> None:
    """Refuse an actor of another Foundry game system (``_stats.systemId``, or the export's ``flags.exportSource``)."""
    stats = data.get("_stats")
    source = data.get("flags", {}).get("exportSource") if isinstance(data.get("flags"), Mapping) else None
    for path, value in (("_stats.systemId", stats.get("systemId") if isinstance(stats, Mapping) else None),
                        ("flags.exportSource.system", source.get("system") if isinstance(source, Mapping) else None)):
        if value is not None and value not in SYSTEM_IDS:
            raise ConfigError(where, path, f"is {shown(value)}: expected an actor of Foundry's OSE system "
                                           f"({' or '.join(SYSTEM_IDS)})")


def read_actor(data: Mapping[str, Any], where: str) -> ImportResult:
    """A Foundry OSE actor (the parsed JSON of "Export Data") as an entry and a combatant; ``where`` names the
    file in errors. Foundry before v10 wrote ``data`` where it now writes ``system``; both are read."""
    if not isinstance(data, Mapping):
        raise ConfigError(where, "", f"expected a Foundry VTT actor (a JSON object), got {type(data).__name__}")
    _system_id(data, where)
    kind = data.get("type")
    if kind not in ("monster", "character"):
        detail = "missing" if kind is None else f"is {shown(kind)}"
        raise ConfigError(where, "type", f"{detail}: expected a Foundry OSE actor of type monster or character")
    system = data.get("system", data.get("data"))
    if not isinstance(system, Mapping):
        raise ConfigError(where, "system", "missing: expected the actor's system data (an object)")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(where, "name", f"expected the actor's name (text), got {shown(name)}")
    name = " ".join(name.split())[:60]
    unused: list[str] = []
    notes: list[str] = []
    items = I.items_of(data.get("items"), unused)
    for key in data:
        if key not in (*METADATA, "name", "type", "system", "data", "items", "effects"):
            unused.append(f"{str(key)[:60]}: not an OSE actor field; ignored")
    effects = data.get("effects")
    if isinstance(effects, list) and effects:
        unused.append(f"effects: {len(effects)} active effect(s) not applied (the numbers are read as stored)")
    if kind == "monster":
        entry, combatant = M.monster(name, system, items, where, unused, notes)
    else:
        entry, combatant = _character(name, system, items, where, unused, notes)
    return ImportResult(_entry_name(slug(name), notes), kind, entry, combatant, tuple(unused), tuple(notes))


def _entry_name(name: str, notes: list[str]) -> str:
    """The entry name, ``my_`` + it when a shipped template (or a class template such as ``elf_9``) has it:
    a user bestiary may not take a shipped name."""
    from npc_tactics.systems.ose.rules.templates import raw_templates

    if name == "system":  # the file's own key (system: ose)
        return "my_system"
    if name in raw_templates() or name in C.class_template_names():
        notes.append(f"{name!r} is a shipped template: the entry is named 'my_{name}'")
        return f"my_{name}"[:60]
    return name


# ----- characters -----------------------------------------------------------------------------------------
def _get(system: Mapping[str, Any], *path: str) -> Any:
    value: Any = system
    for part in path:
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


def _class(system: Mapping[str, Any], where: str) -> tuple[C.CharacterClass, int]:
    text = _get(system, "details", "class")
    known = ", ".join(C.classes())
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(where, "system.details.class", f"missing: expected an OSE class ({known})")
    k = I.key(text)
    cc = next((c for n, c in C.classes().items() if I.key(n) == k), None)
    if cc is None:
        raise ConfigError(where, "system.details.class", f"{shown(text)} is not a class the engine models "
                                                         f"(classes: {known})")
    level = I.count(_get(system, "details", "level"), 0)
    if level < 1:
        raise ConfigError(where, "system.details.level", f"expected a level of 1 or more, got "
                                                         f"{shown(_get(system, 'details', 'level'))}")
    if level > cc.max_level:
        raise ConfigError(where, "system.details.level", f"{C.a(cc.name)} cannot be level {level}: the "
                                                         f"{cc.name}'s maximum level is {cc.max_level}")
    return cc, level


def _gear(cc: C.CharacterClass, items: list[I.Item], unused: list[str], notes: list[str]) -> dict[str, Any]:
    """armour, shield, weapon, missile and ammo of a character: equipped items (all items when none is
    equipped), each checked against the class; what does not fit is listed."""
    spec: dict[str, Any] = {}
    held = [it for it in items if not it.in_container]
    for it in items:
        if it.in_container and it.type in ("weapon", "armor"):
            unused.append(f"{it.label}: inside a container, not in hand; ignored")
    armours = [it for it in held if it.type == "armor"]
    weapons = [it for it in held if it.type == "weapon"]
    for group in (armours, weapons):
        if group and not any(it.equipped for it in group):
            notes.append(f"no {group[0].type} item is equipped: every one carried is considered")
        elif group:
            for it in group:
                if not it.equipped:
                    unused.append(f"{it.label}: not equipped; ignored")
            group[:] = [it for it in group if it.equipped]
    for it in armours:
        if it.system.get("type") == "shield" or "shield" in it.name.lower():
            if spec.get("shield") or not _allowed(cc, "none", True, {}, it, unused):
                continue
            spec["shield"] = True
            continue
        name, note = I.armour_name(it)
        if note:
            (notes if name else unused).append(note)
        if name is None or "armour" in spec or not _allowed(cc, name, False, {}, it, unused):
            if name is not None and "armour" in spec:
                unused.append(f"{it.label}: a second armour; ignored")
            continue
        spec["armour"] = name
    for it in weapons:
        w = I.weapon_name(it.name)
        if w is None:
            unused.append(f"{it.label}: no weapon of weapons.yaml by that name; ignored")
            continue
        is_missile = w in I.missile_names()
        slot = "missile" if is_missile else "weapon"
        if slot in spec:
            unused.append(f"{it.label}: a second {'missile' if is_missile else 'melee'} weapon; ignored")
            continue
        if not _allowed(cc, "none", False, {slot: w}, it, unused):
            continue
        spec[slot] = w
        if it.system.get("bonus"):
            notes.append(f"{it.label}: its bonus {it.system.get('bonus')} is not carried (no magic weapons yet)")
    missile = spec.get("missile")
    ammo = [it for it in items if it.type == "item" and missile in I.AMMO_WORDS
            and any(word in it.name.lower() for word in I.AMMO_WORDS[missile])]
    if ammo:
        spec["ammo"] = min(sum(I.quantity(it) for it in ammo), 99)
    return spec


def _allowed(cc: C.CharacterClass, arm: str, shield: bool, weapon: Mapping[str, str | None], it: I.Item,
             unused: list[str]) -> bool:
    try:
        C.check_equipment(cc, arm, shield, weapon, "", "")
    except ConfigError as exc:
        unused.append(f"{it.label}: {exc.message}; left out")
        return False
    return True


def _spells(cc: C.CharacterClass, items: list[I.Item], unused: list[str], combatant: bool) -> dict[str, int]:
    """Memorised spells by engine name (``memorized``; for a combatant less those already ``cast``)."""
    out: dict[str, int] = {}
    for it in items:
        if it.type != "spell":
            continue
        name = I.spell_name(it)
        memorised = I.count(it.system.get("memorized"))
        if name is None:
            unused.append(f"{it.label}: a spell the engine does not model; ignored")
            continue
        if cc.spell_list != "none" and T.SPELLS[name][1] != cc.spell_list:
            unused.append(f"{it.label}: not on the {cc.name}'s spell list; ignored")
            continue
        left = memorised - (I.count(it.system.get("cast")) if combatant else 0)
        if memorised == 0:
            unused.append(f"{it.label}: known but not memorised; ignored")
        if left > 0:
            out[name] = out.get(name, 0) + left
    return out


def _character(name: str, system: Mapping[str, Any], items: list[I.Item], where: str, unused: list[str],
               notes: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    cc, level = _class(system, where)
    base: dict[str, Any] = {"class": cc.name, "level": level}
    for score in ("str", "dex", "con"):
        value = I.count(_get(system, "scores", score, "value"))
        if 3 <= value <= 18:
            base[score] = value
        elif value:
            unused.append(f"system.scores.{score}.value: {value} is outside 3..18; ignored")
    for score in ("int", "wis", "cha"):
        if I.count(_get(system, "scores", score, "value")):
            unused.append(f"system.scores.{score}.value: not used in a fight by the engine")
    base.update(_gear(cc, items, unused, notes))
    # what the actor does not carry must be said, or the class kit (classes.yaml) would fill it in
    base.setdefault("armour", "none")
    if cc.kit.get("shield"):
        base.setdefault("shield", False)
    if cc.kit.get("missile"):
        base.setdefault("missile", None)
    if "weapon" not in base and cc.kit.get("weapon"):
        notes.append(f"no melee weapon the engine knows: the {cc.name}'s kit weapon ({cc.kit['weapon']}) is assumed")
    if _get(system, "retainer", "enabled") is True:
        loyalty = I.count(_get(system, "retainer", "loyalty"))
        if 2 <= loyalty <= 12:
            base["morale"] = loyalty
            notes.append(f"a retainer: its loyalty {loyalty} is its morale")
    for it in items:
        if it.type == "ability":
            unused.append(f"{it.label}: a class ability, played from the class table or not at all")
    hp, top = I.count(_get(system, "hp", "value")), I.count(_get(system, "hp", "max"))
    entry = dict(base)
    spells = _spells(cc, items, unused, combatant=False)
    left = _spells(cc, items, [], combatant=True)
    if spells:
        entry["spells"] = spells
    if top:
        entry["hp"] = top
    combatant: dict[str, Any] = {"name": name, **base, **({"spells": left} if spells else {})}
    if top:
        combatant.update({"hp": min(hp, top), "max_hp": top} if hp >= 1 else {"hp": 0, "status": "dead"})
    try:  # what the class tables refuse (too many spells for the slots) is the items' mistake
        character_template({**base, **({"spells": spells} if spells else {})}, where, "")
    except ConfigError as exc:
        raise ConfigError(where, "items", f"{exc.field}: {exc.message}" if exc.field else exc.message) from None
    _compare(cc, level, base, system, notes)
    details = _get(system, "details")
    for key in details if isinstance(details, Mapping) else ():
        if key not in ("class", "level") and not I.blank(details[key]):
            unused.append(f"system.details.{key}: not used in a fight by the engine")
    for key in system:
        if key not in CHARACTER_READ and not I.blank(system[key]):
            unused.append(f"system.{key}: not used in a fight by the engine")
    return entry, combatant


def _compare(cc: C.CharacterClass, level: int, spec: Mapping[str, Any], system: Mapping[str, Any],
             notes: list[str]) -> None:
    """Note where Foundry's stored numbers differ from what the engine derives from class, level and gear."""
    _, t = character_template(dict(spec), "", "")
    p = t.profile
    row = cc.levels[level - 1]
    for label, stored, derived in (
        ("system.ac.value", _get(system, "ac", "value"), p.ac),
        ("system.thac0.value", _get(system, "thac0", "value"), p.thac0),
        ("system.saves.spell.value", _get(system, "saves", "spell", "value"), row.saves[4]),
        ("system.movement.base", _get(system, "movement", "base"), p.move * T.FEET_PER_SQUARE * T.ENCOUNTER_FRACTION),
    ):
        if isinstance(stored, int) and not isinstance(stored, bool) and stored and stored != derived:
            notes.append(f"{label}: Foundry has {stored}; the engine derives {derived} from class, level and gear")


#: the importer's entry point for data already parsed (the tracker's dropped file): see ``System.importers``
read_data = read_actor
