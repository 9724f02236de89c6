"""The named tactics, measured per system on watched fights (docs/selfplay.md "Tactics measured").

:func:`measure_tactics` plays paired fights for several players and runs every tactic of the system;
:func:`render_tactics` turns the result into the Markdown "Tactics" section of an evaluation report. The
benchmarks ``benchmarks/<system>_tactics.py`` call the same functions.
"""

from npc_tactics.evaluation.tactics.common import focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.observe import FightLog, Move, play_watched
from npc_tactics.evaluation.tactics.report import (
    load_player,
    measure_tactics,
    render_skirmish_focus,
    render_tactics,
    skirmish_focus,
    tactics_of,
)
from npc_tactics.evaluation.tactics.systems import (
    TACTICS,
    defense_by_next,
    dodge_vs_parry,
    ose_spell_timing,
    runequest_spell_timing,
    special_effects,
)

__all__ = [
    "TACTICS",
    "FightLog",
    "Move",
    "defense_by_next",
    "dodge_vs_parry",
    "focus_fire",
    "load_player",
    "measure_tactics",
    "ose_spell_timing",
    "play_watched",
    "render_skirmish_focus",
    "render_tactics",
    "retreat_when_losing",
    "runequest_spell_timing",
    "skirmish_focus",
    "special_effects",
    "tactics_of",
]
