"""The tactics measurements (npc_tactics/evaluation/tactics): exact values on hand-written fights, then real
fights of every system (the watcher changes nothing, every tactic of every system runs)."""

from __future__ import annotations

from typing import Any

import pytest

from npc_tactics.evaluation.fight import FightRecord, play_fight
from npc_tactics.evaluation.tactics import (
    COMMON_TACTICS,
    FightLog,
    Move,
    Tactics,
    focus_fire,
    measure_tactics,
    named_tactics,
    render_tactics,
    retreat_when_losing,
    tactics_hooks,
)
from npc_tactics.registry import SYSTEMS, get_system
from npc_tactics.rules.base import DecisionKind, Event, Status
from npc_tactics.systems.dicepool.tactics import defense_by_next
from npc_tactics.systems.mrq.tactics import special_effects
from npc_tactics.systems.ose.tactics import ose_spell_timing
from npc_tactics.systems.runequest.tactics import dodge_vs_parry, runequest_spell_timing

ACT, DECLARE = DecisionKind.ACT, DecisionKind.DECLARE


def record(side: int = 0, profile: dict[str, Any] | None = None, events: list[Event] | None = None,
           result: str = "win") -> FightRecord:
    results = [result, "loss"] if side == 0 else ["loss", result]
    profiles: list[dict[str, Any]] = [{}, {}]
    profiles[side] = profile or {}
    return FightRecord(seed=0, agents=("a", "b"), results=tuple(results), winner=side, rounds=3, reason="test",
                       decisions=0, decisions_per_side=(0, 0), event_counts={}, actions=({}, {}),
                       tactic_profile=tuple(profiles), statuses=({}, {}), events=events or [])


def log(moves: list[Move], sides: list[int], status: list[Status] | None = None, **kw: Any) -> FightLog:
    status = status or [Status.ACTIVE] * len(sides)
    return FightLog(0, record(**kw), moves, status, sides, [10.0] * len(sides))


def attack(rnd: int, actor: int, target: int, options: dict[int, float], verb: str = "melee") -> Move:
    return Move(rnd, actor, ACT, 0, f"{verb}:x", verb, 1.0, target, options)


# ----- focus fire ---------------------------------------------------------------------------------------------
def test_focus_fire_exact() -> None:
    # three allies (0, 1, 2) against enemies 3 and 4. Round 1:
    #   0 -> 3 (first attack: no ally before it; 3 and 4 unhurt, so no "most wounded" either)
    #   1 -> 3 (same round: yes; previous ally 0 hit 3: yes; most wounded is 4 (0.5): no)
    #   2 -> 4 (same round: 3 was attacked, 4 chosen: no; previous ally (1 -> 3): no; most wounded 4: yes)
    # Round 2:
    #   0 -> 4 (same round: nobody yet, not counted; previous ally 2 -> 4: yes; 4 (0.5) most wounded: yes)
    #   1 -> 3, only one choice left: not counted anywhere
    moves = [
        attack(1, 0, 3, {3: 1.0, 4: 1.0}),
        attack(1, 1, 3, {3: 1.0, 4: 0.5}),
        attack(1, 2, 4, {3: 1.0, 4: 0.5}),
        attack(2, 0, 4, {3: 0.9, 4: 0.5}),
        attack(2, 1, 3, {3: 0.9}),
        Move(2, 2, ACT, 0, "hold", "hold", 1.0),
    ]
    out = focus_fire([log(moves, [0, 0, 0, 1, 1])], "ose")
    assert (out["attacks"], out["attacks_with_choice"]) == (5, 4)
    assert (out["same_round"]["count"], out["same_round"]["n"]) == (1, 2)
    assert (out["previous_ally"]["count"], out["previous_ally"]["n"]) == (2, 3)
    assert (out["most_wounded"]["count"], out["most_wounded"]["n"]) == (2, 3)
    assert out["same_round"]["chance"] == 0.5  # one good target of two, each time


def test_focus_fire_ignores_non_attacks_and_counts_the_attacks_own_verbs() -> None:
    moves = [Move(1, 0, ACT, 0, "close:enemy_0", "close", 1.0, 3, {3: 1.0, 4: 1.0}),
             attack(1, 1, 3, {3: 1.0, 4: 1.0}, verb="strike")]
    out = focus_fire([log(moves, [0, 0, 0, 1, 1])], "dicepool")
    assert out["attacks"] == 1 and out["same_round"]["n"] == 0  # closing is no attack: nothing before it


# ----- retreat when losing ---------------------------------------------------------------------------------------
def test_retreat_when_losing_exact() -> None:
    # 0 withdraws at 40% HP and gets away; 1 fights on at 30% and dies; 2 is never below half; 3 is the enemy
    moves = [
        Move(1, 0, DECLARE, 0, "declare_withdraw", "declare_withdraw", 0.4),
        Move(1, 1, ACT, 0, "melee:enemy_0", "melee", 0.3),
        Move(1, 2, ACT, 0, "melee:enemy_0", "melee", 0.9),
    ]
    status = [Status.FLED, Status.DEAD, Status.ACTIVE, Status.ACTIVE]
    out = retreat_when_losing([log(moves, [0, 0, 0, 1], status)], "ose")
    assert out["losing_combatants"] == 2 and out["combatants"] == 3
    assert (out["left_when_losing"]["count"], out["left_when_losing"]["n"]) == (1, 2)
    assert out["hp_at_first_leave_mean"] == 0.4
    assert out["hp_at_first_leave_bands"]["badly hurt (25-50%]"] == 1
    assert (out["survival_if_left"]["count"], out["survival_if_left"]["n"]) == (1, 1)
    assert (out["survival_if_stayed"]["count"], out["survival_if_stayed"]["n"]) == (0, 1)
    assert (out["survival_all_who_left"]["count"], out["survival_all_who_left"]["n"]) == (1, 1)
    assert (out["survival_all_who_stayed"]["count"], out["survival_all_who_stayed"]["n"]) == (1, 2)


def test_ending_fled_counts_as_leaving_even_without_a_leave_verb() -> None:
    moves = [Move(1, 0, ACT, 0, "move_away", "move_away", 0.2)]
    out = retreat_when_losing([log(moves, [0, 1], [Status.FLED, Status.ACTIVE])], "ose")
    assert out["left_when_losing"]["count"] == 1 and out["leave_decisions"] == 0


def test_leaving_unhurt_falls_in_the_unhurt_band() -> None:
    moves = [Move(1, 0, DECLARE, 0, "declare_retreat", "declare_retreat", 1.0),
             Move(1, 1, DECLARE, 0, "declare_retreat", "declare_retreat", 0.75)]
    bands = retreat_when_losing([log(moves, [0, 0, 1])], "ose")["hp_at_first_leave_bands"]
    assert bands == {"unhurt (100%)": 1, "lightly hurt (50-100%)": 1, "badly hurt (25-50%]": 0,
                     "near down (<=25%)": 0}


# ----- the system-specific ones ------------------------------------------------------------------------------------
def test_dodge_vs_parry_reads_the_profile() -> None:
    profile = {"parry_vs_light": 6, "dodge_vs_light": 2, "dodge_vs_great": 5, "parry_vs_great": 1,
               "no_defence_vs_great": 1, "attacks": 9}
    out = dodge_vs_parry([log([], [0, 1], profile=profile)])
    assert out["by_class"]["light"]["dodge_share"]["rate"] == 0.25
    assert out["by_class"]["great"]["dodge_share"]["rate"] == 5 / 6 and out["by_class"]["great"]["none"] == 1


def test_runequest_spell_timing_against_the_enemy_blow() -> None:
    ev = [
        Event("attack", 1, 1, 0, {"sr": 7, "free": False}),
        Event("spell", 1, 0, 1, {"sr": 3, "result": "success"}),  # SR 3 before the SR 7 blow
        Event("attack", 2, 1, 0, {"sr": 5, "free": False}),
        Event("spell", 2, 0, 1, {"sr": 8, "result": "failure"}),  # SR 8 after the SR 5 blow
        Event("spell", 3, 0, 1, {"sr": 9, "result": "success"}),  # no enemy blow in round 3
    ]
    moves = [Move(r, 0, DECLARE, 0, "cast:disruption:enemy_0", "cast", 1.0) for r in (1, 2, 3)]
    out = runequest_spell_timing([log(moves, [0, 1], events=ev)])
    assert out["spells"] == 3 and out["went_before_enemy_blow"]["count"] == 2
    assert out["cast_declarations_by_round"] == {"1": 1, "2": 1, "3+": 1}


def test_ose_spell_timing() -> None:
    moves = [Move(1, 0, DECLARE, 0, "cast:sleep:enemy_0", "cast", 1.0, context={"engaged": True}),
             Move(2, 0, DECLARE, 0, "cast:sleep:enemy_0", "cast", 1.0, context={"engaged": False})]
    ev = [Event("spell_disrupted", 1, 0, None, {"result": "disrupted"})]
    out = ose_spell_timing([log(moves, [0, 1], events=ev)])
    assert out["casts_declared"] == 2
    assert out["disrupted"]["count"] == 1 and out["declared_in_melee"]["count"] == 1


def test_special_effects_and_defense_by_next() -> None:
    moves = [Move(1, 0, DecisionKind.EFFECT, 0, "impale", "impale", 1.0, context={"role": "attacker", "margin": 1}),
             Move(1, 0, DecisionKind.EFFECT, 0, "bash", "bash", 1.0, context={"role": "attacker", "margin": 1})]
    out = special_effects([log(moves, [0, 1])])
    assert out["by_situation"] == {"attacker:margin_1": {"impale": 1, "bash": 1}}
    splits = [Move(1, 0, DecisionKind.SPLIT, 0, f"split:{d}", "split", 1.0, context={"next": n})
              for d, n in ((2, "enemy"), (0, "enemy"), (0, "self"))]
    out = defense_by_next([log(splits, [0, 1])])
    assert out["by_next"]["enemy"]["mean_defense_dice"] == 1.0
    assert out["by_next"]["enemy"]["any_defense"]["count"] == 1 and out["by_next"]["self"]["blows"] == 1


# ----- the hook ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_system_lists_the_shared_tactics_and_its_verbs(system: str) -> None:
    hooks = tactics_hooks(system)
    assert isinstance(hooks, Tactics) and hooks.profile is not None and hooks.leaderboard_counter is not None
    assert {"retreat_when_losing", "focus_fire"} <= set(hooks.names) and hooks.attack_verbs and hooks.leave_verbs
    assert not hooks.attack_verbs & hooks.leave_verbs


def test_a_system_without_tactics_gets_the_common_ones(fake_system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    monkeypatch.setitem(SYSTEMS, fake_system, dataclasses.replace(SYSTEMS[fake_system], tactics=""))
    assert tactics_hooks(fake_system) is None and named_tactics(fake_system) == COMMON_TACTICS
    moves = [Move(1, 0, ACT, 0, "flee", "flee", 0.2), attack(1, 0, 2, {2: 1.0, 3: 1.0}, verb="attack")]
    lg = log(moves, [0, 1, 1], [Status.ACTIVE, Status.ACTIVE, Status.ACTIVE])
    assert retreat_when_losing([lg], fake_system)["leave_decisions"] == 0  # no leave verbs: nothing counts
    assert focus_fire([lg], fake_system)["attacks"] == 0


# ----- real fights ------------------------------------------------------------------------------------------------
SKIRMISHES = {"ose": "goblin_band", "runequest": "skirmish_3v3", "mrq": "skirmish_2v2", "dicepool": "skirmish_2v3"}


@pytest.mark.parametrize("system", sorted(SKIRMISHES))
def test_watching_changes_nothing_and_moves_are_the_sides(system: str) -> None:
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.evaluation.fight import agent_rngs
    from npc_tactics.evaluation.tactics import play_watched

    arena = Arena.build(system, SKIRMISHES[system])
    book = agent_factory(system, "by-the-book")
    logs = play_watched(arena, book, book, 1, 4, seed=3)
    for k, lg in enumerate(logs):
        rngs = agent_rngs(3 + k, 2)
        plain = play_fight(arena.engine, arena.encoder, arena.scenario,
                           [book(arena.engine, rngs[0]), book(arena.engine, rngs[1])], 3 + k)
        assert plain.results == lg.record.results and plain.decisions == lg.record.decisions
        assert lg.moves and all(lg.sides[m.actor] == 1 for m in lg.moves)
        assert len(lg.moves) == lg.record.decisions_per_side[1]
        for m in lg.moves:
            assert all(lg.sides[i] == 0 for i in m.options)
            assert m.target is None or m.target in m.options


@pytest.mark.parametrize("system", sorted(SKIRMISHES))
def test_every_tactic_of_every_system_runs_and_renders(system: str) -> None:
    data = measure_tactics(get_system(system), ["by-the-book", "aggressive"], scenario=SKIRMISHES[system], fights=3)
    for player in data["players"].values():
        assert list(player) == ["results", *(name for name, _ in named_tactics(system))]
    text = render_tactics(data)
    assert text.startswith("## Tactics") and "### focus fire" in text and "by-the-book" in text


def test_evaluate_tactics_adds_the_section_to_the_report(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from tests.cli_helpers import run_cli

    code, _, err = run_cli(["evaluate", "--agents", "by-the-book,aggressive", "--system", "dicepool", "--scenario",
                            "skirmish_2v3", "--fights", "3", "--out", str(tmp_path / "ev"), "--no-progress",
                            "--tactics"], capsys)
    assert code == 0, err
    report = (tmp_path / "ev" / "report.md").read_text()
    assert "## Tactics" in report and "### defense by next" in report
    data = json.loads((tmp_path / "ev" / "results.json").read_text())
    assert set(data["tactics"]["players"]) == {"by-the-book", "aggressive"}


@pytest.mark.integration
def test_tactics_benchmarks_on_a_tiny_band_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import subprocess
    import sys
    from pathlib import Path

    from npc_tactics.training.config import parse_train_config
    from npc_tactics.training.train import train

    config = parse_train_config({
        "system": "ose", "scenario": "goblin_band",
        "opponents": {"pool": [{"agent": "aggressive", "weight": 2}, {"agent": "self", "every": 128}]},
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "budget": {"timesteps": 256, "n_envs": 2, "eval_every": 0, "eval_episodes": 2, "checkpoint_every": 0},
    })
    run = train(config, tmp_path / "band", progress=False)
    root = Path(__file__).resolve().parents[2]

    def script(*args: str) -> dict[str, Any]:
        proc = subprocess.run([sys.executable, *args, "--json"], cwd=root, capture_output=True, text=True,
                              check=True)
        return json.loads(proc.stdout)  # type: ignore[no-any-return]

    data = script("benchmarks/ose_tactics.py", str(run), "--tactics", "--fights", "2")
    assert set(data["players"]) == {"by-the-book", "band"}
    assert "focus_fire" in data["players"]["band"] and "spell_timing" in data["players"]["band"]
    focus = script("benchmarks/skirmish_focus.py", str(run), "--fights", "2")
    assert focus["trained_band"]["focus_fire"]["attacks"] > 0
    assert focus["scripted_band_on_its_seat"]["focus_fire"]["attacks"] > 0
