"""What the GM web page needs to build a situation form for one system: its bestiary and its situation fields.

The page is generic: it draws inputs from this description (``GET /bestiary/{system}``) and writes the same
situation mapping a GM would write in YAML, so every check of the system's ``load_situation`` applies
unchanged. Field lists are data, one entry per situation key the system's loader reads; labels are msgids of
the ``web`` gettext domain (translated by the page).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.configs.validate import load_yaml
from npc_tactics.errors import UnknownNameError
from npc_tactics.plugin import System
from npc_tactics.registry import available_systems

#: The statuses most systems' loaders accept (a system's form lists its own where they differ).
COMMON_STATUSES = ["active", "unconscious", "dead", "fled", "surrendered", "incapacitated"]

#: A system's form (its package's ``form.py``, the registry's ``form`` entry) is ``FORM`` and ``templates()``:
#:   wounds.kind: "hp" (one pool: hp / max_hp), "damage" (damage taken per location), "current" (HP left per
#:   location). position: metres on a line, or None where distance is one situation-level band (MRQ).
#:   engaged_within, statuses, combatant_fields, situation_fields, uses_scenario (a situation names a scenario).
#: A form may also define ``starting_situation(scenario, side)``, for scenarios that are not YAML files of the
#: system's ``content/scenarios`` folder (the default below reads those).


def _with_form(system: str) -> System:
    """The system named ``system`` (this page's edge: the name comes in the request), if it has a form."""
    info = available_systems().get(system)
    if info is None or not info.form:
        raise UnknownNameError("system", system, [n for n, i in available_systems().items() if i.form])
    return info


def _form(system: str) -> Any:
    return _with_form(system).load("form")


def location_text(template: dict[str, Any], lang: str) -> dict[str, str]:
    """The label beside each of ``template``'s hit-location boxes, in ``lang`` (``{key: "Right arm"}``): the
    system's own words for the template's body plan where its form gives them (the dice pool's
    ``location_labels``, ``{lang: {slot: words}}``: its "torso" slot is a beast's forequarters), else the
    location's bare name from :data:`npc_tactics.gm.words.vocab.LOCATION_LABELS` (gettext domain
    ``npc_tactics``), else the key written readably ("left_tentacle": "Left tentacle")."""
    from npc_tactics.gm.words.vocab import location_label
    from npc_tactics.i18n import translator

    _ = translator(lang)
    own = template.get("location_labels")
    words = own.get(lang) if isinstance(own, dict) else None
    out = {}
    for loc in template.get("locations") or []:
        said = words.get(loc) if isinstance(words, dict) else None
        out[str(loc)] = str(said)[:1].upper() + str(said)[1:] if said else location_label(loc, _)
    return out


def bestiary_form(system: str, lang: str = "en") -> dict[str, Any]:
    """The stat blocks of ``system`` (name, description, hit locations) and its situation form description;
    each template also says ``text``, its name in ``lang``, its description in ``lang`` where the system's
    bestiary has one (:mod:`npc_tactics.gm.words.creatures`), and ``location_text``, the label of each of its
    hit locations in ``lang`` (:func:`location_text`; empty for a system of one hit-point pool)."""
    from npc_tactics.gm.table.stat_words import template_description, template_text

    info = _with_form(system)
    form = info.load("form")
    templates = [{**t, "text": template_text(info, str(t["name"]), lang),
                  "description": template_description(info, str(t["name"]), str(t.get("description", "")), lang),
                  "location_text": location_text(t, lang)}
                 for t in form.templates()]
    return {"system": system, "templates": templates, **form.FORM}


def scenario_document(system: str, scenario: str) -> dict[str, Any] | None:
    """The shipped scenario file ``scenario`` of ``system`` as written (the page's starting situation), or None
    when it is not a shipped name (a bundle trained on a scenario file elsewhere)."""
    from npc_tactics.configs import system_dir

    folder = Path(system_dir(system)) / "scenarios"
    names = {p.stem: p for p in folder.glob("*.yaml")}
    path = names.get(scenario)
    if path is None:
        return None
    data = load_yaml(path)
    return data if isinstance(data, dict) else None


def starting_situation(system: str, scenario: str, side: int) -> dict[str, Any] | None:
    """A situation at round 1 of the shipped ``scenario``, the first combatant of ``side`` acting: where the
    page starts before the GM edits wounds, distances and the pending decision. None for an unshipped one."""
    own = getattr(_form(system), "starting_situation", None)  # the form's own, where it has one
    if own is not None:
        found: dict[str, Any] | None = own(scenario, side)
        return found
    doc = scenario_document(system, scenario)
    if doc is None:
        return None
    sides = doc.get("sides") or []
    try:
        acting = str(sides[side]["combatants"][0]["name"])
    except (IndexError, KeyError, TypeError):
        return None
    if _form(system).FORM["uses_scenario"]:
        return {"scenario": scenario, "round": 1, "acting": acting, "sides": sides}
    return {**doc, "round": 1, "acting": acting}
