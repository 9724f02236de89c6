"""The GM's HTTP face: the same ``suggest`` as the command line, over FastAPI, and the web page that calls it.

Safety first, because a browser can reach it: the server binds to 127.0.0.1 by default; it serves only the
bundles found in its ``--bundles`` folder when it started (a request names a bundle by id, never by path);
request bodies are limited in size (413) and rollout counts capped (422); every mistake in a request is a 422
whose ``detail[].loc`` names the field, situation fields included (``["body", "situation", "sides", 0, ...]``).
Each request builds its own engine and state and its own agent around the shared, read-only onnxruntime
session: nothing mutable is shared between requests. Requests with rollouts run one at a time (they already
use every core), a few wait in line and the next is told to come back (429, ``Retry-After``); each runs under a
time limit (:mod:`.service_limits`). No field of a request names a file: a situation's ``scenario:`` is a
shipped name or a scenario given inline, and every route runs under
:func:`~npc_tactics.configs.files.no_user_paths`, which refuses any file outside the shipped package and the
bundles folder. Bodies with ``NaN``/``Infinity`` or nested beyond any situation's depth are a 422.
"""

from __future__ import annotations

import contextlib
import html
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from npc_tactics.agents import agent_entries
from npc_tactics.configs.files import no_user_paths
from npc_tactics.errors import ConfigError, UnknownNameError, UserError
from npc_tactics.gm.service import forms
from npc_tactics.gm.service.limits import LIMIT_S, MAX_WAITING, HeavyGate, validation_error_handler
from npc_tactics.gm.service.web_strings import TRACKER_STRINGS, WEB_STRINGS
from npc_tactics.i18n import error_in
from npc_tactics.limits import SEED_MAX
from npc_tactics.policy_io.bundle import Bundle, read_bundle
from npc_tactics.policy_io.onnx_agent import OnnxAgent, OnnxPolicy
from npc_tactics.registry import SYSTEMS

log = logging.getLogger("npc_tactics.serve")

WEB_DIR = Path(__file__).with_name("web")
#: A bundle id is its folder name: letters, digits, '.', '_' and '-' (no separators, never '..').
BUNDLE_ID = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$"
MAX_BODY_BYTES = 64 * 1024
#: A saved fight (POST /fights/load): its set-up and up to 5,000 steps of moves and typed faces.
LOAD_BODY_BYTES = 1024 * 1024
#: Deepest JSON nesting of a request body (a situation is about 6 deep).
MAX_BODY_DEPTH = 32
#: Rollouts per legal move: 2,000 already gives win rates within about 2 points.
MAX_ODDS = 2000
MAX_TOP = 200
LANGS = ("en", "fr")
#: A system name of the registry (the OpenAPI enum is generated from it; no system is named here).
SystemName = Annotated[str, PathParam(description="A registered rules system.",
                                      json_schema_extra={"enum": sorted(SYSTEMS)})]
_INDEX = re.compile(r"\[(\d+)\]")
BundleId = Annotated[str, PathParam(pattern=BUNDLE_ID, description="A bundle id from GET /bundles.")]


#: The longest search and the most play-outs one page request may ask for (the server answers many GMs).
MAX_SERVED_THINK = 5.0
MAX_SERVED_PLAYOUTS = 20_000


class SuggestRequest(BaseModel):
    """One question from the GM: which bundle, the situation (as in a situation YAML), and the options."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "odds": "5" or true is a mistake, not 5
    bundle: Annotated[str, Field(pattern=BUNDLE_ID, description="A bundle id from GET /bundles.")]
    situation: Annotated[dict[str, Any], Field(
        description="The situation, as a situation YAML file would give it (see the system's docs page).",
        json_schema_extra={"maxProperties": 32})]
    odds: Annotated[int, Field(ge=0, le=MAX_ODDS, description="Rollouts per legal move (0: no odds).")] = 0
    think: Annotated[float, Field(ge=0, le=MAX_SERVED_THINK, description="Seconds of decision-time search over "
                                  "the policy's likely moves (0: the network alone; docs/search.md).")] = 0.0
    playouts: Annotated[int | None, Field(ge=1, le=MAX_SERVED_PLAYOUTS, description="A search of exactly this "
                                          "many play-outs instead (the same answer for the same seed).")] = None
    lang: Literal["en", "fr"] = "en"
    seed: Annotated[int, Field(ge=0, le=SEED_MAX, description="Seed for the situation's dice and rollouts.")] = 0
    top: Annotated[int | None, Field(ge=1, le=MAX_TOP, description="Show only the N best moves.")] = None
    opponent: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]{0,39}$",
                                   description="Scripted agent that plays the other side in rollouts.")] = "by-the-book"


@dataclass
class Served:
    """One bundle of the folder: read and checked once; the onnxruntime session is shared (``run`` is
    thread-safe and the session holds no per-request state)."""

    id: str
    bundle: Bundle
    policy: OnnxPolicy

    def agent(self) -> OnnxAgent:
        s = self.bundle.schema
        return OnnxAgent(self.policy, system=s.system, scenario=s.scenario, side=s.side, name=f"bundle:{self.id}",
                         options=dict(s.options), bundle=self.bundle)

    def summary(self) -> dict[str, Any]:
        s = self.bundle.schema
        return {"id": self.id, "system": s.system, "scenario": s.scenario, "side": s.side,
                "rules_version": s.rules_version, "timesteps": s.training.timesteps, "run": s.training.run,
                "evaluation": s.training.evaluation, "warnings": list(self.bundle.warnings),
                "has_card": (self.bundle.path / "card.json").is_file()}


@dataclass
class Registry:
    bundles: dict[str, Served] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)

    @classmethod
    def scan(cls, folder: Path) -> Registry:
        """Every sub-folder of ``folder`` that holds a ``schema.json``; a bad one is listed as refused."""
        if not folder.is_dir():
            raise UserError(f"--bundles: {folder} is not a folder")
        reg = cls()
        for sub in sorted(p for p in folder.iterdir() if p.is_dir() and (p / "schema.json").is_file()):
            if not re.match(BUNDLE_ID, sub.name):
                reg.refused[sub.name[:100]] = "folder name is not a valid bundle id"
                continue
            try:
                b = read_bundle(sub)
                reg.bundles[sub.name] = Served(sub.name, b, OnnxPolicy(b.onnx_bytes))
            except UserError as exc:
                reg.refused[sub.name] = str(exc).replace(str(sub), sub.name)  # no server paths to clients
                log.warning("bundle %s refused: %s", sub.name, exc)
        return reg


def _loc(field_path: str) -> list[str | int]:
    """``sides[0].combatants[1].hp`` -> ``["sides", 0, "combatants", 1, "hp"]``."""
    out: list[str | int] = []
    for part in _INDEX.sub(r".\1", field_path).split("."):
        if part and not part.startswith("<"):
            out.append(int(part) if part.isascii() and part.isdigit() else part)
    return out


def unprocessable(loc: list[str | int], msg: str) -> JSONResponse:
    return JSONResponse(status_code=422, content={"detail": [{"loc": loc, "msg": msg, "type": "value_error"}]})


class BodyLimit:
    """ASGI middleware: refuse a request body larger than ``limit`` bytes with 413, whether announced by
    Content-Length or streamed, before the application parses it."""

    def __init__(self, app: Any, limit: int, per_path: dict[str, int] | None = None,
                 per_pattern: tuple[tuple[re.Pattern[str], int], ...] = ()) -> None:
        self.app = app
        self.default = limit
        self.per_path = dict(per_path or {})  # a saved fight is larger than any question
        self.per_pattern = per_pattern  # paths with a parameter (an actor file imported into a fight)

    def _limit(self, path: str) -> int:
        if path in self.per_path:
            return self.per_path[path]
        return next((n for pattern, n in self.per_pattern if pattern.fullmatch(path)), self.default)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(str(scope.get("path", "")))
        too_big = JSONResponse(status_code=413, content={"detail": f"request body over {limit} bytes"})
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > limit):
            await too_big(scope, receive, send)
            return
        messages: list[dict[str, Any]] = []  # read the whole (small) body first, then replay it to the app
        seen, more = 0, True
        while more:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > limit:
                await too_big(scope, receive, send)
                return
            more = bool(message.get("more_body", False))

        refused = _refused_json(scope, b"".join(m.get("body", b"") for m in messages))
        if refused is not None:
            await refused(scope, receive, send)
            return

        async def replay() -> dict[str, Any]:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def _refused_json(scope: dict[str, Any], body: bytes) -> JSONResponse | None:
    """A 422 for a JSON body that Python's json module would take but JSON does not allow (``NaN``,
    ``Infinity``) or that nests deeper than any request needs (it would overflow the parser's recursion)."""
    headers = dict(scope.get("headers") or [])
    if not body or b"json" not in headers.get(b"content-type", b""):
        return None
    from npc_tactics.configs.files import parse_json

    try:
        parse_json(body.decode("utf-8", errors="replace"), "body", max_depth=MAX_BODY_DEPTH)
    except UserError as exc:
        message = str(exc).removeprefix("body: ")
        return JSONResponse(status_code=422, content={"detail": [{"loc": ["body"], "msg": message,
                                                                   "type": "json_invalid"}]})
    return None


def _call_suggest(served: Served, req: SuggestRequest, workers: int | None) -> dict[str, Any]:
    from npc_tactics.gm.advice.suggest import suggest

    result = suggest(served.bundle.path, dict(req.situation), seed=req.seed, policy=served.agent(), odds=req.odds,
                     lang=req.lang, top=req.top, opponent=req.opponent, workers=workers, think=req.think,
                     playouts=req.playouts)
    out: dict[str, Any] = result.to_dict()
    out.setdefault("situation_text", result.situation_text)
    out["bundle"] = served.id
    return out


class _FieldError(Exception):
    def __init__(self, loc: list[str | int], msg: str) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg


def create_app(bundles: str | Path | None = None, *, workers: int | None = None, max_odds: int = MAX_ODDS,
               max_body: int = MAX_BODY_BYTES, gate: HeavyGate | None = None, cors: str | None = None,
               fights: Any | None = None, with_shipped: bool = False) -> Any:
    """The FastAPI application serving the bundles of ``bundles`` (scanned once, now; default: the shipped
    generalists) and the web pages: the suggestion page at ``/`` and the combat tracker at ``/tracker``.

    Every route runs under :func:`~npc_tactics.configs.files.no_user_paths`: the only files a request can make
    the server read are the package's shipped content and the bundles folder chosen at start. ``cors``: one
    origin allowed to call the API from a browser (a VTT's page), off by default. ``with_shipped``: serve the
    shipped generalists too, under the ids the folder does not use (``npc-tactics serve --bundles``)."""
    from npc_tactics.gm.advice.suggest import SHIPPED_DIR

    if bundles is None:
        bundles = SHIPPED_DIR
    folder = Path(bundles)
    registry = Registry.scan(folder)
    if with_shipped and folder.resolve() != SHIPPED_DIR.resolve():
        for key, entry in Registry.scan(SHIPPED_DIR).bundles.items():  # inside the package: readable anyway
            registry.bundles.setdefault(key, entry)
    heavy = gate or HeavyGate()
    app = FastAPI(title="npc-tactics GM service", version=_version(),
                  description="Ask what an NPC should do now: the legal moves ranked by a trained policy bundle, "
                  "with Monte-Carlo odds. The same `suggest` as the command line.")

    @app.exception_handler(_FieldError)
    async def _field_error(_request: Request, exc: _FieldError) -> JSONResponse:
        return unprocessable(exc.loc, exc.msg)

    app.add_exception_handler(RequestValidationError, validation_error_handler)

    def served(bundle_id: str, where: list[str | int] | None = None) -> Served:
        found = registry.bundles.get(bundle_id)
        if found is not None:
            return found
        valid = ", ".join(sorted(registry.bundles)) or "(none)"
        msg = f"unknown bundle {bundle_id!r}; bundles served: {valid}"
        if where is None:
            raise HTTPException(status_code=404, detail=msg)
        raise _FieldError(where, msg)

    @app.get("/bundles", summary="The bundles served, and those refused with the reason")
    def list_bundles() -> dict[str, Any]:
        return {"bundles": [b.summary() for b in registry.bundles.values()],
                "refused": [{"id": k, "reason": v} for k, v in registry.refused.items()]}

    @app.get("/bundles/{bundle_id}/schema", summary="A bundle's schema.json")
    def bundle_schema(bundle_id: BundleId) -> dict[str, Any]:
        return served(bundle_id).bundle.schema.model_dump(mode="json")

    @app.get("/bundles/{bundle_id}/card", summary="A bundle's tactics card (404 when it has none)")
    def bundle_card(bundle_id: BundleId, lang: Literal["en", "fr"] = "en") -> dict[str, Any]:
        with no_user_paths(folder):
            return _card(served(bundle_id), lang)

    @app.get("/bundles/{bundle_id}/start", summary="A starting situation: the bundle's training scenario")
    def bundle_start(bundle_id: BundleId) -> dict[str, Any]:
        s = served(bundle_id).bundle.schema
        with no_user_paths(folder):
            situation = forms.starting_situation(s.system, s.scenario, s.side)
        if situation is None:
            raise HTTPException(status_code=404, detail=f"scenario {s.scenario!r} is not a shipped one")
        return {"system": s.system, "situation": situation}

    @app.get("/bestiary/{system}", summary="A system's stat blocks and situation form")
    def bestiary(system: SystemName, lang: Literal["en", "fr"] = "en") -> dict[str, Any]:
        """The form of ``system``'s situations; each stat block's ``text`` and ``description`` in ``lang``."""
        if system not in SYSTEMS:
            raise _FieldError(["path", "system"], str(UnknownNameError("system", system, SYSTEMS)))
        with no_user_paths(folder):
            return forms.bestiary_form(system, lang)

    @app.get("/i18n/{lang}", summary="The web page's words in one language")
    def words(lang: Literal["en", "fr"]) -> dict[str, Any]:
        from npc_tactics.i18n import translator

        _ = translator(lang, domain="web")
        return {"lang": lang, "messages": {m: _(m) for m in (*WEB_STRINGS, *TRACKER_STRINGS)}}

    @app.post("/suggest", summary="Rank the acting NPC's legal moves (and their odds with `odds` > 0)")
    def post_suggest(req: SuggestRequest) -> dict[str, Any]:
        entry = served(req.bundle, ["body", "bundle"])
        if req.odds > max_odds:
            raise _FieldError(["body", "odds"], f"at most {max_odds} rollouts per move on this server")
        scripted = agent_entries(entry.bundle.schema.plugin)
        if req.opponent not in scripted:  # a name only: never a run or bundle path on the server
            raise _FieldError(["body", "opponent"], f"unknown agent {req.opponent!r}; valid agents: "
                              f"{', '.join(sorted(scripted))}")
        try:
            with no_user_paths(folder), (heavy.turn() if req.odds else contextlib.nullcontext()):
                return _call_suggest(entry, req, workers)
        except UserError as exc:
            # a situation of another system comes back reworded, the field error it replaced as its context
            cause = exc if isinstance(exc, ConfigError) else exc.__context__
            where = _loc(cause.field) if isinstance(cause, ConfigError) else []
            msg = error_in(exc, req.lang).replace("<situation>", "situation").replace(str(entry.bundle.path),
                                                                                       entry.id)
            raise _FieldError(["body", "situation", *where], msg) from None  # no server paths in messages

    def bundle_path(bundle_id: str) -> tuple[str, Path] | None:
        entry = registry.bundles.get(bundle_id)
        return None if entry is None else (entry.bundle.schema.system, entry.bundle.path)

    from npc_tactics.gm.service.odds_routes import add_odds_routes

    add_odds_routes(app, bundle_path, heavy, workers=workers, folder=folder)

    from npc_tactics.gm.service.tracker_routes import add_tracker_routes

    app.state.fights = add_tracker_routes(app, bundle_path, heavy, folder=folder, workers=workers, store=fights)

    page = _page()
    tracker_page = _tracker_page()

    @app.get("/", include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(page)

    @app.get("/tracker", include_in_schema=False)
    def tracker() -> HTMLResponse:
        return HTMLResponse(tracker_page)

    def openapi() -> dict[str, Any]:
        """The generated schema, told which bundle ids this server has, with one working example."""
        if app.openapi_schema is None:
            from fastapi.openapi.utils import get_openapi

            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            _systems_enum(doc)
            req = doc["components"]["schemas"]["SuggestRequest"]
            ids = sorted(registry.bundles)
            if ids:
                req["properties"]["bundle"]["enum"] = ids
                s = registry.bundles[ids[0]].bundle.schema
                start = forms.starting_situation(s.system, s.scenario, s.side)
                if start is not None:
                    req["examples"] = [{"bundle": ids[0], "situation": start}]
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.state.registry = registry
    if cors:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=[cors], allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["content-type"])
    big = ((re.compile(r"/fights/[A-Za-z0-9_-]{1,64}/import"), LOAD_BODY_BYTES),)  # a VTT actor file
    return BodyLimit(app, max_body, {"/fights/load": LOAD_BODY_BYTES}, big) if max_body else app


def _page() -> str:
    """The web page, its odds panel offering every registered system that composes encounters (in registry
    order: the page names no system itself)."""
    names = [n for n, s in SYSTEMS.items() if s.provides("encounter")]
    options = "".join(f'<option value="{html.escape(n)}">{html.escape(n)}</option>' for n in names)
    return (WEB_DIR / "index.html").read_text(encoding="utf-8").replace("<!-- odds systems -->", options)


def _tracker_page() -> str:
    """The combat tracker's page, its system list from the registry (systems the encounter builder composes)."""
    names = [n for n, s in SYSTEMS.items() if s.provides("encounter")]
    options = "".join(f'<option value="{html.escape(n)}">{html.escape(SYSTEMS[n].title or n)}</option>'
                      for n in names)
    return (WEB_DIR / "tracker.html").read_text(encoding="utf-8").replace("<!-- tracker systems -->", options)


def _systems_enum(doc: dict[str, Any]) -> None:
    """Every system enum of the schema, from the registry as it is now (the models were built at import, before
    a system registered later, such as the tests' fake, was there)."""
    names = sorted(SYSTEMS)
    for param in doc["paths"]["/bestiary/{system}"]["get"]["parameters"]:
        if param["name"] == "system":
            param["schema"]["enum"] = names
    odds = doc["components"]["schemas"].get("OddsRequest")
    if odds is not None:
        odds["properties"]["system"]["enum"] = names
    create = doc["components"]["schemas"].get("CreateBody")
    if create is not None:
        create["properties"]["system"]["enum"] = names
    for param in doc["paths"].get("/fights/templates/{system}", {}).get("get", {}).get("parameters", []):
        if param["name"] == "system":
            param["schema"]["enum"] = names


def _card(entry: Served, lang: str) -> dict[str, Any]:
    """The bundle's tactics card: its JSON and its Markdown rendered in ``lang``."""
    from npc_tactics.policy_io.card import Card, CardError
    from npc_tactics.policy_io.card_render import render_markdown

    if not (entry.bundle.path / "card.json").is_file():
        raise HTTPException(status_code=404, detail=f"bundle {entry.id!r} has no tactics card (card.json)")
    try:
        card = Card.load(entry.bundle.path)
    except CardError as exc:
        raise HTTPException(status_code=404, detail=f"the tactics card of {entry.id!r} cannot be used: {exc}") from None
    if card is None:
        raise HTTPException(status_code=404, detail=f"bundle {entry.id!r} has no tactics card")
    return {"bundle": entry.id, "lang": lang, "card": card.to_dict(), "markdown": render_markdown(card, lang)}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("npc-tactics")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0"


def serve(bundles: str | Path | None = None, *, host: str = "127.0.0.1", port: int = 8000,
          workers: int | None = None, max_waiting: int = MAX_WAITING, time_limit_s: float = LIMIT_S,
          cors: str | None = None) -> None:
    """Run the service with uvicorn until interrupted (``bundles`` None: the shipped generalists)."""
    import uvicorn

    app = create_app(bundles, workers=workers, gate=HeavyGate(max_waiting=max_waiting, limit_s=time_limit_s),
                     cors=cors, with_shipped=True)
    uvicorn.run(app, host=host, port=port, log_level="info")
