"""The RQG melee round as a state machine (runequest-glorantha.md §1-§22).

Round loop: (1) statement of intent: one DECLARE decision per able combatant (index order), with
OPTION follow-ups and a "then" step after a spell or a weapon attack; (2) movement of non-engaged
characters (flights and their free blows first, then withdrawals, then closing and charges); (3)
resolution in strike-rank order, ties by higher DEX, equal DEX simultaneous (statuses settled after the whole
group, A23), each blow stopping for the defender's REACT; (4) bookkeeping: retreats disengage,
bleeding, deaths at total HP <= 0, spell durations, the round cap. Geometry is a line in metres:
side 0 starts at 0 and backs away towards negative positions, side 1 starts at the scenario
``distance``; within 2 m of an active enemy = engaged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from npc_tactics.dice import Roller
from npc_tactics.rules.base import (
    Decision,
    DecisionKind,
    Engine,
    EventSink,
    Outcome,
    Status,
)
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import calc, intents, magic, split
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import settle
from npc_tactics.systems.runequest.rules.options import DEFAULT_OPTIONS, SPEC  # noqa: F401  (re-exported)
from npc_tactics.systems.runequest.rules.phases import RoundPhases
from npc_tactics.systems.runequest.rules.resolve import DODGE, NO_DEFENCE, PARRY, resolve_blow
from npc_tactics.systems.runequest.rules.scenario import DICE_KEY, build_state
from npc_tactics.systems.runequest.rules.state import Incoming, RQState, Step

ACTIVE = Status.ACTIVE
REACH = T.MELEE_REACH_M

class RuneQuestEngine(Engine[RQState], RoundPhases):
    """RuneQuest: Roleplaying in Glorantha melee, missiles, spirit/Rune magic and First Aid."""

    spec = SPEC
    catalogue = A.CATALOGUE

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self._proto: tuple[Any, Mapping[str, Any], RQState] | None = (
            None  # last scenario's opening state (building it parses the bestiary)
        )

    # ----- protocol
    # ------------------------------------------------------------------------------------
    def _new_combat(self, scenario: Mapping[str, Any], sink: EventSink) -> RQState:
        """Build the fight from a scenario mapping (see :func:`content.load_scenario`); scenario
        options apply under the options given to the engine, resolved once onto the state."""
        options = self.resolve_options(scenario.get("options") or {})
        proto = self._proto
        rolled: list[str] = []

        def roll(dice: str, why: str) -> int:  # characteristics given as dice: each fight rolls its own
            rolled.append(why)
            return sink.roll(dice, why).total

        if not scenario.get(DICE_KEY) and proto is not None and proto[0] is scenario and proto[1] == options:
            s = proto[2].clone()
        else:
            s = build_state(scenario, options, roll)
            if not rolled:
                self._proto = (scenario, options, s.clone())
        self.start_round(s, sink)
        self._run(s, sink)
        return s

    def _enter(self, state: RQState, sink: EventSink) -> None:
        """A situation's state stands at its round's statement of intent: run to the next decision."""
        self._run(state, sink)

    def pending(self, state: RQState) -> Decision | None:
        return None if state.phase == "over" else state.decision

    def legal_mask(self, state: RQState, decision: Decision | None = None) -> np.ndarray:
        """Mask over the catalogue, a fresh array each call. Only reads the state: the REACT mask the rules
        computed when the blow came in is kept (read-only) in ``mask_cache`` and copied."""
        if decision is None:
            decision = state.decision
        if state.phase == "over" or decision is None:
            return np.ones(A.N, dtype=np.bool_)
        cache = state.mask_cache
        if cache is not None and cache[0] is decision:
            return cache[1].copy()  # type: ignore[no-any-return]  # the cache tuple is untyped (Any); it holds the bool mask
        if decision.kind == DecisionKind.REACT:
            mask = self._react_mask(state)
        elif decision.kind == DecisionKind.OPTION:
            mask = intents.option_mask(state, decision.actor, state.options)
        else:
            then = decision.context.get("phase") == "then"
            mask = intents.declare_mask(state, decision.actor, state.options, then)
        return mask

    def outcome(self, state: RQState) -> Outcome | None:
        return state.result  # type: ignore[no-any-return]  # state.result is typed Any on the state (set by _finish to an Outcome)

    def _apply(self, s: RQState, decision: Decision, action: int, sink: EventSink) -> None:
        s.mask_cache = None
        idx = decision.actor
        if s.phase == "react":
            self._answer(s, action, sink)
        elif s.phase == "option":
            spec = A.CATALOGUE[action]
            if spec.verb == "aim":
                intents.finish_aim(s, idx, int(spec.option), s.options)
                self._declared(s, idx, "done", sink)
            elif split.splitting(s.combatants[idx].intent):
                self._declared(s, idx, intents.finish_split(s, idx, int(spec.option)), sink)
            else:
                self._declared(s, idx, intents.finish_cast(s, idx, int(spec.option)), sink)
        else:
            then = s.phase == "then"
            nxt = intents.declare(s, idx, action, then, s.options)
            if not then:
                sink.emit(
                    "declare",
                    idx,
                    None,
                    rule="§1 statement of intent",
                    action=A.CATALOGUE.name(action),
                    result=A.CATALOGUE[action].verb,
                )
            self._declared(s, idx, nxt, sink)
        self._run(s, sink)

    # ----- declarations
    # ---------------------------------------------------------------------------------
    def _declared(self, s: RQState, idx: int, nxt: str, sink: EventSink) -> None:
        if nxt == "option":
            s.phase = "option"
            return
        if nxt == "then":
            s.phase = "then"
            return
        c = s.combatants[idx]
        it = c.intent
        if c.aid_patient >= 0 and (
            it is None or it.verb != "first_aid" or it.target != c.aid_patient
        ):
            magic.abandon_aid(s, idx, sink)
        s.declare_queue.pop(0)
        s.phase = "declare"

    # ----- the round loop
    # -------------------------------------------------------------------------------
    def start_round(self, s: RQState, sink: EventSink) -> None:
        """Open a round: reset per-round counters, note who starts engaged, queue the
        declarations."""
        s.round += 1
        sink.round = s.round
        sink.emit("round_start", rule="§1", result=str(s.round))
        cs = s.combatants
        for i, c in enumerate(cs):
            c.parries = c.dodges = c.parry_srs = c.dodge_srs = 0
            c.intent = None
            c.disengaged = False
            if c.prone and c.status == ACTIVE and c.can_stand():
                c.prone = False  # a knocked-down fighter gets up (its lost attack pays for it, A12)
                sink.emit("stand_up", i, None, rule="§21 A22", result="standing")
            if c.status == ACTIVE:
                c.engaged_start = any(
                    e.side != c.side and e.status == ACTIVE and abs(e.pos - c.pos) <= REACH
                    for e in cs
                )
        s.declare_queue = [
            i
            for i, c in enumerate(cs)
            if c.status == ACTIVE and c.busy_rounds == 0 and not c.carried
        ]
        s.phase = "declare"
        s.schedule = []
        s.sched_pos = s.group_end = 0

    def _run(self, s: RQState, sink: EventSink) -> None:
        """Advance until the next decision or the end of the fight."""
        while True:
            if s.phase == "over":
                s.decision = None
                return
            if s.phase in ("option", "then"):
                idx = s.declare_queue[0]
                kind = DecisionKind.OPTION if s.phase == "option" else DecisionKind.DECLARE
                s.decision = Decision(
                    idx, s.combatants[idx].side, kind, s.round, {"step": 1, "phase": s.phase}
                )
                return
            if s.phase == "declare":
                while s.declare_queue and s.combatants[s.declare_queue[0]].status != ACTIVE:
                    s.declare_queue.pop(0)
                if s.declare_queue:
                    idx = s.declare_queue[0]
                    c = s.combatants[idx]
                    s.decision = Decision(
                        idx,
                        c.side,
                        DecisionKind.DECLARE,
                        s.round,
                        {"step": 0, "engaged": c.engaged_start},
                    )
                    return
                self._movement(s, sink)
                if self._check_over(s, sink):
                    continue
                self._build_schedule(s)
                s.phase = "resolve"
            if s.phase == "resolve":
                if s.sched_pos >= len(s.schedule):
                    self._end_round(s, sink)
                    if not self._check_over(s, sink):
                        self.start_round(s, sink)
                    continue
                if s.sched_pos >= s.group_end:
                    s.group_end = self._group_end(s, s.sched_pos)
                entry = s.schedule[s.sched_pos]
                s.sched_pos += 1
                if self._do_step(s, entry[2], entry[4], sink):
                    return  # waiting for a REACT decision
                self._after_step(s, sink)

    def strike(self, s: RQState, idx: int, st: Step, roller: Roller) -> bool:
        """Carry out one step of ``idx`` at a hand-built state (a GM's ``pending: incoming`` blow), rolls not
        recorded; True if it stopped for the defender's REACT decision."""
        return self._do_step(s, idx, st, EventSink(roller, s.round, False))

    def _after_step(self, s: RQState, sink: EventSink) -> None:
        if s.sched_pos >= s.group_end:
            settle(s, sink)
            self._check_over(s, sink)

    def _do_step(self, s: RQState, idx: int, st: Step, sink: EventSink) -> bool:
        """Carry out one scheduled step; True if it stopped for the defender's REACT."""
        c = s.combatants[idx]
        if c.status != ACTIVE:
            return False
        if st.verb == "cast":
            magic.cast(s, idx, st, sink)
            return False
        if st.verb == "first_aid":
            magic.first_aid(s, idx, st, sink, s.options)
            return False
        if st.verb == "ready":
            self._ready(c, st.weapon)
            sink.emit(
                "ready",
                idx,
                None,
                rule="§3.2",
                weapon=c.weapons[st.weapon].spec.name,
                result="ready",
            )
            return False
        t = s.combatants[st.target]
        wp = c.weapons[st.weapon] if st.weapon >= 0 else None
        why = ""
        if wp is None or (wp.hp <= 0 and wp.spec.max_hp > 0):
            why = "no_weapon"
        elif t.status != ACTIVE:
            why = "no_target"
        elif c.lose_attack:
            c.lose_attack = False
            why = "lost_to_fumble"
        if why or wp is None:  # wp is None only with why == "no_weapon"
            sink.emit("attack_lost", idx, st.target, rule="§10.3", result=why)
            return False
        missile = wp.spec.kind in intents.MISSILE_KINDS
        d = abs(t.pos - c.pos)
        skill = wp.spec.skill
        if missile:
            div = calc.range_divisor(
                d, wp.spec.range_m, wp.spec.kind == "thrown", s.options["thrown_range_bands"]
            )
            if div == 0 or wp.ammo <= 0:
                sink.emit("attack_lost", idx, st.target, rule="§22", result="out_of_range")
                return False
            wp.ammo -= 1
            skill //= div
        elif d > REACH:
            sink.emit("attack_lost", idx, st.target, rule="§1 phase 2", result="out_of_reach")
            return False
        if not c.ready >> st.weapon & 1:
            if not st.readied and self._recover(s, idx, st, sink):
                return False
            self._ready(c, st.weapon)
        if st.verb == "aimed":  # halve the skill first, then other modifiers (§9, [PUB] spot rules)
            skill //= 2
        if st.parts > 1:  # a split attack (skills over 100%): its share, before Bladesharp
            skill = split.part_skills(skill, st.parts)[st.shot]
        if c.bladesharp_rounds and not missile:
            skill += T.BLADESHARP_SKILL_PER_POINT * c.bladesharp
        if st.verb == "aimed":
            sink.emit(
                "aimed_blow",
                idx,
                st.target,
                rule="§9",
                location=t.locations[st.loc].spec.name,
                skill=skill,
                result="declared",
            )
        inc = Incoming(
            idx,
            st.target,
            st.weapon,
            st.sr,
            skill,
            st.loc if st.verb == "aimed" else -1,
            missile,
            st.verb == "knockback",
        )
        s.incoming = inc
        mask = self._react_mask(s)
        if int(mask.sum()) == 1:  # only "no defence": no decision to make
            if s.options["lost_parry"] == "next_blow":
                t.lose_parry = False  # v0 reading: the lost parry is this blow's (§10.3)
            self._finish_blow(s, NO_DEFENCE, -1, sink)
            return False
        s.phase = "react"
        s.decision = Decision(
            st.target,
            t.side,
            DecisionKind.REACT,
            s.round,
            {
                "attacker": idx,
                "weapon": wp.spec.name,
                "wclass": wp.spec.wclass,
                "sr": st.sr,
                "missile": missile,
                "aimed": st.verb == "aimed",
                "knockback": inc.knockback,
            },
        )
        mask.flags.writeable = False
        s.mask_cache = (s.decision, mask)
        return True

    def _recover(self, s: RQState, idx: int, st: Step, sink: EventSink) -> bool:
        """A weapon dropped since the statement of intent takes 5 SR to recover (fumble 19-20,
        §10.3): the blow moves 5 SR later, or is lost past SR 12. True if the step was put off."""
        c = s.combatants[idx]
        sr = st.sr + T.READY_SR
        name = c.weapons[st.weapon].spec.name
        if sr > T.MAX_SR:
            sink.emit("attack_lost", idx, st.target, rule="§10.3", weapon=name, result="recovering_weapon")
            return True
        later = Step(st.verb, sr, st.weapon, st.target, st.spell, st.power, st.loc, st.shot, True)
        entry = (sr, -c.spec.dex, idx, len(s.schedule) + 1000, later)
        pos = s.sched_pos
        while pos < len(s.schedule) and s.schedule[pos][:2] <= entry[:2]:
            pos += 1
        s.schedule.insert(pos, entry)
        sink.emit("recover_weapon", idx, None, rule="§10.3", weapon=name, sr=sr, result="delayed")
        return True

    def _answer(self, s: RQState, action: int, sink: EventSink) -> None:
        spec = A.CATALOGUE[action]
        d = s.combatants[s.incoming.defender]  # type: ignore[union-attr]  # a REACT decision always has state.incoming set
        if spec.verb == "parry":
            how, pw = PARRY, int(spec.option)
        elif spec.verb == "dodge":
            how, pw = DODGE, -1
        else:
            how, pw = NO_DEFENCE, -1
        if d.lose_parry and s.options["lost_parry"] == "next_blow":
            d.lose_parry = False  # v0 reading: the lost parry is this blow's, whatever the answer
        s.phase = "resolve"
        self._finish_blow(s, how, pw, sink)
        self._after_step(s, sink)

    def _finish_blow(self, s: RQState, how: str, pw: int, sink: EventSink) -> None:
        inc = s.incoming
        if inc is None:
            return
        resolve_blow(s, inc, how, pw, sink, s.options)
        s.incoming = None

    # ----- bookkeeping
    # ----------------------------------------------------------------------------------
    # ----- text
    # ------------------------------------------------------------------------------------------
