"""npc-tactics: teach tabletop RPG NPCs to fight well, and hand their tactics to game masters.

Importing the package loads no learning library: the rules need numpy only (import-linter and
``tests/test_layers.py`` keep it so). The Gymnasium ids ``npc_tactics/<System>-v0`` are registered by
``import npc_tactics.envs``, or on demand with ``gymnasium.make("npc_tactics.envs:npc_tactics/OSE-v0")``.
"""

__version__ = "0.1.0"

# Pure or compiled rules engines (docs/speed.md): decided here, before any engine module is imported.
from npc_tactics import compiled as _compiled  # noqa: E402

_compiled.install()
