"""The leaderboard's tactic profile: what one side did in one fight, counted from that fight's event log.

Called once per fight and side with the fight's events and final state (as the ``profile`` of a recording
fight job, ``functools.partial(side_profile, system)``, or ``play_fight(profile=...)``), it returns flat
counts; the leaderboard sums them over fights (a few hundred numbers per agent, whatever the number of fights:
the logs themselves are never kept). :func:`derive` turns the sums into the figures the report shows. Every
common count is defined here, for every system; a system adds its own with the ``leaderboard_counter`` of its
tactics hook (:class:`~npc_tactics.evaluation.tactics.hooks.Tactics`, in ``systems/<name>/tactics.py``), and
turns their sums into figures with its ``leaderboard_figures``: this module reads no system's counter keys.

Definitions (all per side):

* **Flee rate**: share of fights in which at least one of the side's combatants left the fight alive
  (final status ``fled``). **Wound level at flight**: the share of its hit points a combatant had lost when it
  left, read from the final state (a combatant who has left takes no more damage), in four bands
  (0-25 %, 25-50 %, 50-75 %, 75-100 % lost) and as a mean.
* **Retreats**: moves that give ground without leaving, per fight (which moves those are is each system's
  ``leaderboard_counter``'s call: declared withdrawals, voluntary fall-backs ...).
* **Standing**: share of the side's combatants still active or safely gone (fled) at the end; compared
  between fights with and without a flight, it says whether leaving paid.
* **Focus fire**: an attack is *eligible* when another combatant of the same side has already attacked this
  round and at least two enemies are still up (not dead, unconscious, fled, surrendered or incapacitated); it
  *joins* when its target is one an ally already attacked this round. Focus-fire rate = joins / eligible
  attacks. In a duel nothing is eligible (n/a); with two enemies up, picking targets at random joins about
  half the time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.evaluation.tactics.hooks import LeaderboardFigures, tactics_hooks
from npc_tactics.registry import SYSTEMS
from npc_tactics.rules.base import Event

__all__ = ["DOWN_STATUSES", "WOUND_BANDS", "acted_for", "derive", "ratio", "side_profile", "wound_fraction"]

#: Status names that take a combatant out of the fight (an enemy in one of these is no longer "up").
DOWN_STATUSES = frozenset({"dead", "unconscious", "fled", "surrendered", "incapacitated"})
#: Bands of hit points lost at flight: ``flee_wound_band_<k>`` counts flights with ``k/4 <= lost < (k+1)/4``.
WOUND_BANDS = ("0-25%", "25-50%", "50-75%", "75-100%")


def _status_name(status: Any) -> str:
    name = getattr(status, "name", None)
    return str(name if name is not None else status).lower()


def wound_fraction(combatant: Any) -> float:
    """Share of its hit points a combatant has lost (0 unhurt, 1 at zero or below); every engine keeps the
    total as ``hp`` / ``max_hp`` (RuneQuest and MRQ beside their hit locations)."""
    max_hp = float(getattr(combatant, "max_hp", 0) or 0)
    if max_hp <= 0:
        return 0.0
    hp = float(getattr(combatant, "hp", max_hp))
    return min(1.0, max(0.0, 1.0 - max(hp, 0.0) / max_hp))


def acted_for(e: Event, sides: Sequence[int], side: int) -> bool:
    """Whether the event's actor is one of ``side``'s combatants (``sides[i]``: combatant ``i``'s side)."""
    return e.actor is not None and 0 <= e.actor < len(sides) and sides[e.actor] == side


def _focus_fire(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    down: set[int] = set()
    enemies = {i for i, s in enumerate(sides) if s != side}
    current_round = None
    attacked_by: dict[int, set[int]] = {}  # target -> attackers of our side this round
    for e in events:
        if e.round != current_round:
            current_round, attacked_by = e.round, {}
        if e.kind == "status":
            who = e.target if e.target is not None else e.actor
            status = str(e.data.get("status", e.data.get("result", ""))).lower()
            if who is not None and status in DOWN_STATUSES:
                down.add(who)
            continue
        if e.kind != "attack" or e.actor is None or e.target is None:
            continue
        if not 0 <= e.actor < len(sides) or sides[e.actor] != side or e.target not in enemies:
            continue
        out["attacks"] += 1
        others = {t for t, who in attacked_by.items() if who - {e.actor}}
        if others and len(enemies - down) >= 2:
            out["focus_eligible"] += 1
            if e.target in others:
                out["focus_joined"] += 1
        attacked_by.setdefault(e.target, set()).add(e.actor)


def side_profile(system: str, events: Sequence[Event], state: Any, side: int) -> dict[str, int | float]:
    """The flat counts of one side in one fight (see the module docstring for each definition)."""
    cs = state.combatants
    sides = [int(c.side) for c in cs]
    out: Counter[str] = Counter()
    for key in ("attacks", "focus_eligible", "focus_joined", "fled", "standing", "retreats"):
        out[key] = 0
    out["combatants"] = sum(1 for s in sides if s == side)
    wound_sum = 0.0
    for c in cs:
        if int(c.side) != side:
            continue
        status = _status_name(c.status)
        if status in ("active", "fled"):
            out["standing"] += 1
        if status == "fled":
            lost = wound_fraction(c)
            out["fled"] += 1
            out[f"flee_wound_band_{min(3, int(lost * 4))}"] += 1
            wound_sum += lost
    out["flight_fight"] = 1 if out["fled"] else 0
    _focus_fire(events, sides, side, out)
    hooks = tactics_hooks(system)
    if hooks is not None and hooks.leaderboard_counter is not None:
        hooks.leaderboard_counter(events, sides, side, out)
    profile: dict[str, int | float] = dict(out)
    profile["flee_wound_sum"] = wound_sum
    return profile


def ratio(num: float, den: float) -> float | None:
    """``num / den``, or ``None`` when ``den`` is zero (the agent never had the choice)."""
    return num / den if den else None


def _figures(system: str | None) -> list[LeaderboardFigures]:
    """The ``leaderboard_figures`` of ``system``'s tactics hook, or without a name of every registered
    system's (each reads only the counter keys its own ``leaderboard_counter`` writes, so the others add
    nothing to a system's totals)."""
    hooks = [tactics_hooks(name) for name in ([system] if system is not None else list(SYSTEMS))]
    return [h.leaderboard_figures for h in hooks if h is not None and h.leaderboard_figures is not None]


def derive(totals: Mapping[str, float], fights: int, system: str | None = None) -> dict[str, Any]:
    """The report's figures from summed counts over ``fights`` fights of one agent on one seat (``None``
    where the denominator is zero: the agent never had the choice): the common ones, then those of the
    system's tactics hook (``leaderboard_figures``; of every registered system when ``system`` is None)."""
    t = totals
    flights = sum(t.get(f"flee_wound_band_{k}", 0.0) for k in range(4))
    out: dict[str, Any] = {
        "fights": fights,
        "flight_fights": int(t.get("flight_fight", 0)),
        "flee_rate": ratio(t.get("flight_fight", 0.0), fights),
        "flights": int(flights),
        "flee_wound_mean": ratio(t.get("flee_wound_sum", 0.0), flights),
        "flee_wound_bands": {band: int(t.get(f"flee_wound_band_{k}", 0)) for k, band in enumerate(WOUND_BANDS)},
        "retreats_per_fight": ratio(t.get("retreats", 0.0), fights),
        "attacks_per_fight": ratio(t.get("attacks", 0.0), fights),
        "focus_eligible": int(t.get("focus_eligible", 0)),
        "focus_fire_rate": ratio(t.get("focus_joined", 0.0), t.get("focus_eligible", 0.0)),
    }
    for figures in _figures(system):
        out.update(figures(t))
    return out
