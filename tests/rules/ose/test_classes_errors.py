"""Malformed character specs: each is one ConfigError line naming the file and the field at fault.

A spec is what a situation or scenario combatant gives as ``{class: elf, level: 9, ...}`` (built by
``templates.character_template``), a template name (``elf_11``), or a template with overrides. The class
table itself is checked too: a wrong HD column or a missing level is refused when classes.yaml loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules.content import load_scenario
from npc_tactics.systems.ose.rules.templates import character_template, make_template

FILE = "party.yaml"
AT = "sides[1].combatants[0]"

#: (spec, field under AT, words of the message)
SPECS: list[tuple[dict[str, Any], str, str]] = [
    ({"class": "ranger", "level": 3}, "class", "unknown class 'ranger'"),
    ({"class": "elf"}, "level", "missing required key"),
    ({"level": 3}, "class", "missing required key"),
    ({"class": "elf", "level": 11}, "level", "an elf cannot be level 11: the elf's maximum level is 10"),
    ({"class": "dwarf", "level": 13}, "level", "maximum level is 12"),
    ({"class": "halfling", "level": 9}, "level", "maximum level is 8"),
    ({"class": "fighter", "level": 15}, "level", "maximum level is 14"),
    ({"class": "fighter", "level": 0}, "level", "0 is out of range"),
    ({"class": "fighter", "level": "six"}, "level", "expected an integer"),
    ({"class": "fighter", "level": True}, "level", "expected an integer"),
    ({"class": "magic_user", "level": 3, "armour": "plate_mail"}, "armour", "a magic_user cannot wear 'plate_mail'"),
    ({"class": "magic_user", "level": 3, "shield": True}, "shield", "a magic_user cannot carry a shield"),
    ({"class": "thief", "level": 2, "armour": "chainmail"}, "armour", "allowed: none, leather"),
    ({"class": "thief", "level": 2, "shield": True}, "shield", "cannot carry a shield"),
    ({"class": "cleric", "level": 2, "weapon": "sword"}, "weapon", "a cleric cannot use 'sword'"),
    ({"class": "cleric", "level": 2, "missile": "short_bow"}, "missile", "a cleric cannot use 'short_bow'"),
    ({"class": "magic_user", "level": 2, "weapon": "staff"}, "weapon", "allowed: dagger, silver_dagger"),
    ({"class": "dwarf", "level": 4, "weapon": "two_handed_sword"}, "weapon", "forbidden: long_bow"),
    ({"class": "halfling", "level": 2, "missile": "long_bow"}, "missile", "a halfling cannot use 'long_bow'"),
    ({"class": "magic_user", "level": 1, "spells": {"sleep": 2}}, "spells", "at most 1 spell(s) of spell level 1"),
    ({"class": "cleric", "level": 1, "spells": {"cure_light_wounds": 1}}, "spells", "at most 0"),
    ({"class": "cleric", "level": 3, "spells": {"hold_person": 1}}, "spells", "spell level 2, got 1"),
    ({"class": "fighter", "level": 5, "spells": {"sleep": 1}}, "spells.sleep", "a fighter casts no spells"),
    ({"class": "elf", "level": 5, "spells": {"cure_light_wounds": 1}}, "spells.cure_light_wounds",
     "cure_light_wounds is a cleric spell; an elf casts magic_user spells"),
    ({"class": "elf", "level": 3, "spells": {"fireball": 1}}, "spells.fireball", "unknown key 'fireball'"),
    ({"class": "elf", "level": 3, "spells": {"sleep": -1}}, "spells.sleep", "out of range"),
    ({"class": "fighter", "level": 3, "con": 19}, "con", "19 is out of range: expected 3..18"),
    ({"class": "fighter", "level": 3, "str": "strong"}, "str", "expected an integer"),
    ({"class": "fighter", "level": 3, "dex": 2}, "dex", "out of range"),
    ({"class": "elf", "level": 3, "armour": "mithril"}, "armour", "unknown armour 'mithril'"),
    ({"class": "elf", "level": 3, "shield": "yes"}, "shield", "expected"),
    ({"class": "elf", "level": 3, "weapon": "lightsaber"}, "weapon", "unknown weapon"),
    ({"class": "elf", "level": 3, "morale": 13}, "morale", "out of range"),
    ({"class": "elf", "level": 3, "immune": ["fear"]}, "immune[0]", "unknown immunity"),
    ({"class": "elf", "level": 3, "ac": 2}, "ac", "takes no 'ac'"),
    ({"class": "dwarf", "level": 3, "template": "dwarf_3"}, "template", "takes no 'template'"),
    ({"class": "dwarf", "level": 3, "thac0": 12}, "thac0", "takes no 'thac0'"),
]


@pytest.mark.parametrize("spec, field, words", SPECS, ids=[f"{i}-{f}" for i, (_, f, _w) in enumerate(SPECS)])
def test_malformed_spec_is_one_line_naming_the_field(spec: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        character_template(spec, FILE, AT)
    msg = str(err.value)
    assert (err.value.file, err.value.field) == (FILE, f"{AT}.{field}"), msg
    assert words in msg and "\n" not in msg and len(msg) < 300, msg


def test_corpus_size() -> None:
    assert len(SPECS) >= 15


@pytest.mark.parametrize("name, words", [
    ("elf_11", "an elf cannot be level 11"),
    ("halfling_12", "maximum level is 8"),
    ("magic-user_15", "maximum level is 14"),
    ("wizard_3", "unknown template 'wizard_3'"),
])
def test_bad_template_names_in_a_scenario(tmp_path: Path, name: str, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"sides": [{"combatants": [{"template": "goblin"}]},
                                              {"combatants": [{"template": name}]}]}))
    with pytest.raises(ConfigError) as err:
        load_scenario(str(path))
    assert err.value.field == "sides[1].combatants[0].template" and words in str(err.value)


def test_override_of_a_template_is_checked_against_its_class() -> None:
    with pytest.raises(ConfigError, match=r"c\.weapon: a cleric cannot use 'sword'"):
        make_template("cleric_2", {"weapon": "sword"}, FILE, "c")
    with pytest.raises(ConfigError, match=r"c\.hp: malformed"):
        make_template("elf_3", {"hp": "lots"}, FILE, "c")


def _table(**row_changes: Any) -> dict[str, Any]:
    raw = yaml.safe_load(C.CLASS_FILE.read_text())["halfling"]
    raw["levels"][8] = {**raw["levels"][8], **row_changes}
    return raw


@pytest.mark.parametrize("raw, field, words", [
    (_table(hd="8d8"), "halfling.levels.8.hd", "expected 8d6 for a halfling of level 8"),
    (_table(hd="9d6+1"), "halfling.levels.8.hd", "expected 8d6"),
    (_table(saves=[4, 5, 6, 7]), "halfling.levels.8.saves", "exactly 5"),
    (_table(spells=[1]), "halfling.levels.8.spells", "casts no spells"),
    ({**_table(), "max_level": 9}, "halfling.levels", "one row for each level 1..9"),
])
def test_class_table_rows_are_validated(raw: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        C._class("halfling", raw, "classes.yaml")
    assert err.value.field == field and words in str(err.value), str(err.value)
