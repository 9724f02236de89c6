"""The situation keys declared once (:mod:`npc_tactics.rules.situation_fields`): the declaration's checks, the web
form and docs table it makes, and every system's loader and form following its declaration."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.registry import get_system
from npc_tactics.rules.situation_fields import NO_DEFAULT, SituationField, SituationFields
from tests.conftest import system_names

F = SituationField

DEMO = SituationFields((
    F("round", "situation", "int", "the round", low=1, high=1000, default=1, label="Round"),
    F("acting", "situation", "name", "who acts", required=True),
    F("phase", "situation", "choice", "the step", choices=("declare", "melee"), label="Pending decision"),
    F("far", "situation", "number", "how far", unit="m", low=0),
    F("status", "combatant", "choice", "state", choices=("active", "dead"), default="active", what="status"),
    F("wounds", "combatant", "mapping", "damage per location"),
))


def test_keys_and_required_follow_the_declaration_order() -> None:
    assert DEMO.keys("situation") == ("round", "acting", "phase", "far")
    assert DEMO.keys("combatant") == ("status", "wounds")
    assert DEMO.keys("side") == ()
    assert DEMO.required("situation") == ("acting",)


def test_read_checks_the_declared_range_and_choices() -> None:
    assert DEMO.read({"round": 3}, "round", "f.yaml") == 3
    assert DEMO.read({}, "round", "f.yaml") == 1  # the declared default
    with pytest.raises(ConfigError, match=r"f\.yaml: round: .*1\.\.1000"):
        DEMO.read({"round": 0}, "round", "f.yaml")
    with pytest.raises(ConfigError, match=r"round: .*1\.\.4"):  # narrowed by the situation (max_rounds 4)
        DEMO.read({"round": 5}, "round", "f.yaml", high=4)
    with pytest.raises(ConfigError, match=r"sides\[0\]\.combatants\[1\]\.status: unknown status 'asleep'"):
        DEMO.read({"status": "asleep"}, "status", "f.yaml", "sides[0].combatants[1]", "combatant")
    with pytest.raises(ConfigError, match="round"):  # given as nothing is an error, not "left out"
        DEMO.read({"round": None}, "round", "f.yaml")
    with pytest.raises(KeyError):  # no value and no default: the loader must ask first
        DEMO.read({}, "far", "f.yaml")
    assert DEMO.read({}, "far", "f.yaml", default=None) is None
    assert DEMO.read({"wounds": {"head": 2}}, "wounds", "f.yaml", scope="combatant") == {"head": 2}


def test_the_form_has_the_labelled_fields_only() -> None:
    assert DEMO.form("situation") == [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        {"key": "phase", "label": "Pending decision", "choices": ["", "declare", "melee"]},
    ]
    assert DEMO.form("combatant") == []


def test_the_docs_table_has_a_row_per_key() -> None:
    table = DEMO.markdown().splitlines()
    assert len(table) == 2 + len(DEMO.fields)
    assert "| situation | `acting` | name |  |  | required | who acts |" in table
    assert any(row.startswith("| situation | `far` | number | 0.. | m | — |") for row in table)
    assert any("`declare` \\| `melee`" in row and "(on the web form)" in row for row in table)


DOSES = F("doses", "combatant", "list", "doses carried", high=5, label="Poison doses",
          items=(F("potency", "item", "int", "POT", low=1, high=99, required=True, label="Potency"),
                 F("rounds", "item", "int", "rounds to go", low=0, high=20, required=True, label="Rounds to go",
                   form_default=3)))


def test_a_list_of_records_is_on_the_form_with_a_row_of_inputs_per_record() -> None:
    """RuneQuest's poison doses: the page draws each record's inputs from the list's items."""
    fields = SituationFields((DOSES,))
    assert fields.form("combatant") == [{
        "key": "doses", "label": "Poison doses", "type": "records", "max": 5,
        "fields": [{"key": "potency", "label": "Potency", "type": "int", "min": 1, "max": 99},
                   {"key": "rounds", "label": "Rounds to go", "type": "int", "min": 0, "max": 20, "default": 3}]}]
    assert fields.keys("combatant") == ("doses",)  # a record's keys are not the combatant's
    table = fields.markdown().splitlines()
    assert "| combatant | `doses[].potency` | int | 1..99 |  | required | POT |" in table
    assert len(table) == 2 + 1 + 2


def test_a_bad_list_of_records_is_refused() -> None:
    potency = DOSES.items[0]
    with pytest.raises(ValueError, match="items go with kind 'list'"):
        F("doses", "combatant", "mapping", "a", items=(potency,))
    with pytest.raises(ValueError, match="labelled simple field of scope 'item'"):
        F("doses", "combatant", "list", "a", label="Doses", items=(F("potency", "combatant", "int", "POT",
                                                                      label="Potency"),))
    with pytest.raises(ValueError, match="labelled simple field of scope 'item'"):
        F("doses", "combatant", "list", "a", label="Doses", items=(F("potency", "item", "int", "POT"),))
    with pytest.raises(ValueError, match="web form"):  # a list without items has nothing to draw
        F("doses", "combatant", "list", "a", label="Doses")


def test_a_bad_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        SituationFields((F("round", "situation", "int", "a"), F("round", "situation", "int", "b")))
    with pytest.raises(ValueError, match="scope"):
        F("round", "fight", "int", "a")
    with pytest.raises(ValueError, match="choices"):
        F("phase", "situation", "choice", "a")
    with pytest.raises(ValueError, match="web form"):
        F("wounds", "combatant", "mapping", "a", label="Wounds")
    assert repr(NO_DEFAULT) == "NO_DEFAULT"


@pytest.mark.parametrize("system", system_names())
def test_every_system_declares_its_situation_keys_and_its_form_follows(system: str) -> None:
    info = get_system(system)
    fields = info.situation_declaration()
    assert fields is not None, f"{system} declares no situation fields (systems/{system}/rules/situation_fields.py)"
    form = info.form_module()
    assert form is not None
    for scope in ("situation", "combatant"):  # the page may order its inputs its own way
        def by_key(entries: list[dict[str, object]]) -> list[dict[str, object]]:
            return sorted(entries, key=lambda e: str(e["key"]))

        assert by_key(form.FORM[f"{scope}_fields"]) == by_key(fields.form(scope))
    assert "acting" in fields.required("situation")


@pytest.mark.parametrize("system", system_names())
def test_an_undeclared_situation_key_is_refused(system: str) -> None:
    """The loader accepts the declared keys only: a key no declaration names is an error naming it."""
    info = get_system(system)
    with pytest.raises(ConfigError, match="not_a_declared_key"):
        info.content_module().load_situation(info.make_engine(), {"acting": "x", "sides": [], "not_a_declared_key": 1},
                                             _roller())


def _roller() -> RngRoller:
    return RngRoller(np.random.default_rng(0))
