"""Issue 10, MRQ point 6, "defending the mount" (mrq-opposed.fr.txt line 14, §13): "Il peut dépenser une
Réaction pour utiliser sa propre compétence d'arme ou d'Equitation à la place de la compétence de leur
monture, en vue de défendre celle-ci contre des attaques." The mount is a combatant of its own (warhorse
template), attackable, defended by its rider's Reaction; a fallen mount throws its rider (mounts.py)."""

from __future__ import annotations

import pytest
import yaml

from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import DecisionKind, SideResult, Status
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import mounts, rounds
from npc_tactics.systems.mrq.rules.actions import EFFECT_IDX, IDX, TARGETED
from npc_tactics.systems.mrq.rules.scenario import load_scenario, scenario_from_mapping
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary
from npc_tactics.systems.mrq.rules.tables import CLOSE, MOUNTED_BONUS
from tests.rules.mrq.helpers import duel, kinds, sink

SPEAR, RIDER, HORSE = 0, 1, 2


def _lancer():  # type: ignore[no-untyped-def]
    """Spearman (side 0) vs the mounted lancer (side 1) at long distance; the warhorse is combatant 2."""
    eng, st = duel("spearman", "mounted_lancer")
    st.combatants[HORSE].cas = 0
    return eng, st


def test_6_the_mount_is_a_combatant_that_can_be_attacked() -> None:
    """The lancer brings its warhorse (own location HP and skill): the spearman may strike it (enemy_1)."""
    eng, st = _lancer()
    horse = st.combatants[HORSE]
    assert horse.template == "warhorse" and horse.rider == RIDER and st.combatants[RIDER].mount == HORSE
    assert horse.side == 1 and horse.prof.body == "quadruped" and horse.hp > st.combatants[RIDER].hp
    assert TARGETED["attack"][1] in eng.act_options(st, SPEAR)
    assert [s for s in load_scenario("lancer_charge").mounts] == [(1, 2)]


def test_6_rider_spends_a_reaction_to_defend_the_mount_with_its_riding() -> None:
    """The REACT decision is the rider's; `defend` spends the rider's Reaction and opposes its better skill
    (Riding 70 over the lance-and-shield style) instead of the horse's 45."""
    _, st = _lancer()
    s = sink(80, 20)  # spear 80 vs 65: failure; the rider's 20 vs 70: success -> the defender wins
    X.start_attack(st, s, SPEAR, HORSE, "normal")
    assert st.decision is not None and st.decision.kind == DecisionKind.REACT
    assert st.decision.actor == RIDER and st.decision.context["mount"]
    assert set(X.react_options(st)) == {IDX["defend"], IDX["precise_defence"], IDX["no_reaction"]}
    X.answer_react(st, s, "defend")
    att = kinds(s, "attack")[0]
    assert att["def_skill"] == mounts.guard_skill(st.combatants[RIDER]) == 70
    assert st.combatants[RIDER].reactions == 2 and st.combatants[HORSE].reactions == 3
    assert st.decision is not None and st.decision.kind == DecisionKind.EFFECT
    assert st.decision.actor == RIDER  # the rider picks the defender's effect, and the horse never ripostes
    assert EFFECT_IDX["riposte"][0] not in st.mask_cache[1].nonzero()[0]  # type: ignore[index]


def test_6_without_the_rider_the_mount_defends_with_its_own_skill() -> None:
    _, st = _lancer()
    s = sink(80, 20)
    X.start_attack(st, s, SPEAR, HORSE, "normal")
    X.answer_react(st, s, "no_reaction")
    assert kinds(s, "attack")[0]["def_skill"] == 45 and kinds(s, "attack")[0]["defence"] == "defend"
    assert st.combatants[RIDER].reactions == 3 and st.combatants[HORSE].reactions == 2


def test_6_rider_without_reactions_is_not_asked() -> None:
    _, st = _lancer()
    st.combatants[RIDER].reactions = 0
    s = sink(80, 20)
    X.start_attack(st, s, SPEAR, HORSE, "normal")
    assert kinds(s, "attack")[0]["def_skill"] == 45  # resolved at once: the horse defends itself


def test_6_mount_and_rider_share_their_place() -> None:
    _, st = _lancer()
    st.set_distance(SPEAR, RIDER, CLOSE)
    assert st.distance(SPEAR, HORSE) == CLOSE


def test_6_a_fallen_mount_throws_its_rider() -> None:
    """Off its horse the knight is prone and on foot: no +20% against the spearman, no horse's damage
    modifier; the horse is out but the fight goes on."""
    _, st = _lancer()
    rider = st.combatants[RIDER]
    assert F.attack_skill(st, RIDER, SPEAR) == F.base_skill(rider) - F.penalty(rider) + MOUNTED_BONUS
    st.combatants[HORSE].status = Status.INCAPACITATED
    s = sink()
    mounts.update(st, s)
    assert rider.mount == -1 and rider.prone and not rider.prof.mounted and rider.prof.mount_dm == ""
    assert F.attack_skill(st, RIDER, SPEAR) == F.base_skill(rider) - F.penalty(rider)
    assert kinds(s, "dismounted") and not rounds.check_end(st)


def test_6_a_fallen_rider_leaves_a_bolting_horse_that_does_not_count() -> None:
    _, st = _lancer()
    st.combatants[RIDER].status = Status.DEAD
    s = sink()
    mounts.update(st, s)
    assert st.combatants[HORSE].status == Status.FLED and kinds(s, "mount_bolts")
    assert rounds.check_end(st) and st.result is not None and st.result.reason == "defeated"
    assert st.result.results[1] == SideResult.LOSS  # the bolting horse does not make its side FLED


def test_6_no_mounted_bonus_against_a_mount() -> None:
    _, st = duel("mounted_lancer", "mounted_lancer")
    a = st.combatants[0]
    d_horse = next(i for i, c in enumerate(st.combatants) if c.rider == 1)
    assert F.attack_skill(st, 0, d_horse) == F.base_skill(a) - F.penalty(a)


def test_6_mounts_count_towards_the_six_a_side() -> None:
    side = [{"template": "mounted_lancer", "name": "L"}] + [
        {"template": "swordsman", "name": f"S{k}"} for k in range(5)
    ]
    data = {"sides": [{"combatants": side}, {"combatants": [{"template": "wolf"}]}]}
    with pytest.raises(ConfigError, match="mounts included"):
        scenario_from_mapping(data)


def test_6_a_mount_template_must_exist(tmp_path) -> None:  # type: ignore[no-untyped-def]
    raw = load_bestiary()
    bad = {"templates": {"knight": {**raw["mounted_lancer"], "mount": {"str": 28, "siz": 26, "template": "unicorn"}}}}
    path = tmp_path / "bestiary.yaml"
    path.write_text(yaml.safe_dump(bad))
    with pytest.raises(ConfigError, match="mount.template"):
        load_bestiary(str(path))
