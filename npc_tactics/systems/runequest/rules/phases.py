"""Round phases of the RQG engine: the schedule, movement, bookkeeping, end of fight, text (§1, §3,
§17-§21).

A mixin of :class:`~npc_tactics.systems.runequest.rules.engine.RuneQuestEngine`, split out to keep modules
small.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mypy_extensions import trait

from npc_tactics.rules.base import MAX_ROUNDS, EventSink, Outcome, SideResult, Status, side_outcome
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import ALIVE, bleed, end_of_round_deaths, settle
from npc_tactics.systems.runequest.rules.resolve import NO_DEFENCE, resolve_blow
from npc_tactics.systems.runequest.rules.state import Incoming, RQState, Step

ACTIVE = Status.ACTIVE
REACH = T.MELEE_REACH_M


@trait  # a mixin of the engine: mypyc compiles a mixin as a trait, listed after the engine's base class
class RoundPhases:
    """Phases 2-4 of the melee round and the helpers they share with the engine."""

    @staticmethod
    def _group_end(s: RQState, pos: int) -> int:
        sr, negdex = s.schedule[pos][0], s.schedule[pos][1]
        end = pos + 1
        while end < len(s.schedule) and s.schedule[end][0] == sr and s.schedule[end][1] == negdex:
            end += 1
        return end

    def _build_schedule(self, s: RQState) -> None:
        """Order every step by SR, then higher DEX first (§3.1); steps past SR 12 slip to later
        rounds (§6)."""
        sched = []
        seq = 0
        for i, c in enumerate(s.combatants):
            if c.status != ACTIVE:
                continue
            if c.busy_rounds:
                continue
            steps = c.carried if c.carried else (c.intent.steps if c.intent is not None else [])
            c.carried = []
            for st in steps:
                if st.sr > T.MAX_SR:
                    k, sr = calc.split_strike_rank(st.sr)
                    c.carried.append(
                        Step(
                            st.verb, sr, st.weapon, st.target, st.spell, st.power, st.loc, st.shot,
                            st.readied,
                        )
                    )
                    c.busy_rounds = k
                    continue
                sched.append((st.sr, -c.spec.dex, i, seq, st))
                seq += 1
        sched.sort(key=lambda e: (e[0], e[1], e[3]))
        s.schedule = sched

    def _movement(self, s: RQState, sink: EventSink) -> None:
        """Phase 2: flights (with the free blows of engaged enemies, §21), withdrawals, closing,
        charges."""
        cs = s.combatants
        for i, c in enumerate(cs):
            it = c.intent
            if c.status != ACTIVE or it is None or it.verb != "flee":
                continue
            if c.engaged_start:
                for j, e in enumerate(cs):
                    if e.side == c.side or e.status != ACTIVE or abs(e.pos - c.pos) > REACH:
                        continue
                    if e.befuddled_rounds:  # befuddled: cannot attack, so no opening either
                        continue
                    w = self._free_weapon(e)
                    if w < 0:
                        continue
                    if e.lose_attack:  # a fumble's lost attack is this one (§10.3)
                        e.lose_attack = False
                        sink.emit("attack_lost", j, i, rule="§10.3 §21", result="lost_to_fumble")
                        continue
                    skill = e.weapons[w].spec.skill
                    if e.bladesharp_rounds:
                        skill += T.BLADESHARP_SKILL_PER_POINT * e.bladesharp
                    inc = Incoming(j, i, w, 0, skill, -1, False, False)
                    resolve_blow(s, inc, NO_DEFENCE, -1, sink, s.options, free=True)
                settle(s, sink)
            if c.status == ACTIVE:
                self._run_away(s, i, sink)
        for i, c in enumerate(cs):
            it = c.intent
            if c.status != ACTIVE or it is None:
                continue
            if it.verb == "retreat" and not c.engaged_start:
                c.pos += (-1.0 if c.side == 0 else 1.0) * c.spec.move_m
                sink.emit("retreat", i, None, rule="§1 phase 2", result="withdrew")
            elif it.move_to >= 0 and not c.engaged_start:
                t = cs[it.move_to]
                d = t.pos - c.pos
                step = min(it.move_max, max(0.0, abs(d) - 1))
                if step > 0:
                    c.pos += step if d > 0 else -step
                    sink.emit("move", i, it.move_to, rule="§1 phase 2", metres=step, result="moved")

    def _run_away(self, s: RQState, i: int, sink: EventSink) -> None:
        """The fleer runs its full MOV away. With ``flight: pursuit`` (A25) the fastest enemy that is
        faster than it, on its feet, not befuddled, not itself leaving, not held in reach by another
        foe and close enough to reach the fleer's new place with its own MOV runs it down: it ends
        1 m from the fleer, which stays in the fight.
        Otherwise (and always with ``flight: escape``) the fleer is gone."""
        cs = s.combatants
        c = cs[i]
        away = -1.0 if c.side == 0 else 1.0
        catcher = -1
        end = c.pos + away * c.spec.move_m
        if s.options["flight"] == "pursuit":
            best = c.spec.move_m
            for j, e in enumerate(cs):
                if e.side == c.side or e.status != ACTIVE or e.prone or e.befuddled_rounds:
                    continue
                if e.spec.move_m <= best or (e.intent is not None and e.intent.verb in ("flee", "retreat")):
                    continue
                if abs(end - e.pos) - 1 > e.spec.move_m:  # too far behind to catch it this round
                    continue
                held = any(
                    o.side == c.side and o is not c and o.status == ACTIVE
                    and abs(o.pos - e.pos) <= REACH
                    for o in cs
                )
                if not held:
                    best, catcher = e.spec.move_m, j
        if catcher < 0:
            c.status = Status.FLED
            sink.emit("flee", i, None, rule="§21", engaged=c.engaged_start, result="fled")
            sink.emit("status", None, i, rule="§21", status="fled", result="fled")
            return
        c.pos = end
        e = cs[catcher]
        e.pos = c.pos - away * 1.0
        sink.emit(
            "flee", i, catcher, rule="§21 A25", engaged=c.engaged_start, result="run_down",
            metres=c.spec.move_m,
        )

    @staticmethod
    def _free_weapon(e: Any) -> int:
        for w, wp in enumerate(e.weapons):
            if (
                e.ready >> w & 1
                and wp.spec.kind in ("melee", "shield")
                and (wp.hp > 0 or wp.spec.max_hp == 0)
            ):
                return w
        return -1

    @staticmethod
    def _ready(c: Any, w: int) -> None:
        """Ready weapon ``w``, putting away others that no longer fit in the usable hands (§3.2)."""
        hands = c.usable_hands()
        ready = 1 << w
        used = c.weapons[w].spec.hands
        for x, wp in enumerate(c.weapons):
            if x != w and c.ready >> x & 1 and used + wp.spec.hands <= hands:
                ready |= 1 << x
                used += wp.spec.hands
        c.ready = ready

    def _react_mask(self, s: RQState) -> np.ndarray:
        inc = s.incoming
        m = np.zeros(A.N, dtype=np.bool_)
        m[A.NO_DEFENCE] = True
        if inc is None:
            return m
        d = s.combatants[inc.defender]
        bit = 1 << inc.sr
        lost = d.lose_parry and s.options["lost_parry"] == "next_blow"
        if not lost and not d.parry_srs & bit:
            for w, wp in enumerate(d.weapons[: A.N_WEAPONS]):
                if (
                    d.ready >> w & 1
                    and wp.spec.parry
                    and wp.hp > 0
                    and (not inc.missile or wp.spec.kind == "shield")
                ):
                    m[A.PARRY[w]] = True
        if (
            not inc.missile
            and s.round > d.no_dodge_until
            and not d.dodge_srs & bit
            and calc.dodge_chance(d.spec.dodge, d.spec.enc, d.spec.max_enc) > 0
        ):  # a Dodge at 0% or less (ENC) cannot be tried (§13, A1)
            m[A.DODGE] = True
        return m

    def _end_round(self, s: RQState, sink: EventSink) -> None:
        """Phase 4 (§1): retreats disengage, bleeding, deaths, durations, multi-round actions."""
        cs = s.combatants
        for i, c in enumerate(cs):
            it = c.intent
            if c.status == ACTIVE and (
                (it is not None and it.verb == "retreat" and c.engaged_start) or c.disengaged
            ):
                self._disengage(s, i)
                sink.emit("retreat", i, None, rule="§21", result="disengaged")
        bleed(s, sink, s.options["bleeding_clocks"])
        poison.take_effect(s, sink)
        settle(s, sink)
        end_of_round_deaths(s, sink)
        for c in cs:
            if c.bladesharp_rounds:
                c.bladesharp_rounds -= 1
            if c.protection_rounds:
                c.protection_rounds -= 1
                if not c.protection_rounds:
                    c.protection = 0
            if c.shield_rounds:
                c.shield_rounds -= 1
                if not c.shield_rounds:
                    c.shield_spell = 0
            if c.truesword_rounds:
                c.truesword_rounds -= 1
            if c.befuddled_rounds:
                c.befuddled_rounds -= 1
            if c.busy_rounds:
                c.busy_rounds -= 1
        if s.round >= s.max_rounds and not self._check_over(s, sink):
            self._finish(s, sink, tuple(SideResult.DRAW for _ in range(2)), None, MAX_ROUNDS)

    @staticmethod
    def _disengage(s: RQState, i: int) -> None:
        c = s.combatants[i]
        enemies = [e.pos for e in s.combatants if e.side != c.side and e.status in ALIVE]
        if not enemies:
            return
        if c.side == 0:
            c.pos = min(c.pos, min(enemies) - T.DISENGAGE_GAP_M)
        else:
            c.pos = max(c.pos, max(enemies) + T.DISENGAGE_GAP_M)

    def _check_over(self, s: RQState, sink: EventSink) -> bool:
        if s.phase == "over":
            return True
        active = [False, False]
        for c in s.combatants:
            if c.status == ACTIVE:
                active[c.side] = True
        if active[0] and active[1]:
            return False
        end_of_round_deaths(s, sink)
        out = side_outcome(s.combatants, 2, s.round)
        if out is None:  # the end-of-round deaths only take combatants out
            raise RuntimeError("a side came back into the fight at the end of the round")
        self._finish(s, sink, out.results, out.winner, out.reason)
        return True

    @staticmethod
    def _finish(
        s: RQState,
        sink: EventSink,
        results: tuple[SideResult, ...],
        winner: int | None,
        reason: str,
    ) -> None:
        s.phase = "over"
        s.decision = None
        s.incoming = None
        s.result = Outcome(results, winner, s.round, reason)
        sink.emit("fight_end", rule="§1", winner=winner, reason=reason, result=reason)
        if s.doses:  # doses still waiting are told, not played (poison.py); none: the log is as before
            poison.at_fight_end(s, sink)

    def describe(self, state: RQState) -> str:
        """Compact text of the fight for ``render_mode="ansi"``."""
        lines = [f"round {state.round} · phase {state.phase}"]
        for i, c in enumerate(state.combatants):
            wounds = ", ".join(
                f"{loc.spec.name} {loc.spec.max_hp - loc.damage}/{loc.spec.max_hp}"
                for loc in c.locations
                if loc.damage
            )
            ready = (
                "+".join(w.spec.name for x, w in enumerate(c.weapons) if c.ready >> x & 1)
                or "empty-handed"
            )
            conds = [
                n
                for n, on in (
                    ("engaged", c.engaged_start),
                    ("befuddled", c.befuddled_rounds > 0),
                    ("bleeding", bool(c.bleed_clock or c.bleed_per_round)),
                    ("lost-parry", c.lose_parry),
                    ("lost-attack", c.lose_attack),
                    ("prone", c.prone),
                    ("poisoned", any(d[1] == i for d in state.doses)),
                )
                if on
            ]
            lines.append(
                f"[{i}] {c.name} (side {c.side}, {c.template}) {c.status.name.lower()} "
                f"HP {c.hp}/{c.max_hp} MP {c.mp} pos {calc.metres(c.pos)} {ready}"
                + (f" · {' '.join(conds)}" if conds else "")
                + (f" · wounds: {wounds}" if wounds else "")
            )
        return "\n".join(lines)
