"""The dice-pool rules engine: game turns, action slots, the attack/DEFENSE split, shots (dice-pool.md).

Flow of a game turn (§1, §3): every active combatant rolls its Initiative pool; slots resolve from the
highest global rank down. On its slot a combatant makes one ACT decision; a strike is followed by a SPLIT
decision (dice moved to DEFENSE, D5) and a shot by an OPTION decision (aim at a location or not, §7). The
defender never rolls (D18). A fight ends when a side has no active combatant, or after ``max_rounds``
game turns (draw).
"""

from __future__ import annotations

from collections.abc import Mapping
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
    side_outcome,
)
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.attacks import free_blow, resolve_shot, resolve_strike
from npc_tactics.systems.dicepool.rules.combat import (
    attack_pool,
    can_move,
    cover_at,
    face,
    face_nearest_enemy,
    melee_defense,
    melee_skill,
    move_speed,
    range_band,
    shot_defense,
)
from npc_tactics.systems.dicepool.rules.content import Scenario, describe_state, scenario_from_mapping
from npc_tactics.systems.dicepool.rules.options import SPEC, Rules
from npc_tactics.systems.dicepool.rules.pool import (
    action_ranks,
    action_turns,
    order_slots,
    roll_pool,
    ta_and_local_rank,
)
from npc_tactics.systems.dicepool.rules.state import (
    PHASE_ACT,
    PHASE_DONE,
    PHASE_OPTION,
    PHASE_SPLIT,
    DicePoolState,
)


class DicePoolEngine(Engine[DicePoolState]):
    """Engine of the Haru'Rak'Zall dice-pool system (dice-pool.md). Options: see :class:`Rules`."""

    spec = SPEC
    catalogue = A.CATALOGUE

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self._rules_cache: dict[tuple[Any, ...], tuple[Mapping[str, Any], Rules]] = {}

    def resolved(self, scenario_options: Mapping[str, Any]) -> tuple[Mapping[str, Any], Rules]:
        """Spec defaults < the scenario's ``options`` < options given to the engine, and as :class:`Rules`."""
        key = tuple(sorted(scenario_options.items()))
        hit = self._rules_cache.get(key)
        if hit is None:
            options = self.resolve_options(scenario_options)
            hit = self._rules_cache[key] = (options, Rules(**options))
        return hit

    # ----- setup ----------------------------------------------------------------------------------
    def _new_combat(self, scenario: Any, sink: EventSink) -> DicePoolState:
        """Clone the scenario's fighters and roll the first game turn's initiative."""
        if not isinstance(scenario, Scenario):
            scenario = scenario_from_mapping(scenario, "<scenario>")
        options, rules = self.resolved(scenario.options)
        state = DicePoolState(
            [f.clone() for f in scenario.fighters],
            0,
            scenario.max_rounds,
            scenario.escape_distance,
            rules,
            options=options,
        )
        for f in state.combatants:
            face_nearest_enemy(state, f)
        self.start_turn(state, sink)
        self._memo(state)
        return state

    def _memo(self, state: DicePoolState) -> None:
        """Build the pending decision and its mask now, so ``pending``/``legal_mask`` only read the state
        (a state handed to ``step`` without ``inplace`` is never written, not even its memo)."""
        if state.phase != PHASE_DONE and state.cache is None:
            self._build_decision(state)

    def _enter(self, state: DicePoolState, sink: EventSink) -> None:
        """A situation's state stands at the start of its acting combatant's slot: open it (or skip to the next
        active one) and build its decision."""
        self.open_slot(state, sink)
        self._memo(state)

    # ----- the protocol ---------------------------------------------------------------------------
    def pending(self, state: DicePoolState) -> Decision | None:
        if state.phase == PHASE_DONE:
            return None
        if state.cache is None:
            self._build_decision(state)
        return state.cache[0]  # type: ignore[no-any-return]  # the cache tuple is untyped (Any); it holds the Decision

    def legal_mask(self, state: DicePoolState, decision: Decision | None = None) -> np.ndarray:
        if state.phase == PHASE_DONE:
            return np.ones(A.N_ACTIONS, dtype=np.bool_)
        if state.cache is None:
            self._build_decision(state)
        pending = state.cache[0]
        if decision is None or decision is pending or decision == pending:
            return state.cache[1].copy()  # type: ignore[no-any-return]  # the cache tuple is untyped (Any); it holds the bool mask
        mask = np.zeros(A.N_ACTIONS, dtype=np.bool_)
        if decision.kind == DecisionKind.ACT:
            self._act_mask(state, decision.actor, mask)
        elif decision.kind == DecisionKind.SPLIT:
            self._split_mask(state, decision.actor, mask)
        elif decision.kind == DecisionKind.OPTION:
            self._option_mask(state, decision.actor, int(decision.context["target"]), mask)
        return mask

    def outcome(self, state: DicePoolState) -> Outcome | None:
        return state.result

    # ----- decisions ------------------------------------------------------------------------------
    def next_relation(self, state: DicePoolState) -> str:
        """Who holds the next slot of this game turn after the current one: self, ally, enemy or new_turn."""
        me = state.actor
        side = state.combatants[me].side
        for _, c in state.queue[state.slot + 1 :]:
            other = state.combatants[c]
            if other.status == Status.ACTIVE:
                return "self" if c == me else ("ally" if other.side == side else "enemy")
        return "new_turn"

    def slots_left(self, state: DicePoolState, who: int) -> int:
        """Slots ``who`` still holds this game turn after the current one."""
        return sum(1 for _, c in state.queue[state.slot + 1 :] if c == who)

    def _build_decision(self, state: DicePoolState) -> None:
        actor = state.actor
        f = state.combatants[actor]
        mask = np.zeros(A.N_ACTIONS, dtype=np.bool_)
        if state.phase == PHASE_SPLIT:
            pool = self._split_mask(state, actor, mask)
            t = state.combatants[state.target]
            ctx = {
                "target": state.target,
                "pool": pool,
                "defense": melee_defense(t, state.rules, f),
                "next": self.next_relation(state),
            }
            kind = DecisionKind.SPLIT
        elif state.phase == PHASE_OPTION:
            pool = self._option_mask(state, actor, state.target, mask)
            w = f.weapon
            t = state.combatants[state.target]
            band = (
                range_band(w, abs(t.position - f.position), state.rules.shorter_band_on_boundary)
                if w
                else 0
            )
            ctx = {
                "target": state.target,
                "pool": pool,
                "needed": shot_defense(t, band, state.rules),
                "aim_bonus": state.rules.aim_bonus if f.aim_target == state.target else 0,
            }
            kind = DecisionKind.OPTION
        else:
            self._act_mask(state, actor, mask)
            ta, local = ta_and_local_rank(state.rank, state.n_ta)
            ctx = {
                "rank": state.rank,
                "ta": ta,
                "local_rank": local,
                "n_ta": state.n_ta,
                "slots_left": self.slots_left(state, actor),
                "next": self.next_relation(state),
            }
            kind = DecisionKind.ACT
        mask.flags.writeable = False  # shared with clones; legal_mask hands out copies
        state.cache = (Decision(actor, f.side, kind, state.round, ctx), mask)

    @staticmethod
    def _split_mask(state: DicePoolState, actor: int, m: np.ndarray) -> int:
        """SPLIT (D5): move 0..pool dice of the melee attack pool to DEFENSE; returns the pool."""
        pool = attack_pool(state.combatants[actor], melee_skill(state.combatants[actor]))
        m[A.SPLIT : A.SPLIT + pool + 1] = True
        return pool

    @staticmethod
    def _option_mask(state: DicePoolState, actor: int, target: int, m: np.ndarray) -> int:
        """OPTION of a shot (§7): no aim, a location with enough dice, the weapon (not a natural one); returns the
        pool."""
        f = state.combatants[actor]
        w = f.weapon
        pool = attack_pool(f, w.skill) if w is not None else 0
        m[A.AIM_AT] = True
        if pool >= T.LOCATION_AIM_DICE:
            m[A.AIM_AT + 1 : A.AIM_AT + 1 + len(T.LOCATIONS)] = True
            held = state.combatants[target].weapon  # a bite or a claw cannot be knocked away (natural)
            m[A.AIM_WEAPON] = state.rules.item_hit == "disarm" and held is not None and not held.natural
        return pool

    def _act_mask(self, state: DicePoolState, actor: int, m: np.ndarray) -> None:
        cs = state.combatants
        f = cs[actor]
        m[A.WAIT] = True
        w = f.weapon
        mobile = can_move(f)
        shoot_ok = (
            w is not None
            and w.ranged
            and f.ammo[f.readied] != 0
            and (not w.reload or f.loaded[f.readied])
            and attack_pool(f, w.skill) > 0
        )
        strike_ok = attack_pool(f, melee_skill(f)) > 0
        engaged = False
        k = 0
        for e, t in enumerate(cs):
            if t.side == f.side:
                continue
            if t.status == Status.ACTIVE:
                d = abs(t.position - f.position)
                if d <= T.MELEE_REACH:
                    engaged = True
                    m[A.STRIKE + k] = strike_ok
                elif mobile:
                    m[A.ADVANCE + k] = True
                if shoot_ok and d <= w.max_range:  # type: ignore[union-attr]  # shoot_ok implies a ranged weapon
                    m[A.SHOOT + k] = True
                    m[A.AIM + k] = f.aim_target != e
            k += 1
        for i in range(len(f.weapons)):
            m[A.DRAW + i] = i != f.readied
        if (
            w is not None
            and w.ranged
            and w.reload
            and not f.loaded[f.readied]
            and f.ammo[f.readied] != 0
        ):
            m[A.RELOAD] = True
        if mobile:
            m[A.WITHDRAW] = True
            m[A.RUN] = True
            m[A.MOUNT] = f.mount_speed > 0 and not f.mounted and not engaged
        for p in range(len(T.POSTURES)):
            m[A.POSTURE + p] = p != f.posture
        for c in (1, 2):
            m[A.COVER + c - 1] = c <= cover_at(f) and c != f.concealment

    # ----- applying actions -----------------------------------------------------------------------
    def _apply(
        self, state: DicePoolState, decision: Decision, action: int, sink: EventSink
    ) -> None:
        state.cache = None
        if decision.kind == DecisionKind.SPLIT:
            resolve_strike(state, decision, action - A.SPLIT, sink)
        elif decision.kind == DecisionKind.OPTION:
            resolve_shot(state, decision.actor, action - A.AIM_AT - 1, sink)
        elif self._act(state, decision.actor, action, sink):
            self._memo(state)
            return  # a SPLIT or OPTION decision follows on the same slot
        self.end_slot(state, sink)
        self._memo(state)

    def _act(self, state: DicePoolState, actor: int, a: int, sink: EventSink) -> bool:
        """Resolve an ACT choice; True when it opens a follow-up decision (strike → SPLIT, shoot → OPTION)."""
        f = state.combatants[actor]
        rules = state.rules
        verb = A.CATALOGUE.specs[a].verb
        sink.emit("action", actor, None, rule="dice-pool.md §4", result=verb)
        target = -1
        if a < A.DRAW:
            target = [i for i, c in enumerate(state.combatants) if c.side != f.side][
                a % A.MAX_PER_SIDE
            ]
        if (
            f.aim_target >= 0
            and rules.aim_lost_on_other_action
            and not (verb in ("shoot", "aim") and target == f.aim_target)
        ):
            f.aim_target = -1
        if target >= 0:
            face(f, state.combatants[target])
        if verb == "strike":
            state.phase, state.target = PHASE_SPLIT, target
            return True
        if verb == "shoot":
            state.phase, state.target = PHASE_OPTION, target
            return True
        if verb == "aim":
            f.aim_target = target
            sink.emit("aim", actor, target, rule="dice-pool.md §7 D7", result="aimed")
        elif verb == "advance":
            t = state.combatants[target]
            gap = abs(t.position - f.position)
            step = min(float(move_speed(f)), gap - T.ENGAGE_DISTANCE)
            self._move(state, actor, f.position + (step if t.position > f.position else -step), sink)
        elif verb == "withdraw":
            self._withdraw(state, actor, sink)
        elif verb == "run":
            f.moving = True  # on the spot: its place (and the cover there) is kept (H1)
            f.posture = 0
            f.concealment = 0
        elif verb == "draw":
            f.readied = a - A.DRAW
        elif verb == "reload":
            f.loaded[f.readied] = True
        elif verb == "posture":
            f.posture = a - A.POSTURE
            f.moving = False
            sink.emit(
                "posture", actor, None, rule="dice-pool.md §7", result=T.POSTURE_NAMES[f.posture]
            )
        elif verb == "cover":
            f.concealment = a - A.COVER + 1
            f.moving = False
            sink.emit(
                "posture",
                actor,
                None,
                rule="dice-pool.md §7",
                result="cover_" + T.CONCEALMENT_NAMES[f.concealment],
            )
        elif verb == "mount":
            f.mounted = True
        return False

    def _move(self, state: DicePoolState, actor: int, new_position: float, sink: EventSink) -> bool:
        """Move ``actor`` along the line (H1). Leaving melee first gives each enemy it leaves a free blow
        (H6, option ``disengage``); False when those blows took it out of the fight before it moved."""
        cs = state.combatants
        f = cs[actor]
        if state.rules.disengage == "free_blow":
            for e, c in enumerate(cs):
                if (
                    c.side != f.side
                    and c.status == Status.ACTIVE
                    and abs(c.position - f.position) <= T.MELEE_REACH < abs(c.position - new_position)
                    and attack_pool(c, melee_skill(c)) > 0
                    and f.status == Status.ACTIVE
                ):
                    free_blow(state, e, actor, sink)
            if f.status != Status.ACTIVE:
                return False
        f.position = new_position
        f.moving = True
        f.posture = 0
        f.concealment = 0
        f.cover_available = cover_at(f)
        return True

    def _withdraw(self, state: DicePoolState, actor: int, sink: EventSink) -> None:
        f = state.combatants[actor]
        enemies = [c for c in state.combatants if c.side != f.side and c.status == Status.ACTIVE]
        nearest = min(enemies, key=lambda c: abs(c.position - f.position))
        away = f.position - nearest.position
        direction = (1.0 if away > 0 else -1.0) if away != 0 else (-1.0 if f.side == 0 else 1.0)
        if not self._move(state, actor, f.position + direction * move_speed(f), sink):
            return
        face(f, nearest)  # backing away, still facing the enemy
        if min(abs(c.position - f.position) for c in enemies) > state.escape_distance:
            f.status = Status.FLED
            sink.emit(
                "status", actor, None, rule="house: escape distance", status="fled", result="fled"
            )

    # ----- turn structure -------------------------------------------------------------------------
    def end_slot(self, state: DicePoolState, sink: EventSink) -> None:
        """Close the current slot, check for the end of the fight, open the next slot (or game turn)."""
        state.phase = PHASE_ACT
        state.target = -1
        if self._check_end(state):
            return
        state.slot += 1
        self.open_slot(state, sink)

    def open_slot(self, state: DicePoolState, sink: EventSink) -> None:
        """Skip slots of combatants out of the fight; at a slot's start its DEFENSE dice and moving lapse."""
        while True:
            if state.slot >= len(state.queue):
                self.start_turn(state, sink)
                return
            f = state.combatants[state.queue[state.slot][1]]
            if f.status == Status.ACTIVE:
                break
            state.slot += 1
        if state.rules.defense_dice_until != "turn_end":
            f.defense_dice = 0
        f.moving = False
        state.phase = PHASE_ACT
        state.cache = None

    def start_turn(self, state: DicePoolState, sink: EventSink) -> None:
        """A new game turn (§3): roll every active combatant's Initiative pool and order the slots."""
        rules = state.rules
        while True:
            if state.round >= state.max_rounds:
                self._finish(state, (SideResult.DRAW, SideResult.DRAW), None, MAX_ROUNDS)
                return
            state.round += 1
            sink.round = state.round
            sink.emit("round_start", None, None, rule="dice-pool.md §3", result="")
            entries: list[tuple[int, int]] = []
            top = 0
            for i, f in enumerate(state.combatants):
                if rules.defense_dice_until != "next_slot":
                    f.defense_dice = 0
                if f.status != Status.ACTIVE:
                    continue
                s = roll_pool(sink, f.initiative, "initiative", i, None, rules.reroll_chain)
                f.successes = s
                ranks = action_ranks(s, rules.zero_successes_act_last)
                sink.emit(
                    "initiative",
                    i,
                    None,
                    rule="dice-pool.md §3 D1",
                    successes=s,
                    ranks=ranks,
                    result=f"{len(ranks)}_actions",
                )
                top = max(top, s)
                entries.extend((r, i) for r in ranks)
            if entries:
                break
        state.n_ta = action_turns(top)
        state.queue = order_slots(entries, [f.coordination for f in state.combatants], sink)
        state.slot = 0
        self.open_slot(state, sink)

    def _check_end(self, state: DicePoolState) -> bool:
        out = side_outcome(state.combatants, 2, state.round)
        if out is None:
            return False
        self._finish(state, out.results, out.winner, out.reason)
        return True

    def _finish(
        self, state: DicePoolState, results: tuple[SideResult, ...], winner: int | None, reason: str
    ) -> None:
        state.phase = PHASE_DONE
        state.cache = None
        state.result = Outcome(results, winner, state.round, reason)

    # ----- text -----------------------------------------------------------------------------------
    def describe(self, state: DicePoolState) -> str:
        """Compact text of the fight for ``render_mode="ansi"``."""
        return describe_state(self, state)

