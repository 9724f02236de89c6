"""The shared YAML content readers (npc_tactics.configs.validate): values through, one-line errors out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError

F = "content.yaml"


def error(fn: Any, *args: Any, **kwargs: Any) -> ConfigError:
    """The ConfigError ``fn`` raises; it must be one line and name the file."""
    with pytest.raises(ConfigError) as info:
        fn(*args, **kwargs)
    err = info.value
    assert err.file == F and "\n" not in str(err)
    return err


# ----- paths and listings ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path, parts, expected",
    [
        ("", ("sides", 0, "combatants", 2, "hp"), "sides[0].combatants[2].hp"),
        ("sides[1]", ("name",), "sides[1].name"),
        ("weapons", ("sword", "ranges", 2), "weapons.sword.ranges[2]"),
        ("", (), ""),
        ("cover", (), "cover"),
        ("", (3,), "[3]"),
    ],
)
def test_join(path: str, parts: tuple[str | int, ...], expected: str) -> None:
    assert V.join(path, *parts) == expected


def test_listing_keeps_sequence_order_and_sorts_sets_and_mappings() -> None:
    assert V.listing(("b", "a")) == "b, a"
    assert V.listing({"b", "a"}) == "a, b"
    assert V.listing({"b": 1, "a": 2}) == "a, b"
    assert V.listing(()) == "(none)"


# ----- mapping -------------------------------------------------------------------------------------------
def test_mapping_returns_a_copy_and_accepts_allowed_keys() -> None:
    raw = {"name": "x", "hp": 3}
    out = V.mapping(raw, F, "", ("name", "hp"), required=("name",))
    assert out == raw and out is not raw and isinstance(out, dict)
    assert V.mapping({"anything": 1}, F, "opts") == {"anything": 1}


def test_mapping_not_a_mapping() -> None:
    err = error(V.mapping, [1, 2], F, "sides[0]")
    assert err.field == "sides[0]" and "expected a mapping, got list" in err.message
    assert error(V.mapping, None, F, "").field == V.TOP_LEVEL


def test_mapping_unknown_key_names_its_own_path_and_lists_valid_keys() -> None:
    err = error(V.mapping, {"name": "x", "colour": "red"}, F, "sides[0].combatants[1]", ("name", "hp"))
    assert err.field == "sides[0].combatants[1].colour"
    assert err.message == "unknown key 'colour'; valid keys: name, hp"
    top = error(V.mapping, {"sidez": []}, F, "", {"sides", "name"})
    assert top.field == "sidez" and "valid keys: name, sides" in top.message


def test_mapping_missing_required_key() -> None:
    err = error(V.mapping, {"name": "x"}, F, "sides[1]", ("name", "combatants"), ("combatants",))
    assert err.field == "sides[1].combatants" and "missing required key" in err.message


# ----- scalars -------------------------------------------------------------------------------------------
def test_integer() -> None:
    assert V.integer(5, F, "hp", 1, 10) == 5
    assert V.integer(-3, F, "hp") == -3
    for bad in ("5", 5.0, True, None):
        assert "expected an integer" in error(V.integer, bad, F, "hp").message
    assert error(V.integer, 11, F, "hp", 1, 10).message == "11 is out of range: expected 1..10"
    assert "expected at least 1" in error(V.integer, 0, F, "max_rounds", low=1).message
    assert "expected at most 9" in error(V.integer, 12, F, "x", high=9).message


def test_number() -> None:
    got = V.number(3, F, "position")
    assert got == 3.0 and isinstance(got, float)
    assert V.number(-1.5, F, "position", -10, 10) == -1.5
    for bad in ("far", False, None):
        err = error(V.number, bad, F, "sides[1].combatants[0].position")
        assert err.field == "sides[1].combatants[0].position" and "expected a number" in err.message
    assert "out of range" in error(V.number, -0.5, F, "field_length", low=0.0).message


def test_boolean() -> None:
    assert V.boolean(False, F, "shield") is False
    for bad in ("yes", 1, None):
        assert "expected true or false" in error(V.boolean, bad, F, "shield").message


def test_string() -> None:
    assert V.string("", F, "description") == ""
    assert V.string("Kesh", F, "name", non_empty=True) == "Kesh"
    assert "expected a string, got 3" in error(V.string, 3, F, "name").message
    assert "non-empty string" in error(V.string, "", F, "name", non_empty=True).message


def test_choice() -> None:
    assert V.choice("goblin", F, "t", {"orc": 1, "goblin": 2}, "template") == "goblin"
    err = error(V.choice, "gobln", F, "sides[0].combatants[2].template", {"orc": 1, "goblin": 2}, "template")
    assert err.field == "sides[0].combatants[2].template"
    assert err.message == "unknown template 'gobln'; valid: goblin, orc"
    assert (
        "unknown phase 3; valid: declare, move" in error(V.choice, 3, F, "phase", ("declare", "move"), "phase").message
    )
    assert "unknown value ['a']" in error(V.choice, ["a"], F, "x", ["a"]).message  # unhashable: no TypeError


# ----- dice ----------------------------------------------------------------------------------------------
def test_dice() -> None:
    assert V.dice("1d8+1", F, "damage") == "1d8+1"
    assert V.dice(4, F, "hp", allow_int=True) == 4
    assert "malformed" in error(V.dice, "lots", F, "hp").message
    assert "expected a dice expression" in error(V.dice, 4, F, "damage").message
    err = error(V.dice, True, F, "hp", allow_int=True)
    assert "an integer or a dice expression" in err.message


# ----- lists ---------------------------------------------------------------------------------------------
def test_sequence() -> None:
    assert V.sequence([1, 2], F, "then") == [1, 2]
    err = error(V.sequence, "sword", F, "weapons", 0, 4, "weapons")
    assert err.message == "expected a list of 0 to 4 weapons, got str"
    err = error(V.sequence, [1] * 7, F, "sides[0].combatants", 1, 6, "combatants")
    assert err.field == "sides[0].combatants" and err.message == "expected a list of 1 to 6 combatants, got 7"
    assert "expected a non-empty list of locations, got 0" in error(V.sequence, [], F, "covers", 1,
                                                                     what="locations").message
    assert "at least 2 locations, got 1" in error(V.sequence, [1], F, "covers", 2, what="locations").message
    assert error(V.sequence, None, F, "x").message == "expected a list of entries, got nothing"


def test_two_sides() -> None:
    assert V.two_sides([{}, {}], F) == [{}, {}]
    err = error(V.two_sides, [{}], F)
    assert err.field == "sides" and "exactly 2 sides (side 0 = the NPCs)" in err.message


# ----- documents -----------------------------------------------------------------------------------------
def test_document_from_mapping_or_file(tmp_path: Path) -> None:
    data = {"acting": "Kesh"}
    assert V.document(data) == ("<situation>", data)
    assert V.document(data, "<scenario>")[0] == "<scenario>"
    path = tmp_path / "sit.yaml"
    path.write_text("acting: Kesh\nround: 2\n")
    assert V.document(path) == (str(path), {"acting": "Kesh", "round": 2})
    with pytest.raises(ConfigError, match="file not found"):
        V.document(tmp_path / "missing.yaml")
