"""A situation that names the pending decision (issue 11 §2): the machinery every system shares.

A GM asks "what now?" at any decision, not only at the start of a turn: an incoming blow to answer, a dice pool
to split, special effects to pick after a margin, a follow-up option. A situation says so with one ``pending:``
entry in the system's own terms (``pending: {incoming: {attacker: Gorak, weapon: maul, sr: 7}}``). Each system
declares its kinds (:class:`PendingKind`): how to read the entry, whose decision the situation is first loaded
at, and how to reach the named decision from there, usually by playing the choices already made (the attack
that was declared, the strike that opens the split) with the GM's own dice where the rules roll some (forced
rolls, :class:`~npc_tactics.dice.ScriptedRoller`). The decision reached must be the ``acting`` NPC's and of the
kind named, or the situation is refused, naming the ``pending`` field and what the rules reached instead.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller, ScriptedRoller, ScriptExhaustedError
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules.base import DecisionKind, IllegalActionError

__all__ = ["PendingKind", "Request", "decision_named", "drive", "enemy_action", "load_with_pending", "named",
           "read_fields"]

#: The most choices a pending entry may replay before its decision.
MAX_REPLAY = 12
#: Each kind of decision in words ("react decision"), said in the GM's language where the error is shown.
DECISION_NAMES: dict[DecisionKind, Said] = {
    DecisionKind.DECLARE: Said("declare decision"),
    DecisionKind.ACT: Said("act decision"),
    DecisionKind.REACT: Said("react decision"),
    DecisionKind.EFFECT: Said("effect decision"),
    DecisionKind.SPLIT: Said("split decision"),
    DecisionKind.OPTION: Said("option decision"),
}


def decision_named(kind: DecisionKind) -> str:
    """``kind`` in words: ``"react decision"`` (a :class:`Said`, so a French error says it in French)."""
    return DECISION_NAMES.get(kind) or f"{kind.name.lower()} decision"


@dataclass(frozen=True)
class Request:
    """A read ``pending`` entry: ``first`` is the combatant whose decision the situation is loaded at (None: the
    ``acting`` one); ``data`` the validated fields; ``path`` the field path for errors."""

    first: str | None
    data: Mapping[str, Any]
    path: str


@dataclass(frozen=True)
class PendingKind:
    """One kind of pending decision of a system.

    ``read(body, file, path, acting) -> Request`` validates the entry's own fields; ``reach(engine, state,
    request, file, roller) -> state`` brings the loaded state to the decision; ``kind`` is the decision kind
    expected there; ``doc`` one line for the docs; ``note`` what the GM should know the answer assumes (added
    to the situation's notes)."""

    kind: DecisionKind
    read: Callable[[Any, str, str, str], Request]
    reach: Callable[[Any, Any, Request, str, Roller], Any]
    doc: str = ""
    note: str = ""


def named(state: Any, name: Any, file: str, path: str) -> int:
    """The index of the combatant called ``name`` (an error naming ``path`` otherwise)."""
    names = [c.name for c in state.combatants]
    return names.index(V.choice(name, file, path, names, "combatant"))


def drive(engine: Any, state: Any, choose: Callable[[Any, Any], int | None], rolls: list[int], file: str,
          path: str) -> Any:
    """Replay choices from ``state``: ``choose(state, decision)`` gives the action to take at each decision
    (None: this is the decision asked about). Dice come from ``rolls`` in order (the GM's physical dice); a
    replay that needs more dice than given, or an illegal choice, is an error naming ``path``."""
    roller = ScriptedRoller(rolls)
    for _ in range(MAX_REPLAY):
        decision = engine.pending(state)
        if decision is None:
            raise ConfigError(file, path, Said("the fight ends before the decision named here"))
        action = choose(state, decision)
        if action is None:
            if roller.remaining:
                raise ConfigError(file, path, Said("{n} roll(s) given but not used by the rules (they used {used})",
                                                   n=roller.remaining, used=roller.used))
            return state
        try:
            state, _ = engine.step(state, int(action), roller, inplace=True)
        except IllegalActionError as exc:
            raise ConfigError(file, path, Said("the rules do not allow this here ({reason})",
                                               reason=str(exc))) from None
        except ScriptExhaustedError:
            if not rolls:
                raise ConfigError(file, path, Said("the decision named does not arise here: the rules go on to roll "
                                                   "dice without it (at {decision})",
                                                   decision=decision.describe())) from None
            raise ConfigError(file, path, Said("the rules roll more dice than the {n} given (give the rolls made, in "
                                               "order)", n=len(rolls))) from None
        except ValueError as bad_face:  # a forced face impossible on the die asked for
            # its own name, not ``exc``: mypyc types a name by its first binding (IllegalActionError, a native
            # class), so binding a ValueError to the same name raised TypeError in the compiled engines only
            raise ConfigError(file, path, _face_said(roller, bad_face)) from None
    raise ConfigError(file, path, Said("the decision named is not reached after {n} choices", n=MAX_REPLAY))


def _face_said(roller: ScriptedRoller, error: ValueError) -> str:
    """The impossible forced face ``error`` tells of, as a sentence (its English unchanged); any other error as
    it is."""
    if roller.asked and roller.used < len(roller.faces):
        said = Said("scripted roll #{n} is {face}, impossible on a d{sides}", n=roller.used + 1,
                    face=roller.faces[roller.used], sides=roller.asked[-1])
        if said == str(error):
            return said
    return str(error)


def load_with_pending(load_plain: Callable[..., Any], kinds: Mapping[str, PendingKind], engine: Any,
                      source: str | Path | Mapping[str, Any], roller: Roller,
                      notes: list[str] | None) -> Any:
    """``load_plain`` (the system's situation loader) plus an optional ``pending:`` entry (one of ``kinds``)."""
    file, data = V.document(source)
    if not isinstance(data, Mapping) or "pending" not in data:
        return load_plain(engine, source, roller, notes=notes)
    rest = {k: v for k, v in data.items() if k != "pending"}
    pend = V.mapping(data["pending"], file, "pending", kinds)
    if len(pend) != 1:
        raise ConfigError(file, "pending", Said("expected exactly one of {kinds}, got {n}", kinds=V.listing(kinds),
                                                n=len(pend)))
    (name, body), = pend.items()
    kind = kinds[name]
    acting = V.string(rest.get("acting"), file, "acting", non_empty=True) if "acting" in rest else ""

    def load(mapping: Mapping[str, Any], r: Roller, said: list[str] | None) -> Any:
        try:
            return load_plain(engine, dict(mapping), r, notes=said)
        except ConfigError as exc:
            raise ConfigError(file, exc.field, exc.message) from None

    probe = load(rest, copy.deepcopy(roller), [])  # validates everything but `pending`, with the GM's names
    request = kind.read(body, file, V.join("pending", name), acting)
    if request.first is not None and request.first != acting:
        named(probe, request.first, file, request.path)
        load(rest, copy.deepcopy(roller), notes)  # the notes of the situation as written
        state = load({**rest, "acting": request.first}, roller, None)
    else:
        state = load(rest, roller, notes)
    state = kind.reach(engine, state, request, file, roller)
    decision = engine.pending(state)
    actor = state.combatants[decision.actor].name if decision is not None else None
    if decision is None or decision.kind != kind.kind or actor != acting:
        wanted = decision_named(kind.kind)
        raise ConfigError(file, V.join("pending", name), Said(
            "the rules reach {actor}'s {decision}, not a {wanted} of {acting}", actor=actor,
            decision=decision_named(decision.kind), wanted=wanted, acting=acting) if decision is not None
            else Said("the rules reach the end of the fight, not a {wanted} of {acting}", wanted=wanted,
                      acting=acting))
    if kind.note and notes is not None:
        notes.append(kind.note)
    return state


def enemy_action(engine: Any, state: Any, actor: int, verb: str, target: int, file: str, path: str) -> int:
    """The catalogue index of ``<verb>:enemy_<k>`` where ``enemy_k`` of ``actor`` is combatant ``target``."""
    from npc_tactics.rules.base import enemy_slots

    slots = enemy_slots(state.combatants, actor)
    if target not in slots:
        raise ConfigError(file, path, Said("{target} is not an enemy of {actor}", target=state.combatants[target].name,
                                           actor=state.combatants[actor].name))
    return int(engine.catalogue.index(f"{verb}:enemy_{slots.index(target)}"))


def read_fields(body: Any, file: str, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
                ) -> dict[str, Any]:
    """The entry's mapping, keys checked (unknown keys listed, required ones present)."""
    return V.mapping(body, file, path, allowed, required=required)
