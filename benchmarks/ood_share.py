"""How often a fight a GM builds from the bestiary falls outside what the shipped policy met in training (issue
28: "the shipped bundle must be in distribution on the bestiary fights a GM builds", goal under 5%).

A GM's fight here: side 0 (the NPCs, the side the generalists play) a mixed group drawn from the **whole** shipped
bestiary of the system, uniform over its entries (OSE's monsters, every creature of the other systems), against a
party from the system's generalist distribution (OSE: the seven classes at levels 1-10), sizes and threat budget
below, the generalist's distances, wear and rules options. The fight is started as the encounter builder starts
it and played by the book until side 0's first decision; the shipped bundle's ``out_of_range`` on that
observation is the out-of-training warning ``suggest`` and the tracker show. Each fight is one draw of the
encounter (seed ``i``), so the share is over encounters, with a Wilson 95% interval.

    python benchmarks/ood_share.py [--system ose] [--fights 1000] [--json]

Also reported: the fields that trip the warning most often (the share of fights each trips), so training can
widen what the policy meets where it matters.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from typing import Any

import numpy as np
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.encounters.compose import threats
from npc_tactics.encounters.generator import Generator
from npc_tactics.encounters.spec import encounter_dir, parse_encounter
from npc_tactics.errors import ConfigError
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.policy_io.agent import Observation
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.registry import get_system
from npc_tactics.rollouts.agents import agent_builder

SYSTEMS = ("ose", "runequest", "mrq", "dicepool")
#: OSE's characters: a class and a level (the party side); every other OSE entry is a monster
OSE_CHARACTER = re.compile(r"^(fighter|cleric|magic_user|thief|dwarf|elf|halfling)_(\d+)$")
#: monsters a side, party members a side, and the party's threat against the monsters' (as the builder reads it)
NPC_SIZE, PARTY_SIZE, BUDGET = (1, 5), (2, 5), (0.5, 1.5)
MAX_OPENING = 200


def gm_spec(system: str, npc_size: tuple[int, int] = NPC_SIZE, party_size: tuple[int, int] = PARTY_SIZE) -> Any:
    """The GM's draw of ``system`` (module docstring), built on its generalist distribution."""
    path = encounter_dir(system) / "generalist.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    known = sorted(threats(system))
    if system == "ose":
        npcs = [t for t in known if not OSE_CHARACTER.match(t)]
        party = [t for t in known if (m := OSE_CHARACTER.match(t)) and int(m.group(2)) <= 10]
    else:
        party = sorted(raw["sides"][1]["templates"])
        npcs = known
    raw["name"] = f"{system}-gm-bestiary"
    raw["sides"] = [{"size": list(npc_size), "templates": {t: 1 for t in npcs}},
                    {"size": list(party_size), "templates": {t: 1 for t in party}}]
    raw["budget"] = list(BUDGET)
    raw.pop("scenarios", None)
    raw.pop("midfight", None)
    raw["variants"] = {t: v for t, v in (raw.get("variants") or {}).items() if t in npcs or t in party}
    return parse_encounter(raw, f"{path} (GM bestiary draw)")


def measure(system: str, fights: int, npc_size: tuple[int, int] = NPC_SIZE,
            party_size: tuple[int, int] = PARTY_SIZE, bundle: str | None = None) -> dict[str, Any]:
    spec = gm_spec(system, npc_size, party_size)
    policy = load_bundle_agent(bundle or shipped_bundle(system))
    engine = get_system(system).load("engine")(dict(policy.options))  # the rules it was trained under
    encoder = get_system(system).load("encoder")(engine)
    book = agent_builder(get_system(system), "by-the-book")
    generator = Generator(spec)
    outside_fights = 0
    fields: Counter[str] = Counter()
    skipped = unbuildable = 0
    start = time.perf_counter()
    for i in range(fights):
        try:
            encounter = generator.draw(i)
        except ConfigError:  # e.g. MRQ: riders bring their mounts, past the six a side the engine holds
            unbuildable += 1
            continue
        dice = RngRoller(np.random.default_rng(i))
        state, _ = encounter.start_combat(engine, dice, record_rolls=False)
        agents = [book(engine, np.random.default_rng([i, s])) for s in range(int(engine.spec.sides))]
        decision = engine.pending(state)
        for _ in range(MAX_OPENING):
            if decision is None or engine.outcome(state) is not None or int(decision.side) == policy.side:
                break
            mask = engine.legal_mask(state, decision)
            action = agents[int(decision.side)].act(Observation(None, state, decision, engine, encoder=encoder), mask)
            state, _ = engine.step(state, action, dice, inplace=True, record_rolls=False, mask=mask)
            decision = engine.pending(state)
        if decision is None or int(decision.side) != policy.side:
            skipped += 1  # over before the NPCs had a decision
            continue
        outside = policy.out_of_range(encoder.encode(state, decision))
        if outside:
            outside_fights += 1
            fields.update({name.partition(".")[0].rstrip("0123456789").rstrip("_") + "." + name.partition(".")[2]
                           for name, *_ in outside})
    asked = fights - skipped - unbuildable
    low, high = wilson_interval(outside_fights, asked) if asked else (0.0, 1.0)
    return {"system": system, "fights": asked, "skipped": skipped, "unbuildable": unbuildable,
            "outside": outside_fights,
            "share": outside_fights / asked if asked else 0.0, "interval": [low, high],
            "npc_templates": len(spec.sides[0].templates), "party_templates": len(spec.sides[1].templates),
            "top_fields": [(f, round(n / asked, 3)) for f, n in fields.most_common(10)] if asked else [],
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", choices=SYSTEMS, action="append", help="a system (default: all four)")
    parser.add_argument("--fights", type=int, default=1000, help="bestiary fights per system (default 1000)")
    parser.add_argument("--npcs", type=int, nargs=2, default=NPC_SIZE, metavar=("MIN", "MAX"),
                        help=f"NPCs a fight (default {NPC_SIZE[0]} {NPC_SIZE[1]})")
    parser.add_argument("--party", type=int, nargs=2, default=PARTY_SIZE, metavar=("MIN", "MAX"),
                        help=f"party members a fight (default {PARTY_SIZE[0]} {PARTY_SIZE[1]})")
    parser.add_argument("--bundle", action="append", default=[], metavar="SYSTEM=DIR",
                        help="measure this bundle instead of the shipped one of SYSTEM")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    bundles = dict(b.split("=", 1) for b in args.bundle)
    rows = [measure(s, args.fights, tuple(args.npcs), tuple(args.party), bundles.get(s))
            for s in (args.system or SYSTEMS)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        lo, hi = r["interval"]
        print(f"{r['system']:10s} {r['share']:6.1%} [{lo:.1%}-{hi:.1%}] of {r['fights']} bestiary fights outside "
              f"training ({r['npc_templates']} NPC entries, {r['party_templates']} party entries; "
              f"{r['skipped']} over before an NPC decision, {r['unbuildable']} not buildable; {r['seconds']} s)")
        for f, share in r["top_fields"]:
            print(f"    {f:40s} {share:6.1%}")


if __name__ == "__main__":
    main()
