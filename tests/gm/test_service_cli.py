"""``npc-tactics serve``: bad options are one line and exit code 2; the server listens on 127.0.0.1 by default."""

from __future__ import annotations

import pytest

from tests.cli_helpers import run_cli


@pytest.mark.parametrize("args, where", [
    (["--bundles", "/nonexistent/bundles"], "--bundles"),
    (["--bundles", ".", "--port", "0"], "--port"),
    (["--bundles", ".", "--port", "70000"], "--port"),
    (["--bundles", ".", "--workers", "0"], "--workers"),
])
def test_bad_serve_options_are_one_line(args: list[str], where: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["serve", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and where in err


def test_serve_defaults_to_localhost(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: object) -> None:
    seen: dict[str, object] = {}

    def fake_serve(bundles: object, **kwargs: object) -> None:
        seen.update(kwargs, bundles=bundles)

    monkeypatch.setattr("npc_tactics.gm.service.app.serve", fake_serve)
    code, out, _ = run_cli(["serve"], capsys)  # no flag: the shipped generalists
    assert code == 0 and seen["host"] == "127.0.0.1" and seen["port"] == 8000
    assert "http://127.0.0.1:8000/" in out


def test_a_bundles_folder_with_no_bundle_is_one_line(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["serve", "--bundles", str(tmp_path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--bundles" in err, err


def test_serve_help_has_no_type_placeholders(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = run_cli(["serve", "--help"], capsys)
    assert code == 0 and "127.0.0.1" in out
    for placeholder in ("<int", "<path>", "{", "[x>=", "<=x"):
        assert placeholder not in out, placeholder


@pytest.mark.parametrize("args, where", [
    (["--queue", "65"], "--queue"),
    (["--queue", "-1"], "--queue"),
    (["--time-limit", "0"], "--time-limit"),
    (["--time-limit", "nan"], "--time-limit"),
    (["--time-limit", "1e9"], "--time-limit"),
])
def test_bad_queue_and_time_limit_are_one_line(args: list[str], where: str, tmp_path: object,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["serve", "--bundles", str(tmp_path), *args], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and where in err, err


def test_queue_and_time_limit_reach_the_server(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: object) -> None:
    seen: dict[str, object] = {}
    monkeypatch.setattr("npc_tactics.gm.service.app.serve", lambda bundles, **kw: seen.update(kw))
    from tests.security.http_server import free_port

    code, _, _ = run_cli(["serve", "--queue", "0", "--time-limit", "5", "--port",
                          str(free_port())], capsys)
    assert code == 0 and seen["max_waiting"] == 0 and seen["time_limit_s"] == 5.0
