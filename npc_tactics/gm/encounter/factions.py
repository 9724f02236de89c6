"""Which bestiary templates go together: the ``faction`` and ``player_character`` tags of a system's templates,
read from its stat-line bestiary listing (``content.bestiary_listing``, what ``npc-tactics bestiary SYSTEM``
prints), so the encounter builder draws its foe groups one faction at a time (docs/odds.md "Factions").

The listings of the shipped systems carry the tags in two shapes: ``faction`` / ``player_character`` keys on
the row (OSE, RuneQuest, MRQ) or a ``tags`` mapping (the dice pool). A system without a listing, or whose
templates carry no faction, has no factions: its groups mix as they always did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from npc_tactics.errors import UserError
from npc_tactics.plugin import System

__all__ = ["TemplateTags", "faction_groups", "template_tags"]


@dataclass(frozen=True)
class TemplateTags:
    faction: str  #: "" when the template names none
    player_character: bool


def _row_tags(row: dict[str, Any]) -> TemplateTags:
    tags = row.get("tags")
    source = tags if isinstance(tags, dict) else row
    return TemplateTags(str(source.get("faction") or "").strip(), bool(source.get("player_character") or False))


def template_tags(system: System) -> dict[str, TemplateTags]:
    """Template name -> its tags, for every template of ``system``'s bestiary listing (shipped and the user's
    bestiaries); empty for a system that lists none."""
    try:
        listing = getattr(system.content_module(), "bestiary_listing", None)
    except (AttributeError, ImportError, TypeError):  # a system without a content module lists nothing
        listing = None
    if listing is None:
        return {}
    return {str(row["name"]): _row_tags(row) for row in listing() if "name" in row}


def faction_groups(system: System, templates: Sequence[str], faction: str | None = None,
                   tags: dict[str, TemplateTags] | None = None) -> dict[str, list[str]]:
    """The ``templates`` sorted into their factions, ``{faction: [template, ...]}`` (names in the order given).

    A template without a faction is a faction of its own (keyed by its name, never mixed with another); with
    ``faction`` only that faction is returned, and a name no template of ``templates`` carries is a one-line
    :class:`UserError` naming the valid factions. ``{}`` when no template carries a faction at all (the caller
    then mixes freely: the system has nothing to group by), unless ``faction`` was asked for.
    """
    tags = template_tags(system) if tags is None else tags
    named = sorted({tags[t].faction for t in templates if t in tags and tags[t].faction})
    if faction is not None:
        if faction not in named:
            valid = ", ".join(named) if named else f"none (the {system.name} templates carry no faction tags)"
            raise UserError(f"--faction: unknown faction {faction!r} for {system.name}; valid factions: {valid}")
        return {faction: [t for t in templates if t in tags and tags[t].faction == faction]}
    if not named:
        return {}
    out: dict[str, list[str]] = {}
    for t in templates:
        key = tags[t].faction if t in tags and tags[t].faction else f"({t})"
        out.setdefault(key, []).append(t)
    return out
