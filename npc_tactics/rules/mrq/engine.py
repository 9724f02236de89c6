"""The MRQ engine: combat rounds, Combat Actions in Strike Rank order, Reactions (mrq-opposed.md §1, A18).

Round: every ACTIVE combatant gets Combat Actions by DEX (+1 free attack, the last one, for a two-weapon
stylist with both weapons), as many Reactions as CAs (+1 free for a usable shield), and a Strike Rank
(DEX+INT)/2 + 1D10 (rounded down; ties: higher DEX, then scenario order). Everyone's first CA goes in SR
order, then everyone's second, and so on. Lost CAs carry over to the next round (A14).
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
    SideResult,
    Status,
    SystemSpec,
)
from npc_tactics.rules.mrq import exchange as X
from npc_tactics.rules.mrq import fighters as F
from npc_tactics.rules.mrq.actions import (
    CATALOGUE,
    IDX,
    KIND_OF,
    MAX_PER_SIDE,
    N_ACTIONS,
    OPTION_OF,
    SLOT,
    TARGETED,
    VERB,
)
from npc_tactics.rules.mrq.damage import set_status
from npc_tactics.rules.mrq.opposed import opposed_test, simple_test
from npc_tactics.rules.mrq.state import (
    DROPPED,
    ITEM_STATE_NAMES,
    READY,
    STUCK,
    MRQCombatant,
    MRQState,
)
from npc_tactics.rules.mrq.tables import APART, CLOSE, DISTANCE_NAMES, LONG, REACH_NAMES

R = "mrq-opposed.md"
MAX_CYCLES = 6
DEFAULT_OPTIONS: dict[str, Any] = {
    "deflection_points": True,  # §3: the combat table WITH Deflection Points (False: simplified table §3.2)
    "dp_effects_by_margin": [
        0,
        1,
        1,
        1,
    ],  # A4: literal; [0, 1, 1, 2] gives Critical victory two effects
    "margins_among_failures": False,  # A1: a failure beats a fumble at margin 1 when True
    "literal_defender_damage": False,  # A5: halved damage passes a defender win even if the attacker failed
    "round_half_up": True,  # A7: halved damage and DP round up
    "skill_halving_rule": False,  # §10 optional: skills over 100% may halve twice for +2 effects
    "automatic_success_failure": True,  # [PUB] 01–05 always succeed, 96–99 always fail
    "undefended_effects": True,  # A3: an undefended target counts as a failed defence (False: no effects)
    "melee_fumble_20_breaks_weapon": False,  # A10: melee fumble 20 destroys the weapon instead of "roll 3×"
    "damage_weapon_also_body": False,  # A21: attacker's Damage weapon replaces the body damage
}

SPEC = SystemSpec(
    name="mrq",
    title="Mongoose RuneQuest, opposed-test variant",
    version="0.1.0",
    sides=2,
    max_per_side=MAX_PER_SIDE,
    num_actions=N_ACTIONS,
    max_rounds=20,
    decision_kinds=(DecisionKind.ACT, DecisionKind.REACT, DecisionKind.EFFECT, DecisionKind.OPTION),
    default_options=DEFAULT_OPTIONS,
)

_ATTACK_VERBS = frozenset(("attack", "precise_attack", "double_precise_attack"))


class MRQEngine(Engine[MRQState]):
    """Mongoose RuneQuest (MRQ1) with the fan variant "combat with opposed tests" (docs/mrq.md)."""

    spec = SPEC
    catalogue = CATALOGUE

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.explicit = dict(options or {})
        self._ones = np.ones(N_ACTIONS, dtype=np.bool_)

    # ----- setup --------------------------------------------------------------------------------------
    def new_combat(self, scenario: Any, roller: Roller) -> MRQState:
        """Build the fight from a :class:`~npc_tactics.rules.mrq.content.Scenario` (or a scenario mapping) and
        run to the first decision. Scenario options override the defaults; options given to the engine win."""
        from npc_tactics.rules.mrq.content import Scenario, scenario_from_mapping

        scen = (
            scenario
            if isinstance(scenario, Scenario)
            else scenario_from_mapping(scenario, "<scenario>")
        )
        state = self.build_state(scen)
        sink = EventSink(roller, 0, True)
        self.advance(state, sink)
        return state

    def build_state(self, scen: Any) -> MRQState:
        opts = self.validate_options({**dict(scen.options), **self.explicit})
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
                )
            )
        n = len(combatants)
        dist = [
            scen.distance if combatants[i].side != combatants[j].side else APART
            for i in range(n)
            for j in range(n)
        ]
        sides = tuple(tuple(i for i, c in enumerate(combatants) if c.side == s) for s in range(2))
        return MRQState(
            combatants=combatants,
            round=0,
            max_rounds=scen.max_rounds,
            opts=opts,
            dist=dist,
            order=[],
            cycle=MAX_CYCLES,
            pos=0,
            sides=sides,
        )

    # ----- the round loop ------------------------------------------------------------------------------
    def new_round(self, state: MRQState, sink: EventSink) -> None:
        state.round += 1
        sink.round = state.round
        if state.round > state.max_rounds:
            state.round = state.max_rounds
            state.result = Outcome(
                (SideResult.DRAW, SideResult.DRAW), None, state.max_rounds, "max_rounds"
            )
            return
        sink.emit("round_start", rule=f"{R} §1")
        for i, c in enumerate(state.combatants):
            if c.status != Status.ACTIVE:
                continue
            p = c.prof
            two = p.style == "two_weapons" and F.main_usable(c) and F.off_usable(c)
            c.cas = p.cas + (1 if two else 0)
            c.free_attack = two
            shield = p.offhand is not None and p.offhand.kind == "shield" and F.off_usable(c)
            c.reactions = p.cas + (1 if shield else 0)
            c.sr = (p.dex + p.int_) // 2 + sink.die(10, "strike rank", i)
            c.ca_done = 0
        state.order = sorted(
            range(state.n),
            key=lambda i: (-state.combatants[i].sr, -state.combatants[i].prof.dex, i),
        )
        state.cycle = state.pos = 0

    def _next_actor(self, state: MRQState) -> int:
        order = state.order
        cs = state.combatants
        while state.cycle < MAX_CYCLES:
            while state.pos < len(order):
                i = order[state.pos]
                state.pos += 1
                c = cs[i]
                if c.status == Status.ACTIVE and c.ca_done == state.cycle and state.cycle < c.cas:
                    return i
            state.cycle += 1
            state.pos = 0
        return -1

    def _check_end(self, state: MRQState) -> bool:
        if state.result is not None:
            return True
        alive = [False, False]
        for c in state.combatants:
            if c.status == Status.ACTIVE:
                alive[c.side] = True
        if alive[0] and alive[1]:
            return False
        if not alive[0] and not alive[1]:
            state.result = Outcome((SideResult.DRAW, SideResult.DRAW), None, state.round, "mutual")
            return True
        loser = 0 if not alive[0] else 1
        fled = any(c.status == Status.FLED for c in state.combatants if c.side == loser)
        res = [SideResult.WIN, SideResult.WIN]
        res[loser] = SideResult.FLED if fled else SideResult.LOSS
        state.result = Outcome(
            tuple(res), 1 - loser, state.round, "fled" if fled else "out_of_combat"
        )
        return True

    def advance(self, state: MRQState, sink: EventSink) -> None:
        """Run the rules until someone must decide or the fight is over."""
        while True:
            if self._check_end(state):
                state.decision = None
                state.exchange = None
                return
            if state.queue:
                att, dfd, mode, dm = state.queue.pop(0)
                if F.active(state, att) and F.active(state, dfd):
                    X.start_attack(state, sink, att, dfd, mode, dm)
                    if state.decision is not None:
                        return
                continue
            i = self._next_actor(state)
            if i < 0:
                self.new_round(state, sink)
                continue
            c = state.combatants[i]
            if c.lost_ca > 0:
                c.lost_ca -= 1
                c.ca_done += 1
                sink.emit("lost_action", i, rule=f"{R} §6 A14", result="lost")
                continue
            if c.prone_cas > 0:
                c.prone_cas -= 1
                c.ca_done += 1
                if c.prone_cas == 0 and F.can_stand(c):
                    c.prone = False
                sink.emit("lost_action", i, rule=f"{R} §6 A14", result="prone")
                continue
            if c.numb_loc >= 0:
                if c.numb_wait > 0:
                    c.numb_wait -= 1
                elif simple_test(
                    sink, i, c.prof.resilience, "Endurance: numb limb", True, f"{R} §6.2"
                ):
                    c.numb_loc = -1
            free = c.free_attack and c.ca_done == c.cas - 1
            state.decision = Decision(
                i,
                c.side,
                DecisionKind.ACT,
                state.round,
                {"ca": c.ca_done + 1, "cas": c.cas, "free_attack": free},
            )
            return

    # ----- protocol -----------------------------------------------------------------------------------
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
            return cache[1].copy()  # type: ignore[no-any-return]
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        kind = decision.kind
        if kind == DecisionKind.ACT:
            mask[
                self.act_options(state, decision.actor, bool(decision.context.get("free_attack")))
            ] = True
        elif kind == DecisionKind.REACT:
            mask[X.react_options(state)] = True
        elif kind == DecisionKind.EFFECT:
            mask[X.legal_effects(state, state.exchange)] = True  # type: ignore[arg-type]
        else:
            mask[IDX["impale_leave"]] = True
            mask[IDX["impale_pull"]] = True
        if decision is state.decision:
            state.mask_cache = (decision, mask)
            return mask.copy()
        return mask

    def act_options(self, state: MRQState, a: int, free_attack: bool = False) -> list[int]:
        """Legal Combat Actions of ``a`` (§20.1); the two-weapon free attack allows attacks only (§7)."""
        cs = state.combatants
        me = cs[a]
        out = [IDX["hold"]]
        move = F.can_move(me)
        engaged = False
        halving = state.opts["skill_halving_rule"] and F.base_skill(me) > 100
        my_reach = F.reach(me)
        n = state.n
        row = a * n
        for k, e in enumerate(state.sides[1 - me.side][:MAX_PER_SIDE]):
            o = cs[e]
            if o.status != Status.ACTIVE:
                continue
            d = state.dist[row + e]
            if d:
                engaged = True
                o_reach = F.reach(o)
                if (my_reach >= o_reach) if d == LONG else (my_reach <= o_reach):  # F.can_strike
                    out.append(TARGETED["attack"][k])
                    out.append(TARGETED["precise_attack"][k])
                    if halving:
                        out.append(TARGETED["double_precise_attack"][k])
            if free_attack:
                continue
            if o.entangled_by == a:
                out.append(TARGETED["entangle_trip"][k])
            if not move:
                continue
            if d == APART:
                out.append(TARGETED["advance"][k])
                out.append(TARGETED["charge"][k])
            elif d == LONG and my_reach < o_reach:
                out.append(TARGETED["close"][k])
            elif d == CLOSE and my_reach > o_reach:
                out.append(TARGETED["step_back"][k])
        if free_attack:
            return out
        if move:
            out.append(IDX["disengage"] if engaged else IDX["withdraw"])
        if me.prone and me.prone_cas == 0 and F.can_stand(me):
            out.append(IDX["stand_up"])
        if me.entangled_by >= 0:
            out.append(IDX["free_self"])
        if (
            me.weapon_state == DROPPED
            or me.off_state == DROPPED
            or (me.weapon_state == STUCK and not F.active(state, me.stuck_in))
        ):
            out.append(IDX["ready_weapon"])
        if me.weapon_state == STUCK and F.active(state, me.stuck_in):
            out.append(IDX["pull_free"])
        return out

    def _apply(self, state: MRQState, decision: Decision, action: int, sink: EventSink) -> None:
        kind = KIND_OF[action]
        verb = VERB[action]
        if kind == DecisionKind.ACT:
            self._act(state, sink, decision.actor, verb, SLOT[action])
        elif kind == DecisionKind.REACT:
            X.answer_react(state, sink, verb)
        elif kind == DecisionKind.EFFECT:
            X.answer_effect(state, sink, verb, OPTION_OF[action])
        else:
            X.answer_impale(state, sink, verb)
        if state.decision is None:
            self.advance(state, sink)

    def _act(self, state: MRQState, sink: EventSink, a: int, verb: str, slot: int) -> None:
        me = state.combatants[a]
        me.ca_done += 1
        state.decision = None
        auto = bool(state.opts["automatic_success_failure"])
        e = state.sides[1 - me.side][slot] if slot >= 0 else -1
        if verb in _ATTACK_VERBS:
            mode = {"attack": "normal", "precise_attack": "precise"}.get(verb, "double_precise")
            X.start_attack(state, sink, a, e, mode)
        elif verb == "charge":
            state.set_distance(a, e, LONG)
            X.start_attack(state, sink, a, e, "charge")
        elif verb == "advance":
            state.set_distance(a, e, LONG)
            sink.emit("distance", a, e, rule=f"{R} A23", result="advanced", to="long")
        elif verb == "close":
            X.start_attack(state, sink, e, a, "manoeuvre", manoeuvre=CLOSE)
        elif verb == "step_back":
            X.start_attack(state, sink, e, a, "manoeuvre", manoeuvre=LONG)
        elif verb == "disengage":
            foes = [
                j for j in state.sides[1 - me.side] if F.active(state, j) and state.distance(a, j)
            ]
            best = max(foes, key=lambda j: (F.base_skill(state.combatants[j]), -j))
            X.start_attack(state, sink, best, a, "manoeuvre", manoeuvre=APART, disengage=True)
        elif verb == "withdraw":
            set_status(state, sink, a, Status.FLED, f"{R} A6 (withdraw when not engaged)")
        elif verb == "stand_up":
            me.prone = False
            sink.emit("stand_up", a, rule=f"{R} A6", result="standing")
        elif verb == "free_self":
            ent = me.entangled_by
            if opposed_test(
                sink,
                a,
                me.prof.brute_force,
                ent,
                F.base_skill(state.combatants[ent]),
                "free from entanglement",
                auto,
                f"{R} A6",
            ):
                me.entangled_by = me.entangled_loc = -1
        elif verb == "ready_weapon":
            if me.weapon_state == STUCK:
                state.combatants[me.stuck_in].impaled = max(
                    0, state.combatants[me.stuck_in].impaled - 1
                )
                me.stuck_in = me.stuck_loc = -1
            if me.weapon_state in (DROPPED, STUCK):
                me.weapon_state = READY
            elif me.off_state == DROPPED:
                me.off_state = READY
            sink.emit("ready_weapon", a, rule=f"{R} §20.1", result="ready")
        elif verb == "pull_free":
            X.pull_free(state, sink, a, me.stuck_in, me.stuck_loc, free=False)
        elif verb == "entangle_trip":
            t = state.combatants[e]
            if opposed_test(
                sink,
                a,
                F.base_skill(me) - F.penalty(me),
                e,
                F.acrobatics(t),
                "entangle trip",
                auto,
                f"{R} §4.2 Entangle",
            ):
                t.prone = True
                sink.emit("tripped", a, e, rule=f"{R} §4.2 A6", result="prone")

    # ----- views --------------------------------------------------------------------------------------
    def describe(self, state: MRQState) -> str:
        """Compact text of the fight for ``render_mode="ansi"``."""
        lines = [f"Round {state.round}/{state.max_rounds}"]
        for i, c in enumerate(state.combatants):
            _, item = F.attack_item(c)
            engaged = ", ".join(
                f"{state.combatants[j].name}:{DISTANCE_NAMES[state.distance(i, j)]}"
                for j in state.sides[1 - c.side]
                if state.distance(i, j)
            )
            conds = [
                n
                for n, on in (
                    ("prone", c.prone),
                    ("entangled", c.entangled_by >= 0),
                    (f"impaled×{c.impaled}", c.impaled),
                    (f"lost CA {c.lost_ca}", c.lost_ca),
                )
                if on
            ]
            if c.weapon_state != READY:
                conds.append(f"weapon {ITEM_STATE_NAMES[c.weapon_state]}")
            locs = " ".join(str(h) for h in c.loc_hp)
            lines.append(
                f"[{c.side}] {c.name} ({c.template}) {c.status.name} HP {c.hp}/{c.max_hp} locs [{locs}] "
                f"{item.name} ({REACH_NAMES[item.reach]}) skill {F.base_skill(c)}% CA {c.ca_done}/{c.cas} "
                f"R {c.reactions} SR {c.sr}"
                + (f" engaged {engaged}" if engaged else "")
                + (f" [{', '.join(conds)}]" if conds else "")
            )
        return "\n".join(lines)
