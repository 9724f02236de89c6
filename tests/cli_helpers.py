"""Run the real CLI entry point in-process and collect what a user would see (exit code, stdout, stderr)."""

from __future__ import annotations

import pytest

from npc_tactics.cli.main import main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``npc-tactics ARGS`` through ``main``: its exit code (0 when it returns), stdout and stderr."""
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
