"""The command line's plumbing: help screens in words, the range checks of typed numbers, ``--out`` and
``--option`` checks, and run-folder defaults. Kept apart so ``cli.py`` reads as the list of commands."""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from npc_tactics.errors import UserError, shown
from npc_tactics.limits import MAX_FIGHTS, MAX_TIMESTEPS, check_seed

__all__ = [
    "Command",
    "Group",
    "check_fights",
    "check_host",
    "check_listen",
    "check_lineup",
    "check_out",
    "check_port",
    "check_runs_fit",
    "check_seed_option",
    "check_timesteps",
    "guard_params",
    "plain_integer",
    "print_first_agent",
    "report_write_error",
    "rules_options",
    "show_version",
    "split_agents",
    "system_scenario_from_runs",
]


class _Words:
    """Help screens in words: ``SYSTEM`` rather than ``{system} <str>``, no ``<bool>`` after flags (typer
    prints the Python type of every parameter and braces around required arguments); and every typed value
    checked before typer converts it (plain-digit integers, no empty names: :func:`guard_params`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = guard_params(super().get_params(ctx))  # type: ignore[misc]  # mixed into typer's classes
        for param in params:
            # instance attributes shadow typer's methods for this help screen only
            if isinstance(param, TyperArgument):
                param.get_usage_pieces = _usage_word(param.display_name_raw)  # type: ignore[method-assign]  # see above
                param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]  # see above
            elif param.name == "help":
                param.display_type_rich = lambda ctx: ""
        return params


def _usage_word(name: str) -> Any:
    def pieces(ctx: Any) -> list[str]:
        return [name]

    return pieces


class Command(_Words, TyperCommand):
    pass


class Group(_Words, TyperGroup):
    command_class = Command


# ----- every typed value, before typer converts it ---------------------------------------------------------
# Typer converts option values with pydantic in lax mode, which reads ``1_0`` as 10, ``" 10 "`` as 10, ``10.0``
# as 10 and ``+5`` as 5: a typo or a paste from Python code silently became another number. And an empty
# ``--scenario ''`` (a shell variable left empty) arrived as ``""``, which the commands took for "not given".
# :func:`guard_params` wraps each parameter so that, before any conversion, an integer is plain ASCII digits
# with an optional leading ``-`` (the range checks then name the range), and a name, text or path is not empty
# nor only blanks. A refusal is click's "bad parameter" usage error: one line naming the option.

#: Longest integer typed on a command line: every range of :mod:`npc_tactics.limits` fits in 10 digits, and a
#: bound keeps a pasted 5,000-digit number from reaching ``int()`` (which refuses it with a confusing message).
MAX_INT_DIGITS = 20
_DIGITS = re.compile(r"-?[0-9]+")


def plain_integer(text: str) -> bool:
    """True when ``text`` is an integer written the plain way: ASCII digits, an optional leading minus sign."""
    return _DIGITS.fullmatch(text) is not None and len(text.lstrip("-")) <= MAX_INT_DIGITS


def _element(annotation: Any) -> Any:
    """The type a parameter's words are read as: ``int | None`` and ``list[int]`` are both ``int``."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _element(members[0]) if len(members) == 1 else annotation
    if origin in (list, tuple):
        items = typing.get_args(annotation)
        return _element(items[0]) if items else annotation
    return annotation


def _problem(kind: Any, word: str) -> str | None:
    """Why the command-line word ``word`` cannot be a value of type ``kind`` (None: it can)."""
    if kind is int:
        if _DIGITS.fullmatch(word) and not plain_integer(word):
            return f"expected a number of at most {MAX_INT_DIGITS} digits, got one of {len(word.lstrip('-'))}"
        if not plain_integer(word):
            shown = word if len(word) <= 40 else word[:37] + "..."
            return f"expected a whole number in plain digits such as 100, got {shown!r}"
        return None
    if kind is str or (isinstance(kind, type) and issubclass(kind, Path)):
        if not word.strip():
            what = "a path" if kind is not str else "a value"
            return f"expected {what}, got an empty string" if not word else f"expected {what}, got only blanks"
    return None


def _words(value: Any) -> list[str]:
    """The strings typed for a parameter (one, or several for a repeatable option); defaults are not strings
    of the command line only when they are not strings, so a string default is checked too (harmlessly)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [v for v in value if isinstance(v, str)]
    return []


def _guarded(param: Any) -> Any:
    original = param.process_value
    kind = _element(getattr(getattr(param, "type_descriptor", None), "annotation", None))

    def process_value(ctx: Any, value: Any) -> Any:
        for word in _words(value):
            problem = _problem(kind, word)
            if problem:
                raise typer.BadParameter(problem, ctx=ctx, param=param)
        return original(ctx, value)

    return process_value


def guard_params(params: list[Any]) -> list[Any]:
    """Wrap each parameter's ``process_value`` once with the checks above; returns ``params``."""
    for param in params:
        if not getattr(param, "_npc_guarded", False):
            param.process_value = _guarded(param)
            param._npc_guarded = True
    return params


def check_seed_option(value: int | None) -> int | None:
    """Every ``--seed`` goes through here: the one range check (0..SEED_MAX, see npc_tactics.limits)."""
    if value is None:
        return None
    try:
        return check_seed(value, "seed")
    except UserError as exc:
        raise typer.BadParameter(str(exc).removeprefix("seed: ")) from None


def check_fights(value: int) -> int:
    if not 1 <= value <= MAX_FIGHTS:
        raise typer.BadParameter(f"expected 1 to {MAX_FIGHTS:,} fights, got {value}")
    return value


def check_timesteps(value: int | None) -> int | None:
    if value is not None and not 1 <= value <= MAX_TIMESTEPS:
        raise typer.BadParameter(f"expected 1 to {MAX_TIMESTEPS:,} timesteps, got {value}")
    return value


def show_version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    import npc_tactics

    try:
        text = version("npc-tactics")
    except PackageNotFoundError:
        text = npc_tactics.__version__
    typer.echo(f"npc-tactics {text}")
    raise typer.Exit()


_YAML_LIMITS = ("finite number", "expands to", "duplicate key", "nested more than", "refers to the value")


def rules_options(system: str, pairs: list[str] | None) -> dict[str, Any]:
    """Parse ``KEY=VALUE`` rules options (values read as YAML scalars) and validate them on the engine."""
    from npc_tactics.configs import parse_yaml
    from npc_tactics.errors import ConfigError
    from npc_tactics.registry import make_engine

    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"--option: expected KEY=VALUE, got {shown(pair)}")
        if key in options:
            raise UserError(f"--option: {shown(key)} given twice")
        try:
            options[key] = parse_yaml(value, f"--option {key}")
        except ConfigError as exc:
            if any(limit in str(exc) for limit in _YAML_LIMITS):
                raise  # a value that breaks a limit is refused, not read as text
            options[key] = value
    try:
        make_engine(system, options)
    except (ValueError, TypeError) as exc:
        raise UserError(f"--option: {exc}") from None
    return options


def split_agents(agents: str) -> list[str]:
    """The agents of ``--agents A,B``: an empty entry (``a,,b``, a trailing comma) is refused, not skipped."""
    names = [a.strip() for a in agents.split(",")]
    if not any(names):
        raise UserError("--agents: expected a comma-separated list such as 'by-the-book,aggressive'")
    if not all(names):
        position = names.index("") + 1
        raise UserError(f"--agents: agent {position} of {shown(agents)} is empty; expected a name between "
                        "each pair of commas")
    return names


def check_out(out: Path, must_exist: bool = False) -> None:
    """``--out`` must be a directory (or a path where one can be created): say so before any work is done."""
    import os
    import tempfile

    if out.exists() and not out.is_dir():
        raise UserError(f"--out: {out} exists and is not a directory")
    if must_exist:
        return
    parent = out
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise UserError(f"--out: {parent} is a file, so {out} cannot be created")
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".npc-tactics-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UserError(f"--out: cannot write in {parent}: {exc.strerror or exc}") from None


def report_write_error(out: Path, exc: OSError) -> UserError:
    """The one line of a report that could not be written: the file (a full disk names no file by itself, the
    report writer adds it) and that nothing of it was left behind (its files are written all or nothing)."""
    what = exc.filename if exc.filename is not None else out
    return UserError(f"--out: cannot write {what}: {exc.strerror or exc}; no file of this report was written")


def print_first_agent(result: Any) -> None:
    """The first agent's results from its seats, the ratings: what a user looks for before the report."""
    from npc_tactics.evaluation.stats import format_rate

    first = result.agents[0]
    for pairing in result.pairings:
        a, b = pairing.agents
        if first not in (a, b):
            continue
        seat = 0 if a == first else 1
        rates = pairing.rates(seat)
        other = b if seat == 0 else a
        typer.echo(f"{first} (side {seat}) vs {other}: win {format_rate(rates['win'])}, "
                   f"fled {format_rate(rates['fled'], ci=False)}, draw {format_rate(rates['draw'], ci=False)} "
                   f"over {pairing.fights} fights")
    for seat in (0, 1):
        ranking = ", ".join(f"{r.agent} {r.mu:.1f}±{r.sigma:.1f}" for r in result.ratings if r.seat == seat)
        if ranking:
            typer.echo(f"ratings as side {seat} (openskill mu±sigma, against the side-{1 - seat} agents): {ranking}")


def system_scenario_from_runs(names: list[str], system: str | None, scenario: str | None) -> tuple[str, str]:
    """--system/--scenario, defaulting to the first run directory's; every run must be of that system."""
    from npc_tactics.agents.resolve import looks_like_path
    from npc_tactics.configs import load_yaml
    from npc_tactics.registry import get_system
    from npc_tactics.training.config import is_bundle_dir, parse_train_config

    for name in names:
        if name.startswith("card:"):  # a bundle's tactics card: its system and scenario are the card's
            from npc_tactics.agents.card import load_card_agent

            card = load_card_agent(name.removeprefix("card:"))
            if system is None:
                system, scenario = card.system, scenario or card.scenario
            elif card.system != get_system(system).name:
                raise UserError(f"{name}: this card was made for {card.system!r}; the tournament is {system}")
            continue
        run = Path(name)
        if not (looks_like_path(name) and run.is_dir()):
            continue
        if is_bundle_dir(run):  # an exported bundle
            from npc_tactics.policy_io.bundle import read_bundle

            schema = read_bundle(run).schema
            if system is None:
                system, scenario = schema.system, scenario or schema.scenario
            elif schema.system != get_system(system).name:
                raise UserError(f"{run}: this bundle was exported for {schema.system!r}; the tournament is {system}")
            continue
        if not (run / "config.yaml").is_file():
            raise UserError(f"{run}: not a training run (config.yaml is missing) nor a bundle (schema.json and "
                            "policy.onnx)")
        cfg = parse_train_config(load_yaml(run / "config.yaml"), str(run / "config.yaml"))
        if system is None:
            system = cfg.system
            scenario = scenario or cfg.scenario
        elif cfg.system != get_system(system).name:
            raise UserError(f"{run}: this run was trained for {cfg.system!r}; the tournament is {system}")
    if system is None:
        raise UserError("--system is required when no agent is a trained run directory")
    info = get_system(system)
    return info.name, scenario or info.default_scenario


def check_runs_fit(names: list[str], system: str, options: dict[str, Any]) -> None:
    """Every run folder among ``names`` can play ``system`` under ``options``, judged from its config.yaml
    and meta.json before any model (and torch) is loaded; the loaded model is checked again before play."""
    from npc_tactics.agents.resolve import looks_like_path
    from npc_tactics.registry import get_system
    from npc_tactics.training.config import bundle_fit_problem, is_bundle_dir, run_fit_problem

    info = get_system(system)
    size = int(getattr(info.load("encoder")(info.load("engine")(options)), "size", 0))
    for name in names:
        if looks_like_path(name) and Path(name).is_dir():
            fit = bundle_fit_problem if is_bundle_dir(name) else run_fit_problem
            problem = fit(Path(name), info.name, size)
            if problem:
                raise UserError(problem)


def check_lineup(names: list[str]) -> None:
    """Each agent at most once (a run folder however it is spelt: ``runs/a`` and ``runs/a/``), and at least
    one pairing possible: a trained run plays only the side it learned."""
    from npc_tactics.agents.resolve import looks_like_path, trained_side

    keys = [str(Path(n).resolve()) if looks_like_path(n) else n for n in names]
    repeated = sorted({n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1})
    if repeated:
        raise UserError(f"--agents: each agent may appear once; repeated: {', '.join(repeated)}")
    seats = {trained_side(n) for n in names}
    side = seats.pop() if len(seats) == 1 else None
    if side is not None:
        raise UserError(
            f"--agents: every agent is a run trained for side {side}, so nobody can play side {1 - side}; "
            "add a scripted agent or a run trained for the other side"
        )


# ----- serve's address, checked before uvicorn starts (uvicorn reports a bad one as six log lines, exit 3) ------

_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def check_host(host: str) -> str:
    """``host`` if it is an IP address (v4 or v6) or a plain hostname (letters, digits and hyphens in dot-separated
    labels of at most 63 characters, 253 in all), else a one-line error naming ``--host``."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    name = host[:-1] if host.endswith(".") else host
    if 0 < len(name) <= 253 and all(_LABEL.fullmatch(label) for label in name.split(".")):
        return host
    raise UserError(f"--host: expected an IP address (127.0.0.1, ::1) or a plain hostname (localhost), "
                    f"got {shown(host)}")


def check_port(port: int) -> int:
    """``port`` if it is a TCP port, 1 to 65535."""
    if not 1 <= port <= 65535:
        raise UserError(f"--port: expected 1 to 65535, got {port}")
    return port


def check_listen(host: str, port: int) -> None:
    """Bind ``host:port`` once and let go, so that a name that does not resolve, an address of another machine
    or a port already in use is one line now, not uvicorn's log after start-up. (Another program may still take
    the port in between; uvicorn then reports it its own way.)"""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise UserError(f"--host: cannot resolve {shown(host)}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: TIME_WAIT is no conflict
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == 98:  # EADDRINUSE
                raise UserError(f"--port: {host}:{port} is already in use (another server is listening there; "
                                "pick another --port)") from None
            if exc.errno == 13:  # EACCES
                raise UserError(f"--port: not allowed to listen on {port} (ports below 1024 need privileges)") \
                    from None
            raise UserError(f"--host: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
