"""A combatant's stat line and class as a GM reads them in French: the French edition's notation (``CA 6 [13],
DV 1 (4 pv), Att 1 × arme (1d6), TAC0 19 [0], ...``) and class names (guerrier, clerc, magicien, voleur, nain,
elfe, petite-gens).

Why a display layer and not a French stat line: the English line is the one the parsers read (a GM pastes it
from the book, the Edit box sends it back), so the tracker keeps it as it is in every entry and saved file and
only *shows* it in French. The rewrite works field by field on the canonical line the system prints
(:func:`~npc_tactics.gm.table.fight_import.stat_line`): a field whose label is in :data:`LABELS` gets the French
label, attack forms reuse the weapon nouns of :mod:`npc_tactics.gm.words.vocab` (their article dropped), and
anything not recognised is left as written (a line of another notation passes through unchanged). The words are
in the ``npc_tactics`` domain, beside the CLI's and the cards' (``jet de sauvegarde``, ``TAC0``), so the CLI can
show the same line. Terms: the French OSE edition's abbreviations (CA, DV, TAC0, JS), the saving-throw
categories and ``pv``/``DP``/``PX`` as the French translation of Foundry VTT's OSE system writes them.

The class and level checks of :func:`check_class_level` name the field and say the message as a
:class:`~npc_tactics.i18n.Said` sentence, so the API answers them in the GM's language (issue 29: errors at the
field, in the chosen language); the classes and their maximum levels are read off the templates a fight can add
(its ``<class>_<level>`` templates), so no system is named here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from npc_tactics.encounters.adapters import adapter
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.words.creatures import creature_words
from npc_tactics.gm.words.vocab import WEAPONS
from npc_tactics.i18n import N_, Said, translator
from npc_tactics.plugin import System
from npc_tactics.rules.line_words import ARTICLE

__all__ = ["CLASSES", "class_choices", "class_name", "check_class_level", "default_stem", "member_text",
           "stat_line_in", "template_description", "template_text"]

#: The label of each field of the stat line, as the French edition abbreviates it.
LABELS: dict[str, str] = {
    "AC": N_("AC (armour class, in a stat line)"),
    "HD": N_("HD (hit dice, in a stat line)"),
    "THAC0": N_("THAC0 (in a stat line)"),
    "MV": N_("MV (movement, in a stat line)"),
    "SV": N_("SV (saving throws, in a stat line)"),
    "XP": N_("XP (experience points, in a stat line)"),
}
#: The five saving-throw categories of an ``SV`` field, in its order.
SAVES: tuple[tuple[str, str], ...] = (
    ("D", N_("D (save versus death or poison)")), ("W", N_("W (save versus wands)")),
    ("P", N_("P (save versus paralysis or petrification)")), ("B", N_("B (save versus breath attacks)")),
    ("S", N_("S (save versus spells, rods and staves)")),
)
ALIGNMENTS: dict[str, str] = {"Lawful": N_("Lawful"), "Neutral": N_("Neutral"), "Chaotic": N_("Chaotic"),
                              "Any": N_("Any (alignment)")}
#: The notes the bestiary puts after a morale or XP value, their numbers as ``{0}``, ``{1}``; a note of another
#: shape (a GM's own bestiary) is shown as written.
NOTES: tuple[str, ...] = (
    N_("{0} with leader"), N_("{0} with leader or chief"), N_("{0} with chieftain"), N_("{0} with king"),
    N_("{0} in melee"), N_("{0} vs fire"), N_("{0} in larger packs"), N_("leader: {0}"),
    N_("guard: {0}, queen: {1}"),
)
#: The character classes, by their id in the rules (``magic-user`` is the books' spelling of ``magic_user``).
CLASSES: dict[str, str] = {
    "fighter": N_("fighter"), "cleric": N_("cleric"), "magic_user": N_("magic-user"), "thief": N_("thief"),
    "dwarf": N_("dwarf"), "elf": N_("elf"), "halfling": N_("halfling"),
}
#: The stem of the default name of a combatant added by its stat block alone ("Monstre A").
MONSTER = N_("monster")
#: Attack forms and flavour effects (``~rust``) of the bestiary that the weapon nouns of the narration lack.
MORE_WORDS: dict[str, str] = {
    "gaze": N_("gaze (attack form)"), "song": N_("song (attack form)"), "lodged sting": N_("lodged sting"),
    "rust": N_("rust"), "strength drain": N_("strength drain"),
}
_ATTACK = re.compile(r"^(\d+) × ([^(]+?)(?: \((.*)\))?$")
_HP = re.compile(r"\((\d+)hp\)")
_NUMBER = re.compile(r"\d+(?:,\d{3})*")
_NOTE = re.compile(r"^(.*?) \((.*)\)$")
_CLASS_LEVEL = re.compile(r"^([A-Za-z][A-Za-z_ -]*?) (\d{1,2})$")


def class_key(name: Any) -> str:
    """``Magic-User`` -> ``magic_user``: the id a class is known by."""
    return "_".join(str(name).lower().replace("-", " ").split())


def class_name(name: Any, lang: str) -> str:
    """A class in the GM's language (``magic_user`` -> ``magicien``); an unknown one as it was given."""
    key = class_key(name)
    return translator(lang)(CLASSES[key]) if key in CLASSES else str(name)


def _noun(form: str, _: Callable[[str], str]) -> str:
    """An attack form as the stat line's bare noun (``claw`` -> ``griffes``), from the weapon nouns."""
    key = form.strip().replace(" ", "_")
    if form.strip() in MORE_WORDS:
        return _(MORE_WORDS[form.strip()])
    if key not in WEAPONS:
        return form
    said = _(WEAPONS[key])
    return ARTICLE.sub("", said) if said != WEAPONS[key] else form


def _term(term: str, _: Callable[[str], str]) -> str:
    """One term of an attack's brackets: dice as they are, an effect (``paralysis``) or flavour (``~rust``)."""
    flavour = term.startswith("~")
    word = term[1:] if flavour else term
    said = _(MORE_WORDS[word]) if word in MORE_WORDS else _(word)
    return ("~" if flavour else "") + said


def _attack(text: str, _: Callable[[str], str]) -> str:
    m = _ATTACK.match(text.strip())
    if m is None:
        return text
    count, form, inner = m[1], m[2], m[3]
    out = f"{count} × {_noun(form, _)}"
    if inner is None:
        return out
    weapon = ""
    if " or by weapon" in inner:
        inner, _sep, bonus = inner.partition(" or by weapon")
        weapon = " " + _("or by weapon") + bonus
    terms = [_term(t, _) for t in inner.split(" + ")] if inner else []
    return out + f" ({' + '.join(terms)}{weapon})"


def _top_level(line: str) -> list[str]:
    """The line's parts between ``", "``, commas inside brackets (``(guard: 13, queen: 25)``) and in numbers
    (``XP 2,300``) left alone."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(line):
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0 and line[k + 1:k + 2] == " ":
            parts.append(line[start:k].strip())
            start = k + 1
    parts.append(line[start:].strip())
    return parts


def _field(part: str, in_attacks: bool, _: Callable[[str], str]) -> tuple[str, bool]:
    """One part of the line in French, and whether the parts after it are still attacks."""
    label, _sp, rest = part.partition(" ")
    if label == "Att":
        return f"Att {_attack(rest, _)}", True
    if in_attacks and _ATTACK.match(part):
        return _attack(part, _), True
    if label == "HD":
        rest = _HP.sub(lambda m: "(" + _("{n}hp").format(n=m[1]) + ")", rest)
    elif label == "SV":
        codes = dict(SAVES)
        rest = " ".join(re.sub(r"^([A-Z])(\d+)$", lambda m: _(codes[m[1]]) + m[2] if m[1] in codes else m[0], w)
                        for w in rest.split(" "))
    elif label == "AL":  # "Lawful or Neutral"
        words = rest.split(" or ")
        if all(w in ALIGNMENTS for w in words):
            rest = f" {_('or (between alignments)')} ".join(_(ALIGNMENTS[w]) for w in words)
    elif label == "TT" and rest == "None":
        rest = _("None (treasure type)")
    elif label in ("ML", "XP"):
        rest = _noted(rest, _)
    if label in LABELS:
        return f"{_(LABELS[label])} {rest}", False
    return f"{label} {rest}" if rest else label, False


def _noted(rest: str, _: Callable[[str], str]) -> str:
    """``7 (9 with king)`` in French: the value (French thousands: ``2 300``) and its note when its shape is one
    of :data:`NOTES`."""
    m = _NOTE.match(rest)
    value, note = (m[1], m[2]) if m else (rest, "")
    value = value.replace(",", "\u202f")
    if not note:
        return value
    numbers = _NUMBER.findall(note)
    pieces = _NUMBER.split(note)  # the words between the numbers
    shape = "".join(p + (f"{{{k}}}" if k < len(numbers) else "") for k, p in enumerate(pieces))
    if shape in NOTES:
        note = _(shape).format(*(x.replace(",", "\u202f") for x in numbers))
    return f"{value} ({note})"


def stat_line_in(line: str | None, lang: str) -> str | None:
    """``line`` (the game's English notation) as a GM reads it in ``lang`` (see the module docstring)."""
    if line is None or lang == "en":
        return line
    _ = translator(lang)
    parts = _top_level(line)
    out: list[str] = []
    in_attacks = False
    for k, part in enumerate(parts):
        m = _CLASS_LEVEL.match(part) if k == 0 else None
        if m is not None and class_key(m[1]) in CLASSES:  # a character: "fighter 2, AC 4 [15], ..."
            out.append(f"{class_name(m[1], lang)} {m[2]}")
            continue
        said, in_attacks = _field(part, in_attacks, _)
        out.append(said)
    return ", ".join(out)


def template_text(system: System, template: str, lang: str) -> str:
    """A template of ``system`` as the GM's language names it: a class and level (``fighter_2`` ->
    ``guerrier 2``), a class word (``dwarf`` -> ``nain``), else the creature's name in its system's bestiary in
    ``lang`` (:mod:`npc_tactics.gm.words.creatures`), else its English word (``black_bear`` -> ``black bear``)."""
    m = re.fullmatch(r"([a-z_]+)_(\d{1,2})", template)
    if m is not None and m[1] in CLASSES:
        return f"{class_name(m[1], lang)} {m[2]}"
    if template in CLASSES:
        return class_name(template, lang)
    found = creature_words(system, lang).get(template)
    return found.name if found is not None else template.replace("_", " ")


def template_description(system: System, template: str, english: str, lang: str) -> str:
    """The bestiary's description of ``template`` in ``lang`` (``english``, the bestiary's own, where the language
    has none)."""
    found = creature_words(system, lang).get(template)
    return found.description if found is not None and found.description else english


def member_text(system: System, entry: Mapping[str, Any], lang: str, stat_block: str) -> str:
    """What a combatant of the roster is, in a word: its template, its class and level, or "stat block"."""
    if "class" in entry:
        return f"{class_name(entry['class'], lang)} {entry.get('level', '')}".strip()
    if isinstance(entry.get("template"), str):
        return template_text(system, entry["template"], lang)
    return stat_block


def default_stem(system: System, entry: Mapping[str, Any], lang: str) -> str:
    """The stem of a combatant's default name in ``lang`` ("Guerrier 2", "Gobelin", "Monstre"), capitalised."""
    stem = member_text(system, entry, lang, "")
    if not stem:
        stem = translator(lang)(MONSTER)
    return stem[:1].upper() + stem[1:]


class _Classes(Said):
    """The classes listed in the GM's language, each with the id the API takes (``magicien (magic_user)``)."""

    ids: list[str]

    def __new__(cls, keys: Iterable[str]) -> _Classes:
        listed = list(keys)
        self = str.__new__(cls, ", ".join(listed))
        self.msgid, self.args, self.ids = "{names}", {"names": str(self)}, listed
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_Classes, (self.ids,))

    def say(self, lang: str) -> str:
        if lang == "en":
            return str(self)
        return ", ".join(f"{class_name(k, lang)} ({k})" for k in self.ids)


@functools.lru_cache(maxsize=8)
def class_levels(system: System) -> dict[str, int]:
    """Each class of ``system`` and its highest level, read off the templates a fight can add (the
    ``<class>_<level>`` names, ``elf_1`` .. ``elf_10``); empty for a system with no classes."""
    try:
        names = adapter(system).templates()
    except (UserError, AttributeError):
        return {}
    out: dict[str, int] = {}
    for name in names:
        m = re.fullmatch(r"([a-z_]+)_(\d{1,2})", str(name))
        if m is not None and m[1] in CLASSES:
            out[m[1]] = max(out.get(m[1], 0), int(m[2]))
    return out


def class_choices(system: System, lang: str) -> list[dict[str, Any]]:
    """The classes a character of ``system`` may have, for the page's drop-down: id, name in ``lang``, top
    level."""
    return [{"value": key, "text": class_name(key, lang), "max_level": top}
            for key, top in class_levels(system).items()]


def check_class_level(system: System, file: str, fields: Mapping[str, Any]) -> None:
    """Refuse a class or level the system has not, at its field, in words said in the GM's language (the
    system's parser checks the rest)."""
    levels = class_levels(system)
    if not levels or ("class" not in fields and "level" not in fields):
        return
    key = class_key(fields.get("class", ""))
    if "class" in fields and key not in levels:
        raise ConfigError(file, "class", Said("unknown class {name}; the classes are: {classes}",
                                              name=repr(str(fields["class"])[:40]), classes=_Classes(levels)))
    level = fields.get("level")
    if "level" in fields and (isinstance(level, bool) or not isinstance(level, int) or level < 1):
        raise ConfigError(file, "level", Said("the level is a whole number from 1 up, got {level}",
                                              level=str(level)[:20]))
    if key in levels and isinstance(level, int) and level > levels[key]:
        raise ConfigError(file, "level", Said("the {class_name} class stops at level {top}, not {level}",
                                              class_name=Said(CLASSES[key]), top=levels[key], level=level))
