"""The character sheet's words (content/sheet_labels.yaml) as lookup tables: English and French labels of the
attributes, lines, skills, equipment, flags and body plans, matched without case, accents, '-' or '_'; and
:func:`words`, a label in a parse error that is said in French as the sheet's French label."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mypy_extensions import mypyc_attr

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.i18n import Said
from npc_tactics.systems.dicepool.rules import tables as T

__all__ = ["LANGS", "Labels", "Words", "labels", "norm", "slug", "words"]

LANGS = ("en", "fr")  #: printed label languages: index 0 and 1 of each label list
_SECTIONS = ("attributes", "lines", "skills", "weapons", "armour", "flags", "body_plans")


def norm(text: str) -> str:
    """A label as compared: no accents, case-folded, '-' '_' and runs of spaces as one space."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[\s_\-]+", " ", plain.casefold()).strip()


def slug(text: str) -> str:
    """An id from a free name (a skill the tables do not know): ``"Tir à l'arc"`` -> ``tir_a_l_arc``."""
    return re.sub(r"[^a-z0-9]+", "_", norm(text)).strip("_")


@mypyc_attr(native_class=False)  # a Said is a normal Python class: mypyc cannot make a native subclass of it
class Words(Said):
    """Sheet words inside a :class:`~npc_tactics.i18n.Said` message: the English words where read as a str, the
    words of ``lang`` when said in it. The labels are data (sheet_labels.yaml), not catalogue entries, so the
    message's msgid is translated and these words are picked, not looked up."""

    def __reduce__(self) -> tuple[object, ...]:  # pickles with both languages' words
        return (words, (str(self.args["en"]), str(self.args["fr"])))

    def say(self, lang: str) -> str:
        return str(self.args.get(lang, self))


def words(en: str, fr: str) -> Said:
    """``en`` as a str (and in English), ``fr`` when said in French (see :class:`Words`)."""
    return Words("{en}", en=en, fr=fr)


@dataclass(frozen=True)
class Table:
    """One group of labels: ``find`` (normalised label -> id) and ``printed`` (id -> (English, French))."""

    find: dict[str, str]
    printed: dict[str, tuple[str, str]]

    def label(self, key: str, lang: str) -> str:
        pair = self.printed.get(key)
        return pair[LANGS.index(lang)] if pair else key.replace("_", " ")

    def words_of(self, keys: list[str], en: str | None = None) -> Said:
        """The labels of ``keys`` joined by commas, in English (``en`` instead when given) and in French."""
        return words(en if en is not None else ", ".join(self.label(k, "en") for k in keys),
                     ", ".join(self.label(k, "fr") for k in keys))


@dataclass(frozen=True)
class Labels:
    attributes: Table
    lines: Table
    skills: Table
    weapons: Table
    armour: Table
    flags: Table
    plans: Table  #: body plan names
    plan_locations: dict[str, Table]  #: body plan -> its location labels (slot ids of tables.LOCATIONS)


def _table(raw: Any, file: str, path: str) -> Table:
    find: dict[str, str] = {}
    printed: dict[str, tuple[str, str]] = {}
    for key, words in V.mapping(raw, file, path).items():
        seq = V.sequence(words, file, V.join(path, key), 2, what="labels (English, French, others)")
        texts = [V.string(w, file, V.join(path, key, i), non_empty=True) for i, w in enumerate(seq)]
        printed[key] = (texts[0], texts[1])
        for w in [key, *texts]:
            find.setdefault(norm(w), key)
    return Table(find, printed)


@lru_cache(maxsize=1)
def labels() -> Labels:
    """The shipped sheet labels, validated (every body plan names the seven slots of the 2d6 table)."""
    path = system_dir("dicepool") / "sheet_labels.yaml"
    file = str(path)
    data = V.mapping(load_yaml(path), file, "", _SECTIONS, _SECTIONS)
    plans_raw = V.mapping(data["body_plans"], file, "body_plans")
    names: dict[str, Any] = {}
    locs: dict[str, Table] = {}
    for plan, raw in plans_raw.items():
        d = V.mapping(raw, file, V.join("body_plans", plan), ("names", "locations"), ("names", "locations"))
        names[plan] = d["names"]
        V.mapping(d["locations"], file, V.join("body_plans", plan, "locations"), T.LOCATIONS, T.LOCATIONS)
        locs[plan] = _table(d["locations"], file, V.join("body_plans", plan, "locations"))
    t = {s: _table(data[s], file, s) for s in _SECTIONS[:-1]}
    return Labels(t["attributes"], t["lines"], t["skills"], t["weapons"], t["armour"], t["flags"],
                  plans=_table(names, file, "body_plans"), plan_locations=locs)
