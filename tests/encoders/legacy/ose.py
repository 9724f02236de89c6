"""OSE observation encoder: the fight seen from the acting combatant, every value in [-1, 1] (docs/ose.md)."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Decision, Status
from npc_tactics.systems.ose.rules.state import (
    DECL_CAST,
    DECL_RETREAT,
    DECL_WITHDRAW,
    STAGE_DECLARE,
    OSEState,
)
from tests.encoders.legacy.base import Encoder

_PHASES = ("declare", "move", "missile", "melee", "slow")


class OSEEncoder(Encoder):
    """Context: round, step one-hot, initiative, own declaration. Per combatant: standing, HP, AC, THAC0,
    distance and reach from the actor, weapons, movement, declarations, spells, morale and cover."""

    CONTEXT_FIELDS = (
        ("round", "round / max_rounds"),
        ("phase_declare", "1 if declaring (before initiative)"),
        ("phase_move", "1 in the movement step"),
        ("phase_missile", "1 in the missile step"),
        ("phase_melee", "1 in the melee step"),
        ("phase_slow", "1 in the slow-weapon step at the end of the round"),
        (
            "initiative",
            "+1 if the actor's side acts first this round, -1 if second, 0 tie / not rolled yet",
        ),
        ("simultaneous", "1 if the current step resolves both sides at once (initiative tie)"),
        ("declared_withdraw", "1 if the actor declared a fighting withdrawal this round"),
        ("declared_retreat", "1 if the actor declared a retreat this round"),
        ("rounds_left", "(max_rounds - round) / max_rounds"),
    )
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("active", "1 if still fighting"),
        ("dead", "1 if dead"),
        ("fled", "1 if fled (retreat off the field or morale failure)"),
        ("out", "1 if held or asleep (incapacitated)"),
        ("hp", "current hit points / max hit points"),
        ("max_hp", "max hit points / 30"),
        ("ac", "(9 - descending AC) / 10 (higher = harder to hit)"),
        ("attack", "(19 - THAC0) / 10 (attack bonus)"),
        (
            "offset",
            "signed distance from the actor in squares / 20 (+ = toward the enemies' starting side)",
        ),
        ("distance", "|distance| in squares / 20"),
        ("adjacent", "1 if within 1.5 m of the actor (melee)"),
        ("missile", "1 if it has a missile weapon with ammunition"),
        ("missile_reach", "long range of its missile weapon in squares / 40"),
        ("move", "encounter movement in squares / 8"),
        ("slow", "1 if its melee weapon is slow (acts at the end of the round)"),
        ("declared_withdraw", "1 if it declared a fighting withdrawal this round"),
        ("declared_retreat", "1 if it declared a retreat (+2 to hit it, no shield)"),
        ("casting", "1 if it declared a spell this round (disrupted if hit before its turn)"),
        ("spells", "spells left in memory / 4"),
        ("morale", "morale score / 12 (0 = never checks)"),
        ("cover", "cover level / 5 (1 = full cover)"),
        ("acted", "1 if it already attacked or cast this round"),
    )

    def context(self, state: Any, decision: Decision) -> list[float]:
        st: OSEState = state
        c = st.combatants[decision.actor]
        phase = decision.context.get("phase", "declare")
        ini = 0.0
        if (
            st.stage != STAGE_DECLARE
            and len(st.groups) > 1
            and not st.options["individual_initiative"]
        ):
            first = st.groups[0]
            if first:
                ini = 1.0 if st.combatants[first[0]].side == c.side else -1.0
        mr = st.max_rounds or 1
        return (
            [st.round / mr]
            + [1.0 if phase == p else 0.0 for p in _PHASES]
            + [
                ini,
                1.0 if st.simul else 0.0,
                1.0 if c.declared == DECL_WITHDRAW else 0.0,
                1.0 if c.declared == DECL_RETREAT else 0.0,
                (mr - st.round) / mr,
            ]
        )

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        st: OSEState = state
        me = st.combatants[decision.actor]
        c = st.combatants[index]
        p = c.prof
        status = c.status
        off = (c.pos - me.pos) if me.side == 0 else (me.pos - c.pos)
        d = abs(c.pos - me.pos)
        has_missile = p.missile_weapon is not None and c.ammo != 0
        return [
            1.0,
            1.0 if status == Status.ACTIVE else 0.0,
            1.0 if status == Status.DEAD else 0.0,
            1.0 if status == Status.FLED else 0.0,
            1.0 if status in (Status.INCAPACITATED, Status.UNCONSCIOUS) else 0.0,
            c.hp / c.max_hp if c.max_hp else 0.0,
            c.max_hp / 30.0,
            (9 - p.ac) / 10.0,
            (19 - p.thac0) / 10.0,
            off / 20.0,
            d / 20.0,
            1.0 if d <= 1 and index != decision.actor else 0.0,
            1.0 if has_missile else 0.0,
            p.missile_ranges[2] / 40.0 if has_missile else 0.0,
            p.move / 8.0,
            1.0 if p.melee_slow else 0.0,
            1.0 if c.declared == DECL_WITHDRAW else 0.0,
            1.0 if c.declared == DECL_RETREAT else 0.0,
            1.0 if c.declared == DECL_CAST and c.casting >= 0 else 0.0,
            sum(c.spells) / 4.0,
            p.morale / 12.0,
            c.cover / 5.0,
            1.0 if c.attacked else 0.0,
        ]
