"""npc-tactics: teach tabletop RPG NPCs to fight well, and hand their tactics to game masters.

Importing the package registers the Gymnasium environments, so ``gymnasium.make("npc_tactics/OSE-v0")``
works after ``import npc_tactics``. Without gymnasium installed (the bundle runtime: numpy, onnxruntime and
the rules only) the package still imports and registers nothing.
"""

__version__ = "0.1.0"

try:
    from npc_tactics.registration import register_envs
except ImportError:  # gymnasium absent: a torch-free runtime that only reads exported bundles
    pass
else:
    register_envs()
