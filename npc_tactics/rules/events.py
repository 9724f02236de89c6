"""The event kinds a rules system emits, declared once: each kind's name, data fields and what it means.

An engine writes :class:`~npc_tactics.rules.base.Event` records with a free-form ``data`` mapping; the words
that tell a fight, the replay and the tactic counters read those fields by name. Each system declares its
kinds in ``systems/<name>/events.py`` (``EVENTS = EventCatalogue(...)``, reached through the plugin's
``events`` hook), so a reader finds every field in one place and ``tests/conformance/test_event_catalogue.py``
checks that the engine emits only declared kinds and fields and that every kind can be told in English and
French. Standard library only: the engines never import this module (they stay compilable without it).

A field's type is a class or a union of classes (``int``, ``str``, ``int | None``), so ``isinstance`` checks
it; ``bool`` counts as a type of its own here (a ``True`` in an ``int`` field is a mistake). ``silent`` gives
the reason a kind needs no sentence (told only in verbose mode, or never); ``rare`` the reason random fights of
the shipped scenarios never produce it (the test then needs an example of it instead).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, UnionType
from typing import Any

__all__ = ["SHARED", "EventCatalogue", "EventKind", "Field", "FieldType"]

FieldType = type | UnionType


@dataclass(frozen=True, slots=True)
class Field:
    """One data field of an event kind: the type of its values and what it says."""

    type: FieldType
    doc: str

    def accepts(self, value: object) -> bool:
        """Whether ``value`` has this field's type (a bool only where ``bool`` is declared)."""
        allowed = self.type.__args__ if isinstance(self.type, UnionType) else (self.type,)
        if isinstance(value, bool) and bool not in allowed:
            return False
        return isinstance(value, self.type)

    @property
    def type_name(self) -> str:
        return str(self.type) if isinstance(self.type, UnionType) else self.type.__name__


@dataclass(frozen=True, init=False)
class EventKind:
    """One kind of event: its name, a one-line doc, its data fields (``name -> (type, doc)``) and which of them
    may be absent (``optional``)."""

    name: str
    doc: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    optional: frozenset[str] = frozenset()
    silent: str = ""  #: why it needs no sentence (told only in verbose mode, or never); "" = it has one
    rare: str = ""  #: why random fights of the shipped scenarios never produce it; "" = they do

    def __init__(self, name: str, doc: str, fields: Mapping[str, tuple[FieldType, str] | Field] | None = None,
                 *, optional: Iterable[str] = (), silent: str = "", rare: str = "") -> None:
        made = {key: spec if isinstance(spec, Field) else Field(*spec) for key, spec in (fields or {}).items()}
        for key, spec in made.items():
            if not key.isidentifier():
                raise ValueError(f"event kind {name!r}: field name {key!r} is not an identifier")
            if not isinstance(spec.type, type | UnionType):
                raise TypeError(f"event kind {name!r}: field {key!r} has type {spec.type!r}, not a class or union")
        unknown = set(optional) - set(made)
        if unknown:
            raise ValueError(f"event kind {name!r}: optional fields {sorted(unknown)} are not declared")
        if not name or not doc:
            raise ValueError(f"event kind {name!r}: a name and a one-line doc are required")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "doc", doc)
        object.__setattr__(self, "fields", MappingProxyType(made))
        object.__setattr__(self, "optional", frozenset(optional))
        object.__setattr__(self, "silent", silent)
        object.__setattr__(self, "rare", rare)

    @property
    def required(self) -> frozenset[str]:
        return frozenset(self.fields) - self.optional

    def problems(self, data: Mapping[str, Any]) -> list[str]:
        """What is wrong with an event's ``data`` for this kind (empty when it conforms)."""
        out = [f"{self.name}: required field {key!r} missing" for key in sorted(self.required - set(data))]
        for key, value in data.items():
            spec = self.fields.get(key)
            if spec is None:
                out.append(f"{self.name}: undeclared field {key!r}={value!r}")
            elif not spec.accepts(value):
                out.append(f"{self.name}: field {key!r}={value!r} is a {type(value).__name__}, "
                           f"declared {spec.type_name}")
        return out


@dataclass(frozen=True, init=False)
class EventCatalogue:
    """Every event kind one system's engine emits: its own kinds plus the ``shared`` ones every engine's
    :class:`~npc_tactics.rules.base.EventSink` writes (the dice rolls)."""

    system: str
    own: tuple[EventKind, ...]
    shared: tuple[EventKind, ...] = ()
    _by_name: Mapping[str, EventKind] = field(init=False, repr=False, compare=False)

    def __init__(self, system: str, own: Iterable[EventKind], shared: Iterable[EventKind] | None = None) -> None:
        kinds = tuple(own)
        common = tuple(SHARED if shared is None else shared)
        by_name: dict[str, EventKind] = {}
        for kind in common + kinds:
            if kind.name in by_name:
                raise ValueError(f"{system} event catalogue: kind {kind.name!r} declared twice")
            by_name[kind.name] = kind
        object.__setattr__(self, "system", system)
        object.__setattr__(self, "own", kinds)
        object.__setattr__(self, "shared", common)
        object.__setattr__(self, "_by_name", MappingProxyType(by_name))

    def __iter__(self) -> Iterator[EventKind]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> EventKind:
        kind = self._by_name.get(name)
        if kind is None:
            raise KeyError(f"{self.system} declares no event kind {name!r}; declared: {', '.join(self.names)}")
        return kind

    def get(self, name: str) -> EventKind | None:
        return self._by_name.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    @property
    def silent(self) -> frozenset[str]:
        """The kinds told only in verbose mode, or never (declared with a reason)."""
        return frozenset(k.name for k in self if k.silent)

    @property
    def rare(self) -> frozenset[str]:
        return frozenset(k.name for k in self if k.rare)

    def problems(self, kind: str, data: Mapping[str, Any]) -> list[str]:
        """What is wrong with an event of ``kind`` carrying ``data`` (an undeclared kind is one problem)."""
        declared = self._by_name.get(kind)
        if declared is None:
            return [f"{self.system}: undeclared event kind {kind!r}"]
        return declared.problems(data)


#: the kinds :class:`~npc_tactics.rules.base.EventSink` writes for every engine (``roll`` and ``die``)
SHARED: tuple[EventKind, ...] = (
    EventKind("roll", "One roll of the dice and what it was for (told only in verbose mode).", {
        "why": (str, "what the roll is for, as the engine writes it (attack, damage, initiative side 0, ...)"),
        "expr": (str, "the dice expression rolled (1d8+1, d20, 2d6)"),
        "faces": (list, "the face of each die, in order"),
        "total": (int, "the faces summed with the expression's modifier"),
    }),
)
