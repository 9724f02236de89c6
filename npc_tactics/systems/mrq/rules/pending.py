"""MRQ pending decisions (issue 11 §2): a Reaction to an incoming attack (``incoming``), the special effects of
an opposed test won (``effects``), and the impale option after an impaling blow (``impale``).

    pending: {incoming: {attacker: Axeman}}                          # defend, precise defence, evade, none?
    pending: {incoming: {attacker: Axeman, attack: precise_attack}}
    pending: {effects: {attacker: Guard, reaction: defend, rolls: [12, 71]}}
    pending: {impale: {attacker: Guard, reaction: no_reaction, rolls: [4, 6, 2, 14], chosen: [impale]}}

``effects`` and ``impale`` replay the exchange with the GM's own dice, in the order the rules roll them
(attacker's D100, defender's D100 unless it took no Reaction, then damage and location dice): the rules find
the winner and the margin, so the effects offered are the ones these rolls grant. ``chosen`` lists the
effects already picked, in order.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules.base import DecisionKind
from npc_tactics.rules.pending import PendingKind, Request, decision_named, drive, enemy_action, named, read_fields
from npc_tactics.systems.mrq.rules.actions import IDX, REACTIONS

ATTACKS = ("attack", "precise_attack", "double_precise_attack", "charge", "shoot")
_EXCHANGE_KEYS = ("attacker", "defender", "attack", "reaction", "rolls", "chosen")


def _attack(data: dict[str, Any], file: str, path: str) -> str:
    return V.choice(data.get("attack", "attack"), file, f"{path}.attack", ATTACKS, "attack")


def _read_incoming(body: Any, file: str, path: str, acting: str) -> Request:
    data = read_fields(body, file, path, ("attacker", "attack"), ("attacker",))
    _attack(data, file, path)
    name = V.string(data["attacker"], file, f"{path}.attacker", non_empty=True)
    if name == acting:
        raise ConfigError(file, f"{path}.attacker", Said("{name} is the one deciding; name who attacks it",
                                                         name=acting))
    return Request(name, {**data, "defender": acting}, path)


def _reach_incoming(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
    p = request.path
    attacker = engine.pending(state).actor
    defender = named(state, request.data["defender"], file, p) if "defender" in request.data else None
    return _replay(engine, state, attacker, defender, _attack(dict(request.data), file, p), None, [], [],
                   DecisionKind.REACT, file, p)


def _read_exchange(body: Any, file: str, path: str, acting: str) -> Request:
    data = read_fields(body, file, path, _EXCHANGE_KEYS, ("attacker", "rolls"))
    _attack(data, file, path)
    rolls = V.sequence(data["rolls"], file, f"{path}.rolls", 1, 40, "rolls")
    for i, r in enumerate(rolls):
        V.integer(r, file, f"{path}.rolls[{i}]", 1, 100)
    if "reaction" in data:
        V.choice(data["reaction"], file, f"{path}.reaction", REACTIONS[:4], "reaction")
    for i, e in enumerate(V.sequence(data.get("chosen", []), file, f"{path}.chosen", 0, 10, "effects")):
        V.string(e, file, f"{path}.chosen[{i}]", non_empty=True)
    attacker = V.string(data["attacker"], file, f"{path}.attacker", non_empty=True)
    if attacker != acting and "defender" not in data:
        data["defender"] = acting  # the acting NPC decides: it is the defender when it is not the attacker
    return Request(attacker, data, path)


def _reach_exchange(want: DecisionKind) -> Any:
    def reach(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
        p, data = request.path, dict(request.data)
        attacker = engine.pending(state).actor
        defender = named(state, data["defender"], file, f"{p}.defender") if "defender" in data else None
        chosen = []
        for i, e in enumerate(data.get("chosen", [])):
            if e not in IDX:
                raise ConfigError(file, f"{p}.chosen[{i}]", Said("unknown special effect {effect}", effect=repr(e)))
            chosen.append(IDX[e])
        return _replay(engine, state, attacker, defender, _attack(data, file, p), data.get("reaction", "defend"),
                       [int(r) for r in data["rolls"]], chosen, want, file, p)

    return reach


def _replay(engine: Any, state: Any, attacker: int, defender: int | None, attack: str, reaction: str | None,
            rolls: list[int], chosen: list[int], want: DecisionKind, file: str, path: str) -> Any:
    """From the attacker's Combat Action: the attack on ``defender`` (default: the only enemy engaged or the
    first), the defender's ``reaction``, the effects ``chosen``; stop at the first ``want`` decision left."""
    if defender is None:
        foes = [i for i, c in enumerate(state.combatants) if c.side != state.combatants[attacker].side]
        defender = foes[0]
    action = enemy_action(engine, state, attacker, attack, defender, file, f"{path}.attack")
    picks = list(chosen)
    started = False

    def choose(s: Any, d: Any) -> int | None:
        nonlocal started
        if d.kind == want and not (want == DecisionKind.EFFECT and picks):
            return None
        if d.kind == DecisionKind.ACT and not started:
            started = True
            return action
        if d.kind == DecisionKind.REACT and reaction is not None:
            return int(IDX[reaction])
        if d.kind == DecisionKind.EFFECT and picks:
            return picks.pop(0)
        raise ConfigError(file, path, Said("the exchange stops at {name}'s {decision}, which this entry does not say",
                                           name=s.combatants[d.actor].name, decision=decision_named(d.kind)))

    return drive(engine, state, choose, rolls, file, path)


KINDS = {
    "incoming": PendingKind(DecisionKind.REACT, _read_incoming, _reach_incoming,
                            "`attacker` attacks the acting NPC (`attack`: attack, precise_attack, ...): its "
                            "Reaction"),
    "effects": PendingKind(DecisionKind.EFFECT, _read_exchange, _reach_exchange(DecisionKind.EFFECT),
                           "an exchange replayed with the GM's `rolls`: the special effect the acting NPC picks"),
    "impale": PendingKind(DecisionKind.OPTION, _read_exchange, _reach_exchange(DecisionKind.OPTION),
                          "an impaling blow replayed with the GM's `rolls`: leave the weapon in or pull it out"),
}
