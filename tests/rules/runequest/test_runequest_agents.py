"""Scripted agents: legal actions only, documented, and better than random on the default duel."""

from __future__ import annotations

import numpy as np

from npc_tactics.agents.base import Observation, RandomLegalAgent
from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import SideResult
from npc_tactics.systems.runequest.agents import AGENTS
from npc_tactics.systems.runequest.encoder import RuneQuestEncoder
from npc_tactics.systems.runequest.rules import content
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.profile import tactic_profile


def _match(scenario: str, a0, a1, games: int) -> tuple[int, dict[str, int]]:
    eng = RuneQuestEngine()
    enc = RuneQuestEncoder(eng)
    scen = content.load_scenario(scenario)
    wins, prof = 0, {}
    for g in range(games):
        roller = RngRoller(g)
        agents = [a0(eng, np.random.default_rng(g)), a1(eng, np.random.default_rng(g + 100))]
        s, _ = eng.new_combat(scen, roller)
        events = []
        while eng.outcome(s) is None:
            d = eng.pending(s)
            mask = eng.legal_mask(s, d)
            a = agents[d.side].act(Observation(enc.encode(s, d), s, d, eng), mask)
            assert mask[a]
            s, ev = eng.step(s, a, roller, inplace=True)
            events += ev
        wins += eng.outcome(s).results[0] == SideResult.WIN
        for k, v in tactic_profile(events, s, 0).items():
            prof[k] = prof.get(k, 0) + v
    return wins, prof


def test_agents_registered_and_documented() -> None:
    assert set(AGENTS) == {"aggressive", "by-the-book", "cautious"}
    for entry in AGENTS.values():
        assert entry.description and entry.factory.__doc__


def test_scripted_agents_beat_random_and_stay_legal() -> None:
    for name in AGENTS:
        wins, prof = _match("parry_duel", AGENTS[name].factory, RandomLegalAgent, 20)
        assert wins >= 14, name
    for scenario, _ in content.list_scenarios():
        _match(scenario, AGENTS["cautious"].factory, AGENTS["aggressive"].factory, 3)


def test_profile_counts_defences_by_weapon_class() -> None:
    _, prof = _match("dodge_duel", AGENTS["by-the-book"].factory, AGENTS["aggressive"].factory, 10)
    assert prof.get("parry_vs_great", 0) + prof.get("dodge_vs_great", 0) > 0
    assert prof.get("attacks", 0) > 0
