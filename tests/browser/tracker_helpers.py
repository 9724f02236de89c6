"""What the tracker page's browser tests share (issue 29): a counter of the GM's clicks, the page's own words, the
390-px check, screenshots to ``$TRACKER_SHOTS``, axe-core's script, and a fight run to its end on the page (the
advisor's "Do:" for the NPCs, the players' moves for the PCs, typed dice, one undo). The browser and the server
are conftest's fixtures."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

SHOTS = os.environ.get("TRACKER_SHOTS")
ROOT = Path(__file__).resolve().parents[2]


class Clicks:
    """Counts what a GM does: clicks, selects and fills (what issue 29 counted as 42 for the old form)."""

    def __init__(self, page: Any) -> None:
        self.page, self.n = page, 0

    def click(self, selector: str) -> None:
        self.n += 1
        self.page.click(selector)

    def fill(self, selector: str, value: str) -> None:
        self.n += 1
        self.page.fill(selector, value)

    def select(self, selector: str, value: str) -> None:
        self.n += 1
        self.page.select_option(selector, value)


def axe_script() -> Path:
    """axe-core's ``axe.min.js`` (npm ``axe-core``): ``$AXE_CORE``, or ``node_modules/axe-core`` in the repo."""
    for found in (os.environ.get("AXE_CORE"), str(ROOT / "node_modules" / "axe-core" / "axe.min.js")):
        if found and Path(found).is_file():
            return Path(found)
    pytest.skip("axe-core not installed: `npm install axe-core` in the repo, or set AXE_CORE to its axe.min.js")


def word(msgid: str, lang: str) -> str:
    """The page's word in ``lang``, from the ``web`` catalogue (the page must show exactly that)."""
    from npc_tactics.i18n import translator

    return translator(lang, "web")(msgid)


def no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def roster(page: Any, n: int) -> None:
    """Wait until the roster lists ``n`` combatants (an error shown instead fails at once, with its words)."""
    page.wait_for_function(f"document.querySelectorAll('#roster li').length === {n} || "
                           "!document.querySelector('#add-error').hidden")
    assert page.is_hidden("#add-error"), page.inner_text("#add-error")
    assert len(page.query_selector_all("#roster li")) == n


#: What the players of an OSE party declare, first found first: they fight (catalogue names: the buttons'
#: data-action).
PLAYER_PREFERS = ("melee:", "shoot:", "close:", "declare_none")


def ose_face(sides: int) -> int:
    """The face the OSE players type: they roll well on a d20, low on the rest."""
    return 15 if sides == 20 else min(sides, 3)


def player_move(page: Any, prefers: Sequence[str] = PLAYER_PREFERS) -> str:
    actions = page.eval_on_selector_all("#decide .moves button", "bs => bs.map(b => b.dataset.action)")
    for prefix in prefers:
        for action in actions:
            if action.startswith(prefix):
                return f"#decide .moves button[data-action='{action}']"
    return "#decide .moves button"


def state_now(page: Any) -> tuple[int, str]:
    return int(page.evaluate("document.body.dataset.steps")), str(page.evaluate("document.body.dataset.state"))


def undo_once(page: Any, c: Clicks, steps: str) -> None:
    """After a player's move: wait for it to land (a step played, or a die of it awaited), then take it back."""
    page.wait_for_function(f"!document.body.dataset.busy && (document.body.dataset.steps !== '{steps}' || "
                           "document.body.dataset.state === 'die')")
    before = state_now(page)
    c.click("#undo")
    page.wait_for_function(f"!document.body.dataset.busy && (document.body.dataset.steps !== '{before[0]}' || "
                           f"document.body.dataset.state !== '{before[1]}')")
    after = state_now(page)
    # the step taken back, or the move whose first die was awaited dropped: the player's decision again
    assert after[0] < before[0] or (before[1] == "die" and after == (before[0], "pc")), (before, after)


def run_to_end(page: Any, c: Clicks, width: int, lang: str, *, prefers: Sequence[str] = PLAYER_PREFERS,
               face: Callable[[int], int] = ose_face, tag: str = "", limit: int = 600) -> dict[str, int]:
    """Play the fight on the page to its end; ``tag`` prefixes the screenshots' names (the system's)."""
    seen = {"npc": 0, "pc": 0, "die": 0, "undo": 0}
    for _ in range(limit):
        page.wait_for_function("!document.body.dataset.busy && document.body.dataset.state !== undefined")
        state = page.evaluate("document.body.dataset.state")
        if state == "over":
            break
        steps = page.evaluate("document.body.dataset.steps")
        if state == "die":
            sides = int(page.get_attribute("#die", "max") or "6")
            if seen["die"] == 0:
                shot(page, f"tracker-{tag}{lang}-{width}-die")
            c.fill("#die", str(face(sides)))
            page.press("#die", "Enter")  # the keyboard way: the die box has the focus
            c.n += 1
            seen["die"] += 1
        elif state == "npc":
            page.wait_for_selector(f"#decide[data-advised='{steps}'] button.primary")
            if seen["npc"] == 0:
                assert page.inner_text("#decide button.primary").startswith(word("Do:", lang))
                shot(page, f"tracker-{tag}{lang}-{width}-npc")
                no_sideways_scroll(page, width)
            c.click("#decide button.primary")
            seen["npc"] += 1
        elif state == "pc":
            page.wait_for_selector(f"#decide[data-advised='{steps}'] .moves button")
            if seen["pc"] == 0:
                shot(page, f"tracker-{tag}{lang}-{width}-pc")
                no_sideways_scroll(page, width)
            c.click(player_move(page, prefers))
            seen["pc"] += 1
            if seen["pc"] == 2 and not seen["undo"]:
                undo_once(page, c, steps)
                seen["undo"] += 1
                continue
        else:
            raise AssertionError(f"unexpected page state {state!r}")
        # the die box is drawn again (empty) for the next die of the same step: wait for the face to be taken
        page.wait_for_function(f"!document.body.dataset.busy && (document.body.dataset.steps !== '{steps}' || "
                               "(document.body.dataset.state === 'die' && document.querySelector('#die').value === '')"
                               " || !document.querySelector('#fight-error').hidden)")
        assert page.is_hidden("#fight-error"), page.inner_text("#fight-error")
    assert page.evaluate("document.body.dataset.state") == "over"
    return seen


def keep_reload_restore(page: Any) -> None:
    """Keep the ended fight in the browser, reload the page, load it back: the log must be the same."""
    before = page.inner_text("#log")
    page.click("#keep")
    page.wait_for_selector("body[data-kept]")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.click("#restore")
    page.wait_for_selector("#fight:not([hidden])")
    page.wait_for_function("document.body.dataset.state === 'over'")
    assert page.inner_text("#log") == before
