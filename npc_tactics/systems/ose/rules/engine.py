"""The OSE (B/X) combat round as a state machine (ose-bx.md §1).

Round: every active combatant DECLAREs (spell + target, fighting withdrawal, retreat, or nothing; §2) ->
initiative (1d6 per side, or individual d6 + DEX; ties simultaneous or re-rolled; §3) -> each initiative group
in order resolves morale (automatic, §4), movement (ACT ``phase=move``), missiles (ACT ``phase=missile``),
declared spells (automatic, §7) and melee (ACT ``phase=melee``) -> slow weapons attack at the very end
(ACT ``phase=slow``, §3). A decision with a single legal action is applied automatically, so agents are
only asked real choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.rules.base import (
    MAX_ROUNDS,
    Decision,
    DecisionKind,
    Engine,
    EventSink,
    Outcome,
    SideResult,
    Status,
    read_only,
    side_outcome,
)
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules import combat, conditions, effects, holds, legal, morale, spells
from npc_tactics.systems.ose.rules.initiative import roll_initiative, tied_move_order
from npc_tactics.systems.ose.rules.movement import away_direction, check_escape, move_by, move_toward, speed
from npc_tactics.systems.ose.rules.options import DEFAULT_OPTIONS, OPTION_CHOICES, SPEC  # noqa: F401  (re-exported)
from npc_tactics.systems.ose.rules.scenario import Scenario, build_state, parse_scenario
from npc_tactics.systems.ose.rules.state import (
    DECL_CAST,
    DECL_NAMES,
    DECL_RETREAT,
    DECL_WITHDRAW,
    PHASE_MELEE,
    PHASE_MISSILE,
    PHASE_MORALE,
    PHASE_MOVE,
    PHASE_NAMES,
    PHASE_SPELL,
    STAGE_DECLARE,
    STAGE_GROUP,
    STAGE_OVER,
    STAGE_SLOW,
    OSEState,
)
from npc_tactics.systems.ose.rules.tables import CHARGE_MIN_SQUARES, MELEE_REACH, SPELL_NAMES

PHASE_SLOW = 5
# read-only already, so a Decision shares them instead of copying a dict per decision (the profile's hot path)
_CONTEXTS = {p: read_only({"phase": PHASE_NAMES[p]}) for p in range(6)}
_DECLARE_CONTEXT = read_only({"phase": "declare"})


#: read-only masks of the legal-action tuples met so far (a fight meets a few dozen): a decision's mask is a copy
#: of one, instead of a zeroed array filled through a list index (the profile's cost of ``legal_mask``)
_MASKS: dict[tuple[int, ...], np.ndarray] = {}


def _mask_of(legal: tuple[int, ...]) -> np.ndarray:
    mask = _MASKS.get(legal)
    if mask is None:
        mask = np.zeros(A.N_ACTIONS, dtype=np.bool_)
        mask[list(legal)] = True
        mask.flags.writeable = False
        if len(_MASKS) < 65536:
            _MASKS[legal] = mask
    return mask.copy()


class OSEEngine(Engine[OSEState]):
    """Old-School Essentials combat. Options: see :data:`DEFAULT_OPTIONS` and ``docs/ose.md``."""

    spec = SPEC
    catalogue = A.CATALOGUE

    # ----- setup -----------------------------------------------------------------------------------
    def _new_combat(self, scenario: Any, sink: EventSink) -> OSEState:
        """Build round 1 from a :class:`~npc_tactics.systems.ose.rules.content.Scenario` (or a scenario mapping)
        and run to the first decision. Scenario options apply under the engine's explicit options."""
        if not isinstance(scenario, Scenario):
            scenario = parse_scenario(scenario, "<scenario>")
        opts = self.resolve_options(scenario.options)
        sink.round = 1
        state = build_state(scenario, opts, sink)
        if opts["surprise"]:
            morale.roll_surprise(state, sink)
        self.start_round(state, sink)
        self._advance(state, sink)
        return state

    def start_round(self, state: OSEState, sink: EventSink) -> None:
        """Open the round: ``round_start`` then the declarations (§1 step 1)."""
        sink.round = state.round
        sink.emit("round_start", rule="ose-bx.md §1", round=state.round)
        state.stage = STAGE_DECLARE
        cs = state.combatants
        state.queue = [i for i in range(len(cs)) if not state.surprised[cs[i].side]]
        state.qpos = 0

    def _enter(self, state: OSEState, sink: EventSink) -> None:
        """A situation's loader places the state at the acting combatant's decision itself (the rules roll
        nothing to get there); entering checks it stands at one."""
        if state.decision is None and self.outcome(state) is None:
            raise ValueError("a situation entered with no pending decision and no outcome")

    # ----- protocol --------------------------------------------------------------------------------
    def pending(self, state: OSEState) -> Decision | None:
        return state.decision

    def legal_mask(self, state: OSEState, decision: Decision | None = None) -> np.ndarray:
        if state.decision is None:
            return np.ones(A.N_ACTIONS, dtype=np.bool_)
        if decision is None or decision is state.decision or decision == state.decision:
            return _mask_of(state.legal)
        mask = np.zeros(A.N_ACTIONS, dtype=np.bool_)
        mask[
            list(self._legal_for(state, decision.actor, decision.context.get("phase", "declare")))
        ] = True
        return mask

    def _legal_for(self, state: OSEState, actor: int, phase: str) -> list[int]:
        if phase == "declare":
            return legal.declare(state, actor)
        return legal.act(state, actor, PHASE_NAMES.index(phase))

    def outcome(self, state: OSEState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            tuple(SideResult(r) for r in state.result), state.winner, state.round, state.reason
        )

    def _apply(self, state: OSEState, decision: Decision, action: int, sink: EventSink) -> None:
        self._do(state, sink, decision.actor, action)
        state.qpos += 1
        self._advance(state, sink)

    # ----- actions ---------------------------------------------------------------------------------
    def _do(self, state: OSEState, sink: EventSink, i: int, action: int) -> None:
        """Carry out one chosen (or forced) action of combatant ``i``."""
        code, sid, target, slot = A.DECODE[action]
        c = state.combatants[i]
        if code == A.K_HOLD or code == A.K_DECLARE_NONE:
            return
        if code == A.K_SHOOT or code == A.K_MELEE:
            combat.attack(state, sink, i, state.enemies[i][slot], code == A.K_SHOOT)
        elif code == A.K_CLOSE:
            frm = c.pos
            ti = state.enemies[i][slot]
            base = c.prof.move if not c.prof.fly else speed(state, i)  # a flyer flies (movement.speed)
            rate = base * (conditions.move_multiplier(state, i) if c.conditions else 1)  # Haste: doubled
            moved = move_toward(state, i, ti, rate)
            charge = moved >= CHARGE_MIN_SQUARES and abs(state.combatants[ti].pos - c.pos) <= MELEE_REACH
            sink.emit(
                "move", i, ti, rule="ose-bx.md §5.1", result="close", start=frm, end=c.pos, charge=charge
            )
            if charge and state.options["set_vs_charge"]:
                combat.set_vs_charge(state, sink, i, ti)
        elif code in (A.K_MOVE_AWAY, A.K_WITHDRAW, A.K_RETREAT):
            frm = c.pos
            base = c.prof.move if not c.prof.fly else speed(state, i)  # a flyer flies (movement.speed)
            move = base * (conditions.move_multiplier(state, i) if c.conditions else 1)  # Haste: doubled
            steps = max(1, move // 2) if code == A.K_WITHDRAW else move
            move_by(state, i, away_direction(state, i), steps)
            result = (
                "away"
                if code == A.K_MOVE_AWAY
                else "withdraw"
                if code == A.K_WITHDRAW
                else "retreat"
            )
            sink.emit("move", i, None, rule="ose-bx.md §5", result=result, start=frm, end=c.pos)
            check_escape(state, sink, i)
        elif code == A.K_DECLARE_WITHDRAW:
            c.declared = DECL_WITHDRAW
            sink.emit("declare", i, None, rule="ose-bx.md §2", result="withdraw")
        elif code == A.K_DECLARE_RETREAT:
            c.declared = DECL_RETREAT
            c.retreating = True
            sink.emit("declare", i, None, rule="ose-bx.md §2", result="retreat")
        elif code == A.K_CAST:
            t = (
                state.enemies[i][slot]
                if target == "enemy"
                else state.allies[i][slot]
                if target == "ally"
                else i
            )
            c.declared = DECL_CAST
            c.casting = sid
            c.cast_target = t
            sink.emit(
                "declare", i, t, rule="ose-bx.md §2", result="cast", spell=SPELL_NAMES[sid]
            )

    # ----- the round loop --------------------------------------------------------------------------
    def _advance(self, state: OSEState, sink: EventSink) -> None:
        """Run the rules until a combatant has a real choice to make, or the fight ends."""
        cs = state.combatants
        while True:
            if self._check_over(state):
                return
            stage = state.stage
            if (
                stage == STAGE_DECLARE
                or (
                    stage == STAGE_GROUP and state.phase in (PHASE_MOVE, PHASE_MISSILE, PHASE_MELEE)
                )
                or stage == STAGE_SLOW
            ):
                phase = (
                    -1
                    if stage == STAGE_DECLARE
                    else PHASE_SLOW
                    if stage == STAGE_SLOW
                    else state.phase
                )
                queue = state.queue
                while state.qpos < len(queue):
                    i = queue[state.qpos]
                    if cs[i].status != Status.ACTIVE:
                        state.qpos += 1
                        continue
                    options = legal.declare(state, i) if phase < 0 else legal.act(state, i, phase)
                    if len(options) > 1:
                        state.legal = tuple(options)
                        state.decision = Decision(
                            i,
                            cs[i].side,
                            DecisionKind.DECLARE if phase < 0 else DecisionKind.ACT,
                            state.round,
                            _DECLARE_CONTEXT if phase < 0 else _CONTEXTS[phase],
                        )
                        return
                    if options:
                        self._do(state, sink, i, options[0])
                        if self._check_over(state):
                            return
                    state.qpos += 1
                self._end_step(state, sink)
            else:  # STAGE_GROUP, automatic phases: morale and spells
                group = state.groups[state.group_idx]
                if state.phase == PHASE_MORALE:
                    for side in sorted({cs[i].side for i in group}):
                        morale.morale_step(state, sink, side)
                    self._enter_phase(state, PHASE_MOVE, sink)
                else:  # PHASE_SPELL
                    for i in group:
                        if cs[i].status == Status.ACTIVE and cs[i].casting >= 0:
                            spells.cast(state, sink, i)
                    if state.simul:
                        combat.flush_dying(state, sink)
                    self._enter_phase(state, PHASE_MELEE)

    def _enter_phase(self, state: OSEState, phase: int, sink: EventSink | None = None) -> None:
        cs = state.combatants
        state.phase = phase
        group = state.groups[state.group_idx]
        state.queue = [i for i in group if cs[i].status == Status.ACTIVE]
        state.qpos = 0
        if phase == PHASE_MOVE and state.simul and sink is not None:
            state.queue = tied_move_order(state, sink, state.queue)

    def _end_step(self, state: OSEState, sink: EventSink) -> None:
        """A queue is done: go to the next phase, group, the slow-weapon step or the next round."""
        cs = state.combatants
        if state.stage == STAGE_DECLARE:
            roll_initiative(state, sink)
            state.stage = STAGE_GROUP
            state.group_idx = 0
            state.simul = len({cs[i].side for i in state.groups[0]}) > 1
            self._enter_phase(state, PHASE_MORALE)
            return
        if state.simul:
            combat.flush_dying(state, sink)
        if state.stage == STAGE_GROUP:
            if state.phase == PHASE_MOVE:
                self._enter_phase(state, PHASE_MISSILE)
            elif state.phase == PHASE_MISSILE:
                self._enter_phase(state, PHASE_SPELL)
            elif state.group_idx + 1 < len(state.groups):
                state.group_idx += 1
                state.simul = len({cs[i].side for i in state.groups[state.group_idx]}) > 1
                self._enter_phase(state, PHASE_MORALE)
            else:
                state.stage = STAGE_SLOW
                state.simul = any(len({cs[i].side for i in g}) > 1 for g in state.groups)
                state.queue = [
                    i
                    for g in state.groups
                    for i in g
                    if cs[i].status == Status.ACTIVE
                    and (cs[i].prof.melee_slow or cs[i].prof.missile_slow)
                ]
                state.qpos = 0
            return
        self._end_round(state, sink)

    def _end_round(self, state: OSEState, sink: EventSink) -> None:
        holds.end_of_round(state, sink, combat.strike)  # swallowed victims: digested, and they fight back from inside
        if self._check_over(state):
            return
        effects.end_of_round(state, sink)  # regeneration and revival (monster abilities)
        conditions.end_of_round(state, sink)  # lasting spell effects count down
        if self._check_over(state):
            return
        state.simul = False
        state.surprised = (False, False)
        for c in state.combatants:
            c.declared = 0
            c.casting = -1
            c.attacked = c.moved = c.retreating = False
        if state.round >= state.max_rounds:
            self._finish(state, (SideResult.DRAW, SideResult.DRAW), None, MAX_ROUNDS)
            return
        state.round += 1
        self.start_round(state, sink)

    def _check_over(self, state: OSEState) -> bool:
        if state.stage == STAGE_OVER:
            state.decision = None
            return True
        active = state.active
        if active[0] and active[1]:
            return False
        out = side_outcome(state.combatants, 2, state.round)
        if out is None:  # ``active`` is kept in sync with the statuses; a mismatch is a bug
            raise RuntimeError(f"active counts {active} disagree with the combatants' statuses")
        self._finish(state, out.results, out.winner, out.reason)
        return True

    def _finish(
        self, state: OSEState, results: tuple[SideResult, ...], winner: int | None, reason: str
    ) -> None:
        state.stage = STAGE_OVER
        state.result = tuple(int(r) for r in results)
        state.winner = winner
        state.reason = reason
        state.decision = None
        state.legal = ()

    # ----- text ------------------------------------------------------------------------------------
    def describe(self, state: OSEState) -> str:
        """Compact text of the fight: one line per combatant (used by ``render_mode="ansi"``)."""
        lines = [
            f"OSE {state.scenario} round {state.round}"
            + (f" - over: {state.reason}" if state.result is not None else "")
        ]
        for i, c in enumerate(state.combatants):
            bits = [
                f"[{i}] {c.name} (side {c.side}, {c.template})",
                c.status.name.lower(),
                f"HP {c.hp}/{c.max_hp}",
                f"at {c.pos * 1.5:g} m",
                f"AC {c.prof.ac}",
            ]
            foes = [
                state.combatants[j].name
                for j in state.enemies[i]
                if state.combatants[j].status == Status.ACTIVE
                and abs(state.combatants[j].pos - c.pos) <= 1
            ]
            if foes and c.status == Status.ACTIVE:
                bits.append("engaged with " + ", ".join(foes))
            if c.declared:
                bits.append(f"declared {DECL_NAMES[c.declared]}")
            if c.casting >= 0:
                bits.append(f"casting {SPELL_NAMES[c.casting]}")
            mem = [f"{SPELL_NAMES[s]}x{n}" for s, n in enumerate(c.spells) if n > 0]
            if mem:
                bits.append("spells " + " ".join(mem))
            if c.prof.missile_weapon and c.ammo != 0:
                bits.append(f"{c.prof.missile_weapon}" + (f" ({c.ammo})" if c.ammo > 0 else ""))
            if c.cover:
                bits.append(f"cover {c.cover if c.cover < 5 else 'full'}")
            lines.append(", ".join(bits))
        if state.decision is not None:
            d = state.decision
            lines.append(
                f"waiting for {state.combatants[d.actor].name}: {d.kind.name} {d.context.get('phase', '')}"
            )
        return "\n".join(lines)
