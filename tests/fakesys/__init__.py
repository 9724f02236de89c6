"""``fake``: a tiny complete rules system for the tests (no relation to any real game).

Two sides take turns; an active combatant attacks an enemy (d20 >= ``hit_on``, +2 to beat a defender; a
natural 20 hits for +2 damage, a natural 1 misses), defends, or flees. At a side's first death its
survivors check morale (2d6 <= 8 or flee). Twenty rounds make a draw.

It fills every slot of the system registry (``engine``, ``encoder``, ``agents``, ``content``, plus the
``tactics`` hook with its tactic profile), so training and evaluation code run end to end
without depending on a real engine's speed or balance. :func:`registered` adds it to the registry (and its
Gymnasium id) for the duration of a ``with`` block; nothing patches ``sys.path``: the module paths are
``tests.fakesys.*``, importable from the repository root like every test module.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from npc_tactics.registry import SYSTEMS, System

NAME = "fake"
GYM_ID = "npc_tactics/Fake-v0"
FAKE = System(
    name=NAME,
    title="Fake duel system",
    gym_id=GYM_ID,
    engine="tests.fakesys.engine:FakeEngine",
    encoder="tests.fakesys.encoder:FakeEncoder",
    agents="tests.fakesys.agents",
    content="tests.fakesys.content",
    events="tests.fakesys.events:EVENTS",
    situation_fields="tests.fakesys.situation_fields:FIELDS",
    words="tests.fakesys.words:WORDS",
    tactics="tests.fakesys.tactics:TACTICS",
    card="tests.fakesys.card:CARD",
    form="tests.fakesys.form",
    encounter="tests.fakesys.encounter:ADAPTER",
    default_scenario="duel",
    package="tests.fakesys",
    content_folder="data",
)


@contextmanager
def registered() -> Iterator[str]:
    """Register ``fake`` (system registry and Gymnasium id) inside the block; restore both after it."""
    import gymnasium

    from npc_tactics.envs.registration import ENTRY_POINT, register_envs

    register_envs()  # the real ids first, so they are not registered again inside the block
    previous = SYSTEMS.get(NAME)
    SYSTEMS[NAME] = FAKE
    gymnasium.register(id=GYM_ID, entry_point=ENTRY_POINT, kwargs={"system": NAME}, max_episode_steps=200)
    try:
        yield NAME
    finally:
        gymnasium.registry.pop(GYM_ID, None)
        if previous is None:
            SYSTEMS.pop(NAME, None)
        else:
            SYSTEMS[NAME] = previous
