"""The GM's own dice-pool creatures: user bestiary files (system: dicepool), inline sheets and full stat fields in
scenario and situation combatants, the listing and the check of a file."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.configs.bestiaries import ENV
from npc_tactics.configs.files import no_user_paths
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.content import (
    bestiary_listing,
    check_bestiary,
    load_situation,
    scenario_from_mapping,
)
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.user_bestiary import all_templates, user_templates

WOLF = """Loup des cendres
INITIATIVE 7, COORDINATION 4, FORCE 2, DÉFENSE 3, VITESSE 16
Compétences : bagarre 6
Armes : morsure (bagarre 1D6, naturelle)
Morphologie : quadrupède
Localisations : Tête 4, Avant-train 9, Arrière-train 7, Patte avant gauche 4, Patte avant droite 4,
  Patte arrière gauche 4, Patte arrière droite 4
"""
GUNNER = ("Initiative 6, Coordination 4, Strength 1, Defense 3 | Skills: light mecartefact 6, brawl 3 | "
          "Weapons: light crache-foudre | Locations: human")


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def use(monkeypatch: pytest.MonkeyPatch, *paths: str) -> None:
    monkeypatch.setenv(ENV, os.pathsep.join(paths))


def _indent(text: str) -> str:
    return "".join(f"  {line}\n" for line in text.splitlines())


def _mine(tmp_path: Path) -> str:
    return write(tmp_path / "mine.yaml", "system: dicepool\nash_wolf: |\n" + _indent(WOLF) + f"""gunner:
  stat_block: "{GUNNER}"
  description: a guild gunner
  tags: {{kind: human, faction: guild, player_character: false}}
brute_fields:
  initiative: 3
  coordination: 1
  strength: 5
  defense: 2
  skills: {{brawl: 6, axe: 7}}
  weapons: [greataxe]
  locations: human
""")


def _two(a: dict[str, object], b: dict[str, object]) -> dict[str, object]:
    return {"name": "t", "sides": [{"combatants": [a]}, {"combatants": [b]}]}


def test_a_user_bestiary_adds_sheets_and_field_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ose = write(tmp_path / "ose.yaml", "ghoul: \"AC 6 [13], HD 2*, Att 1 × claw (1d4), MV 90' (30'), ML 9\"\n")
    use(monkeypatch, ose, _mine(tmp_path))  # the untagged (OSE) file is not the dice pool's
    assert set(user_templates()) == {"ash_wolf", "gunner", "brute_fields"}
    wolf = all_templates()["ash_wolf"][1]
    assert (wolf["description"], wolf["body_plan"], wolf["speed"]) == ("Loup des cendres", "quadruped", 16)
    sc = scenario_from_mapping(_two({"template": "ash_wolf"}, {"template": "gunner", "position": 8}), "s.yaml")
    w, g = sc.fighters
    assert (w.name, w.max_hp, w.speed, w.skills, w.weapons[0].natural) == ("ash_wolf", 36, 16, {"brawl": 6}, True)
    assert (g.weapons[0].name, g.max_hp, g.loc_max[T.HEAD]) == ("light_crache_foudre", 47, 4)
    rows = {r["name"]: r for r in bestiary_listing()}
    assert rows["gunner"]["source"].endswith("mine.yaml") and not rows["gunner"]["shipped"]
    assert rows["gunner"]["tags"] == {"kind": "human", "faction": "guild", "player_character": False}
    assert rows["haru"]["shipped"] and rows["haru"]["tags"]["player_character"] is True


def test_check_bestiary_lists_good_entries_and_one_line_per_mistake(tmp_path: Path) -> None:
    good = check_bestiary(_mine(tmp_path))
    assert good["errors"] == [] and [e["name"] for e in good["entries"]] == ["ash_wolf", "gunner", "brute_fields"]
    assert good["entries"][0]["stat_line"].startswith("Initiative 7, Coordination 4, Strength 2, Defense 3, Speed 16")
    bad = write(tmp_path / "bad.yaml", f"""system: dicepool
haru: "{GUNNER}"
clash:
  stat_block: "{GUNNER}"
  defense: 5
odd:
  stat_block: "{GUNNER}"
  colour: red
tagged:
  stat_block: "{GUNNER}"
  tags: {{player_character: maybe}}
""")
    errors = check_bestiary(bad)["errors"]
    assert errors == [
        f"{bad}: haru: is a shipped template; give the entry another name (e.g. my_haru)",
        f"{bad}: clash.defense: 5 disagrees with the stat block (3)",
        f"{bad}: odd.colour: unknown key 'colour'; valid: description, tags, source, initiative, coordination, "
        "strength, defense, speed, skills, weapons, armour, locations, mount_speed, body_plan, stat_block",
        f"{bad}: tagged.tags.player_character: expected true or false, got 'maybe'",
    ]
    other = write(tmp_path / "rq.yaml", "system: runequest\nbroo: {}\n")
    assert check_bestiary(other)["errors"] == [f"{other}: system: is 'runequest': a dice-pool bestiary says "
                                               "system: dicepool"]


def test_the_same_name_twice_and_requests_that_may_not_read_files(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    a = _mine(tmp_path)
    b = write(tmp_path / "b.yaml", f'system: dicepool\ngunner: "{GUNNER}"\n')
    use(monkeypatch, a, b)
    with pytest.raises(ConfigError, match=f"^{b}: gunner: already defined in {a}$"):
        all_templates()
    use(monkeypatch, a)
    with no_user_paths():
        assert "gunner" not in all_templates()
    assert "gunner" in all_templates()


def test_a_combatant_may_be_its_own_sheet_or_its_fields_in_full() -> None:
    sc = scenario_from_mapping(_two(
        {"stat_block": WOLF, "position": 0},
        {"name": "Kesh", "initiative": 6, "coordination": 4, "strength": 1, "defense": 3,
         "skills": {"mecartefact_leger": 6}, "weapons": [{"name": "bolt thrower", "kind": "ranged",
                                                          "skill": "mecartefact_leger", "damage": "3",
                                                          "ranges": [10, 20, 40], "electric": True}],
         "locations": "human", "position": 12}), "s.yaml")
    wolf, kesh = sc.fighters
    assert (wolf.name, wolf.template, wolf.initiative, wolf.loc_max) == (
        "Loup des cendres", "loup_des_cendres", 7, (4, 9, 7, 4, 4, 4, 4))
    assert (kesh.template, kesh.weapons[0].name, kesh.weapons[0].electric, kesh.max_hp) == (
        "custom", "bolt thrower", True, 47)
    over = scenario_from_mapping(_two({"stat_block": WOLF, "name": "Old wolf", "defense": 4,
                                       "skills": {"brawl": 5}}, {"template": "duelist"}), "s.yaml")
    assert (over.fighters[0].name, over.fighters[0].defense, over.fighters[0].skills) == ("Old wolf", 4, {"brawl": 5})


@pytest.mark.parametrize(("combatant", "expected"), [
    ({"template": "duelist", "stat_block": GUNNER}, "sides[1].combatants[0].stat_block: give one of template"),
    ({"name": "x", "initiative": 3}, "sides[1].combatants[0].template: missing required key (or give stat_block"),
    ({"stat_block": 12}, "sides[1].combatants[0].stat_block: expected the sheet's text"),
    ({"stat_block": GUNNER, "weapons": [{"name": "a(b", "kind": "melee", "skill": "brawl", "damage": "1"}]},
     "sides[1].combatants[0].weapons[0].name: a name of at most 40 characters"),
    ({"stat_block": GUNNER, "weapons": ["sword", {"name": "sword", "kind": "melee", "skill": "sword",
                                                  "damage": "1d8"}]},
     "sides[1].combatants[0].weapons: two weapons with one name"),
    ({"stat_block": GUNNER, "body_plan": "octopus"}, "sides[1].combatants[0].body_plan: unknown body plan"),
])
def test_bad_inline_combatants_are_one_line(combatant: dict[str, object], expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        scenario_from_mapping(_two({"template": "duelist"}, combatant), "s.yaml")
    assert expected in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_a_situation_reads_an_inline_sheet_with_its_own_maxima() -> None:
    engine = DicePoolEngine()
    sit = {"acting": "Loup", "then": ["Kesh"], "sides": [
        {"combatants": [{"name": "Loup", "stat_block": WOLF, "position": 0, "location_hp": {"torso": 5}}]},
        {"combatants": [{"name": "Kesh", "template": "haru", "position": 1.5}]}]}
    notes: list[str] = []
    state = load_situation(engine, sit, RngRoller(np.random.default_rng(0)), notes)
    wolf = state.combatants[0]
    assert (wolf.hp, wolf.max_hp, wolf.loc_hp[T.TORSO]) == (32, 36, 5)
    decision = engine.pending(state)
    assert decision is not None and decision.actor == 0
    sit["sides"][0]["combatants"][0]["location_hp"] = {"torso": 10}  # type: ignore[index]  # nested test data
    with pytest.raises(ConfigError, match=r"location_hp\.torso: .*out of range"):
        load_situation(engine, sit, RngRoller(np.random.default_rng(0)), [])
