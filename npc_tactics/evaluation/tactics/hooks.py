"""The tactics hook a rules system provides (:class:`Tactics`): one object per system, in its own package.

A system exports ``TACTICS = Tactics(...)`` from ``npc_tactics/systems/<name>/tactics.py`` and names it in its
plugin (``tactics="...tactics:TACTICS"``); shared code reaches it through :func:`tactics_hooks`, never by
system name. A system that provides none gets the shared tactics only (:mod:`.common`), no verbs, no profile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from npc_tactics.registry import get_system
from npc_tactics.rollouts.record import ProfileFn
from npc_tactics.rules.base import Event

if TYPE_CHECKING:  # types only (observe imports the fight runner, which finds the profile through this hook)
    from npc_tactics.evaluation.tactics.observe import FightLog

__all__ = ["DecisionFacts", "LeaderboardCounter", "LeaderboardFigures", "Tactic", "Tactics", "tactics_hooks"]

Tactic = Callable[["Sequence[FightLog]", str], dict[str, Any]]
"""One named tactic: watched fights of one side (and the system's name) -> plain data with intervals."""

LeaderboardCounter = Callable[[Sequence[Event], Sequence[int], int, Counter[str]], None]
"""``(events, sides, side, out)``: adds a system's own counts of ``side``'s choices to the leaderboard's
tactic profile ``out`` (``sides[i]`` is combatant ``i``'s side)."""

LeaderboardFigures = Callable[[Mapping[str, float]], Mapping[str, Any]]
"""``totals -> figures``: the report's figures of a system's own counts, from the sums over an agent's fights
of what its ``leaderboard_counter`` added (e.g. a dodge share per weapon class); ``{}`` when they are absent."""

DecisionFacts = Callable[[Any, Any], Mapping[str, Any]]
"""``(state, decision) -> facts`` added to each watched decision's context (e.g. is the actor in melee)."""


@dataclass(frozen=True)
class Tactics:
    """Everything the tactics report and the tactic profiles need from one system.

    * ``tactics``: the named tactics in report order, ``(name, function)``; the shared ones of :mod:`.common`
      (``retreat_when_losing``, ``focus_fire``) are listed by the system where it wants them.
    * ``attack_verbs`` / ``leave_verbs``: the catalogue verbs that strike, shoot or cast at an enemy slot, and
      the declared or performed ways out of a fight (read by the shared tactics).
    * ``leave_plan``: the leave verbs in the order an NPC that has chosen to leave takes them at its later
      decisions (the first legal one): how the search plays a leave move through (docs/search.md). Empty: the
      leave verbs in name order.
    * ``profile``: the record's tactic profile ``(events, state, side) -> counts``, stored in every
      ``FightRecord.tactic_profile`` (``simulate --json``, tournament ``results.json``, the named tactics that
      read it). It stays in ``rules/<name>/profile.py`` where the engines are compiled with mypyc.
    * ``leaderboard_counter``: the system's counts added to the leaderboard's common tactic profile
      (:func:`~npc_tactics.evaluation.tactic_profile.side_profile`), which *replaces* ``profile`` in
      leaderboard fights. The two are kept apart on purpose: they count differently for different readers
      (e.g. OSE ``profile`` has ``withdrawals`` and ``retreats`` apart and spells by round, the leaderboard sums
      both as ``retreats`` and times spells by initiative, which its ``leaderboard_figures`` read), so merging
      them would change the numbers of one of the two reports.
    * ``leaderboard_figures``: turns the sums of those counts over an agent's fights into the report's figures
      (called by :func:`~npc_tactics.evaluation.tactic_profile.derive` after the common ones; ``{}`` when the
      totals hold none of its keys), so the shared code reads no system's counter keys.
    * ``decision_facts``: optional facts added to each watched decision (:class:`.observe.Watcher`).
    """

    tactics: tuple[tuple[str, Tactic], ...]
    attack_verbs: frozenset[str] = field(default_factory=frozenset)
    leave_verbs: frozenset[str] = field(default_factory=frozenset)
    leave_plan: tuple[str, ...] = ()
    profile: ProfileFn | None = None
    leaderboard_counter: LeaderboardCounter | None = None
    leaderboard_figures: LeaderboardFigures | None = None
    decision_facts: DecisionFacts | None = None

    def __post_init__(self) -> None:
        if not set(self.leave_plan) <= self.leave_verbs:
            raise ValueError(f"leave_plan {self.leave_plan} names verbs that are not leave_verbs "
                             f"{sorted(self.leave_verbs)}")

    @property
    def leave_order(self) -> tuple[str, ...]:
        """The leave verbs in the order a leaving NPC takes them: ``leave_plan``, then the others by name."""
        return (*self.leave_plan, *sorted(self.leave_verbs - set(self.leave_plan)))

    @property
    def names(self) -> tuple[str, ...]:
        """The tactics' names, in report order."""
        return tuple(name for name, _ in self.tactics)


def tactics_hooks(system: str) -> Tactics | None:
    """The registered system's :class:`Tactics`, or None when it provides none."""
    return get_system(system).tactics_hooks()
