"""The named tactics, measured per system on watched fights (docs/selfplay.md "Tactics measured").

:func:`measure_tactics` plays paired fights for several players and runs every tactic of the system;
:func:`render_tactics` turns the result into the Markdown "Tactics" section of an evaluation report. The
benchmarks ``benchmarks/<system>_tactics.py`` call the same functions. Each system's own tactics, verbs and
tactic-profile counters are its tactics hook (:class:`Tactics`, in ``npc_tactics/systems/<name>/tactics.py``).
"""

from npc_tactics.evaluation.tactics.common import COMMON_TACTICS, focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics, tactics_hooks
from npc_tactics.evaluation.tactics.observe import FightLog, Move, play_watched
from npc_tactics.evaluation.tactics.report import (
    load_player,
    measure_tactics,
    named_tactics,
    render_skirmish_focus,
    render_tactics,
    skirmish_focus,
    tactics_of,
)

__all__ = [
    "COMMON_TACTICS",
    "FightLog",
    "Move",
    "Tactics",
    "focus_fire",
    "load_player",
    "measure_tactics",
    "named_tactics",
    "play_watched",
    "render_skirmish_focus",
    "render_tactics",
    "retreat_when_losing",
    "skirmish_focus",
    "tactics_hooks",
    "tactics_of",
]
