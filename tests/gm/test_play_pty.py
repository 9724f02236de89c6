"""``npc-tactics play`` driven end to end through a pseudo-terminal (pexpect), as a person at the table would:
a full fight with typed choices, a manual-dice round with one impossible face, French, a bad bundle path,
quitting with 'q', Ctrl-D and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pexpect  # in the dev extra: make test installs it, so a missing pexpect fails instead of skipping
import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MOVE = re.compile(r"(?:Your move for|Votre action pour) .+? \[1-(\d+)\] ?: ")
DIE = re.compile(r"(?:Roll a|Lancez un) d(\d+)[^\r\n]*\[1-(\d+)\] ?: ")
END = re.compile(r"(?:End of the fight after|Fin du combat apr)")


def _default_sigint() -> None:
    """In the child, before exec: Ctrl-C does what it does at a terminal. A test run started in the background
    (``make test &``, ``nohup``) inherits SIGINT ignored, and so would the child, which then never sees the
    Ctrl-C of ``test_ctrl_c_exits_130``."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200", PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(sys.executable, ["-m", "npc_tactics.cli.main", "play", *args], env=env, cwd=str(ROOT),
                          timeout=60, dimensions=(50, 200), encoding="utf-8", preexec_fn=_default_sigint)
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    return int(child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0))


def test_full_fight_with_typed_choices(ose_bundle: Path) -> None:
    child = spawn("ose", "goblin_duel", "--bundle", str(ose_bundle), "--seed", "3")
    # the sides by the names goblin_duel gives them
    child.expect(r"you play adventurers \(Brannoc\); the bundle goblin-bundle plays goblins \(Snikkit\)")
    seen = {"moves": 0, "npc": 0}
    bad_sent = False
    while True:
        which = child.expect([MOVE, END, r"\(NPC\) chooses: "])
        if which == 1:
            break
        if which == 2:
            seen["npc"] += 1
            continue
        n = int(child.match.group(1))
        if not bad_sent:  # one answer that is not a move: asked again, nothing played
            child.sendline("7" if n < 7 else "0")
            child.expect(rf"Please type a number from 1 to {n}")
            child.expect(MOVE)
            bad_sent = True
        child.sendline(str(n))  # the last move listed: in goblin_duel it closes in or withdraws, so the fight moves
        seen["moves"] += 1
        assert seen["moves"] < 200, "the fight should end"
    child.expect(r"(You win\.|The NPCs win\.|A draw\.|Your side fled the field\.)")
    assert finish(child) == 0
    assert seen["moves"] >= 1 and seen["npc"] >= 1 and bad_sent


def test_manual_dice_round_with_an_impossible_face(ose_bundle: Path) -> None:
    child = spawn("ose", "goblin_duel", "--bundle", str(ose_bundle), "--dice", "manual")
    child.expect("Dice: you roll them and type each face.")
    refused = False
    asked: list[str] = []
    while True:
        which = child.expect([DIE, MOVE, r"=== Round 2 ===", END])
        if which >= 2:
            break
        if which == 1:
            child.sendline("1")
            continue
        sides = int(child.match.group(1))
        assert int(child.match.group(2)) == sides
        line = child.match.group(0)
        asked.append(line)
        if not refused:
            assert " for " in line  # which die and why
            child.sendline(str(sides + 1))
            child.expect(rf"{sides + 1} is impossible on a d{sides}: type a face from 1 to {sides}\.")
            child.expect(DIE)
            assert int(child.match.group(1)) == sides  # the same die is asked again
            refused = True
        child.sendline(str(min(sides, 3)))
    child.sendeof()
    child.expect("Fight stopped. Goodbye.")
    assert finish(child) == 0
    assert refused and any("hit points" in a for a in asked) and any("initiative" in a for a in asked)


def test_french_output(ose_bundle: Path) -> None:
    child = spawn("ose", "goblin_duel", "--bundle", str(ose_bundle), "--lang", "fr", "--seed", "3")
    child.expect("vous jouez adventurers \\(Brannoc\\) ; le paquet goblin-bundle joue goblins \\(Snikkit\\)")
    child.expect("Dés : lancés par le moteur \\(graine 3\\)")
    child.expect(r"\(PNJ\) choisit : ")
    child.expect(MOVE)
    child.sendline("abc")
    child.expect("Tapez un nombre de 1 à")
    child.sendline("q")
    child.expect("Combat interrompu. Au revoir.")
    assert finish(child) == 0


def test_bad_bundle_path_is_one_line_exit_2(tmp_path: Path) -> None:
    child = spawn("ose", "goblin_duel", "--bundle", str(tmp_path / "nowhere"))
    child.expect(pexpect.EOF)
    child.close()
    out = (child.before or "").strip()
    assert child.exitstatus == 2
    assert out.count("\n") == 0 and "bundle folder not found" in out and "Traceback" not in out


def test_bundle_of_another_system_is_one_line_exit_2(ose_bundle: Path) -> None:
    child = spawn("mrq", "shield_vs_greataxe", "--bundle", str(ose_bundle))
    child.expect(pexpect.EOF)
    child.close()
    out = (child.before or "").strip()
    assert child.exitstatus == 2
    assert out.count("\n") == 0 and "plays 'ose', not 'mrq'" in out


def test_ctrl_c_exits_130(ose_bundle: Path) -> None:
    child = spawn("ose", "goblin_duel", "--bundle", str(ose_bundle), "--seed", "3")
    child.expect(MOVE)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")
