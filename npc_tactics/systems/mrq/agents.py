"""Scripted MRQ opponents: aggressive, by-the-book and cautious (the generic "random" is added by the registry).

They read ``observation.state`` (public fields), ``observation.decision`` and the public rules helpers of
``npc_tactics.systems.mrq.rules.fighters``; the action indices come from
``npc_tactics.systems.mrq.rules.actions``. Each falls
back to the first legal action, so it always answers legally.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation, pick_first
from npc_tactics.rules.base import DecisionKind, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.actions import EFFECT_IDX, IDX, TARGETED
from npc_tactics.systems.mrq.rules.tables import LOCATIONS

LOC = {name: i for i, name in enumerate(LOCATIONS)}


def _loc(verb: str, name: str) -> int:
    return EFFECT_IDX[verb][LOC[name]]


def _fallback(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _targets(obs: Observation) -> list[tuple[int, int]]:
    """(slot, combatant index) of the actor's ACTIVE enemies, most wounded first."""
    st, a = obs.state, obs.decision.actor
    enemies = st.sides[1 - st.combatants[a].side]
    live = [(k, e) for k, e in enumerate(enemies[:6]) if st.combatants[e].status == Status.ACTIVE]
    return sorted(live, key=lambda ke: (st.combatants[ke[1]].hp / st.combatants[ke[1]].max_hp, ke[0]))


def _exchange_weapon(obs: Observation) -> Any:
    """The item the actor won the exchange with (its missile weapon for a shot)."""
    st = obs.state
    ex = st.exchange
    missile = ex is not None and ex.mode == "missile" and ex.attacker == obs.decision.actor
    return F.strike_item(st.combatants[obs.decision.actor], missile)


def _shots(obs: Observation) -> list[int]:
    """Shots at the most wounded enemies first (only the legal ones survive the mask)."""
    return [TARGETED["shoot"][k] for k, _ in _targets(obs)]


def _threatened(obs: Observation) -> bool:
    """A shooter is threatened when an enemy it is apart from could charge it next (within two moves)."""
    st, a = obs.state, obs.decision.actor
    me = st.combatants[a]
    if me.prof.missile is None or me.ammo <= 0:
        return False
    return any(
        st.distance(a, e) == 0 and st.metres(a, e) <= 2 * st.combatants[e].prof.move + me.prof.move
        for _, e in _targets(obs)
    )


class _Base:
    name = "base"
    summary = ""

    def __init__(self, engine: Any = None, rng: np.random.Generator | None = None) -> None:
        self.engine = engine
        self.rng = rng if rng is not None else np.random.default_rng(0)

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        kind = observation.decision.kind
        pref = {
            DecisionKind.ACT: self.on_act,
            DecisionKind.REACT: self.on_react,
            DecisionKind.EFFECT: self.on_effect,
        }.get(kind, self.on_option)(observation)
        choice = pick_first(mask, pref)
        return _fallback(mask) if choice is None else choice

    def on_act(self, obs: Observation) -> list[int]:
        return []

    def on_react(self, obs: Observation) -> list[int]:
        return [IDX["defend"], IDX["receive_charge"], IDX["evade"]]

    def on_effect(self, obs: Observation) -> list[int]:
        return []

    def on_option(self, obs: Observation) -> list[int]:
        return [IDX["impale_pull"]]

    @staticmethod
    def _recover(obs: Observation) -> list[int]:
        return [IDX["free_self"], IDX["stand_up"], IDX["ready_weapon"], IDX["pull_free"]]

    @staticmethod
    def _approach(obs: Observation, charge: bool) -> list[int]:
        out: list[int] = []
        for k, _ in _targets(obs):
            out += [TARGETED["close"][k]] + ([TARGETED["charge"][k]] if charge else []) + [TARGETED["advance"][k]]
        return out


class AggressiveAgent(_Base):
    """Always attacks the most wounded enemy it can strike (normal attacks, never precise), else shoots it,
    closes in, charges when apart, defends every blow with its weapon (a missile: shield, else evade),
    receives charges; picks damage effects first (impale, maximise damage, bypass armour, head) and, as
    defender, riposte first; always pulls an impaling weapon."""

    name = "aggressive"
    summary = "Attacks the most wounded enemy every time, defends every blow and picks damage effects first."

    def on_act(self, obs: Observation) -> list[int]:
        ts = _targets(obs)
        return (
            [TARGETED["attack"][k] for k, _ in ts]
            + _shots(obs)
            + self._recover(obs)
            + self._approach(obs, charge=True)
            + [TARGETED["entangle_trip"][k] for k, _ in ts]
        )

    def on_effect(self, obs: Observation) -> list[int]:
        return [EFFECT_IDX[v][0] for v in ("impale", "maximise_damage", "bypass_armour")] + [
            _loc("choose_location", "head"),
            EFFECT_IDX["riposte"][0],
            EFFECT_IDX["attacker_misses"][0],
            EFFECT_IDX["attacker_vulnerable"][0],
            EFFECT_IDX["trip"][0],
            EFFECT_IDX["damage_weapon"][0],
        ]


class ByTheBookAgent(_Base):
    """A drilled fighter. Recovers first (free itself, stand up, ready its weapon). Precise attack when the
    target is prone, disarmed, out of Reactions or 30+ points less skilled, else a normal attack on the most
    wounded target; trips an entangled enemy; under the house reach rule closes or steps back to the distance
    its weapon likes. With a missile weapon: falls back when an enemy could charge it next, else shoots the
    most wounded enemy in range, and pulls embedded missiles out when nobody is engaged with it. Against a
    missile: shield, else evade if its Acrobatics is 40%+, else saves the Reaction.
    Receives a charge with the longer weapon, else evades it if its Acrobatics is 50%+. Defends every blow.
    Special effects by weapon type: Expose defender against a shield; thrusting → Impale, head; two-handed →
    Maximise damage, Bypass armour; entangling → Entangle, Disarm; natural → Maximise damage, leg; others →
    head, Bypass armour, Maximise. As defender: Attacker misses (or Deflect to the left arm) when damage would
    pass, then Disarm, Attacker vulnerable, Trip, Riposte. Pulls an impaling weapon if Brute Force ≥ 40%."""

    name = "by-the-book"
    summary = (
        "A drilled fighter: recovers first, attacks precisely only when it has the edge, defends every blow "
        "and picks special effects by weapon type."
    )

    def on_act(self, obs: Observation) -> list[int]:
        st, a = obs.state, obs.decision.actor
        me = st.combatants[a]
        out = self._recover(obs)
        if _threatened(obs):
            out.append(IDX["fall_back"])
        out += _shots(obs)
        if not any(st.distance(a, e) for _, e in _targets(obs)):
            out.append(IDX["extract_missile"])  # only when no enemy is engaged with it
        for k, e in _targets(obs):
            t = st.combatants[e]
            weak = t.prone or t.weapon_state != 0 or t.reactions == 0 or F.base_skill(me) >= F.base_skill(t) + 30
            out += [TARGETED["entangle_trip"][k]] if not t.prone else []
            out += [TARGETED["precise_attack"][k]] if weak else []
            out.append(TARGETED["attack"][k])
        for k, _ in _targets(obs):
            out += [TARGETED["step_back"][k], TARGETED["close"][k]]
        return out + self._approach(obs, charge=me.prof.mounted)

    def on_react(self, obs: Observation) -> list[int]:
        st, d = obs.state, obs.decision
        if d.context.get("charge"):
            me, att = st.combatants[d.actor], st.combatants[d.context["attacker"]]
            if F.reach(me) > F.reach(att) or F.acrobatics(me) < 50:
                return [IDX["receive_charge"]]
            return [IDX["evade_charge"], IDX["receive_charge"]]
        if d.context.get("missile"):
            me = st.combatants[d.actor]
            return [IDX["defend"]] + ([IDX["evade"]] if F.acrobatics(me) >= 40 else []) + [IDX["no_reaction"]]
        return [IDX["defend"]]

    def on_effect(self, obs: Observation) -> list[int]:
        st, d = obs.state, obs.decision
        if d.context.get("role") == "defender":
            return [
                EFFECT_IDX["attacker_misses"][0],
                _loc("deflect_blow", "left_arm"),
                EFFECT_IDX["disarm"][0],
                EFFECT_IDX["attacker_vulnerable"][0],
                EFFECT_IDX["trip"][0],
                EFFECT_IDX["riposte"][0],
            ]
        w = _exchange_weapon(obs)
        opp = st.combatants[d.context["opponent"]]
        out = [EFFECT_IDX["expose_defender"][0]] if F.parry_item(opp)[1].kind == "shield" else []
        if w.thrusting:
            out += [EFFECT_IDX["impale"][0], _loc("choose_location", "head")]
        elif w.entangling:
            out += [EFFECT_IDX["entangle"][0], EFFECT_IDX["disarm"][0]]
        elif w.kind == "two_handed":
            out += [EFFECT_IDX["maximise_damage"][0], EFFECT_IDX["bypass_armour"][0]]
        elif w.kind == "natural":
            out += [EFFECT_IDX["maximise_damage"][0], _loc("choose_location", "right_leg")]
        out += [
            _loc("choose_location", "head"),
            EFFECT_IDX["bypass_armour"][0],
            EFFECT_IDX["maximise_damage"][0],
        ]
        return out

    def on_option(self, obs: Observation) -> list[int]:
        me = obs.state.combatants[obs.decision.actor]
        return [IDX["impale_pull"] if me.prof.brute_force >= 40 else IDX["impale_leave"]]


class CautiousAgent(_Base):
    """Survival first. Badly hurt (HP under 40% or a location at 0 or below): disengages, then withdraws.
    Otherwise keeps its preferred distance (steps back with the longer weapon; a shooter falls back when an
    enemy could charge it, else shoots), attacks precisely only a prone or disarmed target, waits for the enemy
    rather than advancing, evades charges and missiles (a shield blocks them), always defends (precise
    defence when twice as skilled as the attacker). Effects: as defender Attacker misses, Deflect the blow to the
    healthiest limb, Change distance (apart when hurt), Disarm; as attacker Disarm, Bypass armour, head."""

    name = "cautious"
    summary = "Survival first: disengages and withdraws when badly hurt, keeps its distance and always defends."

    @staticmethod
    def _hurt(me: Any) -> bool:
        return me.hp < 0.4 * me.max_hp or any(h <= 0 for h in me.loc_hp)

    def on_act(self, obs: Observation) -> list[int]:
        st, a = obs.state, obs.decision.actor
        me = st.combatants[a]
        if self._hurt(me):
            return [IDX["withdraw"], IDX["disengage"], IDX["stand_up"]]
        out = self._recover(obs)
        if _threatened(obs):
            out.append(IDX["fall_back"])
        out += _shots(obs)
        ts = _targets(obs)
        out += [TARGETED["step_back"][k] for k, _ in ts]
        for k, e in ts:
            t = st.combatants[e]
            if t.prone or t.weapon_state != 0:
                out.append(TARGETED["precise_attack"][k])
            out.append(TARGETED["attack"][k])
        return out + [TARGETED["close"][k] for k, _ in ts] + [IDX["hold"]]

    def on_react(self, obs: Observation) -> list[int]:
        st, d = obs.state, obs.decision
        if d.context.get("charge"):
            return [IDX["evade_charge"], IDX["receive_charge"]]
        if d.context.get("missile"):
            return [IDX["defend"], IDX["evade"], IDX["no_reaction"]]
        me, att = st.combatants[d.actor], d.context["attacker"]
        if F.defence_skill(me) >= 2 * F.attack_skill(st, att, d.actor):
            return [IDX["precise_defence"], IDX["defend"]]
        return [IDX["defend"]]

    def on_effect(self, obs: Observation) -> list[int]:
        st, d = obs.state, obs.decision
        me = st.combatants[d.actor]
        if d.context.get("role") == "defender":
            limbs = sorted(
                ("right_leg", "left_leg", "left_arm", "right_arm"),
                key=lambda n: -(me.loc_hp[LOC[n]] + me.armour[LOC[n]]),
            )
            out = [EFFECT_IDX["attacker_misses"][0]] + [_loc("deflect_blow", n) for n in limbs]
            if self._hurt(me):
                out.append(EFFECT_IDX["change_distance"][0])
            return out + [
                EFFECT_IDX["disarm"][0],
                EFFECT_IDX["attacker_vulnerable"][0],
                EFFECT_IDX["trip"][0],
            ]
        return [
            EFFECT_IDX["disarm"][0],
            EFFECT_IDX["bypass_armour"][0],
            _loc("choose_location", "head"),
            EFFECT_IDX["maximise_damage"][0],
        ]


#: descriptions are each agent's one-sentence ``summary`` (the docstring's first line stops mid-sentence)
AGENTS: dict[str, AgentEntry] = {
    cls.name: AgentEntry(cls.name, cls.summary, cls) for cls in (AggressiveAgent, ByTheBookAgent, CautiousAgent)
}
