"""The MRQ engine (mrq-opposed.md): the ``Engine`` protocol over the rules modules.

The work is split by job: ``rounds`` (round loop, Strike Rank order, §1), ``acts`` (Combat Actions, §20.1),
``exchange`` (one attack from the blow to the last effect, §2–§4), ``views`` (the ansi text). Options and the
SystemSpec live in ``options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from npc_tactics.rules.base import Decision, DecisionKind, Engine, EventSink, Outcome, Status
from npc_tactics.systems.mrq.rules import acts, rounds, views
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules.actions import CATALOGUE, IDX, KIND_OF, N_ACTIONS, OPTION_OF, SLOT, VERB
from npc_tactics.systems.mrq.rules.options import DEFAULT_OPTIONS, SPEC
from npc_tactics.systems.mrq.rules.rounds import MAX_CYCLES
from npc_tactics.systems.mrq.rules.state import MRQCombatant, MRQState
from npc_tactics.systems.mrq.rules.tables import APART

__all__ = ["DEFAULT_OPTIONS", "SPEC", "MRQEngine"]


class MRQEngine(Engine[MRQState]):
    """Mongoose RuneQuest (MRQ1) with the fan variant "combat with opposed tests" (docs/mrq.md)."""

    spec = SPEC
    catalogue = CATALOGUE

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self._ones = np.ones(N_ACTIONS, dtype=np.bool_)

    # ----- setup --------------------------------------------------------------------------------------
    def _new_combat(self, scenario: Any, sink: EventSink) -> MRQState:
        """Build the fight from a :class:`~npc_tactics.systems.mrq.rules.content.Scenario` (or a scenario mapping) and
        run to the first decision. Scenario options override the defaults; options given to the engine win."""
        from npc_tactics.systems.mrq.rules.scenario import Scenario, roll_characteristics, scenario_from_mapping

        scen = scenario if isinstance(scenario, Scenario) else scenario_from_mapping(scenario, "<scenario>")
        # the GM's dice characteristics (STR 3D6+6) are rolled with the fight's roller: the seed decides
        scen = roll_characteristics(scen, lambda i, expr, key: sink.roll(expr, key.upper(), i).total)
        state = self.build_state(scen)
        self.advance(state, sink)
        return state

    def build_state(self, scen: Any) -> MRQState:
        opts = self.resolve_options(scen.options)
        combatants = []
        for name, side, prof in scen.combatants:
            total = sum(prof.loc_max)
            combatants.append(
                MRQCombatant(
                    name=name,
                    side=side,
                    template=prof.template,
                    prof=prof,
                    status=Status.ACTIVE,
                    hp=total,
                    max_hp=total,
                    loc_hp=list(prof.loc_max),
                    armour=prof.armour,
                    weapon_hp=prof.weapon.hp,
                    off_hp=prof.offhand.hp if prof.offhand is not None else 0,
                    missile_hp=prof.missile.hp if prof.missile is not None else 0,
                    ammo=prof.ammo,
                )
            )
        for r, m in getattr(scen, "mounts", ()):  # a rider and its mount (§13, mounts.py)
            combatants[r].mount, combatants[m].rider = m, r
        n = len(combatants)
        opposed = [combatants[i].side != combatants[j].side for i in range(n) for j in range(n)]
        gap = scen.range if scen.distance == APART else 0
        sides = tuple(tuple(i for i, c in enumerate(combatants) if c.side == s) for s in range(2))
        state = MRQState(
            combatants=combatants,
            round=0,
            max_rounds=scen.max_rounds,
            options=opts,
            dist=[scen.distance if o else APART for o in opposed],
            gap=[gap if o else 0 for o in opposed],
            order=[],
            cycle=MAX_CYCLES,
            pos=0,
            sides=sides,
        )
        for a, b, band, metres in getattr(scen, "distances", ()):  # a pair's own band (A23)
            state.set_distance(a, b, band)
            if band == APART:
                state.set_metres(a, b, scen.range if metres < 0 else metres)
        return state

    # ----- the round loop (rounds.py) ------------------------------------------------------------------
    def new_round(self, state: MRQState, sink: EventSink) -> None:
        rounds.new_round(state, sink)

    def advance(self, state: MRQState, sink: EventSink) -> None:
        """Run the rules until someone must decide or the fight is over."""
        rounds.advance(state, sink)

    # ----- protocol -----------------------------------------------------------------------------------
    def _enter(self, state: MRQState, sink: EventSink) -> None:
        """A situation's loader places the state at the acting combatant's decision itself (the rules roll
        nothing to get there); entering checks it stands at one."""
        if state.decision is None and self.outcome(state) is None:
            raise ValueError("a situation entered with no pending decision and no outcome")

    def pending(self, state: MRQState) -> Decision | None:
        return None if state.result is not None else state.decision

    def outcome(self, state: MRQState) -> Outcome | None:
        return state.result

    def legal_mask(self, state: MRQState, decision: Decision | None = None) -> np.ndarray:
        decision = decision or self.pending(state)
        if decision is None or state.result is not None:
            return self._ones.copy()
        cache = state.mask_cache
        if cache is not None and cache[0] is decision:
            return cache[1].copy()  # type: ignore[no-any-return]  # the cache tuple is untyped (Any); it holds the bool mask
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        kind = decision.kind
        if kind == DecisionKind.ACT:
            mask[acts.act_options(state, decision.actor, bool(decision.context.get("free_attack")))] = True
        elif kind == DecisionKind.REACT:
            mask[X.react_options(state)] = True
        elif kind == DecisionKind.EFFECT:
            mask[X.legal_effects(state, state.exchange)] = True  # type: ignore[arg-type]  # an EFFECT decision always has state.exchange set
        else:
            mask[IDX["impale_leave"]] = True
            mask[IDX["impale_pull"]] = True
        return mask  # only reads the state: a state handed to ``step`` without ``inplace`` stays untouched

    def act_options(self, state: MRQState, a: int, free_attack: bool = False) -> list[int]:
        """Legal Combat Actions of ``a`` (§20.1); the two-weapon free attack allows attacks only (§7)."""
        return acts.act_options(state, a, free_attack)

    def _apply(self, state: MRQState, decision: Decision, action: int, sink: EventSink) -> None:
        kind = KIND_OF[action]
        verb = VERB[action]
        if kind == DecisionKind.ACT:
            acts.do_act(state, sink, decision.actor, verb, SLOT[action])
        elif kind == DecisionKind.REACT:
            X.answer_react(state, sink, verb)
        elif kind == DecisionKind.EFFECT:
            X.answer_effect(state, sink, verb, OPTION_OF[action])
        else:
            X.answer_impale(state, sink, verb)
        if state.decision is None:
            rounds.advance(state, sink)

    def _act(self, state: MRQState, sink: EventSink, a: int, verb: str, slot: int) -> None:
        acts.do_act(state, sink, a, verb, slot)

    # ----- views --------------------------------------------------------------------------------------
    def describe(self, state: MRQState) -> str:
        """Compact text of the fight for ``render_mode="ansi"``."""
        return views.describe(state)
