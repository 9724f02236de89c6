"""Observation encoders as declarations: each observation value is declared once, as a :class:`Field` (name,
description, unit, scale and the function that reads it) or as a member of a :class:`OneHot` set (several 0/1
fields read with one call), and the vector, the docs table
(:mod:`npc_tactics.encoders.docs`) and the machine-readable layout (:meth:`Encoder.schema`, carried by an exported
bundle's ``schema.json``) are all derived from those declarations.

Layout shared by every system:

1. ``decision.<kind>``: one-hot of the pending decision's kind, over ``spec.decision_kinds`` of that system only
   (adding a kind to one system leaves the others' observations alone);
2. ``context.<field>``: the system's ``CONTEXT`` fields, read from one context view per call;
3. one block of the system's ``COMBATANT`` fields per combatant slot: ``self``, ``ally_0..`` then ``enemy_0..``
   (``max_per_side`` slots per side, side order), read from one view per present combatant; the block of an
   empty slot stays all zeros (its ``present`` field is 0).

A field's value is ``read(view) / scale``: readings go into a float64 scratch vector through its buffer (no
per-call lists), are divided by the scales in one numpy call, rounded into the float32 output
(:meth:`Encoder.encode` allocates it, :meth:`Encoder.encode_into` fills a caller's preallocated row, e.g. of a
batch) and clipped to [-1, 1], so the observation space is ``Box(-1, 1)``; the values are bit for bit those of
the hand-written encoders they replaced (tests/encoders/test_legacy_equivalence.py). Views are small
per-system objects that compute once what several fields share (the actor, the distance, the best ready
weapon ...), so no field recomputes another's work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

from npc_tactics.rules.base import Decision, DecisionKind, Engine

__all__ = ["Decl", "Encoder", "Entry", "Field", "OneHot", "flag", "one_hot"]

V = TypeVar("V")
S = TypeVar("S")
C = TypeVar("C")

FLAG = "flag"
_LOW, _HIGH = np.float32(-1.0), np.float32(1.0)
try:  # the ufunc behind np.clip, without its Python wrapper (about 4x less overhead on a vector this small)
    from numpy._core.umath import clip as _clip  # type: ignore[attr-defined]  # numpy's stubs omit it
except ImportError:  # pragma: no cover - another numpy layout
    _clip = np.clip


@mypyc_attr(native_class=False)  # a generic dataclass: a normal Python class, compiled or not (docs/speed.md)
@dataclass(frozen=True, slots=True)
class Field(Generic[V]):
    """One observation value, declared once.

    ``read(view)`` gives the raw reading in ``unit``; the vector holds ``read(view) / scale`` clipped to
    [-1, 1]. ``description`` says what the reading is, in the system's own terms."""

    name: str
    description: str
    unit: str
    scale: float
    read: Callable[[V], float]


def flag(name: str, description: str, read: Callable[[V], float]) -> Field[V]:
    """A 0/1 (or -1/0/1) indicator: unit ``flag``, scale 1."""
    return Field(name, description, FLAG, 1.0, read)


@mypyc_attr(native_class=False)  # a generic dataclass: a normal Python class, compiled or not (docs/speed.md)
@dataclass(frozen=True, slots=True)
class OneHot(Generic[V]):
    """Several 0/1 fields of which at most one is 1 (a status, a step of the round, a weapon class), read with
    one call: ``read(view)`` gives a key, and the member listing that key is 1 (none if no member lists it).

    ``members`` are ``(name, description, keys)`` in vector order."""

    members: tuple[tuple[str, str, tuple[Hashable, ...]], ...]
    read: Callable[[V], Hashable]


def one_hot(prefix: str, options: Sequence[str], describe: Callable[[str], str],
            read: Callable[[V], Hashable]) -> OneHot[V]:
    """One field ``prefix + option`` per option, 1 when ``read(view) == option``."""
    return OneHot(tuple((prefix + o, describe(o), (o,)) for o in options), read)


#: a string alias: compiled, Field and OneHot are not subscriptable at run time (annotations only)
Decl: TypeAlias = "Field[V] | OneHot[V]"


def _specs(decls: Sequence[Decl[V]]) -> list[tuple[str, str, str, float]]:
    """(name, description, unit, scale) of every field the declarations expand to, in vector order."""
    out: list[tuple[str, str, str, float]] = []
    for d in decls:
        if isinstance(d, OneHot):
            out.extend((name, desc, FLAG, 1.0) for name, desc, _ in d.members)
        else:
            out.append((d.name, d.description, d.unit, float(d.scale)))
    return out


def _readers(decls: Sequence[Decl[V]], start: int) -> tuple[
        tuple[tuple[int, Callable[[V], float]], ...], tuple[tuple[dict[Hashable, int], Callable[[V], Hashable]], ...]]:
    """(offset, read) of the plain fields and (key -> offset, read) of the one-hot sets, offsets from
    ``start``."""
    plain: list[tuple[int, Callable[[V], float]]] = []
    hots: list[tuple[dict[Hashable, int], Callable[[V], Hashable]]] = []
    pos = start
    for d in decls:
        if isinstance(d, OneHot):
            hots.append(({k: pos + i for i, (_, _, keys) in enumerate(d.members) for k in keys}, d.read))
            pos += len(d.members)
        else:
            plain.append((pos, d.read))
            pos += 1
    return tuple(plain), tuple(hots)


@dataclass(frozen=True, slots=True)
class Entry:
    """One position of the observation vector, as laid out from the declarations."""

    offset: int
    name: str
    group: str
    slot: str
    field: str
    description: str
    unit: str
    scale: float

    def as_dict(self) -> dict[str, Any]:
        return {"offset": self.offset, "name": self.name, "group": self.group, "slot": self.slot,
                "field": self.field, "description": self.description, "unit": self.unit, "scale": self.scale}


@mypyc_attr(allow_interpreted_subclasses=True)  # pure subclasses exist (tests/fakesys, tests/encoders)
class Encoder(ABC, Generic[S, C, V]):
    """Base class: a subclass declares ``CONTEXT`` and ``COMBATANT`` and builds the two views they read."""

    # class variables (compiled, a plain annotation is an instance slot that a subclass's class attribute does
    # not fill); a ClassVar cannot hold the type variables, the subclasses declare their view types
    CONTEXT: ClassVar[Sequence[Decl[Any]]]
    COMBATANT: ClassVar[Sequence[Decl[Any]]]

    def __init__(self, engine: Engine[Any]) -> None:
        spec = engine.spec
        self.engine = engine
        self.system = spec.name
        self.kinds: tuple[DecisionKind, ...] = tuple(spec.decision_kinds)
        self.max_per_side = spec.max_per_side
        m = self.max_per_side
        self.slots: tuple[str, ...] = ("self", *(f"ally_{i}" for i in range(m - 1)),
                                       *(f"enemy_{i}" for i in range(m)))
        self._kind_offset = {k: i for i, k in enumerate(self.kinds)}
        self._context_specs, self._combatant_specs = _specs(self.CONTEXT), _specs(self.COMBATANT)
        self.context_start = len(self.kinds)
        self.block_start = self.context_start + len(self._context_specs)
        self.block_size = len(self._combatant_specs)
        # the readers with their absolute offsets, per slot: no offset arithmetic per value when encoding
        self._context = _readers(self.CONTEXT, self.context_start)
        self._blocks = tuple(_readers(self.COMBATANT, self.block_start + k * self.block_size)
                             for k in range(len(self.slots)))
        self.size = self.block_start + len(self.slots) * self.block_size
        self.fields: tuple[Entry, ...] = self._layout()
        self._scales = np.array([e.scale for e in self.fields], dtype=np.float64)
        names = [e.name for e in self.fields]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"{type(self).__name__}: observation field names declared twice: {dup}")
        if not self._combatant_specs or self._combatant_specs[0][0] != "present":
            raise ValueError(f"{type(self).__name__}: the first combatant field must be 'present'")

    # ----- the layout, derived from the declarations ----------------------------------------------------
    def _layout(self) -> tuple[Entry, ...]:
        out = [Entry(i, f"decision.{k.name.lower()}", "decision", "", k.name.lower(),
                     f"1 if the decision is {k.name}", FLAG, 1.0) for i, k in enumerate(self.kinds)]
        pos = self.context_start
        for name, desc, unit, scale in self._context_specs:
            out.append(Entry(pos, f"context.{name}", "context", "", name, desc, unit, scale))
            pos += 1
        for slot in self.slots:
            for name, desc, unit, scale in self._combatant_specs:
                out.append(Entry(pos, f"{slot}.{name}", "combatant", slot, name, desc, unit, scale))
                pos += 1
        return tuple(out)

    def schema(self) -> dict[str, Any]:
        """The observation layout as JSON-able data (an exported bundle's ``schema.json`` carries it)."""
        return {
            "system": self.system,
            "size": self.size,
            "value_range": [-1.0, 1.0],
            "value": "read / scale, clipped to [-1, 1]",
            "decision_kinds": [k.name for k in self.kinds],
            "slots": list(self.slots),
            "context_start": self.context_start,
            "block_start": self.block_start,
            "block_size": self.block_size,
            "fields": [e.as_dict() for e in self.fields],
        }

    # ----- encoding ----------------------------------------------------------------------------------------
    def slot_order(self, state: Any, actor: int) -> tuple[list[int], list[int]]:
        """(actor + allies, enemies) combatant indices in the order of the observation blocks (the order of
        ``rules.base.ally_slots`` and ``enemy_slots``, in one pass)."""
        combatants = state.combatants
        side = combatants[actor].side
        friends, enemies = [actor], []
        for i, c in enumerate(combatants):
            if c.side != side:
                enemies.append(i)
            elif i != actor:
                friends.append(i)
        return friends, enemies

    def encode(self, state: S, decision: Decision | None) -> np.ndarray:
        """A fresh float32 vector (all zeros when there is no decision)."""
        out = np.zeros(self.size, dtype=np.float32)
        if decision is not None:
            self._fill(state, decision, out)
        return out

    def encode_into(self, state: S, decision: Decision | None, out: np.ndarray) -> np.ndarray:
        """Write the observation into ``out`` (a C-contiguous float32 vector of ``size``, e.g. a row of a
        preallocated batch) and return it."""
        if out.shape != (self.size,) or out.dtype != np.float32 or not out.flags.c_contiguous:
            raise ValueError(f"{self.system} encoder writes a C-contiguous float32 vector of {self.size}, "
                             f"got {out.dtype} {out.shape}")
        if decision is None:
            out.fill(0.0)
        else:
            self._fill(state, decision, out)
        return out

    def _fill(self, state: S, decision: Decision, out: np.ndarray) -> None:
        """Readings go into a float64 scratch vector (exactly the Python floats), are divided by their scales
        in one numpy call (IEEE division, the same as Python's ``/``), then rounded into ``out`` and clipped."""
        kind = self._kind_offset.get(decision.kind)
        if kind is None:
            raise ValueError(f"decision kind {decision.kind.name} is not one of the {self.system} kinds "
                             f"{[k.name for k in self.kinds]}")
        raw = np.zeros(self.size, dtype=np.float64)
        # its buffer takes Python numbers item by item, faster than numpy's __setitem__
        # (typeshed types memoryview items as int, hence Any)
        mv: Any = raw.data
        mv[kind] = 1.0
        ctx = self.context_view(state, decision)
        plain, hots = self._context
        for pos, read in plain:
            mv[pos] = read(ctx)
        for offsets, key in hots:
            hot = offsets.get(key(ctx))
            if hot is not None:
                mv[hot] = 1.0
        friends, enemies = self.slot_order(state, decision.actor)
        m = self.max_per_side
        blocks, view_of = self._blocks, self.combatant_view
        for first, members in ((0, friends), (m, enemies)):
            for k, idx in enumerate(members[:m], first):
                view = view_of(state, decision, idx, ctx)
                plain_slot, hots_slot = blocks[k]
                for pos, read_slot in plain_slot:
                    mv[pos] = read_slot(view)
                for offsets, key_slot in hots_slot:
                    hot = offsets.get(key_slot(view))
                    if hot is not None:
                        mv[hot] = 1.0
        np.divide(raw, self._scales, out=raw)
        out[:] = raw
        _clip(out, _LOW, _HIGH, out=out)

    @abstractmethod
    def context_view(self, state: S, decision: Decision) -> C:
        """What the ``CONTEXT`` fields read, computed once per call."""

    @abstractmethod
    def combatant_view(self, state: S, decision: Decision, index: int, ctx: C) -> V:
        """What the ``COMBATANT`` fields read for combatant ``index`` seen by ``decision.actor``."""
