"""The fixtures every page test shares: Debian's ``chromium`` launched headless through Playwright, and a real
``npc-tactics serve`` started as a GM starts it (:func:`tests.serve_helpers.served`), one of each per test module.

- ``browser``: the launched Chromium (a module opens its own tabs, at the sizes it checks).
- ``page``: one tab at Playwright's default size, shared by the tests of a module, 30 s per wait.
- ``server``: the base URL of the module's server: the generalists shipped with the package (no flag), or, in a
  module that sets ``SERVE_TEST_BUNDLES = True``, the test bundles of :mod:`tests.gm.service_bundles`.
- ``shipped``: a server of the shipped generalists beside a module's bundles server.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.serve_helpers import served

#: Chromium's flags in a container: no sandbox, no GPU, no /dev/shm (small in Docker).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("no chromium on PATH: `make test` installs Debian's chromium (apt-get install chromium)")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    tab = browser.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def shipped() -> Iterator[str]:
    with served() as base:  # no flag: the generalists shipped with the package, their tactics cards with them
        yield base


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if getattr(request.module, "SERVE_TEST_BUNDLES", False):
        from tests.gm.service_bundles import build_bundles

        with served("--bundles", str(build_bundles(tmp_path_factory.getbasetemp())), timeout=60) as base:
            yield base
    else:
        yield request.getfixturevalue("shipped")
