"""The shared loaders of rules/loading.py: one message per mistake, whichever system reads the file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.rules import loading
from npc_tactics.rules.base import DecisionKind, Status, SystemSpec

SPEC = SystemSpec("toy", "Toy", "0", 2, 1, 3, 10, (DecisionKind.ACT,), {"bonus": 0, "mode": "a"},
                  option_values={"mode": ("a", "b")})


@dataclass
class _C:
    name: str
    status: Status = Status.ACTIVE


def test_read_options_checks_keys_then_values_and_names_the_field() -> None:
    assert loading.read_options(SPEC, {"mode": "b"}, "f.yaml") == {"mode": "b"}
    with pytest.raises(ConfigError, match=r"f\.yaml: options\.mood: unknown rules option 'mood'; valid: bonus, mode"):
        loading.read_options(SPEC, {"mood": "b"}, "f.yaml")
    with pytest.raises(ConfigError, match=r"options\.mode: .*one of"):
        loading.read_options(SPEC, {"mode": "c"}, "f.yaml")
    with pytest.raises(ConfigError, match=r"options: expected a mapping"):
        loading.read_options(SPEC, ["mode"], "f.yaml")


def test_acting_index_wants_a_known_active_combatant() -> None:
    cs = [_C("Ana"), _C("Bo", Status.FLED)]
    assert loading.acting_index("Ana", cs, "s.yaml") == 0
    with pytest.raises(ConfigError, match=r"acting: 'Bo' is fled, cannot act"):
        loading.acting_index("Bo", cs, "s.yaml")
    with pytest.raises(ConfigError, match=r"acting: unknown combatant 'Cy'"):
        loading.acting_index("Cy", cs, "s.yaml")


def test_scenarios_are_listed_by_the_first_line_of_their_description_and_loaded_by_name(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("description: |\n  two lines\n  here\nname: b\n")
    (tmp_path / "a.yaml").write_text("name: a\n")
    assert loading.list_scenarios(tmp_path) == [("a", ""), ("b", "two lines")]
    assert loading.load_scenario("b", tmp_path, lambda data, file: (data["name"], Path(file).name)) == ("b", "b.yaml")


def test_note_taker_writes_to_the_list_or_nowhere() -> None:
    notes: list[str] = []
    loading.note_taker(notes)("round not given")
    loading.note_taker(None)("dropped")
    assert notes == ["round not given"]
