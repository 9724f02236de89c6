"""The templates of a system as a GM writes them: its id (``goblin_archer``), its name in the GM's language
(``archer gobelin``) or in English (``goblin archer``), or the web page's ``name (id)`` (``archer gobelin
(goblin_archer)``); case, runs of spaces and a typographic apostrophe do not count.

Shared by the command line (``npc-tactics odds --foes "archer gobelin x2" --lang fr``, through
:func:`npc_tactics.gm.encounter.spec.parse_group`) and the web service (``POST /odds``), so a name is understood
the same way in both. An unknown or ambiguous name is one sentence naming the token, in the GM's language (the
gettext domain ``odds``; English: :class:`~npc_tactics.errors.UnknownNameError`'s words).

The names come from the caller (``name_of``, in practice :func:`npc_tactics.gm.table.stat_words.template_text`):
the encounter builder sits beside the table layer and may not import it; :meth:`TemplateWords.ids` takes the ids
alone (any case) where no names are at hand.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from npc_tactics.errors import MANY_CHOICES, UnknownNameError, UserError, shown
from npc_tactics.i18n import translator
from npc_tactics.plugin import System

__all__ = ["Namer", "TemplateWords", "listed", "spelling"]

#: ``name_of(system, template_id, lang)``: the template's name in ``lang`` (``goblin`` -> ``gobelin``).
Namer = Callable[[System, str, str], str]


def spelling(text: str) -> str:
    """A name as it is compared: case, runs of spaces and a typographic apostrophe do not count."""
    return " ".join(text.replace("\u2019", "'").casefold().split())


def _bare(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _alphabetical(text: str) -> str:
    """A sort key that puts "épéiste" among the e's."""
    return "".join(c for c in unicodedata.normalize("NFKD", spelling(text)) if not unicodedata.combining(c))


def listed(name: str, label: str) -> str:
    """A template as the web page lists it (odds.js ``listed``): its name in the page's language with the id a GM
    types when they differ (``gobelin (goblin)``), the id alone when the name is the id in other words
    (``goblin_archer``, named ``goblin archer``)."""
    return name if _bare(label) == _bare(name) else f"{label} ({name})"


@dataclass(frozen=True)
class TemplateWords:
    """The templates of a system as a GM may write them in ``lang``: each id, its name in ``lang`` and in English,
    and the page's ``name (id)`` (:func:`listed`), compared by :func:`spelling`."""

    names: tuple[str, ...]
    labels: dict[str, str]  #: id -> its name in ``lang``
    spellings: dict[str, tuple[str, ...]]  #: spelling -> the ids written so (more than one: ambiguous)
    lang: str

    @classmethod
    def of(cls, system: System, names: Sequence[str], lang: str, name_of: Namer) -> TemplateWords:
        """The templates ``names`` of ``system``, named by ``name_of`` in ``lang`` and in English."""
        labels = {n: name_of(system, n, lang) for n in names}
        english = labels if lang == "en" else {n: name_of(system, n, "en") for n in names}
        return cls._written(names, labels, lambda n: (n, labels[n], english[n], listed(n, labels[n])), lang)

    @classmethod
    def ids(cls, names: Iterable[str], lang: str = "en") -> TemplateWords:
        """The templates by their ids alone (any case): what a caller with no names at hand accepts."""
        ids = tuple(names)
        return cls._written(ids, {n: n for n in ids}, lambda n: (n,), lang)

    @classmethod
    def _written(cls, names: Sequence[str], labels: dict[str, str], ways: Callable[[str], Iterable[str]],
                 lang: str) -> TemplateWords:
        found: dict[str, set[str]] = {}
        for n in names:
            for way in ways(n):
                found.setdefault(spelling(way), set()).add(n)
        return cls(tuple(names), labels, {k: tuple(sorted(v)) for k, v in found.items()}, lang)

    def matches(self, token: str) -> tuple[str, ...]:
        """The ids ``token`` names: the id itself, or every template written so (none: unknown; two: ambiguous)."""
        return (token,) if token in self.labels else self.spellings.get(spelling(token), ())

    def resolve(self, token: str) -> str:
        """The one id ``token`` names, else a :class:`UserError` saying :meth:`unknown` or :meth:`ambiguous`."""
        found = self.matches(token)
        if len(found) == 1:
            return found[0]
        raise UserError(self.ambiguous(token, found) if found else self.unknown(token))

    def near(self, token: str, n: int = 6) -> list[str]:
        """The ids whose spellings look most like ``token`` (close matches, then those sharing its first letters)."""
        key = spelling(token)
        close = difflib.get_close_matches(key, list(self.spellings), n=n, cutoff=0.5)
        close += [s for s in sorted(self.spellings) if key[:3] and s.startswith(key[:3]) and s not in close]
        out: list[str] = []
        for way in close:
            out += [name for name in self.spellings[way] if name not in out]
        return out[:n]

    def listed_as(self, name: str) -> str:
        return listed(name, self.labels[name])

    def unknown(self, token: str) -> str:
        """The error of a token that names no template, in ``lang`` (English: :class:`UnknownNameError`'s)."""
        if self.lang == "en":
            return str(UnknownNameError("template", token, self.names))
        _ = translator(self.lang, "odds")
        if len(self.names) <= MANY_CHOICES:
            valid = ", ".join(sorted((self.listed_as(n) for n in self.names), key=_alphabetical))
            return _("unknown template {name}; valid templates: {valid}").format(name=shown(token), valid=valid)
        near = ", ".join(self.listed_as(n) for n in self.near(token))
        if near:
            return _("unknown template {name}; did you mean {near}? ({n} valid templates)").format(
                name=shown(token), near=near, n=len(self.names))
        return _("unknown template {name} ({n} valid templates)").format(name=shown(token), n=len(self.names))

    def ambiguous(self, token: str, names: Sequence[str]) -> str:
        return translator(self.lang, "odds")("ambiguous template {name}: it names {names}; write one of these").format(
            name=shown(token), names=", ".join(self.listed_as(n) for n in names))

