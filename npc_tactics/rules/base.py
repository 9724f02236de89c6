"""The engine protocol shared by every rules system.

A combat is a sequence of decisions between dice rolls. An engine is a pure state machine::

    engine = OSEEngine(options)
    state, events = engine.new_combat(scenario, roller)   # the opening rolls are events too
    while engine.outcome(state) is None:
        decision = engine.pending(state)              # who chooses what, right now
        mask = engine.legal_mask(state, decision)     # bool over the system's fixed action catalogue
        action = agents[decision.actor].act(observation, mask)
        state, events = engine.step(state, action, roller)   # rolls, applies rules, stops at the next decision

``step`` never mutates the caller's state unless ``inplace=True`` is passed (environments own their state and
use it for speed); randomness comes only from the :class:`~npc_tactics.dice.Roller` passed in, so the same
seed gives the same fight, event for event.

How the four systems fit the one protocol (each is a :class:`DecisionKind` plus a slice of the catalogue):

* **RuneQuest reactions.** When a blow is rolled against a combatant who can still defend, the engine stops
  with ``Decision(kind=REACT, actor=defender, context={"attacker": i, "weapon": "broadsword", "sr": 7, ...})``.
  The mask offers ``parry:<weapon slot>``, ``dodge`` and ``no_defence``; ``step`` resumes the blow with the
  answer. The attacker's statement of intent was an earlier ``DECLARE`` decision.
* **MRQ special effects.** After an opposed test is won by a margin that grants *n* effects, the engine
  issues *n* successive ``Decision(kind=EFFECT, actor=winner, context={"remaining": k, "margin": m})``;
  each masks the effect entries legal for that weapon and situation (impale only with thrusting weapons, ...).
* **Dice-pool attack/defence split.** Before a melee attack the engine issues
  ``Decision(kind=SPLIT, actor=attacker, context={"pool": n})``; the catalogue holds ``split:0`` ...
  ``split:<max pool>`` and the mask allows ``0..n``. Any numeric choice (magic points to spend, shots to fire)
  uses the same pattern, so a decision is always "pick one entry of a fixed list".

Follow-up parameters (which location to aim at, how many MP) are further decisions of the same actor
(``kind=OPTION``) rather than a combinatorial catalogue.

The contract
------------
Every engine keeps these clauses; ``tests/conformance/`` checks each one on every registered system, every
shipped scenario and the test fake (``tests/fakesys``):

1. ``new_combat(scenario, roller, *, record_rolls=True)`` returns ``(state, events)``. The base class builds the
   :class:`EventSink` and calls the engine's ``_new_combat(scenario, sink)``; the opening (round 1 starting, hit
   points, initiative, morale, positions) is events like any other step's.
2. Every die goes through the sink, so the rolls of a fight's log, fed back as forced rolls
   (:class:`~npc_tactics.dice.ScriptedRoller`) with the same actions, give a byte-identical log.
3. ``legal_mask(state, decision)`` returns a fresh writable ``bool`` array of the catalogue's length, computed
   for ``decision`` (default: the pending one): every legal entry's ``kinds`` holds ``decision.kind``, at
   least one entry is legal, and the mask is all ones once the fight is over.
4. Rules options are resolved once per fight (:meth:`Engine.resolve_options`: spec defaults < the scenario's
   options < the options given to the engine) and carried on the state as ``state.options``, a read-only
   mapping; the rules read them from there, never from a field of the engine another fight overwrites.
5. ``clone()`` shares no mutable object with the original (shared parts are immutable: tuples, frozen
   dataclasses, read-only mappings and arrays; memos such as a cached mask are read-only too), and ``step``
   without ``inplace`` never changes its input: ``pending``, ``legal_mask`` and ``outcome`` only read the state.
6. A fight ends through :func:`side_outcome` (one rule, one set of reasons) or by the round cap
   (:data:`MAX_ROUNDS`, every side draws); ``outcome`` is ``None`` exactly while ``pending`` is not.
7. A fight entered mid-way (a GM's situation) reaches its decision through :meth:`Engine.enter` (the engine's
   ``_enter(state, sink)``), never through an engine's private members; the entered state keeps clauses 3-5.
8. ``SystemSpec`` holds the typed facts (chance mode, reward range, decisions bound, option values and ranges)
   and :func:`option_error` is the one option check, used by engines and by scenario/situation loaders (which
   name the file and field).
"""

from __future__ import annotations

import copyreg
import json
import operator
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Any, ClassVar, Generic, SupportsIndex, SupportsInt, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

from npc_tactics.compiled import notice_once
from npc_tactics.dice import DiceExpr, Roll, Roller
from npc_tactics.rules.outcome import (
    DEFEATED,
    FLED_REASON,
    MAX_ROUNDS,
    MUTUAL,
    Outcome,
    SideResult,
    Status,
    side_outcome,
)

__all__ = [
    "DEFEATED",
    "FLED_REASON",
    "MAX_ROUNDS",
    "MUTUAL",
    "ActionCatalogue",
    "ActionSpec",
    "ChanceMode",
    "Decision",
    "DecisionKind",
    "Engine",
    "Event",
    "EventSink",
    "IllegalActionError",
    "Outcome",
    "SideResult",
    "Status",
    "SystemSpec",
    "ally_slots",
    "enemy_slots",
    "events_to_jsonl",
    "option_error",
    "read_only",
    "side_outcome",
    "status_name",
]


def status_name(status: Any) -> str:
    """A combatant status as a lower-case word (``"dead"``, ``"fled"`` ...); a system's own status kept as text."""
    try:
        return Status(int(status)).name.lower()
    except (TypeError, ValueError):
        return str(status).lower()


def read_only(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of ``mapping`` (a ``types.MappingProxyType``): safe to share between a state and its clone."""
    return MappingProxyType(dict(mapping))


def _reduce_read_only(mapping: Mapping[str, Any]) -> tuple[Any, tuple[dict[str, Any]]]:
    return read_only, (dict(mapping),)


# Read-only mappings (decision contexts, a state's options) travel with states to worker processes: let pickle and
# deepcopy rebuild them (the standard library cannot pickle a mappingproxy).
copyreg.pickle(MappingProxyType, _reduce_read_only)


class IllegalActionError(ValueError):
    """An action that the rules do not allow at this decision (OpenSpiel's ``IllegalActionError``)."""

    def __init__(self, action: int, action_name: str, decision: Decision, reason: str = "") -> None:
        self.action = action
        self.action_name = action_name
        self.decision = decision
        msg = f"illegal action {action} ({action_name}) at {decision.describe()}"
        if reason:
            msg += f": {reason}"
        super().__init__(msg)


class DecisionKind(IntEnum):
    """What kind of choice a decision is; the encoder one-hots it."""

    DECLARE = 0  #: statement of intent before the round resolves (OSE declaration, RQG statement of intent)
    ACT = 1  #: act now on one's turn or action slot (OSE side phase, MRQ Combat Action, dice-pool slot)
    REACT = 2  #: answer an incoming attack (RQG parry/dodge/none, MRQ Reaction)
    EFFECT = 3  #: pick one special effect after winning an opposed test (MRQ)
    SPLIT = 4  #: pick a quantity, e.g. dice moved from attack to DEFENSE (dice pool)
    OPTION = 5  #: a follow-up parameter of an action just chosen (location aimed at, MP to spend)


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must choose, what kind of choice, and the context an agent may see (attacker, weapon, SR...)."""

    actor: int
    side: int
    kind: DecisionKind
    round: int = 0
    context: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # read-only, so a state and its clone may share their pending decision safely
        if not isinstance(self.context, MappingProxyType):
            object.__setattr__(self, "context", read_only(self.context))

    def describe(self) -> str:
        ctx = ", ".join(f"{k}={v}" for k, v in self.context.items())
        return f"{self.kind.name} decision of combatant {self.actor} (side {self.side}, round {self.round}" + (
            f"; {ctx})" if ctx else ")"
        )


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One entry of a system's fixed action catalogue.

    ``target`` is ``"enemy"``, ``"ally"``, ``"self"`` or ``None``; ``slot`` indexes the enemies (or allies
    other than the actor) in their side order, the same order the observation encoder uses.
    """

    index: int
    name: str
    verb: str
    kinds: frozenset[DecisionKind]
    target: str | None = None
    slot: int = -1
    option: Any = None


class ActionCatalogue:
    """The fixed, finite list of actions of a system: the RL action space is ``Discrete(len(catalogue))``."""

    def __init__(self, specs: Iterable[ActionSpec]) -> None:
        self.specs: tuple[ActionSpec, ...] = tuple(specs)
        for i, spec in enumerate(self.specs):
            if spec.index != i:
                raise ValueError(f"catalogue entry {spec.name!r} has index {spec.index}, expected {i}")
        self._by_name = {s.name: s.index for s in self.specs}
        if len(self._by_name) != len(self.specs):
            raise ValueError("duplicate action names in catalogue")

    @classmethod
    def build(
        cls, rows: Iterable[tuple[str, Iterable[DecisionKind], str | None, int, Sequence[Any]]]
    ) -> ActionCatalogue:
        """Build from ``(verb, kinds, target, slots, options)`` rows, expanding targets × options.

        ``target`` None with ``slots`` 0 makes one entry per option (or one entry if no options). Names look
        like ``attack:enemy_2``, ``split:3``, ``cast:sleep:enemy_0``.
        """
        specs: list[ActionSpec] = []
        for verb, kinds, target, slots, options in rows:
            kinds_f = frozenset(kinds)
            opts: Sequence[Any] = options if options else (None,)
            slot_range = range(slots) if target in ("enemy", "ally") else (-1,)
            for opt in opts:
                for slot in slot_range:
                    parts = [verb]
                    if opt is not None:
                        parts.append(str(opt))
                    if target in ("enemy", "ally"):
                        parts.append(f"{target}_{slot}")
                    elif target == "self":
                        parts.append("self")
                    specs.append(ActionSpec(len(specs), ":".join(parts), verb, kinds_f, target, slot, opt))
        return cls(specs)

    def __len__(self) -> int:
        return len(self.specs)

    # ``SupportsIndex``, not ``int``: compiled, an ``int`` parameter rejects numpy integers (a mask's nonzero()),
    # which pure Python always took (docs/speed.md)
    def __getitem__(self, index: SupportsIndex) -> ActionSpec:
        return self.specs[operator.index(index)]

    def __iter__(self) -> Iterator[ActionSpec]:
        return iter(self.specs)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.specs]

    def index(self, name: str) -> int:
        """The index of the action called ``name``; ``KeyError`` lists close names when unknown."""
        try:
            return self._by_name[name]
        except KeyError:
            close = [n for n in self._by_name if n.split(":")[0] == name.split(":")[0]][:8]
            raise KeyError(f"unknown action {name!r}; similar: {close}") from None

    def name(self, index: SupportsIndex) -> str:
        index = operator.index(index)
        if not 0 <= index < len(self.specs):
            return f"<out of range {index}>"
        return self.specs[index].name

    def indices(self, verb: str) -> list[int]:
        return [s.index for s in self.specs if s.verb == verb]


@dataclass(frozen=True, slots=True)
class Event:
    """One recorded fact of the fight: a roll, a hit, a status change, with the rule that caused it."""

    kind: str
    round: int
    actor: int | None = None
    target: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "round": self.round,
            "actor": self.actor,
            "target": self.target,
            "data": dict(self.data),
            "rule": self.rule,
        }


def events_to_jsonl(events: Iterable[Event]) -> str:
    """Serialise events canonically (sorted keys): equal fights give byte-identical logs."""
    return "".join(json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":")) + "\n" for e in events)


class EventSink:
    """Collects the events of one ``step`` and rolls dice so that every roll lands in the log in order."""

    __slots__ = ("roller", "events", "round", "record_rolls", "_announce")

    def __init__(self, roller: Roller, round_: int = 0, record_rolls: bool = True) -> None:
        self.roller = roller
        self.events: list[Event] = []
        self.round = round_
        self.record_rolls = record_rolls
        # a roller may want to know what a roll is for before it rolls (a person typing physical dice is told
        # which die and why: ``npc-tactics play --dice manual``); looked up once per step, not per roll
        self._announce = getattr(roller, "announce", None)

    def roll(self, expr: str | DiceExpr, why: str, actor: int | None = None, target: int | None = None) -> Roll:
        """Roll ``expr`` and record a ``roll`` event naming what it was for."""
        if self._announce is not None:
            self._announce(why, str(expr), actor, target)
        result = self.roller.roll(expr)
        if self.record_rolls:
            self.events.append(
                Event("roll", self.round, actor, target,
                      {"why": why, "expr": result.expr, "faces": list(result.faces), "total": result.total})
            )
        return result

    def die(self, sides: int, why: str, actor: int | None = None, target: int | None = None) -> int:
        """Roll one die and record it."""
        if self._announce is not None:
            self._announce(why, f"d{sides}", actor, target)
        face = self.roller.die(sides)
        if self.record_rolls:
            self.events.append(
                Event("roll", self.round, actor, target,
                      {"why": why, "expr": f"d{sides}", "faces": [face], "total": face})
            )
        return face

    def emit(self, kind: str, actor: int | None = None, target: int | None = None, rule: str = "",
             **data: Any) -> Event:
        event = Event(kind, self.round, actor, target, data, rule)
        self.events.append(event)
        return event


class ChanceMode(Enum):
    """How chance enters a fight (OpenSpiel's ``GameType.ChanceMode``)."""

    DETERMINISTIC = "deterministic"
    #: dice are rolled inside ``step`` through the explicit Roller passed in (forced rolls replay them)
    SAMPLED_STOCHASTIC = "sampled_stochastic"


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """Static facts about a rules system (imitates OpenSpiel's ``_GAME_TYPE`` / ``_GAME_INFO``).

    ``option_values`` lists the allowed values of each enumerated rules option and ``option_ranges`` the
    inclusive bounds of each numeric one (of each element of a list option), so :func:`option_error` checks them
    once for every system. ``max_decisions`` bounds the decisions of one fight (the conformance suite checks
    random fights end within it); ``reward_range`` is the range of the terminal reward from one side's view.
    """

    name: str
    title: str
    version: str
    sides: int
    max_per_side: int
    num_actions: int
    max_rounds: int
    decision_kinds: tuple[DecisionKind, ...]
    default_options: Mapping[str, Any]
    chance_mode: ChanceMode = ChanceMode.SAMPLED_STOCHASTIC
    reward_range: tuple[float, float] = (-1.0, 1.0)
    max_decisions: int = 10_000
    option_values: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    option_ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)


def option_error(spec: SystemSpec, key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the known rules option ``key`` of ``spec`` (None: nothing).

    The one option check of every system (engines, scenario and situation loaders, which add the file and
    field): the default's type (an int is accepted for a float, a bool never for a number), then the allowed
    values (``spec.option_values``) and inclusive bounds (``spec.option_ranges``). A list option must have its
    default's length and the bounds apply to each element.
    """
    default = spec.default_options[key]
    bounds = spec.option_ranges.get(key)
    if isinstance(default, list | tuple):
        if not isinstance(value, list | tuple) or len(value) != len(default) or any(
                isinstance(v, bool) or not isinstance(v, int | float)
                or (bounds is not None and not bounds[0] <= v <= bounds[1]) for v in value):
            within = f" from {bounds[0]} to {bounds[1]}" if bounds is not None else ""
            return f"expects {len(default)} numbers{within}, got {value!r}"
        return None
    if default is not None:
        numeric = isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool)
        if not (isinstance(value, type(default)) or numeric) or (
                isinstance(value, bool) and not isinstance(default, bool)):
            return f"expects {type(default).__name__}, got {value!r}"
    allowed = spec.option_values.get(key)
    if allowed is not None and value not in allowed:
        return f"must be one of {', '.join(map(str, allowed))}; got {value!r}"
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        return f"must lie in [{bounds[0]}, {bounds[1]}]; got {value!r}"
    return None


S = TypeVar("S")


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, and subclassed by pure engines (tests/fakesys)
class Engine(ABC, Generic[S]):
    """Base class of the four rules engines. Subclasses implement the ``_``-prefixed hooks.

    A state type ``S`` must provide ``combatants`` (each with ``side``, ``name`` and ``status``), ``round``
    and ``clone()``.
    """

    # class variables (each engine class sets them): compiled, a plain annotation would be an instance slot that a
    # pure subclass's class attribute does not fill (tests/fakesys's engine; docs/speed.md)
    spec: ClassVar[SystemSpec]
    catalogue: ClassVar[ActionCatalogue]

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        #: the options given to the engine (they win over a scenario's); ``options`` adds the spec defaults
        self.explicit_options: Mapping[str, Any] = read_only(options or {})
        self.options: Mapping[str, Any] = read_only(self.validate_options(dict(options or {})))

    # ----- options -------------------------------------------------------------------------------
    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Merge ``options`` over the spec defaults; unknown keys, wrong types or values raise ``ValueError``.

        Types follow the default's type (an int is accepted for a float, a bool never for a number); allowed
        values and ranges come from ``spec.option_values`` and ``spec.option_ranges`` (for a list option, the
        same length as its default and the range applies to each element; lists come back as tuples).
        """
        spec = self.spec
        merged = dict(spec.default_options)
        for key, value in options.items():
            if key not in merged:
                raise ValueError(f"unknown {spec.name} rules option {key!r}; valid options: {sorted(merged)}")
            problem = option_error(spec, key, value)
            if problem is not None:
                raise ValueError(f"{spec.name} rules option {key!r} {problem}")
            merged[key] = tuple(value) if isinstance(value, list) else value
        for key, default in merged.items():  # sequence defaults too: the resolved options hold nothing mutable
            if isinstance(default, list):
                merged[key] = tuple(default)
        return merged

    def resolve_options(self, scenario_options: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """The options one fight is played under, resolved once: spec defaults < the scenario's ``options`` <
        the options given to the engine. Read-only: the state carries it, and the rules read it from there."""
        return read_only(self.validate_options({**dict(scenario_options or {}), **self.explicit_options}))

    # ----- the protocol ----------------------------------------------------------------------------
    def new_combat(self, scenario: Any, roller: Roller, *, record_rolls: bool = True
                   ) -> tuple[S, list[Event]]:
        """Build the opening state from a scenario (sides, combatants, positions) and roll what the rules roll
        before the first decision (initiative, hit points, morale, positions): those rolls are the returned
        events, so a log that starts here replays the whole fight from its rolls. The state is already at its
        first decision (or over) and carries its resolved options as ``state.options``."""
        notice_once()
        sink = EventSink(roller, 0, record_rolls)
        state = self._new_combat(scenario, sink)
        return state, sink.events

    @abstractmethod
    def _new_combat(self, scenario: Any, sink: EventSink) -> S:
        """Build the state and run it to the first decision, rolling every die through ``sink``."""

    def enter(self, state: S, roller: Roller, *, record_rolls: bool = False) -> tuple[S, list[Event]]:
        """Enter a fight mid-way: run the rules from a hand-built ``state`` (a GM's situation, built by the
        system's loader with its resolved ``options``) to its next decision, rolling through ``roller``.

        The state is changed in place (the loader owns it) and returned with the events of the rules run;
        rolls are not recorded by default, as a situation's history is the GM's, not a log to replay."""
        notice_once()
        sink = EventSink(roller, getattr(state, "round", 0), record_rolls)
        self._enter(state, sink)
        return state, sink.events

    @abstractmethod
    def _enter(self, state: S, sink: EventSink) -> None:
        """Run the rules from a hand-built state to its next decision (or the end), in place. A loader that
        places the state at a decision itself still passes here: the engine checks or completes it."""

    @abstractmethod
    def pending(self, state: S) -> Decision | None:
        """The decision the fight is waiting for, or ``None`` when it is over."""

    @abstractmethod
    def legal_mask(self, state: S, decision: Decision | None = None) -> np.ndarray:
        """Boolean mask over the catalogue of the actions legal at ``decision`` (default: the pending one).

        At a terminal state the mask is all ones (pgx convention: avoids NaN in masked softmax)."""

    @abstractmethod
    def _apply(self, state: S, decision: Decision, action: int, sink: EventSink) -> None:
        """Apply a legal ``action`` to ``state`` in place and advance to the next decision."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The fight's outcome, or ``None`` while it goes on."""

    def step(self, state: S, action: SupportsInt, roller: Roller, *, inplace: bool = False,
             record_rolls: bool = True, mask: np.ndarray | None = None) -> tuple[S, list[Event]]:
        """Apply ``action`` for the pending decision and run the rules to the next decision.

        Raises :class:`IllegalActionError` when the action is not legal. ``state`` is left untouched unless
        ``inplace`` is true; the new state and the events of this step are returned. ``mask`` may pass the
        ``legal_mask`` the caller already computed for this very state (environments cache it), so the
        legality check does not compute it twice; the check itself always happens.
        """
        decision = self.pending(state)
        if decision is None:
            raise IllegalActionError(int(action), self.catalogue.name(int(action)),
                                     Decision(-1, -1, DecisionKind.ACT), "the fight is over")
        action = int(action)
        if mask is None:
            mask = self.legal_mask(state, decision)
        if not 0 <= action < len(self.catalogue):
            raise IllegalActionError(action, self.catalogue.name(action), decision,
                                     f"outside the catalogue of {len(self.catalogue)} actions")
        if not mask[action]:
            raise IllegalActionError(action, self.catalogue.name(action), decision, "masked out by the rules")
        new_state = state if inplace else self.clone(state)
        sink = EventSink(roller, getattr(new_state, "round", 0), record_rolls)
        self._apply(new_state, decision, action, sink)
        return new_state, sink.events

    def clone(self, state: S) -> S:
        # S is unbounded, so mypy cannot see the clone() every state class defines (phase 2: a State protocol)
        return state.clone()  # type: ignore[attr-defined,no-any-return]  # S is only bound to states with clone() by the protocol's docstring

    def describe_action(self, action: SupportsIndex) -> str:
        return self.catalogue.name(action)


# ----- target slots shared by engines and encoders -------------------------------------------------------

def enemy_slots(combatants: Sequence[Any], actor: int) -> list[int]:
    """Combatant indices of the actor's enemies, in side order: ``enemy_k`` targets ``enemy_slots[k]``."""
    side = combatants[actor].side
    return [i for i, c in enumerate(combatants) if c.side != side]


def ally_slots(combatants: Sequence[Any], actor: int) -> list[int]:
    """Combatant indices of the actor's allies other than itself, in side order (``ally_k``)."""
    side = combatants[actor].side
    return [i for i, c in enumerate(combatants) if c.side == side and i != actor]
