"""suggest: assumptions the situation loader made are printed and in --json; a situation of another
system is named as such; a policy whose input size does not fit is refused (no trained run needed: a
stand-in policy ranks uniformly)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.errors import UserError
from npc_tactics.gm.advice.suggest import suggest
from npc_tactics.registry import get_system

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class UniformPolicy:
    """Every legal move equally likely; ``obs_size`` as the system's encoder gives (or as told). A
    :class:`~npc_tactics.policy_io.agent.Policy` (suggest checks the protocol)."""

    def __init__(self, system: str, obs_size: int | None = None) -> None:
        info = get_system(system)
        engine = info.make_engine({})
        self.name = "uniform"
        self.system = info.name
        self.scenario = info.default_scenario
        self.side = 0
        self.deterministic = True
        self.options: dict[str, Any] = {}
        self.notes: list[str] = []
        self.warnings: list[str] = []
        self.bundle = None
        self.n_actions = len(engine.catalogue)
        self.obs_size = obs_size or int(info.encoder_class()(engine).size)

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = np.asarray(mask, dtype=float)
        return legal / legal.sum()

    def act(self, observation: Any, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask)[0])

    def out_of_range(self, vector: np.ndarray) -> list[tuple[str, float, float, float]]:
        return []


def test_assumptions_reach_the_gm(monkeypatch: pytest.MonkeyPatch) -> None:
    content = get_system("ose").load("content")
    real = content.load_situation

    def noting(engine: Any, source: Any, roller: Any, notes: list[str] | None = None) -> Any:
        assert notes is not None, "suggest must pass notes="
        notes.append("Brannoc: hp not given, rolled 5 (1d8)")
        return real(engine, source, roller, notes=notes)

    monkeypatch.setattr(content, "load_situation", noting)
    result = suggest("runs/none", EXAMPLES / "ose_situation.yaml", policy=UniformPolicy("ose"))
    assert result.assumptions == ["Brannoc: hp not given, rolled 5 (1d8)"]
    assert "assumed: Brannoc: hp not given, rolled 5 (1d8)" in result.format()
    assert result.to_dict()["assumptions"] == ["Brannoc: hp not given, rolled 5 (1d8)"]


@pytest.mark.parametrize(("situation", "other"), [("runequest", "runequest"), ("dicepool", "dicepool"),
                                                   ("mrq", "mrq")])
def test_a_situation_of_another_system_is_named(situation: str, other: str) -> None:
    with pytest.raises(UserError, match=f"this looks like a {other} situation; the run runs/x is ose"):
        suggest("runs/x", EXAMPLES / f"{situation}_situation.yaml", policy=UniformPolicy("ose"))


def test_a_wrong_key_deep_in_a_situation_is_not_blamed_on_another_system(tmp_path: Path) -> None:
    """An MRQ situation with a humanoid location on the warhorse: RuneQuest's loader stops at the file's first
    field (``distance: close``), so it is no better explanation than the key MRQ names."""
    import yaml

    data = yaml.safe_load((EXAMPLES / "mrq_mounted.yaml").read_text())
    data["sides"][1]["combatants"][0]["mount"]["locations"]["left_arm"] = 1
    situation = tmp_path / "mount.yaml"
    situation.write_text(yaml.safe_dump(data))
    with pytest.raises(UserError) as err:
        suggest("runs/x", situation, policy=UniformPolicy("mrq"))
    assert "looks like" not in str(err.value)
    assert "sides[1].combatants[0].mount.locations.left_arm: unknown key 'left_arm'" in str(err.value)


def test_a_policy_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(UserError, match="reads 7 observation values"):
        suggest("runs/x", EXAMPLES / "ose_situation.yaml", policy=UniformPolicy("ose", obs_size=7))
