"""The combat tracker's fight (issue 29): whole fights to their end with seeded dice, the players' moves, the
advisor's moves and typed dice; undo is exact; save and load give the same fight; mistakes name their field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.table.fight_file import fight_from_dict, fight_to_dict
from npc_tactics.gm.table.fight_view import log_lines, view
from npc_tactics.gm.table.tracker import Fight, SideSpec

pytestmark = pytest.mark.integration
#: A goblin as the OSE book prints it (OSE Classic Fantasy: Monsters, "Goblin").
GOBLIN_LINE = ("AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), SV D14 W15 P16 B17 "
               "S18 (NH), ML 7, AL Chaotic, XP 5")
PREFERS = ("melee:", "attack", "shoot:", "close:", "declare_none")


def players_move(fight: Fight) -> int:
    """The PCs fight: the first legal melee, shot or approach (what a player usually declares)."""
    names = fight.engine.catalogue.names
    legal = fight.legal()
    for prefix in PREFERS:
        for a in legal:
            if str(names[a]).startswith(prefix):
                return a
    return legal[0]


def ose_fight(dice: str = "pcs", seed: int = 7) -> Fight:
    fight = Fight("ose", sides=[SideSpec("Goblins", "npc"), SideSpec("Party", "pc")], seed=seed, dice=dice)
    for _ in range(4):
        fight.add(0, "goblin")
    fight.add(0, name="Pasted goblin", fields={"stat_block": GOBLIN_LINE})
    for template in ("fighter_2", "cleric_2", "thief_2"):
        fight.add(1, template)
    fight.add(1, name="Orrin", fields={"class": "magic-user", "level": 1})
    return fight


def run(fight: Fight, *, odds: int = 4, undo_at: int | None = None, check: Any = None) -> dict[str, int]:
    """Play ``fight`` to its end; at step ``undo_at``, play a move, undo it and check the fight is as before."""
    seen = {"npc": 0, "pc": 0, "typed": 0, "undo": 0}
    face = 0
    for _ in range(3000):
        if fight.outcome() is not None:
            break
        if fight.prompt is not None:
            face += 1
            fight.type_die(1 + face % fight.prompt.sides)
            seen["typed"] += 1
            continue
        if undo_at is not None and len(fight.played) == undo_at and not seen["undo"]:
            before = json.dumps(view(fight, "en"), sort_keys=True)
            saved = fight_to_dict(fight)
            fight.play(players_move(fight) if fight.who_decides() == "pc" else fight.legal()[0])
            while fight.prompt is not None:
                fight.type_die(1)
            assert json.dumps(view(fight, "en"), sort_keys=True) != before
            fight.undo()
            assert json.dumps(view(fight, "en"), sort_keys=True) == before
            assert fight_to_dict(fight) == saved
            seen["undo"] += 1
        if fight.who_decides() == "npc":
            advice = fight.play_advice(odds=odds)
            step = fight.partial or fight.played[-1].step  # with typed dice, the step may wait for a die
            assert step.by == "advisor" and step.action == advice["do"]["index"]
            seen["npc"] += 1
        else:
            fight.play(players_move(fight))
            seen["pc"] += 1
        if check is not None:
            check(fight)
    assert fight.outcome() is not None
    return seen


def same(a: Fight, b: Fight) -> None:
    for lang in ("en", "fr"):
        assert json.dumps(view(a, lang), sort_keys=True) == json.dumps(view(b, lang), sort_keys=True)


def test_a_whole_ose_fight_with_typed_dice_advisor_undo_save_and_load() -> None:
    fight = ose_fight()
    fight.start()
    assert fight.decision is not None and len(fight.state.combatants) == 9
    assert [c.name for c in fight.state.combatants][4] == "Pasted goblin"
    middle: list[dict[str, Any]] = []

    def keep_middle(f: Fight) -> None:
        if len(f.played) >= 12 and f.prompt is None and not middle:
            middle.append(fight_to_dict(f))

    seen = run(fight, undo_at=6, check=keep_middle)
    assert seen["npc"] and seen["pc"] and seen["typed"] and seen["undo"] == 1
    # save and load at the end: the same fight, word for word, in both languages
    saved = json.loads(json.dumps(fight_to_dict(fight)))
    loaded = fight_from_dict(saved)
    same(loaded, fight)
    assert log_lines(loaded, "fr")[-1]["kind"] == "end"
    # loaded in the middle, played on with the same moves: the same end
    again = fight_from_dict(middle[0])
    for p in fight.played[len(again.played):]:
        if again.prompt is not None:
            raise AssertionError("the saved steps hold every typed face")
        again._run(type(p.step)(p.step.action, list(p.step.typed), p.step.by))
    same(again, fight)


def test_the_log_reads_as_a_story_with_the_moves_and_who_chose_them() -> None:
    fight = ose_fight(dice="auto", seed=3)
    fight.start()
    run(fight, odds=0)
    lines = log_lines(fight, "en")
    kinds = {line["kind"] for line in lines}
    assert {"round", "move", "event", "end"} <= kinds
    assert lines[0]["text"] == "=== Round 1 ==="
    assert any("(advisor)" in line["text"] for line in lines) and any("(GM)" in line["text"] for line in lines)
    fr = log_lines(fight, "fr")
    assert len(fr) == len(lines) and fr[1]["text"] != lines[1]["text"]  # the narration is French


def test_a_seeded_fight_replays_exactly_and_typed_faces_give_the_same_fight() -> None:
    auto = ose_fight(dice="auto", seed=11)
    auto.start()
    run(auto, odds=0)
    again = ose_fight(dice="auto", seed=11)
    again.start()
    run(again, odds=0)
    same(auto, again)
    # the GM types exactly the faces the engine rolled: the same fight (the dice are the only randomness)
    typed = ose_fight(dice="manual", seed=99)
    typed.replay([type(p.step)(p.step.action, [f for _s, f, _t in p.dice], p.step.by) for p in auto.played])
    assert [json.dumps([e.to_dict() for e in p.events]) for p in typed.played] == \
        [json.dumps([e.to_dict() for e in p.events]) for p in auto.played]


@pytest.mark.parametrize("system", ["runequest", "dicepool"])
def test_a_whole_fight_of_another_system(system: str) -> None:
    fight = Fight(system, seed=2, dice="manual")
    templates = fight.templates()
    fight.add(0, templates[0])
    fight.add(0, templates[1])
    fight.add(1, templates[2])
    fight.add(1, templates[3])
    fight.start()
    assert fight.prompt is not None or not fight.played[0].dice  # manual dice: the opening's dice are typed
    seen = run(fight, odds=2, undo_at=5)
    assert seen["typed"] and seen["npc"] and seen["pc"] and seen["undo"] == 1
    same(fight_from_dict(json.loads(json.dumps(fight_to_dict(fight)))), fight)


def test_a_typed_die_waits_and_undo_takes_back_one_face() -> None:
    fight = ose_fight(dice="manual")
    fight.start()
    prompt = fight.prompt
    assert prompt is not None and prompt.sides == 8 and prompt.why
    text = view(fight, "en")["die"]["text"]
    assert text.startswith("Roll a d8 for hit points")
    with pytest.raises(ConfigError) as bad:
        fight.type_die(9)
    assert bad.value.field == "face" and "d8" in bad.value.message
    with pytest.raises(UserError, match="a die is awaited"):
        fight.play(0)
    fight.type_die(5)
    fight.type_die(2)
    assert fight.partial is not None and fight.partial.typed == [5, 2]
    saved = fight_to_dict(fight)
    assert saved["pending"] == {"action": None, "typed": [5, 2], "by": "gm"}
    same(fight_from_dict(saved), fight)
    fight.undo()
    assert fight.partial is not None and fight.partial.typed == [5]
    fight.undo()
    fight.undo()
    assert not fight.started and fight.prompt is None  # back to the set-up


def test_advice_ranks_by_the_outcome_with_shares_adding_up() -> None:
    fight = ose_fight(dice="auto", seed=5)
    fight.start()
    while fight.who_decides() != "npc":
        fight.play(players_move(fight))
    advice = fight.advise(odds=12)
    assert advice["ranked_by"] == "rollouts" and advice["do_text"].startswith("Do: ")
    rows = [advice["do"], *advice["alternatives"]]
    assert 1 <= len(advice["alternatives"]) <= 3
    for row in rows:
        assert sum(row["shares"].values()) == pytest.approx(1.0)
        assert 0 <= row["survival"] <= 1 and "lives" in row["odds_text"]
    alternatives = [r["score"] for r in rows[1:]]
    assert alternatives == sorted(alternatives, reverse=True) or any("cannot tell" in n for n in advice["notes"])
    if any(score > rows[0]["score"] for score in alternatives):  # the policy's move kept: the rest is noise
        assert any("not clearly enough" in n or "cannot tell" in n for n in advice["notes"])
    assert advice["do"]["tied"]
    policy_only = fight.advise(odds=0, lang="fr")
    assert policy_only["ranked_by"] == "policy" and policy_only["do"].get("shares") is None


def test_setup_mistakes_name_their_field() -> None:
    fight = Fight("ose")
    with pytest.raises(ConfigError) as bad:
        fight.add(0, "gobbo")
    assert bad.value.field == "template" and "goblin" in bad.value.message
    with pytest.raises(ConfigError) as bad:
        fight.add(0, fields={"stat_block": "AC 6 [13], HD banana"})
    assert bad.value.field.startswith("stat_block")
    fight.add(0, "goblin", name="Grib")
    with pytest.raises(ConfigError, match="already called"):
        fight.add(1, "goblin", name="Grib")
    with pytest.raises(ConfigError) as bad:
        fight.start()
    assert bad.value.field == "sides[1]"
    with pytest.raises(ConfigError) as bad:
        Fight("ose", dice="loaded")
    assert bad.value.field == "dice"
    with pytest.raises(ConfigError) as bad:
        Fight("ose", options={"no_such_option": 1})
    assert bad.value.field == "options"


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.update(version=9), "version"),
    (lambda d: d.update(format="pickle"), "format"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d["combatants"][0]["entry"].update(template="gobbo"), "combatants[0].template"),
    (lambda d: d["steps"][3].update(action="fly_away"), "steps[3].action"),
    (lambda d: d["steps"][3].update(action="declare_retreat" if d["steps"][3]["action"] != "declare_retreat"
                                    else "hold"), "steps[3].action"),
    (lambda d: d["steps"][0].update(typed=["six"]), "steps[0].typed"),
    (lambda d: d.update(seed=-1), "seed"),
    (lambda d: d["sides"][1].update(control="robot"), "sides[1].control"),
])
def test_a_bad_saved_fight_is_refused_naming_the_field(change: Any, field: str) -> None:
    fight = ose_fight(dice="auto")
    fight.start()
    for _ in range(6):
        fight.play(players_move(fight) if fight.who_decides() == "pc" else fight.legal()[-1])
    data = json.loads(json.dumps(fight_to_dict(fight)))
    change(data)
    with pytest.raises(ConfigError) as bad:
        fight_from_dict(data)
    assert bad.value.field == field, str(bad.value)


def test_every_word_of_the_tracker_page_is_listed_for_the_catalogue() -> None:
    """The page shows its words through ``tr("...")`` and ``data-tr``: each must be in TRACKER_STRINGS (what
    ``GET /i18n/{lang}`` translates), and each listed word must be on the page."""
    import re
    from pathlib import Path

    from npc_tactics.gm.service.web_strings import TRACKER_STRINGS

    web = Path(__file__).resolve().parents[2] / "npc_tactics" / "gm" / "service" / "web"
    words = set(re.findall(r'data-tr="([^"]+)"', (web / "tracker.html").read_text(encoding="utf-8")))
    for script in ("tracker.js", "tracker_parties.js"):
        words |= set(re.findall(r'\btr\("([^"]+)"\)', (web / script).read_text(encoding="utf-8")))
    assert words == set(TRACKER_STRINGS)


@pytest.mark.parametrize(("gain", "overruled"), [(0.3, True), (0.02, False)])
def test_the_advisor_overrules_the_policy_only_on_clear_evidence(monkeypatch: pytest.MonkeyPatch, gain: float,
                                                                 overruled: bool) -> None:
    """The move to play is the policy's unless another candidate beats it by the search's rule (margin and two
    standard errors of the paired difference): a candidate ``gain`` better on 40 crafted rollouts of the same
    dice."""
    from npc_tactics.gm.table import fight_advice
    from npc_tactics.rollouts.run import Rollout

    fight = ose_fight(dice="auto", seed=5)
    fight.start()
    while fight.who_decides() != "npc":
        fight.play(players_move(fight))
    n = 40

    def crafted(job: Any, moves: list[int], count: int, **_: Any) -> dict[int, list[Rollout]]:
        assert count == n
        other = moves[1]  # the policy's second choice; moves[0] is its own
        out = {}
        for m in moves:  # the other candidate wins a share `gain` more of the same fights; the rest all lose
            wins = round(n * (0.4 + (gain if m == other else 0.0)))
            out[m] = [Rollout(m, k, k, "win" if k < wins else "loss", "dead", 3, 6) for k in range(n)]
        return out

    monkeypatch.setattr(fight_advice, "run_rollouts", crafted)
    advice = fight.advise(odds=n)
    policy_move = fight.advise(odds=0)["do"]["index"]
    assert (advice["do"]["index"] != policy_move) is overruled
    noise = any("not clearly enough" in note or "cannot tell" in note for note in advice["notes"])
    assert noise is (not overruled)  # the higher score kept back is said to be noise
