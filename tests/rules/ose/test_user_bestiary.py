"""The referee's own monsters: user bestiary files on NPC_TACTICS_BESTIARY (a path list), inline stat blocks in
scenarios and situations, and field-by-field overrides of a template."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.configs.bestiaries import MAX_BESTIARY_BYTES
from npc_tactics.configs.files import no_user_paths
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import bestiary_files as B
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.scenario import parse_scenario
from npc_tactics.systems.ose.rules.situation import load_situation
from npc_tactics.systems.ose.rules.templates import make_template, template_names

GHOUL_ONE = ("AC 6 [13], HD 2* (9hp), Att 1 × claw (1d4 + ~paralysis), THAC0 18 [+1], MV 90' (30'), "
             "SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25")


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def use(monkeypatch: pytest.MonkeyPatch, *paths: str) -> None:
    monkeypatch.setenv(B.ENV, os.pathsep.join(paths))


def test_a_path_list_of_bestiaries_adds_their_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = write(tmp_path / "undead.yaml", f'ghoul_homebrew: "{GHOUL_ONE}"\n')
    second = write(tmp_path / "beasts.yaml", """
sewer_rat:
  stat_line: "AC 7 [12], HD ½ (2hp), Att 1 × bite (1d3 + ~disease), MV 120' (40') / 60' (20') swimming, ML 8"
  description: a rat the size of a dog
bear_fields:
  ac: "7 [12]"
  hd: "4*"
  attacks: "1 × hug (2d8)"
  movement: "120' (40')"
  saves: "D10 W11 P12 B13 S14"
  morale: 7
""")
    use(monkeypatch, first, "", second)  # an empty entry of the list is skipped
    assert {"ghoul_homebrew", "sewer_rat", "bear_fields"} <= set(template_names())
    ghoul = make_template("ghoul_homebrew").profile
    assert (ghoul.ac, ghoul.hd, ghoul.thac0, ghoul.move, ghoul.morale, ghoul.save_spells) == (6, 2, 18, 6, 9, 16)
    assert (ghoul.melee_weapon, ghoul.melee_damage, ghoul.melee_damage_var) == ("claw", "1d4", "1d4")
    assert make_template("ghoul_homebrew").hp == "2d8"  # the (9hp) is the books' average: hp are rolled
    rat = make_template("sewer_rat")
    assert (rat.hp, rat.profile.move, rat.profile.hd_plus) == ("1d4", 8, -4)  # on foot: 120' -> 40' -> 8 squares
    bear = make_template("bear_fields").profile
    assert (bear.ac, bear.hd, bear.melee_damage, bear.melee_weapon, bear.save_spells, bear.thac0) == (
        7, 4, "2d8", "hug", 14, 16)


@pytest.mark.parametrize(("text", "expected"), [
    ('goblin: "AC 6, HD 1, Att 1 × bite (1d4), MV 90\', ML 8"\n', "goblin: is a shipped template"),
    ('"giant rat": "AC 6, HD 1, Att 1 × bite (1d4), MV 90\', ML 8"\n', "an entry name is letters, digits"),
    ("ghast: 12\n", "ghast: expected a stat line or stat block (text) or a mapping of template fields"),
    ("- a list\n", "expected a mapping"),
    ('ghast: "AC 6, HD 2, Att 1 × bite (1d4 + acid), MV 90\', ML 8"\n', "ghast: Att: '1 × bite (1d4 + acid)"
                                                                       "': acid is not modelled yet"),
    ("ghast: {stat_line: \"AC 6, HD 2, Att 1 × bite (1d4), MV 90', ML 8\", ac: 4}\n",
     "ghast.ac: 4 disagrees with the stat line (6)"),
    ("a: x\na: y\n", "duplicate key 'a'"),
    ("ghast: {stat_line: \"AC 6, HD 2, Att 1 × claw (1d4), MV 90', ML 8\", weapon: sword}\n",
     "ghast.weapon: the stat line's attack is a claw, which carries no weapon"),
])
def test_a_bad_bestiary_is_one_line_naming_file_and_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          text: str, expected: str) -> None:
    use(monkeypatch, write(tmp_path / "bad.yaml", text))
    with pytest.raises(ConfigError) as info:
        make_template("goblin")  # any lookup reads the user's bestiaries
    assert str(info.value).startswith(str(tmp_path / "bad.yaml")), str(info.value)
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_the_same_name_in_two_files_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = 'ghast: "AC 6, HD 2, Att 1 × bite (1d4), MV 90\', ML 8"\n'
    a, b = write(tmp_path / "a.yaml", entry), write(tmp_path / "b.yaml", entry)
    use(monkeypatch, a, b)
    with pytest.raises(ConfigError, match=f"^{b}: ghast: already defined in {a}$"):
        make_template("ghast")


def test_files_that_are_not_regular_or_too_big_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, str(tmp_path))
    with pytest.raises(ConfigError, match="is a directory"):
        template_names()
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BESTIARY_BYTES + 1))
    use(monkeypatch, str(big))
    with pytest.raises(ConfigError, match="larger than"):
        template_names()
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    use(monkeypatch, str(fifo))
    with pytest.raises(ConfigError, match="not a regular file"):
        template_names()


def test_a_request_that_may_not_name_files_reads_no_user_bestiary(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, write(tmp_path / "mine.yaml", f'ghoul_homebrew: "{GHOUL_ONE}"\n'))
    with no_user_paths():
        assert "ghoul_homebrew" not in template_names()
    assert "ghoul_homebrew" in template_names()


def test_no_user_bestiary_leaves_the_shipped_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(B.ENV, raising=False)
    assert B.user_templates() == {}
    assert "ghoul_homebrew" not in template_names()


def _combatants(*side1: dict[str, object]) -> dict[str, object]:
    return {"sides": [{"combatants": [{"template": "fighter_1", "name": "Brannoc"}]}, {"combatants": list(side1)}]}


def test_a_scenario_combatant_may_be_an_inline_stat_block() -> None:
    sc = parse_scenario(_combatants({"name": "Ghoul 1", "stat_block": GHOUL_ONE}, {"stat_block": GHOUL_ONE}), "s.yaml")
    ghoul, unnamed = sc.combatants[1], sc.combatants[2]
    assert (ghoul.name, ghoul.template.profile.template, ghoul.template.profile.ac) == ("Ghoul 1", "Ghoul", 6)
    assert (unnamed.name, unnamed.template.profile.template) == ("monster #2", "monster")
    engine = OSEEngine()
    state, _ = engine.new_combat(sc, RngRoller(np.random.default_rng(3)))
    assert [c.prof.melee_weapon for c in state.combatants] == ["sword", "claw", "claw"]


@pytest.mark.parametrize(("combatant", "expected"), [
    ({"template": "goblin", "stat_block": GHOUL_ONE}, "sides[1].combatants[0].stat_block: give one of template"),
    ({"name": "x"}, "sides[1].combatants[0].template: missing required key (or give stat_block"),
    ({"stat_block": "AC 6, HD 2, Att 1 × bit (1d4), MV 90', ML 8"},
     "sides[1].combatants[0].stat_block: Att: '1 × bit (1d4)': unknown attack form 'bit'"),
    ({"template": "fighter_1", "ac": 3}, "sides[1].combatants[0].ac: unknown key 'ac'"),
    ({"template": "gnoll", "ac": "4 [16]"}, "sides[1].combatants[0].ac: '4 [16]': the ascending AC [16] does not "
                                            "match AC 4"),
    ({"template": "gnoll", "attacks": "2 × claw (1d4), 1 × spit"}, "sides[1].combatants[0].attacks: '2 × claw "
                                                                   "(1d4), 1 × spit': 'spit' attacks are not modelled"),
    ({"template": "gnoll", "saves": [12, 13]}, "sides[1].combatants[0].saves: expected a list of exactly 5"),
])
def test_bad_combatants_are_one_line(combatant: dict[str, object], expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_scenario(_combatants(combatant), "s.yaml")
    assert expected in str(info.value), str(info.value)


def test_a_template_may_be_overridden_field_by_field() -> None:
    sc = parse_scenario(_combatants(
        {"template": "gnoll", "ac": "4 [15]", "hd": "3+1", "movement": "120' (40')", "saves": "F4", "damage": "1d10"},
        {"template": "gnoll", "thac0": 15, "attacks": "1 × claw (1d6)", "morale": 11},
        {"template": "gnoll", "hd": 4, "saves": [10, 11, 12, 13, 9]},
    ), "s.yaml")
    a, b, c = (s.template for s in sc.combatants[1:])
    assert (a.profile.ac, a.profile.hd, a.profile.hd_plus, a.profile.thac0, a.profile.move) == (4, 3, 1, 16, 8)
    assert (a.profile.save_spells, a.profile.melee_damage, a.profile.melee_damage_var, a.hp) == (14, "1d10", "1d8+1",
                                                                                               "3d8+1")
    assert (b.profile.thac0, b.profile.melee_weapon, b.profile.melee_damage, b.profile.melee_damage_var) == (
        15, "claw", "1d6", "1d6")
    assert (b.profile.morale, b.profile.melee_slow) == (11, False)  # the axe is gone with it
    assert (c.profile.hd, c.profile.thac0, c.profile.save_spells, c.hp) == (4, 16, 9, "4d8")
    assert make_template("gnoll").profile.ac == 5  # the template itself is unchanged


def test_a_situation_reads_an_inline_stat_block_and_overrides() -> None:
    situation = {
        "scenario": "goblin_duel",
        "acting": "Gravemaw",
        "sides": [
            {"combatants": [{"name": "Gravemaw", "stat_block": GHOUL_ONE, "position": 0, "hp": 7}]},
            {"combatants": [{"template": "fighter_1", "name": "Brannoc", "position": 1.5, "hp": 5}]},
        ],
    }
    notes: list[str] = []
    state = load_situation(OSEEngine(), situation, RngRoller(np.random.default_rng(0)), notes)
    ghoul = state.combatants[0]
    assert (ghoul.hp, ghoul.max_hp, ghoul.prof.ac, ghoul.prof.melee_weapon) == (7, 9, 6, "claw")
    assert any("taken as 9 (the Gravemaw average, 2d8)" in n for n in notes)
    situation["sides"][0]["combatants"][0]["ac"] = 2  # type: ignore[index]  # a mapping in a list in a mapping
    state = load_situation(OSEEngine(), situation, RngRoller(np.random.default_rng(0)), [])
    assert state.combatants[0].prof.ac == 2
