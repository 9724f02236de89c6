"""The keys a system's situation loader reads, declared once: validation, the web form and the docs come from it.

A situation (contract §4) is a scenario plus the state of a fight in progress. Each system declares the keys its
``load_situation`` reads on top of a scenario, one :class:`SituationField` each (where it sits, its kind, range,
default, unit and a one-line help), in ``systems/<name>/rules/situation_fields.py``. From that one declaration:

* the loader takes its lists of accepted keys (:meth:`SituationFields.keys`) and reads the simple values
  (:meth:`SituationFields.read`: range, choices and default checked by :mod:`npc_tactics.configs.validate`, so
  the error names the file, the field and what was expected);
* the web page draws the inputs of the fields that carry a ``label`` (:meth:`SituationFields.form`): a simple
  value's input, or for a ``list`` of small records (RuneQuest's poison doses) a row of inputs per record drawn
  from its ``items``, each a simple field of scope ``item``;
* ``docs/<name>.md`` holds the table :meth:`SituationFields.markdown` prints (``python -m npc_tactics.encoders.docs``
  rewrites it, ``tests/test_docs.py`` fails when it is stale).

Structured values (wounds per location, a pending attack) are declared too (kind ``mapping``, ``list``...), for
the key lists and the docs; the system's loader checks their insides itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.configs import validate as V

__all__ = ["KINDS", "NO_DEFAULT", "SCOPES", "SituationField", "SituationFields"]

#: where a key sits: the situation's top level, one side, one combatant, one record of a list (a field's ``items``)
SCOPES = ("situation", "side", "combatant", "item")
#: what a value is; the first five are read and checked here, the others by the system's loader
KINDS = ("int", "number", "choice", "bool", "text", "name", "dice", "mapping", "list", "scenario", "any")
_SIMPLE = ("int", "number", "choice", "bool", "text")


class _NoDefault:
    def __repr__(self) -> str:
        return "NO_DEFAULT"


#: the default of a key that has none (required, or derived by the loader: the help says how)
NO_DEFAULT: Any = _NoDefault()


@dataclass(frozen=True)
class SituationField:
    """One key of a situation: ``help`` is one English line for the docs; ``label`` (a msgid of the ``web`` gettext
    domain) puts it on the web page's form, where ``form_default`` (else ``default``) pre-fills it. A ``list`` of
    records declares each record's keys as ``items`` (simple fields of scope ``item``; ``high``: the most records),
    so the page can draw a row of inputs per record."""

    key: str
    scope: str
    kind: str
    help: str
    unit: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    default: Any = NO_DEFAULT
    required: bool = False
    label: str = ""
    form_default: Any = NO_DEFAULT
    #: how an unknown choice is named ("unknown <what> 'x'", :func:`npc_tactics.configs.validate.choice`); the key
    what: str = ""
    #: a ``list`` field's record keys (the system's loader still checks them: these draw the form and the docs)
    items: tuple[SituationField, ...] = ()

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ValueError(f"situation field {self.key!r}: scope {self.scope!r} is not one of {SCOPES}")
        if self.kind not in KINDS:
            raise ValueError(f"situation field {self.key!r}: kind {self.kind!r} is not one of {KINDS}")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"situation field {self.key!r}: choices go with kind 'choice', and it needs them")
        if self.items and self.kind != "list":
            raise ValueError(f"situation field {self.key!r}: items go with kind 'list'")
        for item in self.items:
            if item.scope != "item" or item.kind not in _SIMPLE or not item.label:
                raise ValueError(f"situation field {self.key!r}: item {item.key!r} must be a labelled simple field "
                                 "of scope 'item'")
        if self.scope == "item" and self.items:
            raise ValueError(f"situation field {self.key!r}: a record's key cannot hold records")
        if self.label and self.kind not in _SIMPLE and not (self.kind == "list" and self.items):
            raise ValueError(f"situation field {self.key!r}: only {_SIMPLE} fields and lists of records with items "
                             "can be on the web form")

    def check(self, value: Any, file: str, path: str, low: float | None = None, high: float | None = None) -> Any:
        """``value`` checked against the declaration (simple kinds only; others are returned as given); ``low`` and
        ``high`` narrow the declared range where the situation itself bounds it (a round up to max_rounds)."""
        low = self.low if low is None else low
        high = self.high if high is None else high
        if self.kind == "int":
            return V.integer(value, file, path, _int(low), _int(high))
        if self.kind == "number":
            return V.number(value, file, path, low, high)
        if self.kind == "choice":
            return V.choice(value, file, path, self.choices, self.what or self.key)
        if self.kind == "bool":
            return V.boolean(value, file, path)
        if self.kind == "text":
            return V.string(value, file, path)
        return value

    def range_text(self) -> str:
        """The values it takes, as the docs print them."""
        if self.choices:
            return " \\| ".join(f"`{c}`" for c in self.choices if c != "")
        if self.kind in ("int", "number") and (self.low is not None or self.high is not None):
            low = "" if self.low is None else f"{self.low:g}"
            high = "" if self.high is None else f"{self.high:g}"
            return f"{low}..{high}"
        return ""


def _int(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


class SituationFields:
    """A system's declared situation keys (each key once per scope)."""

    def __init__(self, fields: Iterable[SituationField]) -> None:
        self.fields: tuple[SituationField, ...] = tuple(fields)
        seen: set[tuple[str, str]] = set()
        for f in self.fields:
            if (f.scope, f.key) in seen:
                raise ValueError(f"situation field {f.key!r} is declared twice in scope {f.scope!r}")
            seen.add((f.scope, f.key))

    def keys(self, scope: str) -> tuple[str, ...]:
        """The keys declared in ``scope``, in declaration order (the loader's list of accepted keys)."""
        return tuple(f.key for f in self.fields if f.scope == scope)

    def required(self, scope: str) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields if f.scope == scope and f.required)

    def field(self, key: str, scope: str = "situation") -> SituationField:
        for f in self.fields:
            if f.key == key and f.scope == scope:
                return f
        raise KeyError(f"no situation field {key!r} in scope {scope!r}")

    def read(self, data: Mapping[str, Any], key: str, file: str, path: str = "", scope: str = "situation",
             default: Any = NO_DEFAULT, low: float | None = None, high: float | None = None) -> Any:
        """``data[key]`` checked against its declaration (``low``/``high``: see :meth:`SituationField.check`), else
        ``default`` (the declared one unless given; a field with neither is a ``KeyError``, a bug: the loader
        should ask ``key in data`` first). A key given as nothing (``None``) is checked, not taken as left out."""
        f = self.field(key, scope)
        if key in data:
            return f.check(data[key], file, V.join(path, key) if path else key, low, high)
        fallback = f.default if default is NO_DEFAULT else default
        if fallback is NO_DEFAULT:
            raise KeyError(f"situation field {key!r} has no value and no default")
        return fallback

    def form(self, scope: str) -> list[dict[str, Any]]:
        """The web page's inputs for ``scope`` (fields with a ``label``): the ``FORM`` entries of
        :mod:`npc_tactics.gm.service.forms`."""
        return [_form_entry(f) for f in self.fields if f.scope == scope and f.label]

    def markdown(self) -> str:
        """The docs table: one row per key, grouped by scope."""
        lines = ["| where | key | kind | values | unit | default | meaning |", "|---|---|---|---|---|---|---|"]
        for f in self.fields:
            default = "required" if f.required else ("—" if f.default is NO_DEFAULT else f"`{_show(f.default)}`")
            help_text = f.help.replace("|", "\\|")
            lines.append(f"| {f.scope} | `{f.key}` | {f.kind} | {f.range_text()} | {f.unit} | {default} | "
                         f"{help_text}{' (on the web form)' if f.label else ''} |")
            for item in f.items:  # a record's keys, under their list
                item_help = item.help.replace("|", "\\|")
                lines.append(f"| {f.scope} | `{f.key}[].{item.key}` | {item.kind} | {item.range_text()} | "
                             f"{item.unit} | {'required' if item.required else '—'} | {item_help} |")
        return "\n".join(lines)


def _form_entry(f: SituationField) -> dict[str, Any]:
    """One input of the page: a simple value's, or a list of records' (``type: records``, ``max`` records, and
    its record's inputs as ``fields``)."""
    entry: dict[str, Any] = {"key": f.key, "label": f.label}
    if f.kind == "choice":  # a blank first choice where the key may be left out and has no default
        blank = [""] if f.default is NO_DEFAULT and not f.required else []
        entry["choices"] = blank + list(f.choices)
    else:
        entry["type"] = "records" if f.items else f.kind
        if f.low is not None:
            entry["min"] = _plain(f.low)
        if f.high is not None:
            entry["max"] = _plain(f.high)
    if f.items:
        entry["fields"] = [_form_entry(item) for item in f.items]
    shown = f.form_default if f.form_default is not NO_DEFAULT else f.default
    if shown is not NO_DEFAULT and shown is not None:
        entry["default"] = shown
    if f.unit:
        entry["unit"] = f.unit
    return entry


def _plain(bound: float) -> int | float:
    return int(bound) if float(bound).is_integer() else bound


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return '""'
    return str(value)
