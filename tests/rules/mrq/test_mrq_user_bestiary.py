"""The GM's own MRQ creatures in user bestiary files (``system: mrq`` on NPC_TACTICS_BESTIARY), the listing and
check behind ``npc-tactics bestiary mrq`` / ``bestiary check FILE``, and inline stat blocks in situations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.configs.bestiaries import ENV
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.content import bestiary_listing, check_bestiary
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.scenario import scenario_from_mapping
from npc_tactics.systems.mrq.rules.situation import load_situation
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary

BROO = """Broo chief
STR 15  CON 15  SIZ 14  INT 12  POW 11  DEX 12
Combat Actions 2  Strike Rank +12  Damage Modifier +1D4
D20 Hit Location AP/HP
1-3 Right Leg 3/6
4-6 Left Leg 3/6
7-9 Abdomen 3/7
10-12 Chest 3/8
13-15 Right Arm 3/5
16-18 Left Arm 3/5
19-20 Head 3/6
Weapons
Type Weapon skill Damage AP/HP
Battleaxe 65% 1D6+1
Target shield 55% 1D6
Head butt 45% 1D6
Skills: Acrobatics 30%, Resilience 40%
Kind monster
Faction chaos
"""


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def bestiary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    text = "system: mrq\nbroo_chief: |\n" + "".join(f"  {line}\n" for line in BROO.splitlines()) + """
cave_bear:
  description: a big cave bear, given as fields with dice
  kind: beast
  style: natural
  skill: 60
  weapon: bear_claw
  unarmed: bear_claw
  body: quadruped
  characteristics: {str: 3D6+18, con: 2D6+9, siz: 3D6+18, int: 5, pow: 3D6, dex: 3D6}
  natural_armour: 4
  traits: [unintelligent]
"""
    path = write(tmp_path / "chaos.yaml", text)
    monkeypatch.setenv(ENV, os.pathsep.join([path]))
    return path


def test_user_entries_join_the_bestiary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bestiary(tmp_path, monkeypatch)
    raw = load_bestiary()
    assert {"broo_chief", "cave_bear", "wolf"} <= set(raw)
    assert raw["broo_chief"]["offhand"] == "target_shield" and raw["broo_chief"]["style"] == "weapon_and_shield"
    assert raw["broo_chief"]["other_weapons"] == [{"name": "head_butt", "skill": 45, "damage": "1d6"}]
    scen = scenario_from_mapping({"sides": [{"combatants": [{"template": "knight"}]},
                                            {"combatants": [{"template": "broo_chief"}, {"template": "cave_bear"}]}]})
    chief, bear = scen.combatants[1][2], scen.combatants[2][2]
    assert (chief.skill, chief.dm, chief.loc_max[3], chief.armour[0]) == (65, "1d4", 8, 3)
    assert bear.natural == (4,) * 7 and not bear.intelligent
    rows = {r["name"]: r for r in bestiary_listing()}
    assert rows["broo_chief"]["faction"] == "chaos" and not rows["broo_chief"]["shipped"]
    assert "Battleaxe 65% 1D6+1" in rows["broo_chief"]["stat_block"]
    assert rows["wolf"]["shipped"] and rows["wolf"]["kind"] == "beast"


def test_check_accepts_a_good_file_and_names_each_mistake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = check_bestiary(bestiary(tmp_path, monkeypatch))
    assert not good["errors"] and [e["name"] for e in good["entries"]] == ["broo_chief", "cave_bear"]
    bad = write(tmp_path / "bad.yaml", "system: mrq\nwolf: {style: natural}\nimp: |\n  STR 5 CON 5 SIZ 3\n"
                                       "  Weapons\n  Claw 30% 1D3\nnag: {style: natural, skill: 30, weapon: bite,"
                                       " characteristics: {str: 10, con: 10, siz: 10, int: 3, pow: 5, dex: 1D}}\n")
    result = check_bestiary(bad)
    assert result["entries"] == [] and len(result["errors"]) == 3
    wolf, imp, nag = result["errors"]
    assert wolf.startswith(f"{bad}: wolf: is a shipped template")
    assert imp.startswith(f"{bad}: imp: line 1: 'INT POW DEX': missing characteristics")
    assert "nag.characteristics.dex" in nag and "'1d'" in nag.lower()
    other = check_bestiary(write(tmp_path / "rq.yaml", "system: runequest\nx: {}\n"))
    assert "write 'system: mrq'" in other["errors"][0]


def test_a_situation_takes_an_inline_stat_block() -> None:
    data: dict[str, Any] = {"acting": "Guard", "round": 2, "distance": "close", "sides": [
        {"combatants": [{"template": "knight", "name": "Guard"}]},
        {"combatants": [{"name": "Chief", "stat_block": BROO, "locations": {"chest": 3}, "reactions": 1}]}]}
    state = load_situation(MRQEngine(), data, RngRoller(np.random.default_rng(0)))
    chief = state.combatants[1]
    assert chief.prof.template == "Chief" and chief.loc_hp[3] == 3 and chief.reactions == 1
    with pytest.raises(ConfigError, match=r"sides\[1\]\.combatants\[0\]: line 2: 'STR X'"):
        load_situation(MRQEngine(), {**data, "sides": [data["sides"][0], {"combatants": [
            {"name": "Chief", "stat_block": BROO.replace("STR 15", "STR X")}]}]}, RngRoller(np.random.default_rng(0)))
