"""OSE content: shipped YAML loads, bad input is a one-line ConfigError naming file and field, situations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.ose.rules.content import list_scenarios, load_scenario, load_situation
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.templates import make_template, template_names

BESTIARY = ("goblin", "kobold", "orc", "hobgoblin", "gnoll", "skeleton", "ogre", "bugbear")


def test_shipped_content() -> None:
    names = {n for n, _ in list_scenarios()}
    assert {"goblin_duel", "goblin_band", "caster_duel", "losing_band"} <= names
    for n in names:
        assert load_scenario(n).name == n
    for t in BESTIARY:
        assert make_template(t).profile.morale >= 2
    for cls in ("fighter", "cleric", "magic_user", "thief"):
        for level in (1, 2, 3):
            assert f"{cls}_{level}" in template_names()


def test_derived_stat_blocks() -> None:
    f = make_template("fighter_1").profile  # chainmail 5, shield 1, DEX 10 -> AC 4; STR 13 -> +1
    assert (f.ac, f.thac0, f.str_mod, f.move, f.save_spells) == (4, 19, 1, 4, 16)
    h = make_template("hobgoblin").profile  # 1+1 HD -> THAC0 18
    assert (h.ac, h.thac0, h.move, h.morale) == (6, 18, 6, 8)
    o = make_template("ogre").profile
    assert (o.thac0, o.hd, o.hd_plus) == (15, 4, 1)
    assert make_template("gnoll").profile.melee_damage_var == "1d8+1"  # battle axe, "by weapon +1"


def write(tmp_path: Path, data: object) -> str:
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data))
    return str(p)


GOOD = {
    "name": "x",
    "sides": [
        {"combatants": [{"template": "goblin"}]},
        {"combatants": [{"template": "fighter_1"}]},
    ],
}


@pytest.mark.parametrize(
    "mutate, field, words",
    [
        (
            lambda d: d["sides"][0]["combatants"].append({"template": "gobln"}),
            "sides[0].combatants[1].template",
            "unknown template 'gobln'",
        ),
        (
            lambda d: d["sides"][1]["combatants"][0].update(hp="lots"),
            "sides[1].combatants[0].hp",
            "malformed",
        ),
        (
            lambda d: d["sides"][1]["combatants"][0].update(position="far"),
            "sides[1].combatants[0].position",
            "expected a number",
        ),
        (lambda d: d.update(colour="red"), "colour", "unknown key"),
        (
            lambda d: d["sides"][0]["combatants"][0].update(wings=2),
            "sides[0].combatants[0].wings",
            "unknown key",
        ),
        (lambda d: d.update(max_rounds="ten"), "max_rounds", "expected an integer"),
        (lambda d: d.update(options={"tie": "x"}), "options.tie", "unknown rules option"),
        (lambda d: d.update(options={"morale": "yes"}), "options.morale", "expects bool"),
        (
            lambda d: d["sides"][0]["combatants"][0].update(weapon="laser"),
            "sides[0].combatants[0].weapon",
            "unknown weapon",
        ),
        (lambda d: d.update(cover=[{"at": 3, "level": 9}]), "cover[0].level", "expected 1-4"),
        (lambda d: d["sides"].pop(), "sides", "exactly 2 sides"),
    ],
)
def test_scenario_errors_name_file_and_field(
    tmp_path: Path, mutate, field: str, words: str
) -> None:
    data = yaml.safe_load(yaml.safe_dump(GOOD))
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(ConfigError) as err:
        load_scenario(path)
    msg = str(err.value)
    assert err.value.file == path and err.value.field == field and words in msg and "\n" not in msg


def test_unknown_scenario_name() -> None:
    with pytest.raises(UnknownNameError, match="goblin_duel"):
        load_scenario("goblin_dual")


def test_situation_at_the_npcs_decision() -> None:
    eng = OSEEngine()
    sit = {
        "scenario": "goblin_duel",
        "round": 3,
        "acting": "Snikkit",
        "sides": [
            {
                "combatants": [
                    {
                        "template": "goblin_archer",
                        "name": "Snikkit",
                        "position": 0,
                        "hp": 2,
                        "max_hp": 4,
                    }
                ]
            },
            {
                "combatants": [
                    {"template": "fighter_1", "name": "Brannoc", "position": 1.5, "hp": 5}
                ]
            },
        ],
    }
    st = load_situation(eng, sit, RngRoller(np.random.default_rng(0)))
    d = eng.pending(st)
    assert d is not None and d.actor == 0 and d.kind == DecisionKind.DECLARE and st.round == 3
    names = [eng.catalogue.name(i) for i in np.flatnonzero(eng.legal_mask(st))]
    assert names == ["declare_none", "declare_withdraw", "declare_retreat"]
    st2, _ = eng.step(
        st, eng.catalogue.index("declare_retreat"), RngRoller(np.random.default_rng(1))
    )
    assert st2.combatants[0].declared == 2 and st.combatants[0].declared == 0
    sit["phase"] = "melee"
    st = load_situation(eng, sit, RngRoller(np.random.default_rng(0)))
    assert eng.pending(st).context["phase"] == "melee"


def test_situation_errors(tmp_path: Path) -> None:
    eng = OSEEngine()
    sit = {
        "acting": "Nobody",
        "sides": [
            {"combatants": [{"template": "goblin", "name": "A"}]},
            {"combatants": [{"template": "fighter_1", "name": "B"}]},
        ],
    }
    path = write(tmp_path, sit)
    with pytest.raises(ConfigError) as err:
        load_situation(eng, path, RngRoller(0))
    assert err.value.field == "acting" and "Nobody" in str(err.value)
    sit["acting"] = "A"
    sit["sides"][0]["combatants"][0]["status"] = "sleepy"
    with pytest.raises(ConfigError) as err:
        load_situation(eng, write(tmp_path, sit), RngRoller(0))
    assert err.value.field == "sides[0].combatants[0].status"
