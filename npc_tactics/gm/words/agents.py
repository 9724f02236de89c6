"""Agent names as a GM reads them: the scripted agents in the GM's language ("by-the-book" is "selon les règles"
in French), a trained run or bundle by its folder's name, a tactics card as "the card of <folder>".

The spec itself (``by-the-book``, ``card:policies/ose``) stays what the command line and the JSON take; this is
only how it is said.
"""

from __future__ import annotations

from pathlib import Path

from npc_tactics.i18n import N_, translator

__all__ = ["AGENT_WORDS", "agent_name"]

#: The scripted agents every system has (``npc_tactics.agents``), in words.
AGENT_WORDS: dict[str, str] = {
    "by-the-book": N_("by the book"),
    "aggressive": N_("aggressive"),
    "cautious": N_("cautious"),
    "random": N_("random"),
}


def agent_name(spec: str, lang: str) -> str:
    """The agent ``spec`` in words (an unknown scripted name is shown as written)."""
    _ = translator(lang)
    if spec in AGENT_WORDS:
        return _(AGENT_WORDS[spec])
    if spec.startswith("card:"):
        return _("the card of {bundle}").format(bundle=Path(spec.removeprefix("card:")).name or spec)
    if "/" in spec or "\\" in spec:
        return Path(spec).name or spec
    return spec
