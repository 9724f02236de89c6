"""Free text and dice expressions of configs (issue 30 §4, §5): what is refused, and what still reads."""

from __future__ import annotations

import pytest

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError


def test_a_description_may_hold_newlines_and_tabs() -> None:
    text = "Two goblins\n\tand a fighter: «à l'arrière» — fine"
    assert V.string(text, "f.yaml", "description") == text


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\r", "\x7f", "\x85", "\x9b", "\u202a", "\u202e", "\u2066",
                                  "\u2069"])
def test_control_characters_and_bidi_overrides_are_refused(char: str) -> None:
    with pytest.raises(ConfigError, match=rf"f.yaml: description: control character U\+{ord(char):04X} at "
                                          "position 3"):
        V.string(f"abc{char}def", "f.yaml", "description")


@pytest.mark.parametrize("expr", ["1d8+1", "3d6", "d20", "1d8+1d4-1", "10d100", "1000", "2d6-1"])
def test_ordinary_dice_still_read(expr: str) -> None:
    assert V.dice(expr, "f.yaml", "hp") == expr


@pytest.mark.parametrize(("expr", "fragment"), [
    ("1d1000000000000000000000000000000", "is out of range: expected at most 1000 dice of at most 1000 sides"),
    ("1001d2", "bad term"),  # the parser's own bound on a count
    ("1d8+1001", "the modifier 1001 is out of range"),
    ("20d100", "'20d100' rolls 20 to 2000; expected totals within -1000..1000"),
    ("1d4" + "+1d4" * 10, "has 11 dice terms; expected at most 10"),
    ("1d\u0668", "ASCII"),
])
def test_dice_beyond_the_situations_cap_are_refused(expr: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match="f.yaml: sides.0..hp: ") as info:
        V.dice(expr, "f.yaml", "sides[0].hp")
    assert fragment in str(info.value)


def test_a_fixed_amount_is_bounded_too() -> None:
    assert V.dice(12, "f.yaml", "hp", allow_int=True) == 12
    with pytest.raises(ConfigError, match="hp: 1000000 is out of range: expected -1000..1000"):
        V.dice(1_000_000, "f.yaml", "hp", allow_int=True)
