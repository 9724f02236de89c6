"""The odds of an encounter before it is played: party win, foe rout, at least one PC death, expected rounds.

A GM names the party and the foes (template names with counts, put together by
:func:`npc_tactics.encounters.compose`) or gives a situation file (a fight in progress), and a policy for each
side (a scripted agent, by-the-book by default, or a bundle / run folder). ``fights`` whole fights are played on
per-fight seeds (:mod:`.encounter_fights`), so the odds do not depend on the worker count.

What each figure counts, per fight (the engine's one outcome rule, ``rules/outcome.py``):

* ``win``: the party's side is the one left standing;
* ``rout``: the foes' side result is ``fled``: its survivors all left the field (morale break, flight) and none
  was left behind alive: the foes were routed rather than cut down to the last;
* ``pc_death``: at least one party member is dead at the end (unconscious or held does not count);
* ``party_fled`` and ``draw`` complete the picture (``loss`` is what remains);
* ``rounds``: rounds played, with a normal 95% interval of the mean.

Rates carry Wilson 95% intervals (:func:`npc_tactics.evaluation.stats.wilson_interval`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.advice.odds import Rate
from npc_tactics.gm.encounter.fights import FightJob, FightResult, run_fights
from npc_tactics.gm.encounter.spec import group_text, parse_group
from npc_tactics.gm.encounter.template_words import TemplateWords
from npc_tactics.plugin import System
from npc_tactics.rollouts.agents import check_spec

__all__ = ["DEFAULT_FIGHTS", "MAX_FIGHTS", "EncounterOdds", "Lineup", "odds_of", "summarize", "template_names"]

#: Fights per query by default: Wilson half-widths of about 4 points at 50%.
DEFAULT_FIGHTS = 500
#: The most fights one odds query may play from the command line.
MAX_FIGHTS = 100_000
#: Side 0 holds the NPCs (the foes) and side 1 the party, as in every shipped scenario.
FOES, PARTY = 0, 1


@dataclass(frozen=True, slots=True)
class EncounterOdds:
    """The odds of one encounter over ``n`` fights (see the module docstring for what each counts)."""

    n: int
    win: Rate
    rout: Rate
    pc_death: Rate
    party_fled: Rate
    draw: Rate
    rounds: float
    rounds_ci: tuple[float, float]

    def rate(self, key: str) -> float:
        """The point estimate of ``key`` (``win``, ``rout``, ``pc_death`` or ``rounds``)."""
        if key == "rounds":
            return self.rounds
        value: Rate = getattr(self, key)
        return value.rate

    def interval(self, key: str) -> tuple[float, float]:
        if key == "rounds":
            return self.rounds_ci
        value: Rate = getattr(self, key)
        return value.low, value.high

    def to_dict(self) -> dict[str, Any]:
        return {"fights": self.n, "win": self.win.to_dict(), "rout": self.rout.to_dict(),
                "pc_death": self.pc_death.to_dict(), "party_fled": self.party_fled.to_dict(),
                "draw": self.draw.to_dict(), "rounds": round(self.rounds, 3),
                "rounds_low": round(self.rounds_ci[0], 3), "rounds_high": round(self.rounds_ci[1], 3)}


def summarize(results: Sequence[FightResult]) -> EncounterOdds:
    """The odds of a list of fights of one candidate."""
    n = len(results)
    if n == 0:
        raise ValueError("summarize needs at least one fight")
    rounds = [r.rounds for r in results]
    mean = sum(rounds) / n
    var = sum((x - mean) ** 2 for x in rounds) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return EncounterOdds(
        n,
        Rate.of(sum(r.party == "win" for r in results), n),
        Rate.of(sum(r.foes == "fled" for r in results), n),
        Rate.of(sum(r.pc_dead > 0 for r in results), n),
        Rate.of(sum(r.party == "fled" for r in results), n),
        Rate.of(sum(r.party == "draw" for r in results), n),
        mean,
        (max(1.0, mean - half), mean + half),
    )


def template_names(system: System) -> list[str]:
    """Every template name a party or a foe group of ``system`` may use."""
    from npc_tactics.encounters import templates

    return sorted(_name(t) for t in templates(system))


def _name(entry: Any) -> str:
    return entry if isinstance(entry, str) else str(getattr(entry, "name", entry))


@dataclass
class Lineup:
    """Who fights: an engine, a start per candidate and how to label it. Built once, shared by odds and builder."""

    system: System
    engine: Any
    party: tuple[tuple[str, int], ...] = ()
    candidates: list[tuple[tuple[str, int], ...]] = field(default_factory=list)
    starts: list[Any] = field(default_factory=list)
    from_state: bool = False

    def add(self, foes: Sequence[tuple[str, int]], *, distance: float | None = None,
            options: dict[str, Any] | None = None) -> int:
        """Compose the party against ``foes`` and add it as the next candidate; its index."""
        from npc_tactics.encounters import compose

        scenario = compose(self.system, [list(foes), list(self.party)], distance=distance, options=options,
                           name=f"{group_text(self.party)} vs {group_text(foes)}")
        self.candidates.append(tuple(foes))
        self.starts.append(scenario)
        return len(self.starts) - 1

    def job(self, party_policy: str, foe_policy: str) -> FightJob:
        return FightJob(self.engine, tuple(self.starts), self.from_state, (foe_policy, party_policy), PARTY)


def situation_lineup(system: System, path: Path | str, seed: int) -> Lineup:
    """A lineup of one candidate: a GM's situation file, the fight already under way. As in every shipped
    scenario, side 0 holds the foes (the NPCs) and side 1 the party."""
    import numpy as np

    from npc_tactics.configs.sniff import wrong_system_error
    from npc_tactics.dice import RngRoller

    info = system
    engine = system.make_engine()
    try:
        state = info.load("content").load_situation(engine, Path(path), RngRoller(np.random.default_rng(seed)))
    except ConfigError as exc:
        raise wrong_system_error(exc, Path(path), "situation", info.name, "--system is") from None
    lineup = Lineup(system, engine, from_state=True)
    lineup.candidates.append(())
    lineup.starts.append(state)
    return lineup


def check_policies(system: System, party_policy: str, foe_policy: str) -> None:
    for what, spec in (("--party-policy", party_policy), ("--foe-policy", foe_policy)):
        try:
            check_spec(system, spec)
        except UserError as exc:
            raise UserError(f"{what}: {exc}") from None


def odds_of(system: System, *, party: str | None = None, foes: str | None = None, situation: Path | str | None = None,
            party_policy: str = "by-the-book", foe_policy: str = "by-the-book", fights: int = DEFAULT_FIGHTS,
            seed: int = 0, workers: int | None = None, distance: float | None = None,
            executor: Any = None, words: TemplateWords | None = None) -> dict[str, Any]:
    """The odds of one encounter, JSON-ready, with the wall time in seconds (``seconds``); ``executor``: the
    fight runner's (e.g. Ray workers), same figures; ``words``: the system's templates as the GM names them
    (:class:`TemplateWords`, in the GM's language), else the template ids alone."""
    if not 1 <= fights <= MAX_FIGHTS:
        raise UserError(f"--fights: expected 1 to {MAX_FIGHTS:,}, got {fights}")
    check_policies(system, party_policy, foe_policy)
    started = time.perf_counter()
    if situation is not None:
        if party or foes:
            raise UserError("odds: give either --situation or --party and --foes, not both")
        lineup = situation_lineup(system, situation, seed)
    else:
        if not party or not foes:
            raise UserError("odds: give --party and --foes (template names with counts), or --situation FILE")
        names = words or template_names(system)
        lineup = Lineup(system, system.make_engine(), parse_group(party, names, "--party"))
        lineup.add(parse_group(foes, names, "--foes"), distance=distance)
    results = run_fights(lineup.job(party_policy, foe_policy), [0], fights, seed=seed, workers=workers,
                         executor=executor)[0]
    odds = summarize(results)
    return {"system": system.name, "party": group_text(lineup.party) if lineup.party else None,
            "foes": group_text(lineup.candidates[0]) if lineup.candidates[0] else None,
            "situation": str(situation) if situation is not None else None,
            "party_policy": party_policy, "foe_policy": foe_policy, "seed": seed,
            "odds": odds.to_dict(), "seconds": round(time.perf_counter() - started, 3)}
