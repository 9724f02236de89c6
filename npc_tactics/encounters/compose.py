"""Compose a fight from template names and counts, and the threat figure of each template.

``compose(system, sides)`` writes the scenario mapping a GM would have written by hand (templates, names,
positions by the default formation of :mod:`.adapters`) and validates it with the system's own scenario
parser, so the result is the very object ``content.load_scenario`` returns and ``engine.new_combat`` takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from statistics import median
from typing import Any

import numpy as np

from npc_tactics.configs import validate as V
from npc_tactics.dice import RngRoller
from npc_tactics.encounters.adapters import Adapter
from npc_tactics.encounters.adapters import adapter as _adapter
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.plugin import System
from npc_tactics.registry import get_system

Side = Sequence[tuple[str, int]]
#: fights with more than this many combatants per side are refused by every system's catalogue
MAX_PER_SIDE = 6
#: hit points are rolled for the threat figure this many times (fixed seeds: the figure is deterministic)
THREAT_SAMPLES = 16


def resolved(system: str | System) -> System:
    """``system`` itself, or the system of that name: the public functions of this module are the Python API's
    edge (the README and docs/encounters.md call them with a name); an unknown name lists the valid ones."""
    return system if isinstance(system, System) else get_system(system)


def adapter(system: str | System) -> Adapter:
    """The encounter adapter of ``system``; an unknown system lists the valid ones."""
    return _adapter(resolved(system))


def templates(system: str | System) -> list[str]:
    """Every bestiary and character template name of ``system`` (what ``compose`` accepts), sorted."""
    return adapter(system).templates()


def check_template(system: str | System, name: Any, file: str = "<compose>", field: str = "template") -> str:
    """``name`` if it is a template of ``system``; else a ConfigError naming the field and the choices."""
    names = templates(system)
    if not isinstance(name, str) or name not in names:
        raise ConfigError(file, field, str(UnknownNameError("template", str(name), names)))
    return name


def scenario_mapping(
    system: str | System,
    sides: Sequence[Side],
    *,
    distance: float | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "custom",
    max_rounds: int | None = None,
    extras: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    file: str = "<compose>",
) -> dict[str, Any]:
    """The scenario mapping ``compose`` validates (see :func:`compose`); ``extras[s][k]`` are overrides merged
    into the k-th combatant entry of side s (equipment variants: ``weapon``, ``armour``, ``skill``...)."""
    system = resolved(system)
    ad = adapter(system)
    sides = list(sides)
    if len(sides) != 2:
        raise ConfigError(file, "sides", f"expected 2 sides, got {len(sides)}")
    dist = float(ad.default_distance if distance is None else distance)
    if not np.isfinite(dist) or dist < 0:
        raise ConfigError(file, "distance", f"expected a distance in metres >= 0, got {distance!r}")
    out_sides = []
    for s, side in enumerate(sides):
        entries: list[dict[str, Any]] = []
        for j, pair in enumerate(side):
            field = V.join("sides", s, j)
            if not (isinstance(pair, Sequence) and not isinstance(pair, str) and len(pair) == 2):
                raise ConfigError(file, field, f"expected a (template, count) pair, got {pair!r}")
            tname = check_template(system, pair[0], file, V.join(field, "template"))
            count = V.integer(pair[1], file, V.join(field, "count"), 1, MAX_PER_SIDE)
            for _ in range(count):
                k = len(entries)
                entries.append(ad.entry(tname, f"{tname} {'ab'[s]}{k + 1}", s, k, dist))
        if not 1 <= len(entries) <= MAX_PER_SIDE:
            raise ConfigError(file, V.join("sides", s), f"expected 1 to {MAX_PER_SIDE} combatants, got {len(entries)}")
        if extras is not None and s < len(extras):
            for k, extra in enumerate(extras[s][: len(entries)]):
                entries[k].update(extra)
        out_sides.append({"name": "npcs" if s == 0 else "opponents", "combatants": entries})
    data: dict[str, Any] = {"name": name, "description": f"composed: {describe(sides)}", "sides": out_sides}
    data.update(ad.top(dist))
    if options:
        data["options"] = dict(options)
    if max_rounds is not None:
        data["max_rounds"] = max_rounds
    return data


def compose(
    system: str | System,
    sides: Sequence[Side],
    *,
    distance: float | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "custom",
) -> Any:
    """A scenario of ``system`` from ``sides`` (side 0 = the NPCs, side 1 = their opponents), each a sequence
    of ``(template, count)`` pairs, ``distance`` metres between the front ranks (default: the system's, see
    docs/encounters.md) and rules ``options``. Returns what ``content.load_scenario`` returns; a bad template
    or count is a ConfigError naming it and listing the choices."""
    system = resolved(system)
    data = scenario_mapping(system, sides, distance=distance, options=options, name=name)
    return adapter(system).parse(data, f"<compose {name}>")


def describe(sides: Sequence[Side]) -> str:
    """``"2 goblin, 1 orc vs 1 fighter_1"`` (counts of one template merged, first appearance order)."""
    parts = []
    for side in sides:
        counts: dict[str, int] = {}
        for t, n in side:
            counts[str(t)] = counts.get(str(t), 0) + (n if isinstance(n, int) else 0)
        parts.append(", ".join(f"{n} {t}" for t, n in counts.items()))
    return " vs ".join(parts)


@lru_cache(maxsize=8)
def _raw_threats(system: System) -> dict[str, float]:
    """hit points x offence per template, averaged over fixed seeds (see :func:`threat`)."""
    engine = system.make_engine()
    out = {}
    for t in templates(system):
        scenario = compose(system, [[(t, 1)], [(t, 1)]], name=f"threat {t}")
        hp = off = 0.0
        for seed in range(THREAT_SAMPLES):
            state, _ = engine.new_combat(scenario, RngRoller(np.random.default_rng(seed)), record_rolls=False)
            h, o = adapter(system).strength(state.combatants[0])
            hp, off = hp + h, off + o
        out[t] = hp * off / THREAT_SAMPLES**2
    return out


def threats(system: str | System) -> dict[str, float]:
    """Threat per template, scaled so the system's median template (of its adapter's ``threat_reference``) is 1.0
    (a side's threat is the sum).

    Threat = mean hit points x offence, offence = the expected damage of the template's best attack against a
    typical defender (OSE: chance to hit AC 5 x mean damage; RQG, MRQ: skill% x mean damage less ~3 AP, RQG
    halved again for the parry or dodge; dice pool: attack dice x mean damage / 4). Hit points x damage rate is
    Lanchester's fighting strength of one combatant: two threat-1 creatures are about one threat-2 creature.
    A rough figure for budgets, not a prediction: the odds helper measures win rates."""
    return _threats(resolved(system))


@lru_cache(maxsize=8)
def _threats(system: System) -> dict[str, float]:
    raw = _raw_threats(system)
    ref = adapter(system).threat_reference
    names = set(ref()) if ref is not None else set(raw)
    mid = median(v for t, v in raw.items() if v > 0 and t in names) or 1.0
    return {t: round(v / mid, 3) for t, v in raw.items()}


def threat(system: str | System, template: str) -> float:
    """The threat figure of one template (see :func:`threats`)."""
    system = resolved(system)
    return threats(system)[check_template(system, template)]


def side_threat(system: str | System, side: Side) -> float:
    system = resolved(system)
    table = threats(system)
    return float(sum(table[check_template(system, t)] * n for t, n in side))
