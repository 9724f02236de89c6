"""What the declarations promise on every system: one layout from which the vector, the schema and the docs
come, a decision one-hot over the system's own kinds, and writing into a caller's preallocated row."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pytest

from npc_tactics.encoders.base import Decl, Encoder, Field, flag
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision, DecisionKind
from tests.conftest import system_names
from tests.encoders.states import visited


def encoder_of(system: str) -> Encoder[Any, Any, Any]:
    info = get_system(system)
    enc: Encoder[Any, Any, Any] = info.load("encoder")(info.load("engine")())
    return enc


@pytest.mark.parametrize("system", system_names())
def test_one_layout_for_vector_schema_and_names(system: str) -> None:
    enc = encoder_of(system)
    schema = json.loads(json.dumps(enc.schema()))  # JSON-able as it is
    fields = schema["fields"]
    assert len(fields) == enc.size == schema["size"]
    assert [f["offset"] for f in fields] == list(range(enc.size))
    assert len({f["name"] for f in fields}) == enc.size
    assert all(f["description"] and f["unit"] and f["scale"] > 0 for f in fields)
    blocks = [f for f in fields if f["group"] == "combatant"]
    assert len(blocks) == len(schema["slots"]) * schema["block_size"]
    assert {f["slot"] for f in blocks} == set(schema["slots"]) and schema["slots"][0] == "self"


@pytest.mark.parametrize("system", system_names())
def test_decision_one_hot_runs_over_the_systems_own_kinds(system: str) -> None:
    enc = encoder_of(system)
    kinds = enc.engine.spec.decision_kinds
    assert [f.name for f in enc.fields[: len(kinds)]] == [f"decision.{k.name.lower()}" for k in kinds]
    assert not any(f.name.startswith("decision.") for f in enc.fields[len(kinds):])
    for state, decision in visited(system, 40):
        v = enc.encode(state, decision)
        assert v[: len(kinds)].tolist() == [float(k == decision.kind) for k in kinds]
    other = next(k for k in DecisionKind if k not in kinds)
    state, decision = visited(system, 1)[0]
    with pytest.raises(ValueError, match=f"decision kind {other.name} is not one of the {system} kinds"):
        enc.encode(state, Decision(decision.actor, decision.side, other, decision.round, decision.context))


@pytest.mark.parametrize("system", system_names())
def test_encode_into_fills_a_row_of_a_preallocated_batch(system: str) -> None:
    enc = encoder_of(system)
    pairs = visited(system, 30)
    batch = np.full((len(pairs), enc.size), 7.0, dtype=np.float32)  # stale values must all be overwritten
    for row, (state, decision) in zip(batch, pairs, strict=True):
        assert enc.encode_into(state, decision, row) is row
    assert np.array_equal(batch, np.stack([enc.encode(s, d) for s, d in pairs]))
    assert (np.abs(batch) <= 1.0).all()
    enc.encode_into(pairs[0][0], None, batch[0])
    assert not batch[0].any() and not enc.encode(pairs[0][0], None).any()
    with pytest.raises(ValueError, match="C-contiguous float32 vector"):
        enc.encode_into(pairs[0][0], pairs[0][1], np.zeros(enc.size, dtype=np.float64))
    with pytest.raises(ValueError, match="C-contiguous float32 vector"):
        enc.encode_into(pairs[0][0], pairs[0][1], np.zeros((enc.size, 2), dtype=np.float32)[:, 0])


class _Twice(Encoder[Any, Any, Any]):
    CONTEXT: ClassVar[Sequence[Decl[Any]]] = (flag("x", "x", lambda v: 0.0), flag("x", "again", lambda v: 0.0))
    COMBATANT: ClassVar[Sequence[Decl[Any]]] = (flag("present", "1 if the slot holds a combatant", lambda v: 1.0),)

    def context_view(self, state: Any, decision: Decision) -> Any:
        return state

    def combatant_view(self, state: Any, decision: Decision, index: int, ctx: Any) -> Any:
        return state


class _NoPresent(_Twice):
    CONTEXT: ClassVar[Sequence[Decl[Any]]] = ()
    COMBATANT: ClassVar[Sequence[Decl[Any]]] = (Field("hp", "hp", "HP", 10.0, lambda v: 1.0),)


def test_a_name_declared_twice_or_a_block_without_present_is_refused() -> None:
    engine = get_system("ose").load("engine")()
    with pytest.raises(ValueError, match=r"declared twice: \['context.x'\]"):
        _Twice(engine)
    with pytest.raises(ValueError, match="first combatant field must be 'present'"):
        _NoPresent(engine)


def test_reading_is_divided_by_the_declared_scale() -> None:
    """``self.max_hp`` of OSE is max HP / 30 (a declared scale, not a hand-written division)."""
    enc = encoder_of("ose")
    state, decision = visited("ose", 1)[0]
    at = next(f.offset for f in enc.fields if f.name == "self.max_hp")
    me = state.combatants[decision.actor]
    assert enc.encode(state, decision)[at] == np.float32(me.max_hp / 30.0)
