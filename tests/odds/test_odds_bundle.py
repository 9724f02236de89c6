"""Odds with a policy bundle playing the foes (a real tiny MaskablePPO run, exported to ONNX): the network's
decisions are batched per chunk, and the figures still do not depend on the worker count; over HTTP a served
bundle is named by its id."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from npc_tactics.gm.encounter.odds import odds_of
from npc_tactics.registry import get_system

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def bundles(trained_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from npc_tactics.export.bundle_export import export_bundle

    folder = tmp_path_factory.mktemp("odds-bundles")
    export_bundle(trained_run, folder / "goblin", fights=10, seed=0)
    return folder


def test_a_bundle_plays_the_foes_and_the_workers_do_not_matter(bundles: Path) -> None:
    spec = str(bundles / "goblin")
    kwargs = {"party": "fighter_1", "foes": "goblin_archer x2", "fights": 60, "seed": 9, "foe_policy": spec}
    one = odds_of(get_system("ose"), workers=1, **kwargs)  # type: ignore[arg-type]
    two = odds_of(get_system("ose"), workers=2, **kwargs)  # type: ignore[arg-type]
    assert one["odds"] == two["odds"]
    assert one["foe_policy"] == spec and one["odds"]["fights"] == 60


def test_a_served_bundle_is_named_by_its_id(bundles: Path, tmp_path: Path) -> None:
    from npc_tactics.gm.service.app import create_app

    served = tmp_path / "served"
    shutil.copytree(bundles, served)
    client = TestClient(create_app(served, workers=1))
    body = {"system": "ose", "party": [{"template": "fighter_1"}], "foes": [{"template": "goblin_archer", "count": 2}],
            "fights": 60, "seed": 9, "foe_policy": "goblin"}
    r = client.post("/odds", json=body)
    assert r.status_code == 200, r.text
    direct = odds_of(get_system("ose"), party="fighter_1", foes="goblin_archer x2", fights=60, seed=9,
                     foe_policy=str(served / "goblin"), workers=1)
    assert r.json()["odds"] == direct["odds"]
    r = client.post("/odds", json={**body, "system": "mrq", "party": [{"template": "archer"}],
                                   "foes": [{"template": "wolf"}]})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "foe_policy"]
    assert "plays 'ose', not 'mrq'" in r.json()["detail"][0]["msg"]
