"""A tiny two-sided rules system for evaluation tests (no relation to any real game)."""

from npc_tactics.systems import SystemInfo

FAKE = SystemInfo(
    name="evalfake",
    title="Fake duel system",
    gym_id="",
    engine="evalfake.engine:FakeEngine",
    encoder="evalfake.engine:FakeEncoder",
    agents="evalfake.agents",
    content="evalfake.content",
    default_scenario="duel",
)
