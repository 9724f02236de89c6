"""``POST /odds``: the encounter odds of ``npc-tactics odds`` over HTTP, for the GM web page.

The same rules as the rest of the service (:mod:`npc_tactics.gm.service.app`): a validated body whose every mistake
is a 422 naming the field (``["body", "foes", 1, "template"]``), a server-side cap on fights, no paths from
clients (a policy is a scripted agent's name or the id of a bundle the server serves), and heavy requests one
at a time. Kept apart from ``service.py`` so the suggest routes stay as they were.

A template may be given by its id (``goblin``) or by its name in the request's language or in English, as the web
page lists it (``gobelin``, ``archer gobelin``, ``gobelin (goblin)``; case and spaces do not count):
:class:`~npc_tactics.gm.encounter.template_words.TemplateWords`, shared with the command line's groups. An unknown
or ambiguous name is a 422 naming the token, in the request's language (the French of the gettext domain ``odds``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from npc_tactics.configs.files import no_user_paths
from npc_tactics.errors import UnknownNameError, UserError
from npc_tactics.gm.encounter.template_words import TemplateWords, listed
from npc_tactics.gm.service.limits import HeavyGate
from npc_tactics.i18n import translator
from npc_tactics.limits import SEED_MAX
from npc_tactics.plugin import System
from npc_tactics.registry import SYSTEMS
from npc_tactics.rollouts.deadline import TimeLimitError

__all__ = ["MAX_ODDS_FIGHTS", "GroupEntry", "OddsRequest", "TemplateWords", "add_odds_routes", "listed"]

#: Fights one request may ask for (about 2 s of OSE band fights on two cores).
MAX_ODDS_FIGHTS = 5000
#: Most combatants per side (npc_tactics.encounters.MAX_PER_SIDE).
MAX_SIDE = 6
AGENT = r"^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,99}$"


class GroupEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    template: Annotated[str, Field(min_length=1, max_length=64,
                                   description="A template of the system: its id, or its name in the request's "
                                               "`lang` or in English (case and spaces do not count).")]
    count: Annotated[int, Field(ge=1, le=MAX_SIDE)] = 1


class OddsRequest(BaseModel):
    """The party and the foes (template names with counts), who plays each side, and how many fights."""

    model_config = ConfigDict(extra="forbid", strict=True)
    system: Annotated[str, Field(description="A registered rules system.",
                                 json_schema_extra={"enum": sorted(SYSTEMS)})]
    party: Annotated[list[GroupEntry], Field(min_length=1, max_length=MAX_SIDE)]
    foes: Annotated[list[GroupEntry], Field(min_length=1, max_length=MAX_SIDE)]
    party_policy: Annotated[str, Field(pattern=AGENT, description="A scripted agent or a served bundle id.")] = \
        "by-the-book"
    foe_policy: Annotated[str, Field(pattern=AGENT, description="A scripted agent or a served bundle id.")] = \
        "by-the-book"
    fights: Annotated[int, Field(ge=1, le=100_000, description="Fights to play (capped by the server).")] = 500
    seed: Annotated[int, Field(ge=0, le=SEED_MAX)] = 0
    lang: Literal["en", "fr"] = "en"

    @field_validator("system")
    @classmethod
    def _registered(cls, value: str) -> str:
        if value not in SYSTEMS:
            raise ValueError(str(UnknownNameError("system", value, SYSTEMS)))
        return value


def _error(loc: list[str | int], msg: str) -> JSONResponse:
    return JSONResponse(status_code=422, content={"detail": [{"loc": loc, "msg": msg, "type": "value_error"}]})


def _group(req: OddsRequest, key: str, words: TemplateWords
           ) -> tuple[tuple[tuple[str, int], ...], JSONResponse | None]:
    entries: list[GroupEntry] = getattr(req, key)
    counts: dict[str, int] = {}
    for i, e in enumerate(entries):
        found = words.matches(e.template)
        if len(found) != 1:
            msg = words.ambiguous(e.template, found) if found else words.unknown(e.template)
            return (), _error(["body", key, i, "template"], msg)
        counts[found[0]] = counts.get(found[0], 0) + e.count
    if sum(counts.values()) > MAX_SIDE:
        msg = translator(req.lang, "odds")("at most {n} combatants on a side, got {m}")
        return (), _error(["body", key], msg.format(n=MAX_SIDE, m=sum(counts.values())))
    return tuple(counts.items()), None


def _policy(system: System, spec: str, where: str, bundle_path: Callable[[str], tuple[str, Path] | None]
            ) -> tuple[str, JSONResponse | None]:
    """A scripted agent name as it is, a served bundle id as its folder (the server's own path, never the
    client's)."""
    from npc_tactics.agents import agent_entries

    scripted = agent_entries(system)
    if spec in scripted:
        return spec, None
    found = bundle_path(spec)
    if found is None:
        return "", _error(["body", where], f"unknown policy {spec!r}; give a scripted agent "
                          f"({', '.join(sorted(scripted))}) or a served bundle id")
    bundle_system, path = found
    if bundle_system != system.name:
        return "", _error(["body", where], f"bundle {spec!r} plays {bundle_system!r}, not {system.name!r}")
    return str(path), None


def add_odds_routes(app: FastAPI, bundle_path: Callable[[str], tuple[str, Path] | None], heavy: HeavyGate,
                    *, workers: int | None, folder: Path, max_fights: int = MAX_ODDS_FIGHTS) -> None:
    """Add ``POST /odds`` to ``app``. ``bundle_path(id)`` gives a served bundle's ``(system, folder)``; ``heavy``
    queues the fights behind other heavy requests; ``folder`` is the bundles folder, the only one read."""

    @app.post("/odds", summary="The odds of an encounter: party win, foe rout, a PC death, expected rounds")
    def post_odds(req: OddsRequest) -> Any:
        from npc_tactics.gm.encounter.fights import run_fights
        from npc_tactics.gm.encounter.odds import Lineup, summarize, template_names
        from npc_tactics.gm.encounter.spec import group_text
        from npc_tactics.gm.table.stat_words import template_text
        from npc_tactics.gm.words.encounter_text import format_odds
        from npc_tactics.registry import get_system

        if req.fights > max_fights:
            return _error(["body", "fights"], f"at most {max_fights} fights per request on this server")
        plugin = get_system(req.system)  # the request's system (its name was checked with the body)
        words = TemplateWords.of(plugin, template_names(plugin), req.lang, template_text)
        party, bad = _group(req, "party", words)
        if bad is not None:
            return bad
        foes, bad = _group(req, "foes", words)
        if bad is not None:
            return bad
        party_spec, bad = _policy(plugin, req.party_policy, "party_policy", bundle_path)
        if bad is not None:
            return bad
        foe_spec, bad = _policy(plugin, req.foe_policy, "foe_policy", bundle_path)
        if bad is not None:
            return bad
        import time

        with no_user_paths(folder), heavy.turn():
            started = time.perf_counter()
            try:
                lineup = Lineup(plugin, plugin.make_engine(), party)
                lineup.add(foes)
                results = run_fights(lineup.job(party_spec, foe_spec), [0], req.fights, seed=req.seed,
                                     workers=workers)[0]
            except TimeLimitError:
                raise  # the gate answers it: 503 with Retry-After
            except UserError as exc:
                return _error(["body"], str(exc))
            seconds = time.perf_counter() - started
        out = {"system": req.system, "party": group_text(party), "foes": group_text(foes), "situation": None,
               "party_policy": req.party_policy, "foe_policy": req.foe_policy, "seed": req.seed,
               "odds": summarize(results).to_dict(), "seconds": round(seconds, 3), "lang": req.lang}
        out["text"] = format_odds(out, req.lang, dict(words.labels) if req.lang != "en" else None)  # the GM's words
        return out
