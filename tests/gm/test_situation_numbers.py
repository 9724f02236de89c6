"""A situation's positions and distances are numbers of a battlefield: one too far to describe to a policy
(1e308 m once reached the encoders and overflowed their float32 features) is refused naming its field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_helpers import run_cli

REPO = Path(__file__).resolve().parents[2]


def _far(system: str, data: dict[str, Any]) -> str:
    if system == "mrq":
        data["range"] = 10**308
        return "range"
    data["sides"][1]["combatants"][0]["position"] = 1e308
    return "sides[1].combatants[0].position"


@pytest.mark.parametrize("system", ["ose", "runequest", "mrq", "dicepool"])
def test_a_position_beyond_the_battlefield_is_refused(system: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load((REPO / "examples" / f"{system}_situation.yaml").read_text())
    field = _far(system, data)
    situation = tmp_path / "far.yaml"
    situation.write_text(yaml.safe_dump(data))
    code, out, err = run_cli(["suggest", "--system", system, "--situation", str(situation)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert field in err and "far.yaml" in err, err
