"""Reading a user's file safely: only regular files, size checked before reading, JSON bounded in depth, and
an opt-in guard that stops a request from naming any file at all.

Why here: every YAML and JSON reader of the package (scenarios, configs, situations, suites, bundles, run
folders, cards, checkpoints) goes through :func:`read_bytes`. A FIFO, ``/dev/stdin`` or a terminal device
blocks ``open()`` or ``read()`` forever, so the file is opened non-blocking and refused unless ``fstat`` says it
is a regular file. The size is checked from ``fstat`` before a byte is read.

The guard (:func:`no_user_paths`) is what the HTTP service runs every request under: inside it a path that is
not inside the package's own shipped folders is refused before the file system is asked anything, with the
same message whether or not the file exists, so a request can neither read a server file nor learn that one
exists.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from npc_tactics.errors import ConfigError, UserError

__all__ = [
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "PACKAGE_DIR",
    "PathsRefusedError",
    "check_path_allowed",
    "no_user_paths",
    "parse_json",
    "paths_allowed",
    "read_bytes",
    "read_json",
    "read_text",
]

PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: Largest JSON file of a bundle or run folder read (schema.json of a large network is a few hundred KB).
MAX_JSON_BYTES = 4 * 1024 * 1024
#: Deepest nesting of a JSON document accepted (ours are at most 5 deep).
MAX_JSON_DEPTH = 64

#: None: every path may be read; a tuple: only the shipped package and these folders (the server's own bundles).
_ALLOWED_ROOTS: contextvars.ContextVar[tuple[Path, ...] | None] = contextvars.ContextVar(
    "npc_tactics_allowed_roots", default=None)


class PathsRefusedError(UserError):
    """A path named where only shipped names are accepted (inside :func:`no_user_paths`)."""


def paths_allowed() -> bool:
    """False inside :func:`no_user_paths`: a file may then be named only by a shipped name."""
    return _ALLOWED_ROOTS.get() is None


@contextlib.contextmanager
def no_user_paths(*server_folders: str | Path) -> Iterator[None]:
    """Refuse, for the code run inside, every file outside the package's shipped folders and ``server_folders``
    (the folders the server itself chose at start, e.g. its bundles): what an HTTP request runs under."""
    token = _ALLOWED_ROOTS.set((PACKAGE_DIR, *(_real(Path(f)) for f in server_folders)))
    try:
        yield
    finally:
        _ALLOWED_ROOTS.reset(token)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(os.path.abspath(path)))


def _inside_allowed(path: Path) -> bool:
    """True for a file inside an allowed root, judged on the resolved path so that a ``..`` or a link out of
    the root does not count."""
    roots = _ALLOWED_ROOTS.get()
    if roots is None:
        return True
    try:
        resolved = _real(path)
    except (OSError, ValueError):
        return False
    return any(resolved == root or root in resolved.parents for root in roots)


def check_path_allowed(path: str | Path, what: str = "file") -> None:
    """Raise :class:`PathsRefusedError` when paths are refused here and ``path`` is not shipped content. The
    message is the same for a file that exists and one that does not, and quotes nothing from the path."""
    if not _inside_allowed(Path(path)):
        raise PathsRefusedError(f"names a {what} on the server; only shipped names are accepted here")


def read_bytes(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The contents of the regular file ``path``, at most ``limit`` bytes; anything else is a one-line
    :class:`ConfigError` naming the file: missing, a folder, a FIFO or device (never opened in blocking mode),
    too large (judged before reading), unreadable."""
    check_path_allowed(path, what)
    name = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ConfigError(name, "", "file not found") from None
    except IsADirectoryError:
        raise ConfigError(name, "", f"is a directory, expected a {what}") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no writer, opened non-blocking for writing; or a socket
            raise ConfigError(name, "", f"is not a regular file, expected a {what}") from None
        raise ConfigError(name, "", f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ConfigError(name, "", f"is a directory, expected a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(name, "", f"is not a regular file (a pipe, device or socket), expected a {what}")
        if info.st_size > limit:
            raise ConfigError(name, "", f"{info.st_size} bytes, larger than the {_size(limit)} a {what} may have")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # grew while we read it
            raise ConfigError(name, "", f"larger than the {_size(limit)} a {what} may have")
        return b"".join(chunks)
    except OSError as exc:
        raise ConfigError(name, "", f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | Path, limit: int, what: str = "file") -> str:
    """:func:`read_bytes` decoded as UTF-8 (an error naming the file otherwise)."""
    raw = read_bytes(path, limit, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(str(path), "", "cannot read: not UTF-8 text") from None


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a number JSON allows")


def _depth_ok(text: str, limit: int) -> bool:
    """True when brackets outside strings nest at most ``limit`` deep (checked before ``json.loads`` recurses)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse_json(text: str, file: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Strict JSON: no ``NaN``/``Infinity`` literals, at most ``max_depth`` levels; a one-line ConfigError."""
    if not _depth_ok(text, max_depth):
        raise ConfigError(file, "", f"invalid JSON: nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise ConfigError(file, f"line {exc.lineno}, column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except ValueError as exc:
        raise ConfigError(file, "", f"invalid JSON: {exc}") from None
    except RecursionError:
        raise ConfigError(file, "", f"invalid JSON: nested more than {max_depth} levels deep") from None


def read_json(path: str | Path, limit: int = MAX_JSON_BYTES, what: str = "JSON file") -> Any:
    """Read and :func:`parse_json` a regular file of at most ``limit`` bytes."""
    return parse_json(read_text(path, limit, what), str(path))


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"
