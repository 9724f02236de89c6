"""compose(): the scenario object each system's loader returns, the default formation, and validation."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.encounters import compose, side_threat, templates, threat, threats
from npc_tactics.encounters.compose import adapter
from npc_tactics.errors import ConfigError
from npc_tactics.registry import SYSTEMS, get_system, make_engine

SYSTEM_NAMES = sorted(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_compose_returns_what_load_scenario_returns_and_plays(system: str) -> None:
    names = templates(system)
    shipped = get_system(system).load("content").load_scenario(get_system(system).default_scenario)
    sc = compose(system, [[(names[0], 2), (names[1], 1)], [(names[-1], 3)]], distance=8)
    assert type(sc) is type(shipped)
    engine = make_engine(system)
    state, _ = engine.new_combat(sc, RngRoller(np.random.default_rng(1)))
    sides = [c.side for c in state.combatants]
    assert sides.count(0) == 3 and sides.count(1) >= 3  # MRQ adds a lancer's mount after everyone
    assert [c.template for c in state.combatants[:3]] == [names[0], names[0], names[1]]
    assert engine.pending(state) is not None


def test_default_formation_ose_positions() -> None:
    sc = compose("ose", [[("goblin", 4)], [("fighter_1", 1)]], distance=12)
    from npc_tactics.systems.ose.rules.tables import metres_to_squares

    pos = [c.position for c in sc.combatants]
    assert pos[:3] == [0, 0, 0] and pos[3] == metres_to_squares(-1.5)  # three abreast, then a rank behind
    assert pos[4] == metres_to_squares(12)


def test_runequest_distance_sets_positions() -> None:
    sc = compose("runequest", [[("broo", 1)], [("wolf", 2)]], distance=10)
    assert [e["position"] for e in sc["sides"][1]["combatants"]] == [10.0, 10.0]


def test_unknown_template_names_it_and_lists_choices() -> None:
    with pytest.raises(ConfigError) as err:
        compose("ose", [[("gobbo", 1)], [("fighter_1", 1)]])
    msg = str(err.value)
    assert "sides[0][0].template" in msg and "'gobbo'" in msg and "goblin_archer" in msg


@pytest.mark.parametrize(
    ("sides", "field"),
    [
        ([[("goblin", 0)], [("orc", 1)]], "sides[0][0].count"),
        ([[("goblin", 4), ("orc", 3)], [("orc", 1)]], "sides[0]"),
        ([[("goblin", 1)]], "sides"),
        ([[("goblin",)], [("orc", 1)]], "sides[0][0]"),
    ],
)
def test_bad_counts_and_shapes(sides: list[list[tuple[object, ...]]], field: str) -> None:
    with pytest.raises(ConfigError) as err:
        compose("ose", sides)  # type: ignore[arg-type]
    assert f": {field}: " in str(err.value)


def test_bad_option_is_the_systems_own_error() -> None:
    with pytest.raises(ConfigError, match="options"):
        compose("ose", [[("goblin", 1)], [("orc", 1)]], options={"no_such_option": 1})


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_threat_table(system: str) -> None:
    table = threats(system)
    assert set(table) == set(templates(system))
    assert all(v > 0 for v in table.values())
    ref = adapter(system).threat_reference  # the fixed set the scale is made on (OSE: its 0.2.0 templates)
    scale = sorted(table[n] for n in (ref() if ref is not None else table))
    assert scale[len(scale) // 2] == pytest.approx(1.0, abs=0.5)
    t = templates(system)[0]
    assert side_threat(system, [(t, 3)]) == pytest.approx(3 * threat(system, t))


def test_threat_orders_ose_monsters_by_their_hit_dice() -> None:
    assert threat("ose", "kobold") < threat("ose", "goblin") < threat("ose", "gnoll") < threat("ose", "ogre")
    assert threat("ose", "fighter_1") < threat("ose", "fighter_2") < threat("ose", "fighter_3")
