"""The threat scale (its median template is 1.0) sets every encounter budget, so every draw of the shipped
distributions and held-out sets: neither a GM's own bestiary nor a template shipped later may move it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from npc_tactics.encounters.compose import _raw_threats, _threats, threats

#: a few figures of the scale the shipped policies were trained and measured on (compose.threats at 4643a8a; the
#: RuneQuest wolf at its published figures since 2026-12-07, docs/runequest.md "Checked creature by creature")
PINNED = {
    "ose": {"goblin": 0.501, "orc": 0.61, "fighter_1": 0.933},
    "runequest": {"orlanthi_warrior": 1.508, "broo": 0.8, "great_troll": 4.2, "wolf": 0.152},
    "mrq": {"wolf": 0.123, "warhorse": 2.744, "knight": 1.167},
    "dicepool": {"duelist": 1.0, "hound": 0.443, "giant": 2.752},
}


@pytest.mark.parametrize("system", sorted(PINNED))
def test_the_scale_is_the_one_the_shipped_policies_met(system: str) -> None:
    table = threats(system)
    assert {t: table[t] for t in PINNED[system]} == PINNED[system]


def _strong_copies(system: str) -> dict[str, Any]:
    """Twenty copies of the system's most threatening shipped template under new names: enough to move the median
    of any scale that counted them."""
    if system == "runequest":
        from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary
        shipped: dict[str, Any] = shipped_bestiary()
    else:
        from npc_tactics.systems.mrq.rules.bestiary import shipped_templates
        shipped = {name: raw for name, (_file, raw) in shipped_templates().items()}
    table = threats(system)
    top = max(shipped, key=lambda t: table[t])
    return {f"my_{top}_{k}": dict(shipped[top]) for k in range(20)}


@pytest.mark.parametrize("system", ["runequest", "mrq"])
def test_a_gm_bestiary_does_not_move_the_scale(system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = dict(threats(system))
    path = tmp_path / f"{system}.yaml"
    path.write_text(yaml.safe_dump({"system": system, **_strong_copies(system)}, allow_unicode=True), encoding="utf-8")
    monkeypatch.setenv("NPC_TACTICS_BESTIARY", os.fspath(path))
    _raw_threats.cache_clear()
    _threats.cache_clear()
    try:
        after = threats(system)
        assert len(after) == len(before) + 20  # the GM's creatures are on the scale, at its figures
        assert {t: after[t] for t in before} == before
    finally:
        monkeypatch.delenv("NPC_TACTICS_BESTIARY")
        _raw_threats.cache_clear()
        _threats.cache_clear()
