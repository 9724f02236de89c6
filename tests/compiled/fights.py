"""Seeded fights with every scripted agent, digested: the equivalence check of compiled and pure engines.

For every system and every scripted agent (``npc_tactics.agents.agent_entries``), fight ``i`` of ``n`` plays
scenario ``SCENARIOS[system][i % len]`` with dice from ``default_rng(i)`` and that agent on every side (each side
its own RNG stream). The digest is a SHA-256 of the event logs (rolls recorded; each fight's list of
``Event.to_dict()`` serialized as canonical JSON in one call, the information of ``events_to_jsonl`` at a fraction
of its cost), of the encoder's
observation vector at every ``ENCODE_EVERY``-th decision, and, for every ``QUIET_EVERY``-th fight, of the same
fight replayed with roll recording off (its log must be the recorded log minus the rolls: same dice, same
choices). Run as a script to (re)write the stored digest of the pure engines:

    NPC_TACTICS_PURE=1 python -m tests.compiled.fights --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import agent_entries
from npc_tactics.agents.base import Observation
from npc_tactics.compiled import status
from npc_tactics.dice import RngRoller
from npc_tactics.registry import available_systems, get_system
from npc_tactics.rules.base import Event

FIXTURE = Path(__file__).with_name("pure_digest.json")
FIGHTS = 1000
ENCODE_EVERY = 7
QUIET_EVERY = 10

#: Scenarios cycled per system, pinned so that a new shipped scenario does not change the digest.
SCENARIOS: dict[str, tuple[str, ...]] = {
    "ose": ("goblin_duel", "goblin_band", "caster_duel", "losing_band"),
    "runequest": ("parry_duel", "dodge_duel", "archer_vs_charge", "skirmish_3v3", "spell_timing", "wolf_pack",
                  "losing_retreat"),
    "mrq": ("shield_vs_greataxe", "spear_vs_sword", "archer_vs_shield", "lancer_charge", "skirmish_2v2",
            "skirmish_missiles", "whip_vs_martial_artist", "wolf_pack"),
    "dicepool": ("melee_duel", "fast_vs_brutes", "lightning_vs_armour", "shootout", "skirmish_2v3", "djinn_brawl"),
}


def _play(engine: Any, encoder: Any, scenario: Any, factory: Any, seed: int, record_rolls: bool,
          encode: bool) -> tuple[list[Event], list[bytes]]:
    roller = RngRoller(np.random.default_rng(seed))
    state, events = engine.new_combat(scenario, roller, record_rolls=record_rolls)
    sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
    agents = [factory(engine, np.random.default_rng(s)) for s in np.random.SeedSequence(seed).spawn(sides)]
    vectors: list[bytes] = []
    n = 0
    while True:
        decision = engine.pending(state)
        if decision is None:
            break
        mask = engine.legal_mask(state, decision)
        if encode and n % ENCODE_EVERY == 0:
            vectors.append(np.asarray(encoder.encode(state, decision), dtype=np.float32).tobytes())
        action = int(agents[decision.side].act(Observation(None, state, decision, engine, encoder), mask))
        state, step_events = engine.step(state, action, roller, inplace=True, record_rolls=record_rolls,
                                         mask=mask)
        events.extend(step_events)
        n += 1
    return events, vectors


def system_digests(system: str, fights: int = FIGHTS) -> dict[str, str]:
    """``{agent: sha256 hex}`` of ``fights`` seeded fights per scripted agent of ``system``."""
    info = available_systems()[system]
    engine = info.load("engine")()
    encoder = info.load("encoder")(engine)
    content = info.load("content")
    scenarios = [content.load_scenario(name) for name in SCENARIOS[system]]
    out: dict[str, str] = {}
    for name, entry in sorted(agent_entries(get_system(system)).items()):
        h = hashlib.sha256()
        for seed in range(fights):
            scenario = scenarios[seed % len(scenarios)]
            events, vectors = _play(engine, encoder, scenario, entry.factory, seed, True, True)
            dicts = [e.to_dict() for e in events]
            h.update(json.dumps(dicts, sort_keys=True, separators=(",", ":")).encode())
            for v in vectors:
                h.update(v)
            if seed % QUIET_EVERY == 0:
                quiet, _ = _play(engine, encoder, scenario, entry.factory, seed, False, False)
                if [e.to_dict() for e in quiet] != [d for d in dicts if d["kind"] != "roll"]:
                    raise AssertionError(f"{system}/{name} seed {seed}: the log with roll recording off is not "
                                         "the recorded log without its rolls")
        out[name] = h.hexdigest()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {FIXTURE.name} (run with NPC_TACTICS_PURE=1)")
    parser.add_argument("--fights", type=int, default=FIGHTS)
    parser.add_argument("--systems", nargs="*", help="only these systems (default: all)")
    args = parser.parse_args()
    systems = args.systems or list(available_systems())
    digests = {"fights": args.fights, "digests": {s: system_digests(s, args.fights) for s in systems}}
    if not args.write:
        digests["engines"] = status()["engines"]
    text = json.dumps(digests, indent=2, sort_keys=True) + "\n"
    if args.write:
        FIXTURE.write_text(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
