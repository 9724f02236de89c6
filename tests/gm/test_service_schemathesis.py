"""Property-based test of the HTTP API against its own OpenAPI schema (schemathesis, bounded examples): whatever a
client sends, valid by the schema or not, the service answers without a server error (5xx).

The operations are driven through schemathesis' strategies inside one test (its pytest plugin does not run on
this pytest); the schema lists the served bundle ids, so valid requests reach the situation loaders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from npc_tactics.gm.service.app import create_app
from tests.gm.service_bundles import build_bundles

pytestmark = pytest.mark.integration
EXAMPLES_PER_OPERATION = 40


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder: Path = build_bundles(tmp_path_factory.getbasetemp())
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(folder, workers=1))


def operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


def test_schema_lists_the_served_bundles(api_schema: Any) -> None:
    labels = {op.label for op in operations(api_schema)}
    assert "POST /suggest" in labels and "GET /bestiary/{system}" in labels and len(labels) >= 7


def fuzz(op: Any, mode: GenerationMode, calls: dict[str, int]) -> None:
    """Up to EXAMPLES_PER_OPERATION requests to ``op``; no answer may be a server error."""

    @given(case=op.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        response = case.call()
        case.validate_response(response, checks=[not_a_server_error])
        calls[op.label] = calls.get(op.label, 0) + 1

    check()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_server_error_for_any_request(api_schema: Any, mode: GenerationMode) -> None:
    calls: dict[str, int] = {}
    for op in operations(api_schema):
        if mode is GenerationMode.NEGATIVE and not list(op.iter_parameters()) and op.label != "POST /suggest":
            continue  # nothing in the request to make invalid
        fuzz(op, mode, calls)
    assert calls.get("POST /suggest", 0) >= 10, calls


def test_the_schema_examples_are_answered(api_schema: Any) -> None:
    statuses: list[int] = []
    for op in operations(api_schema):
        for strategy in op.get_strategies_from_examples():

            @given(case=strategy)
            @settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            def check(case: Any) -> None:
                response = case.call()
                case.validate_response(response, checks=[not_a_server_error])
                statuses.append(response.status_code)

            check()
    assert 200 in statuses


# Random JSON rarely gets past a situation's first key; these start from the shipped example situations and
# put odd values (wrong types, huge numbers, names of other things) at random places inside them.
ODD_VALUES = [None, -1, 0, 1, 2.5, 1e308, -1e308, 10**30, "", "x", "left_leg", True, [], {}, [1], {"a": 1},
              "dead", "close"]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else []
    for k, v in items:
        out += _paths(v, prefix + (k,))
    return out


@pytest.mark.parametrize("system", ["ose", "runequest", "mrq", "dicepool"])
def test_mutated_example_situations_never_give_a_server_error(api_schema: Any, system: str) -> None:
    import copy

    import yaml
    from fastapi.testclient import TestClient
    from hypothesis import strategies as st

    from tests.gm.service_bundles import EXAMPLES

    client = TestClient(api_schema.app, raise_server_exceptions=False)
    base = yaml.safe_load((EXAMPLES / f"{system}_situation.yaml").read_text(encoding="utf-8"))
    edits = st.lists(st.tuples(st.sampled_from(_paths(base)), st.sampled_from(ODD_VALUES)), min_size=1, max_size=3)
    seen: set[int] = set()

    @given(edits=edits)
    @settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
        situation = copy.deepcopy(base)
        for path, value in edits:
            node = situation
            try:
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = copy.deepcopy(value)  # never the shared ODD_VALUES object
            except (KeyError, IndexError, TypeError):
                continue  # an earlier edit replaced a parent of this path
        status = client.post("/suggest", json={"bundle": system, "situation": situation}).status_code
        seen.add(status)
        assert status < 500

    check()
    assert seen <= {200, 422} and 422 in seen
