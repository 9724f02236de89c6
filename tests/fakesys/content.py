"""The fake system's scenarios (plain mappings: what ``FakeEngine.new_combat`` reads) and GM situations, read
with the shared loaders of ``npc_tactics.rules.loading`` and entered through ``Engine.enter``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import UnknownNameError
from npc_tactics.rules import loading
from npc_tactics.rules.base import Status
from tests.fakesys.engine import FakeEngine, FakeState, Fighter
from tests.fakesys.situation_fields import FIELDS

SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    "duel": ("one against one", {"sides": [[{"name": "orc", "hp": 8}], [{"name": "elf", "hp": 8}]]}),
    "skirmish": ("two against two", {"sides": [[{"name": "orc", "hp": 6}, {"name": "goblin", "hp": 4}],
                                               [{"name": "elf", "hp": 7}, {"name": "dwarf", "hp": 9}]]}),
    "sharp_duel": ("one against one, every blow lands more easily (rules option hit_on 8)",
                   {"sides": [[{"name": "orc", "hp": 8}], [{"name": "elf", "hp": 8}]], "options": {"hit_on": 8}}),
}
SITUATION_KEYS = FIELDS.keys("situation")
FIGHTER_KEYS = FIELDS.keys("combatant")


def list_scenarios() -> list[tuple[str, str]]:
    return [(name, description) for name, (description, _) in SCENARIOS.items()]


def load_scenario(name: str) -> dict[str, Any]:
    if name not in SCENARIOS:
        raise UnknownNameError("scenario", name, SCENARIOS)
    return SCENARIOS[name][1]


def load_situation(engine: FakeEngine, path_or_mapping: str | Path | Mapping[str, Any], roller: Roller,
                   notes: list[str] | None = None) -> FakeState:
    """A fight in progress: ``round``, ``acting`` (the name deciding now), ``options``, and two ``sides``,
    each a list of ``{name, hp, max_hp?, status?, defending?}``; ``max_hp`` left out is ``hp`` (a note)."""
    note = loading.note_taker(notes)
    file, data = V.document(path_or_mapping)
    d = V.mapping(data, file, "", SITUATION_KEYS, FIELDS.required("situation"))
    options = loading.read_options(FakeEngine.spec, d.get("options") or {}, file)
    fighters = []
    for s, side in enumerate(V.two_sides(d["sides"], file)):
        for k, raw in enumerate(V.sequence(side, file, f"sides[{s}]", 1, 2, "combatants")):
            p = f"sides[{s}][{k}]"
            f = V.mapping(raw, file, p, FIGHTER_KEYS, FIELDS.required("combatant"))
            if "max_hp" not in f:
                note(f"{f['name']}: max_hp not given, taken as hp")
            max_hp = FIELDS.read(f, "max_hp", file, p, "combatant", default=f["hp"])
            status = FIELDS.read(f, "status", file, p, "combatant")
            fighters.append(Fighter(V.string(f["name"], file, f"{p}.name", non_empty=True), s,
                                    FIELDS.read(f, "hp", file, p, "combatant", high=max_hp), max_hp,
                                    Status[status.upper()], FIELDS.read(f, "defending", file, p, "combatant")))
    state = FakeState(fighters, FIELDS.read(d, "round", file), options=engine.resolve_options(options))
    state.turn = loading.acting_index(d["acting"], fighters, file)
    return engine.enter(state, roller)[0]
