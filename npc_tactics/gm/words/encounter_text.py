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
    from npc_tactics.i18n import check_lang, translator

    return translator(check_lang(lang), domain="odds")


def _named(group: str | None, names: Mapping[str, str] | None) -> str | None:
    """A group as ``group_text`` wrote it (``"fighter_1 x2, cleric_1"``) with each template by its name in the
    GM's language (``"guerrier 1 x2, clerc 1"``); as it is without names."""
    if not group or not names:
        return group
    items = (item.partition(" x") for item in group.split(", "))
    return ", ".join(f"{names.get(t, t)}{sep}{n}" for t, sep, n in items)


def _pct(entry: dict[str, Any]) -> str:
    return f"{100 * entry['rate']:.0f}% [{100 * entry['low']:.0f}–{100 * entry['high']:.0f}]"


def _odds_lines(odds: dict[str, Any], _: Any, indent: str = "  ") -> list[str]:
    return [
        f"{indent}{_('party wins')}: {_pct(odds['win'])}",
        f"{indent}{_('foes routed')}: {_pct(odds['rout'])}",
        f"{indent}{_('at least one PC dies')}: {_pct(odds['pc_death'])}",
        f"{indent}{_('rounds')}: {odds['rounds']:.1f} [{odds['rounds_low']:.1f}–{odds['rounds_high']:.1f}]",
    ]


def format_odds(result: dict[str, Any], lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """The odds as a GM reads them (rates with their Wilson 95% intervals); ``names``: template id -> its name in
    ``lang``, for the groups."""
    _ = _tr(lang)
    who = result["situation"] or f"{_named(result['party'], names)}  {_('against')}  {_named(result['foes'], names)}"
    lines = [who, _("{n} fights in {s:.1f} s (party: {p}, foes: {f})").format(
        n=result["odds"]["fights"], s=result["seconds"], p=result["party_policy"], f=result["foe_policy"])]
    return "\n".join(lines + _odds_lines(result["odds"], _))


def format_build(result: dict[str, Any], lang: str = "en", names: Mapping[str, str] | None = None) -> str:
    """The builder's proposals, best first; ``names`` as for :func:`format_odds`."""
    _ = _tr(lang)
    lines = [_("Party: {party} (threat {t}); target: {target}").format(
        party=_named(result["party"], names), t=result["party_threat"], target=result["target"]),
        _("{n} fights, {m} of {k} groups measured, in {s:.1f} s").format(
            n=result["fights"], m=result["groups_measured"], k=result["groups_enumerated"], s=result["seconds"])]
    if not result["proposals"]:
        lines.append(_("No group found."))
    for i, p in enumerate(result["proposals"], 1):
        verdict = _("meets the target") if p["meets"] else _("misses the target")
        lines.append(f"{i}. {_named(p['foes'], names)}  ({_('threat')} {p['threat']}, "
                     f"{_('distance')} {p['distance']:.3f}, {verdict}, {p['odds']['fights']} {_('fights')})")
        lines += _odds_lines(p["odds"], _, "     ")
    return "\n".join(lines)
