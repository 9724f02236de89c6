"""The fake system's scenarios (plain mappings: what ``FakeEngine.new_combat`` reads)."""

from __future__ import annotations

from typing import Any

from npc_tactics.errors import UnknownNameError

SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    "duel": ("one against one", {"sides": [[{"name": "orc", "hp": 8}], [{"name": "elf", "hp": 8}]]}),
    "skirmish": ("two against two", {"sides": [[{"name": "orc", "hp": 6}, {"name": "goblin", "hp": 4}],
                                               [{"name": "elf", "hp": 7}, {"name": "dwarf", "hp": 9}]]}),
    "sharp_duel": ("one against one, every blow lands more easily (rules option hit_on 8)",
                   {"sides": [[{"name": "orc", "hp": 8}], [{"name": "elf", "hp": 8}]], "options": {"hit_on": 8}}),
}


def list_scenarios() -> list[tuple[str, str]]:
    return [(name, description) for name, (description, _) in SCENARIOS.items()]


def load_scenario(name: str) -> dict[str, Any]:
    if name not in SCENARIOS:
        raise UnknownNameError("scenario", name, SCENARIOS)
    return SCENARIOS[name][1]
