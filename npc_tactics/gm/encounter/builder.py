"""The encounter builder: foe groups from the bestiary whose measured odds meet a GM's target.

The search, in four steps, every fight on the shared per-fight seeds of :mod:`.encounter_fights` (candidate A's
fight ``k`` rolls the same dice as candidate B's, so candidates are compared on common random numbers):

1. **Enumerate** every foe group of one or two templates (from the pool, default the whole bestiary), one to
   ``MAX_PER_SIDE`` foes. Drawn from the bestiary, the two templates of a group share a faction
   (:mod:`.factions`: goblins with hobgoblins, never a skeleton beside a bandit), or only one faction is drawn
   from (``faction``), or any two mix (``mixed``, and a system whose templates carry no faction tags); a pool the
   GM names mixes as given. Each has a threat ratio ``x = log(group threat / party threat)``
   (:func:`npc_tactics.encounters.side_threat`).
2. **Calibrate**: screen a few single-template groups spread over the ratios with ``screen`` fights each, and fit
   how each target figure moves with ``x`` (a logistic curve for the rates, a line for the rounds).
3. **Screen**, in two waves, the groups whose *predicted* odds lie nearest the target (at most two per template
   mix, so the waves do not spend themselves on one mix), refitting the curves on everything measured between
   waves.
4. **Refine** by successive halving: the ``2 x top`` groups nearest the target by their screening odds get half
   the remaining budget in new fights (fights ``screen ..``, still paired), then the ``top`` nearest of those get
   the rest; they are ranked by their distance on all their fights.

The budget splits as: screening ``SCREEN_SHARE`` (45%) of it at ``clamp(budget / 80, 12, 40)`` fights per group,
the rest to the two refinement stages. Many groups measured coarsely, then ever fewer measured finely, is what
a fixed budget buys best when most groups are far from the target.

**Distance to target** (0 when every bound holds): the Euclidean norm of each bound's violation by the point
estimate, rates in probability units, rounds weighted by :data:`ROUND_WEIGHT` per round (one round outside the
range weighs as much as 5 points of win rate). ``meets`` is true when every bound is met by the estimate's
interval (Wilson 95% for rates, the normal 95% interval of the mean for rounds): the measurements cannot tell
the group from one that meets the target.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.encounter.factions import TemplateTags, faction_groups, template_tags
from npc_tactics.gm.encounter.fights import FightResult, run_fights
from npc_tactics.gm.encounter.odds import EncounterOdds, Lineup, check_policies, summarize, template_names
from npc_tactics.gm.encounter.spec import TARGET_KEYS, Target, group_text, parse_group
from npc_tactics.gm.encounter.template_words import TemplateWords
from npc_tactics.plugin import System

__all__ = ["DEFAULT_BUDGET", "MAX_BUDGET", "ROUND_WEIGHT", "Proposal", "build_encounter", "distance",
           "enumerate_faction_groups", "enumerate_groups", "meets"]

#: Fights one search may play by default (about 15 s of OSE band fights on one core).
DEFAULT_BUDGET = 3000
MAX_BUDGET = 200_000
#: Weight of one round outside the target's range, in probability units.
ROUND_WEIGHT = 0.05
#: Fights per screened group, groups calibrated first, share of the budget spent screening.
SCREEN_FIGHTS = (12, 40)
CALIBRATION = 8
SCREEN_SHARE = 0.45
Group = tuple[tuple[str, int], ...]


def _violation(value: float, low: float, high: float) -> float:
    return max(0.0, low - value, value - high)


def distance(target: Target, odds: EncounterOdds | dict[str, float]) -> float:
    """The distance of some odds (or predicted figures ``{key: value}``) to ``target`` (module docstring)."""
    total = 0.0
    for b in target.bounds:
        value = odds[b.key] if isinstance(odds, dict) else odds.rate(b.key)
        weight = ROUND_WEIGHT if b.key == "rounds" else 1.0
        total += (weight * _violation(value, b.low, b.high)) ** 2
    return math.sqrt(total)


def meets(target: Target, odds: EncounterOdds) -> bool:
    """Every bound of ``target`` is met by the interval of the matching estimate."""
    for b in target.bounds:
        low, high = odds.interval(b.key)
        if high < b.low or low > b.high:
            return False
    return True


@dataclass(frozen=True)
class Proposal:
    foes: Group
    threat: float
    odds: EncounterOdds
    distance: float
    meets: bool
    faction: str | None = None  #: the faction its templates share (None: untagged, or a mixed group)

    def to_dict(self) -> dict[str, Any]:
        return {"foes": group_text(self.foes), "groups": [[n, c] for n, c in self.foes],
                "threat": round(self.threat, 3), "distance": round(self.distance, 4), "meets": self.meets,
                "faction": self.faction, "odds": self.odds.to_dict()}


def enumerate_groups(pool: Sequence[str], max_foes: int) -> list[Group]:
    """Every group of one template (1..max_foes) or two templates (counts adding up to at most max_foes)."""
    out: list[Group] = [((t, c),) for t in pool for c in range(1, max_foes + 1)]
    for a, b in itertools.combinations(sorted(pool), 2):
        out += [((a, i), (b, j)) for i in range(1, max_foes) for j in range(1, max_foes + 1 - i)]
    return out


def enumerate_faction_groups(factions: dict[str, list[str]], max_foes: int) -> list[Group]:
    """:func:`enumerate_groups` within each faction (``{faction: templates}``): no group mixes two factions."""
    out: list[Group] = []
    for members in factions.values():
        out += enumerate_groups(members, max_foes)
    return list(dict.fromkeys(out))


class _Curves:
    """How each target figure moves with the threat ratio, fitted on the groups measured so far."""

    def __init__(self, xs: list[float], odds: list[EncounterOdds], keys: Sequence[str]) -> None:
        self.fits: dict[str, tuple[float, float]] = {}
        x = np.asarray(xs, dtype=float)
        for key in keys:
            if key == "rounds":
                y = np.asarray([o.rounds for o in odds])
                slope, icpt = np.polyfit(x, y, 1) if len(set(xs)) > 1 else (0.0, float(y.mean()))
                self.fits[key] = (float(icpt), float(slope))
            else:
                k = np.asarray([getattr(o, key).count for o in odds], dtype=float)
                n = np.asarray([o.n for o in odds], dtype=float)
                self.fits[key] = _logistic(x, k, n)

    def predict(self, x: float) -> dict[str, float]:
        out = {}
        for key, (a, b) in self.fits.items():
            z = a + b * x
            out[key] = max(1.0, z) if key == "rounds" else 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        return out


def _logistic(x: np.ndarray, k: np.ndarray, n: np.ndarray, ridge: float = 0.1) -> tuple[float, float]:
    """Binomial logistic regression ``k ~ Bin(n, sigmoid(a + b x))`` by Newton's method, a small ridge keeping
    it finite when the data are separated (all wins on one side of a ratio)."""
    theta = np.zeros(2)
    design = np.stack([np.ones_like(x), x], axis=1)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -30, 30)))
        grad = design.T @ (k - n * p) - ridge * theta
        hess = design.T @ (design * (n * p * (1 - p))[:, None]) + ridge * np.eye(2)
        step = np.linalg.solve(hess, grad)
        theta += step
        if float(np.abs(step).max()) < 1e-8:
            break
    return float(theta[0]), float(theta[1])


def _shared_faction(group: Group, tags: dict[str, TemplateTags]) -> str | None:
    """The faction every template of ``group`` carries, or None (untagged, or two factions in a mixed group)."""
    found = {tags[n].faction if n in tags else "" for n, _ in group}
    one = next(iter(found)) if len(found) == 1 else ""
    return one or None


def _plan(budget: int) -> tuple[int, int]:
    """``(fights per screened group, groups screened in all, calibration included)`` for a fight budget."""
    screen = min(SCREEN_FIGHTS[1], max(SCREEN_FIGHTS[0], budget // 80))
    return screen, max(2, int(budget * SCREEN_SHARE) // screen)


def build_encounter(system: System, party: str, target: Target, *, pool: str | None = None,
                    budget: int = DEFAULT_BUDGET, top: int = 5, party_policy: str = "by-the-book",
                    foe_policy: str = "by-the-book", seed: int = 0, workers: int | None = None,
                    distance_m: float | None = None, max_foes: int | None = None, faction: str | None = None,
                    mixed: bool = False, words: TemplateWords | None = None) -> dict[str, Any]:
    """Search for foe groups meeting ``target`` against ``party`` (see the module docstring); JSON-ready, the
    proposals best first, with the fights played and the wall time in seconds.

    Drawn from the bestiary (no ``pool``), a group's templates share a faction; ``faction`` draws from that one
    faction only (an unknown name is a one-line error naming the valid ones), ``mixed`` lets any two templates
    mix as before. A ``pool`` mixes as the GM gave it (``faction`` then keeps that faction's part of it). The
    player characters of the bestiary (``player_character`` tag) are never foes unless a pool names them.
    ``words``: the system's templates as the GM names them in the party and the pool (:class:`TemplateWords`, in
    the GM's language), else the template ids alone."""
    from npc_tactics.encounters import MAX_PER_SIDE, side_threat

    started = time.perf_counter()
    if not 100 <= budget <= MAX_BUDGET:
        raise UserError(f"--budget: expected 100 to {MAX_BUDGET:,} fights, got {budget}")
    if not 1 <= top <= 20:
        raise UserError(f"--top: expected 1 to 20, got {top}")
    check_policies(system, party_policy, foe_policy)
    if faction is not None and mixed:
        raise UserError("--faction and --mixed: give one of them (one faction, or any mix)")
    names = template_names(system)
    party_group = parse_group(party, words or names, "--party")
    tags = template_tags(system)
    if pool is None:  # the bestiary's foes: never the player characters (the system's adapter says which)
        from npc_tactics.encounters.compose import adapter

        foes = adapter(system).foe_templates
        templates = names if foes is None else [n for n in foes() if n in set(names)]
        templates = [n for n in templates if not (n in tags and tags[n].player_character)]
    else:
        templates = [n for n, _ in parse_group(pool, words or names, "--pool")]
    max_foes = MAX_PER_SIDE if max_foes is None else max_foes
    if not 1 <= max_foes <= MAX_PER_SIDE:
        raise UserError(f"--max-foes: expected 1 to {MAX_PER_SIDE}, got {max_foes}")
    by_faction = {} if mixed or (pool is not None and faction is None) else faction_groups(
        system, templates, faction, tags)
    grouping = "faction" if by_faction else "mixed" if pool is None else "pool"
    if faction is not None:
        templates = by_faction[faction]
    lineup = Lineup(system, system.make_engine(), party_group)
    party_threat = side_threat(system, party_group)
    groups = enumerate_faction_groups(by_faction, max_foes) if by_faction else enumerate_groups(templates, max_foes)
    ratio = {g: math.log(max(side_threat(system, g), 1e-3) / max(party_threat, 1e-3)) for g in groups}
    screen, screened = _plan(budget)
    job_policies = (party_policy, foe_policy)
    measured: dict[Group, list[FightResult]] = {}
    index: dict[Group, int] = {}
    fights = 0

    refused: set[Group] = set()  # groups the system cannot field (an MRQ lancer's mount takes a slot too)

    def play(batch: list[Group], n: int, first: int) -> None:
        nonlocal fights
        for g in batch:
            if g not in index:
                try:
                    index[g] = lineup.add(g, distance=distance_m)
                except ConfigError:
                    refused.add(g)
        batch = [g for g in batch if g not in refused]
        if not batch:
            return
        got = run_fights(lineup.job(*job_policies), [index[g] for g in batch], n, seed=seed, workers=workers,
                         first=first)
        for g in batch:
            measured.setdefault(g, []).extend(got[index[g]])
        fights += n * len(batch)

    # 2. calibration: single-template groups evenly spread over the central ratios
    singles = sorted((g for g in groups if len(g) == 1), key=lambda g: (ratio[g], g))
    lo, hi = ratio[singles[len(singles) // 20]], ratio[singles[-1 - len(singles) // 20]]
    calib: list[Group] = []
    for w in np.linspace(lo, hi, min(CALIBRATION, len(singles), max(2, screened // 3))):
        best = min((g for g in singles if g not in calib), key=lambda g: (abs(ratio[g] - w), g))
        calib.append(best)
    play(calib, screen, 0)
    keys = [b.key for b in target.bounds] or list(TARGET_KEYS)

    # 3. screening in two waves, nearest predicted distance first, at most two groups per template mix
    wave = max(0, screened - len(calib))
    for size in (wave // 2, wave - wave // 2):
        done = list(measured)
        curves = _Curves([ratio[g] for g in done], [summarize(measured[g]) for g in done], keys)
        ranked = sorted((g for g in groups if g not in measured and g not in refused),
                        key=lambda g: (distance(target, curves.predict(ratio[g])), g))
        per_mix: dict[tuple[str, ...], int] = {}
        batch = []
        for g in ranked:
            mix = tuple(n for n, _ in g)
            if per_mix.get(mix, 0) >= 2:
                continue
            per_mix[mix] = per_mix.get(mix, 0) + 1
            batch.append(g)
            if len(batch) == size:
                break
        if batch:
            play(batch, screen, 0)

    # 4. successive halving on new paired fights, then the final ranking on every fight
    def nearest(pool: list[Group], count: int) -> list[Group]:
        return sorted(pool, key=lambda g: (distance(target, summarize(measured[g])), g))[:count]

    finalists = nearest(list(measured), 2 * top)
    stage1 = (budget - fights) // 2 // max(1, len(finalists))
    if stage1 > 0:
        play(finalists, stage1, screen)
    finalists = nearest(finalists, top)
    stage2 = (budget - fights) // max(1, len(finalists))
    if stage2 > 0:
        play(finalists, stage2, screen + stage1)
    proposals = []
    for g in finalists:
        odds = summarize(measured[g])
        proposals.append(Proposal(g, side_threat(system, g), odds, distance(target, odds), meets(target, odds),
                                  _shared_faction(g, tags)))
    proposals.sort(key=lambda p: (p.distance, not p.meets, p.foes))
    return {"system": system.name, "party": group_text(party_group), "party_threat": round(party_threat, 3),
            "target": target.text(), "grouping": grouping, "faction": faction, "party_policy": party_policy,
            "foe_policy": foe_policy, "seed": seed,
            "budget": budget, "fights": fights, "groups_enumerated": len(groups), "groups_measured": len(measured),
            "groups_refused": len(refused), "screen_fights": screen, "refine_fights": [stage1, stage2],
            "proposals": [p.to_dict() for p in proposals], "seconds": round(time.perf_counter() - started, 3)}
