"""Draw fights from an encounter distribution: seeded, deterministic, one :class:`Encounter` per seed.

A draw (:meth:`Generator.draw`): side 0's size and templates by weight; side 1 filled creature by creature
until its threat reaches side 0's times a ratio drawn from ``budget`` (each creature drawn by weight among
those whose threat is at most 1.5x what remains; when none is, side 1 stops, short of the target by less
than its smallest creature, unless it is still below its minimum size); an equipment variant per combatant;
a distance; the rules options; which combatants start wounded or with spent resources, and by how much;
with a ``midfight`` key, whether the fight starts mid-way and after how many opening decisions (its own stream,
``default_rng([seed, 3])``, so the rest of the draw is that of a spec without the key).

Seeds: training draws only seeds >= :data:`TRAIN_SEED_BASE` (:func:`training_seed`), held-out sets only
seeds below it, so a held-out fight is never drawn in training whatever the training seed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.encounters.compose import adapter, resolved, scenario_mapping, threats
from npc_tactics.encounters.midfight import DRAW_STREAM, warm_up
from npc_tactics.encounters.spec import MAX_WARMUP, EncounterSpec, SideSpec
from npc_tactics.encounters.wear import apply_wear, wear_of
from npc_tactics.plugin import System
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Engine, Event

#: training encounter seeds are TRAIN_SEED_BASE + (seed mod TRAIN_SEED_BASE); held-out seeds are below it
TRAIN_SEED_BASE = 2**32


def training_seed(seed: int) -> int:
    """The encounter seed a training episode seeded ``seed`` draws (never a held-out one)."""
    return TRAIN_SEED_BASE + int(seed) % TRAIN_SEED_BASE


@dataclass(frozen=True)
class Encounter:
    """One drawn fight: the scenario (the system's own object), the wear applied to its opening state, and how
    many opening decisions are played before it starts (``warmup``, 0: a plain start)."""

    system: str
    seed: int
    scenario: Any
    mapping: Mapping[str, Any] = field(repr=False)  #: the scenario as YAML data (held-out sets store it)
    wounds: tuple[tuple[int, float], ...] = ()  #: (combatant index, share of its max HP lost)
    spent: tuple[tuple[int, float], ...] = ()  #: (combatant index, share of its resources used up)
    #: opening decisions played before the fight is handed out (a mid-fight start; fewer when the fight would
    #: end first: :mod:`npc_tactics.encounters.midfight`)
    warmup: int = 0

    @property
    def plugin(self) -> System:
        """The encounter's system (``system`` is its name, as a held-out file stores it)."""
        return get_system(self.system)

    def start_combat(self, engine: Engine[Any], roller: Roller, *, record_rolls: bool = True
                     ) -> tuple[Any, list[Event]]:
        """``engine.new_combat`` on the scenario, then the wounds and spent resources (their placement within
        a combatant comes from this encounter's seed, never from the dice stream), then, for a mid-fight start
        (``warmup`` > 0), that many opening decisions played with random legal moves that keep the fight live
        (:func:`~npc_tactics.encounters.midfight.warm_up`, on streams of this encounter's seed, never
        ``roller``).

        The state returned is at a pending decision with no outcome (unless the scenario itself opens over).
        The events returned are ``new_combat``'s opening events only (rolls recorded as ``record_rolls``
        says): the warm-up happened before the fight the caller plays, like the wear, so its damage is never
        paid as reward shaping nor counted in the fight's log (:meth:`start_with_warmup` returns it too)."""
        state, opening, _ = self.start_with_warmup(engine, roller, record_rolls=record_rolls)
        return state, opening

    def start_with_warmup(self, engine: Engine[Any], roller: Roller, *, record_rolls: bool = True
                          ) -> tuple[Any, list[Event], list[Event]]:
        """:meth:`start_combat` plus the warm-up's own events (``[]`` for a plain start), for inspection and
        narration; both lists record rolls only with ``record_rolls``."""
        state, events = engine.new_combat(self.scenario, roller, record_rolls=record_rolls)
        if self.wounds or self.spent:
            apply_wear(wear_of(self.plugin), state.combatants, self.wounds, self.spent,
                       np.random.default_rng([self.seed, 1]))
        warm: list[Event] = []
        if self.warmup:
            state, warm, _ = warm_up(engine, state, self.warmup, self.seed, record_rolls=record_rolls)
        return state, events, warm

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seed": self.seed, "scenario": dict(self.mapping),
                               "wounds": [[i, round(f, 3)] for i, f in self.wounds],
                               "spent": [[i, round(f, 3)] for i, f in self.spent]}
        if self.warmup:  # only when drawn: files written before mid-fight starts keep their bytes
            out["warmup"] = self.warmup
        return out


def _pick(rng: np.random.Generator, pairs: Sequence[tuple[Any, float]]) -> Any:
    w = np.array([p[1] for p in pairs], dtype=float)
    return pairs[int(rng.choice(len(pairs), p=w / w.sum()))][0]


class Generator:
    """Draws :class:`Encounter` s from one validated :class:`EncounterSpec`."""

    def __init__(self, spec: EncounterSpec) -> None:
        self.spec = spec
        self.plugin = spec.plugin
        self.threat = threats(self.plugin)
        self.parse = adapter(self.plugin).parse

    def _side1(self, rng: np.random.Generator, side: SideSpec, target: float) -> list[str]:
        lo, hi = side.size
        out: list[str] = []
        total = 0.0
        while len(out) < hi:
            left = target - total
            if len(out) >= lo and left <= 0:
                break
            allowed = side.allowed(out)
            fits = [(t, w) for t, w in allowed if w > 0 and self.threat[t] <= 1.5 * left]
            if fits:
                pool = fits
            elif len(out) < lo and any(w > 0 for _, w in allowed):
                pool = [(t, w) for t, w in allowed if w > 0]
            else:
                break
            t = _pick(rng, pool)
            out.append(t)
            total += self.threat[t]
        return out

    def _warmup(self, seed: int) -> int:
        """How many opening decisions the draw ``seed`` plays first (0: a plain start), on its own stream."""
        m = self.spec.midfight
        if m.chance <= 0:
            return 0
        rng = np.random.default_rng([int(seed), DRAW_STREAM])
        if rng.random() >= m.chance:
            return 0
        return int(rng.integers(m.decisions[0], m.decisions[1] + 1))

    def draw(self, seed: int) -> Encounter:
        s = self.spec
        warmup = self._warmup(seed)
        if s.scenario_share > 0:  # its own stream: the composed draws stay those of a spec without scenarios
            pick = np.random.default_rng([int(seed), 2])
            if pick.random() < s.scenario_share:
                name = _pick(pick, s.scenarios)
                loaded = self.plugin.load("content").load_scenario(name)
                return Encounter(s.system, int(seed), loaded, {"shipped": name}, warmup=warmup)
        rng = np.random.default_rng(int(seed))
        side0_spec, side1_spec = s.sides
        n0 = int(rng.integers(side0_spec.size[0], side0_spec.size[1] + 1))
        side0: list[str] = []
        for _ in range(n0):
            allowed = side0_spec.allowed(side0)
            if not allowed:  # every template at its cap: the side is smaller than drawn
                break
            side0.append(_pick(rng, allowed))
        ratio = float(rng.uniform(*s.budget))
        side1 = self._side1(rng, side1_spec, ratio * sum(self.threat[t] for t in side0))
        distance = round(float(rng.uniform(*s.distance)) * 2) / 2
        options = {key: _pick(rng, choices) for key, choices in s.options}
        extras = [[dict(_pick(rng, s.variants[t])) if t in s.variants else {} for t in side] for side in (side0, side1)]
        data = scenario_mapping(
            self.plugin, [[(t, 1) for t in side0], [(t, 1) for t in side1]], distance=distance, options=options,
            name=f"{s.name}#{seed}", max_rounds=s.max_rounds, extras=extras, file=s.file,
        )
        n = len(side0) + len(side1)
        wounds = tuple((i, float(rng.uniform(*s.wounds.fraction))) for i in range(n)
                       if rng.random() < s.wounds.chance)
        spent = tuple((i, float(rng.uniform(*s.spent.fraction))) for i in range(n)
                      if rng.random() < s.spent.chance)
        return Encounter(s.system, int(seed), self.parse(data, f"{s.file}#{seed}"), data, wounds, spent, warmup)


def without_scenarios(spec: EncounterSpec) -> EncounterSpec:
    """``spec`` drawing composed fights only (held-out sets: the shipped scenarios are reported on their own)."""
    return dataclasses.replace(spec, scenario_share=0.0, scenarios=())


def encounter_from_dict(system: str | System, raw: Mapping[str, Any], file: str, path: str = "") -> Encounter:
    """An encounter as :meth:`Encounter.to_dict` wrote it (held-out sets), re-validated; ``path`` is where
    ``raw`` sits in ``file`` (errors name ``<path>.warmup``). A draw of a shipped scenario is stored by its name
    (``{"shipped": name}``) and comes back as that scenario."""
    plugin = resolved(system)
    system = plugin.name
    data = dict(raw["scenario"])
    wear = [tuple((int(i), float(f)) for i, f in raw.get(k, [])) for k in ("wounds", "spent")]
    warmup = V.integer(raw.get("warmup", 0), file, V.join(path, "warmup"), 0, MAX_WARMUP)
    if set(data) == {"shipped"}:
        content = plugin.load("content")
        names = [n for n, _ in content.list_scenarios()]
        name = V.choice(data["shipped"], file, V.join(path, "scenario", "shipped"), names, "scenario")
        return Encounter(system, int(raw["seed"]), content.load_scenario(name), data, wear[0], wear[1], warmup)
    return Encounter(system, int(raw["seed"]), adapter(plugin).parse(data, file), data, wear[0], wear[1], warmup)
