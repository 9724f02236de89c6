"""What ``npc-tactics odds`` and ``build-encounter`` print (and the web API's ``text``), in English or French.

The words come from the gettext domain ``odds`` (English source, French catalogue hand-kept in
``locale/fr/LC_MESSAGES/odds.po``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["check_lang_option", "format_build", "format_odds"]


def check_lang_option(lang: str) -> str:
    from npc_tactics.i18n import check_lang

    return check_lang(lang)


def _tr(lang: str) -> Any:
    from npc_tactics.i18n import check_lang, translations

    return translations(check_lang(lang), domain="odds")


def _count(n: int, lang: str) -> str:
    """A count as it was always written in English (``20000``), with its thousands grouped in French (``20 000``)."""
    from npc_tactics.locale_format import integer

    return integer(n, lang) if lang == "fr" else str(n)


def _dec(x: float, lang: str, digits: int) -> str:
    """``x`` with ``digits`` decimals: ``2.5`` in English as always, ``2,5`` in French (the project's decimal)."""
    from npc_tactics.locale_format import decimal

    return decimal(x, lang, digits) if lang == "fr" else f"{x:.{digits}f}"


def _threat(x: float, lang: str) -> str:
    """A threat as the result holds it (rounded to 3 decimals): ``2.986`` in English, ``2,986`` in French."""
    return str(x).replace(".", ",") if lang == "fr" else str(x)


def _fights(n: int, tr: Any, lang: str) -> str:
    """``1 fight``, ``2 fights``; ``0 combat``, ``1 combat``, ``2 combats`` in French."""
    return str(tr.ngettext("{n} fight", "{n} fights", n).format(n=_count(n, lang)))


def _named(group: str | None, names: Mapping[str, str] | None) -> str | None:
    """A group as ``group_text`` wrote it (``"fighter_1 x2, cleric_1"``) with each template by its name in the
    GM's language (``"guerrier 1 x2, clerc 1"``); as it is without names."""
    if not group or not names:
        return group
    items = (item.partition(" x") for item in group.split(", "))
    return ", ".join(f"{names.get(t, t)}{sep}{n}" for t, sep, n in items)


def _pct(entry: dict[str, Any], lang: str) -> str:
    """``34% [28–41]``; in French ``34 % [28–41]`` (a narrow no-break space before %, as every French percentage)."""
    from npc_tactics.locale_format import percent

    rate = percent(entry["rate"], lang) if lang == "fr" else f"{100 * entry['rate']:.0f}%"
    return f"{rate} [{100 * entry['low']:.0f}–{100 * entry['high']:.0f}]"


def _odds_lines(odds: dict[str, Any], _: Any, lang: str, indent: str = "  ") -> list[str]:
    from npc_tactics.locale_format import colon

    rounds = [_dec(odds[k], lang, 1) for k in ("rounds", "rounds_low", "rounds_high")]
    c = colon(lang)
    return [
        f"{indent}{_('party wins')}{c}{_pct(odds['win'], lang)}",
        f"{indent}{_('foes routed')}{c}{_pct(odds['rout'], lang)}",
        f"{indent}{_('at least one PC dies')}{c}{_pct(odds['pc_death'], lang)}",
        f"{indent}{_('rounds')}{c}{rounds[0]} [{rounds[1]}–{rounds[2]}]",
    ]


def format_odds(result: dict[str, Any], lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """The odds as a GM reads them (rates with their Wilson 95% intervals); ``names``: template id -> its name in
    ``lang``, for the groups."""
    tr = _tr(lang)
    _ = tr.gettext
    who = result["situation"] or f"{_named(result['party'], names)}  {_('against')}  {_named(result['foes'], names)}"
    n = result["odds"]["fights"]
    played = tr.ngettext("{n} fight in {s} s (party: {p}, foes: {f})",
                         "{n} fights in {s} s (party: {p}, foes: {f})", n)
    lines = [who, played.format(n=_count(n, lang), s=_dec(result["seconds"], lang, 1), p=result["party_policy"],
                                f=result["foe_policy"])]
    return "\n".join(lines + _odds_lines(result["odds"], _, lang))


def format_build(result: dict[str, Any], lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """The builder's proposals, best first; ``names`` as for :func:`format_odds`."""
    tr = _tr(lang)
    _ = tr.gettext
    k = result["groups_enumerated"]
    groups = tr.ngettext("{m} of {k} group measured", "{m} of {k} groups measured", k).format(
        m=_count(result["groups_measured"], lang), k=_count(k, lang))
    lines = [_("Party: {party} (threat {t}); target: {target}").format(
        party=_named(result["party"], names), t=_threat(result["party_threat"], lang), target=result["target"]),
        _("{fights}, {groups}, in {s} s").format(fights=_fights(result["fights"], tr, lang), groups=groups,
                                                 s=_dec(result["seconds"], lang, 1))]
    if not result["proposals"]:
        lines.append(_("No group found."))
    for i, p in enumerate(result["proposals"], 1):
        verdict = _("meets the target") if p["meets"] else _("misses the target")
        lines.append(f"{i}. {_named(p['foes'], names)}  ({_('threat')} {_threat(p['threat'], lang)}, "
                     f"{_('distance')} {_dec(p['distance'], lang, 3)}, {verdict}, "
                     f"{_fights(p['odds']['fights'], tr, lang)})")
        lines += _odds_lines(p["odds"], _, lang, "     ")
    return "\n".join(lines)
