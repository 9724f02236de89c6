"""English and French for every word a game master reads, through standard gettext catalogues.

The source texts are English (``msgid``); ``npc_tactics/locale/<lang>/LC_MESSAGES/<domain>.po`` holds the
translations and its compiled ``.mo`` beside it is what Python's :mod:`gettext` reads at run time (no Babel
needed to run). Each part of the GM tooling has its own domain so that catalogues never collide:
``npc_tactics`` (move names, narration, suggest), ``card`` (tactics cards), ``web`` (the web page), ``play``
(`npc-tactics play`), ``odds`` (`npc-tactics odds` and `build-encounter`).

Usage::

    from npc_tactics.i18n import translator
    _ = translator("fr")
    _("parry with {weapon}").format(weapon=...)

Strings assembled at run time from data (weapon ids, locations) are marked where they are declared with
:func:`N_`, so the extraction (``make catalogues``) still finds them. The ``.mo`` files are committed and a test
checks that each holds exactly its ``.po``'s translations (by content, so Babel or GNU msgfmt may compile it): a
fresh clone runs without a build step, and a ``.po`` edited without recompiling fails the tests.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from npc_tactics.errors import UserError

__all__ = ["DOMAINS", "LANGS", "LOCALE_DIR", "N_", "Said", "SaidN", "check_lang", "said_in", "translations",
           "translator"]

#: The languages a GM may ask for; English is the source language of every message.
LANGS: tuple[str, ...] = ("en", "fr")
#: One catalogue per part of the GM tooling (see the module docstring).
DOMAINS: tuple[str, ...] = ("npc_tactics", "card", "web", "play", "odds")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(message: str) -> str:  # noqa: N802  (the gettext convention for "mark, translate later")
    """Mark ``message`` for extraction without translating it here (it is translated where it is shown)."""
    return message


def check_lang(lang: str) -> str:
    """``lang`` if it is a supported language, else a :class:`UserError` listing the valid ones."""
    if lang not in LANGS:
        raise UserError(f"--lang: unknown language {lang!r}; valid languages: {', '.join(LANGS)}")
    return lang


@cache
def translations(lang: str = "en", domain: str = "npc_tactics") -> gettext.NullTranslations:
    """The gettext translations object of ``lang`` in ``domain`` (``gettext``, ``ngettext``, ``pgettext``).

    English falls back to the source strings when it has no catalogue; so does a domain whose catalogue is not
    installed yet (another part of the tooling), so a missing catalogue never breaks the output."""
    check_lang(lang)
    if domain not in DOMAINS:
        raise ValueError(f"unknown gettext domain {domain!r}; valid domains: {', '.join(DOMAINS)}")
    return gettext.translation(domain, str(LOCALE_DIR), languages=[lang], fallback=True)


def translator(lang: str = "en", domain: str = "npc_tactics") -> Callable[[str], str]:
    """A gettext function ``_`` for ``lang`` (``"en"`` or ``"fr"``); unknown ``lang`` raises UserError."""
    return translations(lang, domain).gettext


class Said(str):
    """A sentence written in English where it is made and said in the GM's language where it is shown.

    The rules' situation loaders note what they assumed ("Gorak: hp not given, unhurt (21/21)") as they read a
    file, long before anyone knows the GM's language; the text is ``msgid.format(**args)`` so every caller that
    reads a ``str`` still reads English, and :meth:`say` (or :func:`said_in`) translates the ``msgid`` in the
    ``npc_tactics`` domain and fills in the same arguments. Extraction finds the msgids through the ``Said``
    keyword (``make catalogues``). A sentence with a count that may be 1 is a :class:`SaidN`."""

    msgid: str
    args: dict[str, object]

    def __new__(cls, msgid: str, **args: object) -> Said:
        self = super().__new__(cls, msgid.format(**args))
        self.msgid = msgid
        self.args = args
        return self

    def __reduce__(self) -> tuple[object, ...]:  # pickles (to a worker process) with its msgid and arguments
        return (_said, (self.msgid, self.args))

    def say(self, lang: str) -> str:
        """The sentence in ``lang`` (English: the text itself)."""
        if lang == "en":
            return str(self)
        return translator(lang)(self.msgid).format(**self._args_in(lang))

    def _args_in(self, lang: str) -> dict[str, object]:
        """The arguments to fill in, a :class:`Said` among them said in ``lang`` too."""
        return {k: v.say(lang) if isinstance(v, Said) else v for k, v in self.args.items()}


def _said(msgid: str, args: dict[str, object]) -> Said:
    return Said(msgid, **args)


class SaidN(Said):
    """A :class:`Said` sentence that counts something: ``SaidN(singular, plural, n=count, **args)``, said through
    ``ngettext`` so it agrees with ``n`` in each language ("1 Reaction", "2 Reactions"; French "0 Réaction").

    The text is the English form of ``n`` (the singular for 1, else the plural) filled in with ``n`` and ``args``;
    :meth:`say` picks the form of ``lang``'s plural rule in the ``npc_tactics`` domain. ``n`` is always an
    argument of the sentence (``{n}``; a sentence may name the count otherwise too, e.g. ``count=n``). The
    ``msgid`` is the singular. Extraction finds the pair through the ``SaidN:1,2`` keyword (``make catalogues``):
    a plural needs its own keyword, since Babel reads only positional arguments and ``Said``'s spec takes one."""

    plural: str
    n: int

    def __new__(cls, msgid: str, plural: str, *, n: int, **args: object) -> SaidN:
        self = str.__new__(cls, (msgid if n == 1 else plural).format(n=n, **args))
        self.msgid, self.plural, self.n, self.args = msgid, plural, n, args
        return self

    def __reduce__(self) -> tuple[object, ...]:  # pickles with both forms, its count and its arguments
        return (_said_n, (self.msgid, self.plural, self.n, self.args))

    def say(self, lang: str) -> str:
        """The sentence in ``lang``, in the form its number takes there (English: the text itself)."""
        if lang == "en":
            return str(self)
        return translations(lang).ngettext(self.msgid, self.plural, self.n).format(n=self.n, **self._args_in(lang))


def _said_n(msgid: str, plural: str, n: int, args: dict[str, object]) -> SaidN:
    return SaidN(msgid, plural, n=n, **args)


def said_in(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Said`, else as it is (a sentence with no translation)."""
    return text.say(lang) if isinstance(text, Said) else text


def error_in(exc: UserError, lang: str) -> str:
    """``exc``'s one line in ``lang``: a field error's :class:`Said` sentence said there after its file and field
    (``situation: round : -4 hors limites : attendu 1..20``), any other error as it was written. English: ``str``."""
    from npc_tactics.errors import ConfigError
    from npc_tactics.locale_format import colon

    if lang == "en" or not isinstance(exc, ConfigError) or not isinstance(exc.message, Said):
        return str(exc)
    where = f"{exc.file}: {exc.field}" if exc.field else exc.file
    return f"{where}{colon(lang)}{exc.message.say(lang)}"
