"""``npc-tactics bestiary``: the OSE templates with their stat lines, the check of a user bestiary (exit 0 / exit 2
with one line per mistake), and a referee's own monster played through ``suggest`` (inline stat block, user
bestiary on NPC_TACTICS_BESTIARY)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from npc_tactics.cli.bestiary import BESTIARY_ENV
from tests.cli_helpers import run_cli

GHOUL_ONE = ("AC 6 [13], HD 2* (9hp), Att 1 × claw (1d4 + ~paralysis), THAC0 18 [+1], MV 90' (30'), "
             "SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25")
SITUATION = """
scenario: goblin_duel
acting: Gravemaw
sides:
  - combatants:
      - {{name: Gravemaw, {monster}, position: 0, hp: 7}}
  - combatants:
      - {{template: fighter_1, name: Brannoc, position: 1.5, hp: 5}}
"""


@pytest.fixture(autouse=True)
def _no_user_bestiary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BESTIARY_ENV, raising=False)  # --bestiary writes it; monkeypatch restores it


def test_bestiary_ose_lists_every_template_with_its_stat_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["bestiary", "ose", "--json"], capsys)
    assert code == 0, err
    rows = {r["name"]: r for r in json.loads(out)["templates"]}
    monsters = [r for r in rows.values() if r["kind"] == "monster"]
    assert len(monsters) >= 60 and all(r["stat_line"].startswith("AC ") for r in monsters)
    assert rows["ogre"]["stat_line"].startswith("AC 5 [14], HD 4+1 (19hp), Att 1 × club (1d10), THAC0 15 [+4]")
    assert rows["fighter_1"]["kind"] == "character"
    code, out, _ = run_cli(["bestiary", "ose"], capsys)
    assert code == 0 and any(line.startswith("gnoll") and "HD 2 (9hp)" in line for line in out.splitlines())


def test_bestiary_check_accepts_a_good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(f'ghoul_homebrew: "{GHOUL_ONE}"\nbear: {{ac: 7, hd: "4", attacks: "1 × hug (2d8)", '
                    f'movement: 120, morale: 7}}\n', encoding="utf-8")
    code, out, err = run_cli(["bestiary", "check", str(good)], capsys)
    assert (code, err) == (0, "")
    assert "ghoul_homebrew: AC 6 [13], HD 2* (9hp), Att 1 × claw (1d4 + ~paralysis)" in out
    assert "bear: AC 7 [12], HD 4, Att 1 × hug (2d8), THAC0 16 [+3], MV 120' (40')" in out
    code, out, _ = run_cli(["bestiary", "check", str(good), "--system", "ose", "--json"], capsys)
    assert code == 0 and json.loads(out)["ok"] is True


def test_bestiary_check_refuses_a_bad_file_with_one_line_per_mistake(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text('my_ghoul: "AC 6, HD 2, Att 1 × bit (1d3), MV 90\', ML 9"\n'
                   f'fine: "{GHOUL_ONE}"\n'
                   'my_ooze: "AC 8, HD 3*, Att 1 × touch (2d4 + acid), MV 30\', ML 12"\n'
                   'orc: "AC 6, HD 1, Att 1 × weapon (1d6), MV 120\', ML 6"\n', encoding="utf-8")
    code, out, err = run_cli(["bestiary", "check", str(bad)], capsys)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 3
    assert lines[0] == f"npc-tactics: error: {bad}: my_ghoul: Att: '1 × bit (1d3)': unknown attack form 'bit'; " \
                       "did you mean 'bite'? (forms: " + lines[0].split("(forms: ", 1)[1]
    assert f"{bad}: my_ooze: Att: '1 × touch (2d4 + acid)': acid is not modelled yet" in lines[1]
    assert f"{bad}: orc: is a shipped template" in lines[2]
    assert out.startswith("fine: AC 6 [13]")


def test_bestiary_usage_mistakes_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, expected in ((["bestiary", "check"], "expected FILE"),
                           (["bestiary", "nosuch"], "unknown system"),
                           (["bestiary", "check", str(tmp_path / "none.yaml")], "file not found"),
                           (["bestiary", "ose", "--bestiary", str(tmp_path / "none.yaml")], "no such file")):
        code, _, err = run_cli(args, capsys)
        assert code == 2 and expected in err and len(err.splitlines()) == 1, (args, err)


def test_suggest_plays_an_inline_single_attack_homebrew(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    situation = tmp_path / "ghoul.yaml"
    situation.write_text(SITUATION.format(monster=f'stat_block: "{GHOUL_ONE}"'), encoding="utf-8")
    code, out, err = run_cli(["suggest", "--situation", str(situation), "--system", "ose", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["actor"] == "Gravemaw" and len(result["moves"]) >= 2
    assert any("Gravemaw average, 2d8" in a for a in result["assumptions"])


def test_suggest_reads_a_user_bestiary_from_the_path_list(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    (tmp_path / "undead.yaml").write_text(f'ghoul_homebrew: "{GHOUL_ONE}"\n', encoding="utf-8")
    monkeypatch.setenv(BESTIARY_ENV, os.pathsep.join([str(tmp_path / "empty.yaml"), str(tmp_path / "undead.yaml")]))
    situation = tmp_path / "ghoul.yaml"
    situation.write_text(SITUATION.format(monster="template: ghoul_homebrew"), encoding="utf-8")
    code, out, err = run_cli(["suggest", "--situation", str(situation), "--system", "ose", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["actor"] == "Gravemaw"
    code, out, _ = run_cli(["bestiary", "ose", "--json"], capsys)
    row = next(r for r in json.loads(out)["templates"] if r["name"] == "ghoul_homebrew")
    assert row["source"] == str(tmp_path / "undead.yaml") and row["shipped"] is False


def test_the_bestiary_option_puts_its_files_first_on_the_path_list(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(f'ghoul_homebrew: "{GHOUL_ONE}"\n', encoding="utf-8")
    monkeypatch.setenv(BESTIARY_ENV, "elsewhere.yaml")
    from npc_tactics.cli.bestiary import use_bestiaries

    use_bestiaries([mine])
    assert os.environ[BESTIARY_ENV] == os.pathsep.join([str(mine), "elsewhere.yaml"])
    monkeypatch.delenv(BESTIARY_ENV)
    code, out, err = run_cli(["bestiary", "ose", "--json", "--bestiary", str(mine)], capsys)
    assert code == 0, err
    assert "ghoul_homebrew" in {r["name"] for r in json.loads(out)["templates"]}
