"""The combat tracker over HTTP: ``/fights``, a fight a page or another tool (a VTT macro) runs step by step.

The fight itself is :class:`~npc_tactics.gm.table.tracker.Fight`; this module keeps the fights of one server
in memory (:class:`FightStore`: at most ``max_fights``, each dropped after ``ttl_s`` unused, so no client can
grow the server without bound), turns each request into one call, and every mistake into a 422 whose
``detail[].loc`` names the field (``["body", "fields", "template"]``, ``["body", "fight", "steps", 3,
"action"]``). A fight is named by a random id; one request at a time per fight (a lock each). Advice with
rollouts queues behind the server's other heavy requests (:class:`~.limits.HeavyGate`).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from npc_tactics.configs.files import no_user_paths
from npc_tactics.errors import ConfigError, UnknownNameError, UserError
from npc_tactics.gm.service.limits import HeavyGate
from npc_tactics.i18n import said_in
from npc_tactics.limits import SEED_MAX
from npc_tactics.registry import SYSTEMS

__all__ = ["FightStore", "add_tracker_routes"]

MAX_FIGHTS = 100
TTL_S = 12 * 3600.0
#: Rollouts per candidate move one advice request may ask for.
MAX_ADVICE_ODDS = 400
FIGHT_ID = r"^[A-Za-z0-9_-]{8,40}$"
NAME = r"^[^\x00-\x1f]{1,60}$"
_INDEX = re.compile(r"\[(\d+)\]")
FightId = Annotated[str, PathParam(pattern=FIGHT_ID, description="A fight id from POST /fights.")]
Lang = Annotated[Literal["en", "fr"], Query(description="The language of the words in the answer.")]


@dataclass
class Held:
    fight: Any
    used: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class FightStore:
    """The fights of one server: a capped, expiring map id -> fight."""

    def __init__(self, max_fights: int = MAX_FIGHTS, ttl_s: float = TTL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_fights, self.ttl_s, self.clock = max_fights, ttl_s, clock
        self._fights: dict[str, Held] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._fights)

    def put(self, fight: Any) -> str:
        with self._lock:
            now = self.clock()
            for key in [k for k, h in self._fights.items() if now - h.used > self.ttl_s]:
                del self._fights[key]
            if len(self._fights) >= self.max_fights:
                raise HTTPException(status_code=429, headers={"Retry-After": "60"},
                                    detail=f"this server already keeps {self.max_fights} fights; save one and "
                                    "delete it (DELETE /fights/ID), or wait until one expires")
            key = secrets.token_urlsafe(12)
            self._fights[key] = Held(fight, now)
            return key

    @contextmanager
    def use(self, key: str) -> Iterator[Any]:
        with self._lock:
            held = self._fights.get(key)
            if held is None or self.clock() - held.used > self.ttl_s:
                self._fights.pop(key, None)
                raise HTTPException(status_code=404, detail=f"no fight {key!r} on this server (expired or deleted)")
            held.used = self.clock()
        with held.lock:
            yield held.fight

    def drop(self, key: str) -> bool:
        with self._lock:
            return self._fights.pop(key, None) is not None


class SideBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(pattern=NAME)]
    control: Literal["npc", "pc"] = "npc"


class SideEditBody(BaseModel):
    """A side renamed ("Adventurers", "Goblins") or given to the GM (``pc``) or the advisor (``npc``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str | None, Field(pattern=NAME, description="The side's name, as the GM calls it.")] = None
    control: Annotated[Literal["npc", "pc"] | None, Field(description="npc: the advisor answers first; pc: the GM "
                                                          "gives the player's move.")] = None


class CreateBody(BaseModel):
    """A new fight: the system, the sides (name, who decides), rules options, the seed, the dice mode."""

    model_config = ConfigDict(extra="forbid", strict=True)
    system: Annotated[str, Field(description="A registered rules system.", json_schema_extra={"enum": sorted(SYSTEMS)})]
    sides: Annotated[list[SideBody], Field(min_length=1, max_length=4)] = [
        SideBody(name="NPCs", control="npc"), SideBody(name="PCs", control="pc")]
    options: Annotated[dict[str, Any], Field(json_schema_extra={"maxProperties": 32})] = {}
    seed: Annotated[int, Field(ge=0, le=SEED_MAX)] = 0
    dice: Literal["auto", "manual", "pcs"] = "auto"
    distance: Annotated[float | None, Field(ge=0, le=1000, description="Metres between the front ranks.")] = None
    bundle: Annotated[str | None, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$",
                                        description="A served bundle id (default: the shipped generalist).")] = None

    @field_validator("system")
    @classmethod
    def _registered(cls, value: str) -> str:
        if value not in SYSTEMS:
            raise ValueError(str(UnknownNameError("system", value, SYSTEMS)))
        return value


class CombatantBody(BaseModel):
    """A combatant: a template (bestiary) name, or ``fields`` as the system's scenario entry takes them."""

    model_config = ConfigDict(extra="forbid", strict=True)
    side: Annotated[int, Field(ge=0, le=3)]
    template: Annotated[str | None, Field(min_length=1, max_length=64)] = None
    name: Annotated[str | None, Field(pattern=NAME)] = None
    fields: Annotated[dict[str, Any], Field(json_schema_extra={"maxProperties": 48},
                                            description="Other keys of a scenario combatant (stat_block, class, "
                                            "level, hp, position, ...), as the system's docs page lists them.")] = {}


class EditBody(BaseModel):
    """A combatant changed before the start: ``fields`` set (a corrected ``stat_block``, a level...), the keys of
    ``remove`` dropped first (``template`` when a pasted stat block replaces the bestiary's)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    fields: Annotated[dict[str, Any], Field(json_schema_extra={"maxProperties": 48},
                                            description="Keys of a scenario combatant to set.")] = {}
    remove: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=48)] = []


class ImportBody(BaseModel):
    """An actor file of another program, parsed by the page: ``format`` one of the fight's system's importers
    (``GET /fights/formats``), ``data`` the file's JSON (at most 1 MiB), added to ``side``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Annotated[str, Field(min_length=1, max_length=64)]
    data: Annotated[dict[str, Any], Field(description="The exported file's JSON object.")]
    side: Annotated[int, Field(ge=0, le=3)] = 0
    name: Annotated[str | None, Field(pattern=NAME)] = None
    file: Annotated[str | None, Field(pattern=NAME, description="The file's name, for the error messages.")] = None


class StepBody(BaseModel):
    """The move to play: a catalogue name or index, or ``advice: true`` for the advisor's move."""

    model_config = ConfigDict(extra="forbid", strict=True)
    action: Annotated[str | int | None, Field(description="A move's catalogue name or index.")] = None
    advice: bool = False
    by: Annotated[Literal["gm", "advisor"], Field(description="Who chose the move, for the log.")] = "gm"
    odds: Annotated[int, Field(ge=0, le=MAX_ADVICE_ODDS)] = 24


class AdviseBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    odds: Annotated[int, Field(ge=0, le=MAX_ADVICE_ODDS, description="Rollouts per candidate move.")] = 24


class DieBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    face: Annotated[int, Field(ge=1, le=1000)]


class LoadBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    fight: Annotated[dict[str, Any], Field(description="A fight as GET /fights/{id}/save gave it.")]


def _loc(field_path: str) -> list[str | int]:
    out: list[str | int] = []
    for part in _INDEX.sub(r".\1", field_path).split("."):
        if part:
            out.append(int(part) if part.isascii() and part.isdigit() else part)
    return out


def _error(loc: list[str | int], msg: str) -> JSONResponse:
    return JSONResponse(status_code=422, content={"detail": [{"loc": loc, "msg": msg, "type": "value_error"}]})


class _Refused(Exception):
    def __init__(self, loc: list[str | int], msg: str) -> None:
        super().__init__(msg)
        self.loc, self.msg = loc, msg


def add_tracker_routes(app: FastAPI, bundle_path: Callable[[str], tuple[str, Path] | None], heavy: HeavyGate, *,
                       folder: Path, workers: int | None = None, store: FightStore | None = None) -> FightStore:
    """Add the ``/fights`` routes to ``app``; returns the store (tests look inside)."""
    from npc_tactics.gm.table.fight_file import fight_from_dict, fight_to_dict
    from npc_tactics.gm.table.fight_view import view
    from npc_tactics.gm.table.tracker import Fight, SideSpec

    fights = store or FightStore()

    @app.exception_handler(_Refused)
    async def _refused(_request: Any, exc: _Refused) -> JSONResponse:
        return _error(exc.loc, exc.msg)

    def refuse(exc: UserError, prefix: list[str | int], top: tuple[str, ...] = (), lang: str = "en") -> _Refused:
        """The 422 of ``exc`` at its field; a message written as a :class:`Said` sentence in ``lang``."""
        if isinstance(exc, ConfigError):
            where = _loc(exc.field)
            msg = said_in(exc.message, lang)
            if where and prefix and where[0] not in top:
                return _Refused([*prefix, *where], msg)
            return _Refused(["body", *where], msg)
        return _Refused(["body"], str(exc))

    def resolve(bundle_id: str, system: str) -> Path:
        found = bundle_path(bundle_id)
        if found is None:
            raise _Refused(["body", "bundle"], f"unknown bundle {bundle_id!r} on this server")
        if found[0] != system:
            raise _Refused(["body", "bundle"], f"bundle {bundle_id!r} plays {found[0]!r}, not {system!r}")
        return found[1]

    def answer(key: str, fight: Any, lang: str) -> dict[str, Any]:
        return {"id": key, **view(fight, lang)}

    @app.post("/fights", status_code=201, summary="Create a fight (then add combatants and start it)")
    def create(body: CreateBody, lang: Lang = "en") -> dict[str, Any]:
        path = resolve(body.bundle, body.system) if body.bundle is not None else None
        try:
            with no_user_paths(folder):
                fight = Fight(body.system, sides=[SideSpec(s.name, s.control) for s in body.sides],
                              options=body.options, seed=body.seed, dice=body.dice, distance=body.distance,
                              bundle=path, bundle_id=body.bundle)
        except UserError as exc:
            raise refuse(exc, ["body"], lang=lang) from None
        key = fights.put(fight)
        return answer(key, fight, lang)

    @app.get("/fights/templates/{system}", summary="The stat blocks a fight of this system can add by name")
    def templates(system: Annotated[str, PathParam(json_schema_extra={"enum": sorted(SYSTEMS)})],
                  lang: Lang = "en") -> dict[str, Any]:
        """The bestiary names (``templates``: the id the API takes, ``text`` its name in ``lang`` where the
        catalogue has one, a description), and the character classes (``classes``: id, name in ``lang``, top
        level)."""
        from npc_tactics.encounters.adapters import adapter
        from npc_tactics.gm.service.forms import bestiary_form
        from npc_tactics.gm.table.stat_words import class_choices, template_description, template_text

        if system not in SYSTEMS:
            raise _Refused(["path", "system"], str(UnknownNameError("system", system, SYSTEMS)))
        plugin = SYSTEMS[system]
        with no_user_paths(folder):
            names = adapter(plugin).templates()
            try:
                described = {t["name"]: t.get("description", "") for t in bestiary_form(system)["templates"]}
            except (UserError, KeyError, TypeError):
                described = {}
            classes = class_choices(plugin, lang)
        return {"system": system, "classes": classes,
                "templates": [{"name": n, "text": template_text(plugin, n, lang),
                               "description": template_description(plugin, n, described.get(n, ""), lang)}
                              for n in names]}

    @app.get("/fights/formats", summary="The files of other programs a fight can import, by system")
    def import_formats() -> dict[str, Any]:
        from npc_tactics.gm.table.fight_import import formats

        return {"formats": [{"format": f.name, "system": f.system, "reads": f.reads} for f in formats().values()]}

    @app.get("/fights/{fight_id}", summary="The fight now: round, decision, cards, die awaited, log")
    def state(fight_id: FightId, lang: Lang = "en") -> dict[str, Any]:
        with fights.use(fight_id) as fight:
            return answer(fight_id, fight, lang)

    @app.delete("/fights/{fight_id}", summary="Forget a fight")
    def delete(fight_id: FightId) -> dict[str, Any]:
        if not fights.drop(fight_id):
            raise HTTPException(status_code=404, detail=f"no fight {fight_id!r} on this server")
        return {"deleted": fight_id}

    def run(fight_id: str, lang: str, call: Callable[[Any], Any], prefix: list[str | int],
            top: tuple[str, ...] = ()) -> dict[str, Any]:
        with fights.use(fight_id) as fight:
            try:
                with no_user_paths(folder):
                    call(fight)
            except UserError as exc:
                raise refuse(exc, prefix, top, lang) from None
            return answer(fight_id, fight, lang)

    @app.post("/fights/{fight_id}/combatants", summary="Add a combatant (before the start)")
    def add(fight_id: FightId, body: CombatantBody, lang: Lang = "en") -> dict[str, Any]:
        if body.template is None and not body.fields:
            raise _Refused(["body", "template"], "give a template name, or fields (stat_block, class and level...)")
        return run(fight_id, lang, lambda f: f.add(body.side, body.template, name=body.name, fields=body.fields,
                                                  lang=lang),
                   ["body", "fields"], top=("template", "name", "side"))

    @app.delete("/fights/{fight_id}/combatants/{index}", summary="Remove a combatant (before the start)")
    def remove(fight_id: FightId, index: Annotated[int, PathParam(ge=0, le=64)], lang: Lang = "en") -> dict[str, Any]:
        return run(fight_id, lang, lambda f: f.remove(index), ["path"])

    @app.patch("/fights/{fight_id}/combatants/{index}", summary="Change a combatant (before the start), re-checked")
    def edit(fight_id: FightId, index: Annotated[int, PathParam(ge=0, le=64)], body: EditBody,
             lang: Lang = "en") -> dict[str, Any]:
        if not body.fields and not body.remove:
            raise _Refused(["body", "fields"], "give fields to set (e.g. stat_block) or keys to remove")
        return run(fight_id, lang, lambda f: f.edit(index, body.fields, body.remove, lang=lang), ["body", "fields"],
                   top=("name", "combatant"))

    @app.patch("/fights/{fight_id}/sides/{side}", summary="Rename a side, or change who plays it")
    def edit_side(fight_id: FightId, side: Annotated[int, PathParam(ge=0, le=3)], body: SideEditBody,
                  lang: Lang = "en") -> dict[str, Any]:
        if body.name is None and body.control is None:
            raise _Refused(["body", "name"], "give a name or a control (npc or pc)")

        def change(f: Any) -> None:
            try:
                f.set_side(side, name=body.name, control=body.control)
            except ConfigError as exc:
                raise ConfigError(exc.file, exc.field.split(".")[-1] if "." in exc.field else exc.field,
                                  exc.message) from None

        return run(fight_id, lang, change, ["body"])

    @app.post("/fights/{fight_id}/import", summary="Add a combatant from an actor file of another program (a VTT's)")
    def import_actor(fight_id: FightId, body: ImportBody, lang: Lang = "en") -> dict[str, Any]:
        from npc_tactics.gm.table.fight_import import import_data

        with fights.use(fight_id) as fight:
            try:
                with no_user_paths(folder):
                    got = import_data(body.format, fight.plugin, body.data, body.file or "file")
            except ConfigError as exc:
                top: list[str | int] = ["body", "format"] if exc.field == "format" else ["body", "data",
                                                                                       *_loc(exc.field)]
                raise _Refused(top, said_in(exc.message, lang)) from None
            except UserError as exc:
                raise _Refused(["body", "data"], str(exc)) from None
            try:
                with no_user_paths(folder):
                    index = fight.add(body.side, name=body.name, fields=got.combatant, lang=lang)
            except UserError as exc:
                raise refuse(exc, ["body", "data"], top=("name", "side"), lang=lang) from None
            return {**answer(fight_id, fight, lang),
                    "imported": {"index": index, "kind": got.kind, "name": fight.members[index].entry["name"],
                                 "entry": got.name, "unused": list(got.unused), "notes": list(got.notes)}}

    @app.post("/fights/{fight_id}/start", summary="Roll the opening and reach the first decision")
    def start(fight_id: FightId, lang: Lang = "en") -> dict[str, Any]:
        return run(fight_id, lang, lambda f: f.start(), ["body"])

    @app.post("/fights/{fight_id}/step", summary="Play a move (or the advisor's) at the pending decision")
    def step(fight_id: FightId, body: StepBody, lang: Lang = "en") -> dict[str, Any]:
        if body.advice == (body.action is not None):
            raise _Refused(["body", "action"], "give either action (a move) or advice: true")
        if body.advice:
            gate = heavy.turn() if body.odds else nullcontext()
            with gate:
                return run(fight_id, lang, lambda f: f.play_advice(odds=body.odds, workers=workers), ["body"])
        action = body.action
        assert action is not None
        return run(fight_id, lang, lambda f: f.play(action, by=body.by), ["body"])

    @app.post("/fights/{fight_id}/advise", summary="The advisor's move and alternatives with their odds")
    def advise(fight_id: FightId, body: AdviseBody, lang: Lang = "en") -> dict[str, Any]:
        with fights.use(fight_id) as fight:
            try:
                with (heavy.turn() if body.odds else nullcontext()), no_user_paths(folder):
                    advice: dict[str, Any] = fight.advise(odds=body.odds, lang=lang, workers=workers)
            except UserError as exc:
                raise refuse(exc, ["body"], lang=lang) from None
            return advice

    @app.post("/fights/{fight_id}/die", summary="The face the GM rolled for the die awaited")
    def die(fight_id: FightId, body: DieBody, lang: Lang = "en") -> dict[str, Any]:
        return run(fight_id, lang, lambda f: f.type_die(body.face), ["body"])

    @app.post("/fights/{fight_id}/undo", summary="Take back the last step (or the last typed face)")
    def undo(fight_id: FightId, lang: Lang = "en") -> dict[str, Any]:
        return run(fight_id, lang, lambda f: f.undo(), ["body"])

    @app.get("/fights/{fight_id}/save", summary="The fight as a JSON file (set-up, seed, moves, typed faces)")
    def save(fight_id: FightId) -> dict[str, Any]:
        with fights.use(fight_id) as fight:
            saved: dict[str, Any] = fight_to_dict(fight)
            return saved

    @app.get("/fights/{fight_id}/log", summary="The fight's log as plain text, in the language asked",
             response_class=PlainTextResponse)
    def log(fight_id: FightId, lang: Lang = "en") -> PlainTextResponse:
        """The log the page shows, headed by the system, the sides and the dice: a text file to keep with the
        session's notes (the saved fight is ``/save``)."""
        from npc_tactics.gm.table.fight_log import log_filename, log_text

        with fights.use(fight_id) as fight:
            return PlainTextResponse(log_text(fight, lang), headers={
                "content-disposition": f'attachment; filename="{log_filename(fight, lang)}"'})

    @app.post("/fights/load", status_code=201, summary="Load a saved fight (replayed with the rules) as a new fight")
    def load(body: LoadBody, lang: Lang = "en") -> dict[str, Any]:
        def path_of(bundle_id: str) -> Path | None:
            found = bundle_path(bundle_id)
            return found[1] if found is not None else None

        try:
            with no_user_paths(folder):
                fight = fight_from_dict(body.fight, bundle_path=path_of)
        except UserError as exc:
            if isinstance(exc, ConfigError):
                raise _Refused(["body", "fight", *_loc(exc.field)], said_in(exc.message, lang)) from None
            raise _Refused(["body", "fight"], str(exc)) from None
        key = fights.put(fight)
        return answer(key, fight, lang)

    return fights
