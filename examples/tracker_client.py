"""A small client of the combat tracker's JSON API: what a VTT module or macro would do, with the standard library.

Start a server (``npc-tactics serve``, add ``--cors ORIGIN`` for a browser-side VTT), then::

    python examples/tracker_client.py --url http://127.0.0.1:8000 [--system ose] [--lang fr] [--seed 3]

It creates a fight of goblins against a small party, starts it, and runs it to its end: the advisor's move for
every NPC decision (``"advice": true``), the first listed move for every PC decision (where a VTT would send the
player's choice). It prints the log in plain words and the end, and exits 0. No third-party package needed.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any

#: A fight per system: (side 0 = NPC templates, side 1 = PC templates), shipped bestiary names.
LINEUPS: dict[str, tuple[list[str], list[str]]] = {
    "ose": (["goblin", "goblin", "goblin", "goblin_archer"], ["fighter_2", "cleric_2"]),
    "runequest": (["trollkin", "trollkin"], ["orlanthi_warrior"]),
    "mrq": (["spearman", "swordsman"], ["sword_and_shield"]),
    "dicepool": (["bandit", "bandit"], ["duelist"]),
}


def call(url: str, method: str = "GET", body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as exc:
        detail = json.loads(exc.read() or b"{}").get("detail")
        raise SystemExit(f"{method} {url}: HTTP {exc.code}: {detail}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--system", default="ose", choices=sorted(LINEUPS))
    parser.add_argument("--lang", default="en", choices=["en", "fr"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--odds", type=int, default=8, help="plays per candidate move for the advisor")
    args = parser.parse_args(argv)
    base, q = args.url.rstrip("/"), f"?lang={args.lang}"

    fight = call(f"{base}/fights{q}", "POST", {"system": args.system, "seed": args.seed,
                                               "sides": [{"name": "Goblins", "control": "npc"},
                                                         {"name": "Heroes", "control": "pc"}]})
    fid = fight["id"]
    npcs, pcs = LINEUPS[args.system]
    for side, templates in ((0, npcs), (1, pcs)):
        for template in templates:
            fight = call(f"{base}/fights/{fid}/combatants{q}", "POST", {"side": side, "template": template})
    fight = call(f"{base}/fights/{fid}/start{q}", "POST")
    for _ in range(5000):
        if fight["over"]:
            break
        decision = fight["decision"]
        if decision["who"] == "npc":
            fight = call(f"{base}/fights/{fid}/step{q}", "POST", {"advice": True, "odds": args.odds})
        else:
            fight = call(f"{base}/fights/{fid}/step{q}", "POST", {"action": decision["moves"][0]["action"]})
    for line in fight["log"]:
        print(("" if line["kind"] in ("round", "end") else "  ") + line["text"])
    saved = call(f"{base}/fights/{fid}/save")
    print(f"{len(saved['steps'])} steps; the fight saved as JSON is {len(json.dumps(saved))} bytes")
    call(f"{base}/fights/{fid}", "DELETE")
    return 0 if fight["over"] else 1


if __name__ == "__main__":
    sys.exit(main())
