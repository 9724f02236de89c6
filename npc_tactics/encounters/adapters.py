"""What the encounter builder needs to know about each rules system, in one table of small adapters.

An adapter turns "these templates, this many, this far apart" into the scenario *mapping* the system's own
scenario parser validates (so a composed fight is exactly a shipped scenario written by hand), and reads a
built combatant's hit points and offence for the threat figure. Formations are documented per system in
``docs/encounters.md``: side 0 at the origin, side 1 ``distance`` metres away, three abreast per rank, each
further rank one step behind its side's front.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.dice import parse


def _mean(expr: Any) -> float:
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

    def entry(self, template: str, name: str, side: int, k: int, distance: float) -> dict[str, Any]:
        """One combatant of a scenario mapping at its default place in the formation."""
        out: dict[str, Any] = {"template": template, "name": name}
        if self.positions:
            rank = k // 3
            out["position"] = -rank * self.rank_step if side == 0 else distance + rank * self.rank_step
        return out


# ----- OSE ---------------------------------------------------------------------------------------------
def _ose_templates() -> list[str]:
    from npc_tactics.rules.ose.templates import template_names

    return template_names()


def _ose_parse(data: Any, file: str) -> Any:
    from npc_tactics.rules.ose.scenario import parse_scenario

    return parse_scenario(data, file)


def _ose_strength(c: Any) -> tuple[float, float]:
    p = c.prof
    hit = min(0.95, max(0.05, (21 - (p.thac0 - 5)) / 20))  # to hit AC 5 (chainmail) with 1d20 >= THAC0 - AC
    dmg = max(_mean(p.melee_damage) + p.str_mod, _mean(p.missile_damage) if p.missile_weapon else 0.0)
    return float(c.max_hp), hit * max(dmg, 1.0)


# ----- RuneQuest ---------------------------------------------------------------------------------------
def _rq_templates() -> list[str]:
    from npc_tactics.rules.runequest.scenario import bestiary

    return sorted(bestiary())


def _rq_parse(data: Any, file: str) -> Any:
    from npc_tactics.rules.runequest.scenario import validate_scenario

    return validate_scenario(data, file)


def _rq_strength(c: Any) -> tuple[float, float]:
    db = _mean(c.spec.db)
    best = 0.0
    for w in c.weapons:
        if w.spec.kind == "shield":
            continue
        # the defender parries or dodges about half the time and wears ~3 AP
        best = max(best, min(w.spec.skill, 95) / 100 * max(_mean(w.spec.damage) + db - 3.0, 0.5) * 0.6)
    return float(c.max_hp), best


# ----- MRQ ---------------------------------------------------------------------------------------------
def _mrq_templates() -> list[str]:
    from npc_tactics.rules.mrq.bestiary import load_bestiary

    return sorted(load_bestiary())


def _mrq_parse(data: Any, file: str) -> Any:
    from npc_tactics.rules.mrq.scenario import scenario_from_mapping

    return scenario_from_mapping(data, file)


def _mrq_top(distance: float) -> dict[str, Any]:
    """MRQ names its distance: engaged (close), weapon's length (long), or apart at ``range`` metres."""
    if distance <= 1.0:
        return {"distance": "close"}
    if distance <= 3.0:
        return {"distance": "long"}
    return {"distance": "apart", "range": int(round(distance))}


def _mrq_strength(c: Any) -> tuple[float, float]:
    p = c.prof
    dmg = max(_mean(p.weapon.damage) + _mean(p.dm) - 3.0, 0.5)  # against ~3 AP
    if p.missile is not None:
        dmg = max(dmg, p.missile_skill / max(p.skill, 1) * max(_mean(p.missile.damage) - 3.0, 0.5))
    return float(c.max_hp), min(p.skill, 95) / 100 * dmg


# ----- dice pool ---------------------------------------------------------------------------------------
def _dp_templates() -> list[str]:
    from npc_tactics.rules.dicepool.bestiary import load_bestiary

    return sorted(load_bestiary())


def _dp_parse(data: Any, file: str) -> Any:
    from npc_tactics.rules.dicepool.content import scenario_from_mapping

    return scenario_from_mapping(data, file)


def _dp_strength(f: Any) -> tuple[float, float]:
    best = 0.0
    for w in f.weapons:
        dice = f.skills.get(w.skill, 0) + f.coordination
        best = max(best, dice * (_mean(w.damage) + f.strength * (w.kind == "melee")))
    return float(f.max_hp), best / 4.0


ADAPTERS: Mapping[str, Adapter] = {
    "ose": Adapter("ose", 12.0, 1.5, _ose_templates, _ose_parse, lambda d: {}, _ose_strength),
    "runequest": Adapter(
        "runequest", 6.0, 2.0, _rq_templates, _rq_parse, lambda d: {"distance": d}, _rq_strength
    ),
    "mrq": Adapter("mrq", 2.0, 0.0, _mrq_templates, _mrq_parse, _mrq_top, _mrq_strength, positions=False),
    "dicepool": Adapter("dicepool", 2.0, 1.5, _dp_templates, _dp_parse, lambda d: {}, _dp_strength),
}
