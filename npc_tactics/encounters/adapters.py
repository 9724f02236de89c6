"""What the encounter builder needs to know about a rules system: the :class:`Adapter` each system's package
provides (its ``encounter.py``, the registry's ``encounter`` entry).

An adapter turns "these templates, this many, this far apart" into the scenario *mapping* the system's own
scenario parser validates (so a composed fight is exactly a shipped scenario written by hand), and reads a
built combatant's hit points and offence for the threat figure. Formations are documented per system in
``docs/encounters.md``: side 0 at the origin, side 1 ``distance`` metres away, three abreast per rank, each
further rank one step behind its side's front.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from npc_tactics.dice import parse
from npc_tactics.encounters.wear import Wear
from npc_tactics.plugin import System


def mean_damage(expr: Any) -> float:
    """The mean of a dice expression ("1d8+1", "-1d4", "", 3); 0 for what does not parse."""
    text = str(expr or "").replace(" ", "")
    if not text:
        return 0.0
    sign = -1.0 if text.startswith("-") else 1.0
    try:
        return sign * float(parse(text.lstrip("+-")).mean)
    except (ValueError, KeyError):
        return 0.0


@dataclass(frozen=True)
class Adapter:
    """One system's encounter hooks (all pure functions of their arguments)."""

    system: str
    default_distance: float  #: metres between the front ranks when compose gets no distance
    rank_step: float  #: metres between ranks of one side
    templates: Callable[[], list[str]]
    parse: Callable[[Any, str], Any]  #: the system's scenario parser (mapping, file) -> scenario
    #: extra top-level scenario keys for a distance (MRQ names its distance bands; the others place combatants)
    top: Callable[[float], dict[str, Any]]
    #: (hit points, offence = expected damage per attack against a typical defender) of a built combatant
    strength: Callable[[Any], tuple[float, float]]
    positions: bool = True  #: whether combatants carry a ``position`` in metres
    #: starting wounds and spent resources in the engine's own terms (``systems/<name>/wear.py``); None: no wear
    wear: Wear | None = None
    #: the templates whose median threat is 1.0 (None: every template); a fixed set keeps the scale, and so the
    #: shipped distributions' draws, unchanged when the bestiary (or a user's) grows
    threat_reference: Callable[[], list[str]] | None = None
    #: the templates fit to be foes when a GM names no pool (not the player characters); None: every template
    foe_templates: Callable[[], list[str]] | None = None

    def entry(self, template: str, name: str, side: int, k: int, distance: float) -> dict[str, Any]:
        """One combatant of a scenario mapping at its default place in the formation."""
        out: dict[str, Any] = {"template": template, "name": name}
        if self.positions:
            rank = k // 3
            out["position"] = -rank * self.rank_step if side == 0 else distance + rank * self.rank_step
        return out


def adapter(system: System) -> Adapter:
    """The encounter adapter of ``system`` (one with none is refused like an unknown name, listing those that
    have one)."""
    if not system.encounter:
        from npc_tactics.errors import UnknownNameError
        from npc_tactics.registry import available_systems

        raise UnknownNameError("system", system.name, [n for n, i in available_systems().items() if i.encounter])
    found = system.load("encounter")
    assert isinstance(found, Adapter), system.encounter
    return found
