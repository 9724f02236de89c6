"""`npc-tactics suggest --system SYS --situation FILE`: the shipped bundle answers with no training."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import run_cli

EXAMPLES = {"ose": "examples/ose_situation.yaml", "runequest": "examples/runequest_situation.yaml",
            "mrq": "examples/mrq_situation.yaml", "dicepool": "examples/dicepool_situation.yaml"}
#: the encounter distribution each shipped generalist was trained on (npc_tactics/configs/policies/<system>.yaml)
TRAINED_ON = {"ose": "bestiary", "runequest": "generalist", "mrq": "generalist", "dicepool": "bestiary"}


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_suggest_system_uses_the_shipped_bundle(system: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["suggest", "--system", system, "--situation", EXAMPLES[system], "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    moves = data["moves"]
    assert moves and abs(sum(m["probability"] for m in moves) - 1.0) < 1e-3
    # a generalist, trained on an encounter distribution, not a one-fight policy
    assert data["trust"]["scenario"] == f"the encounter distribution {TRAINED_ON[system]}"


def test_system_and_another_systems_bundle_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from npc_tactics.gm.advice.suggest import shipped_bundle

    code, _, err = run_cli(["suggest", "--system", "ose", "--bundle", str(shipped_bundle("mrq")), "--situation",
                            EXAMPLES["mrq"]], capsys)
    assert code == 2 and "is a mrq bundle, not ose" in err
