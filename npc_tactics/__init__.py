"""npc-tactics: teach tabletop RPG NPCs to fight well, and hand their tactics to game masters.

Importing the package registers the Gymnasium environments, so ``gymnasium.make("npc_tactics/OSE-v0")``
works after ``import npc_tactics``.
"""

from npc_tactics.registration import register_envs

__version__ = "0.1.0"

register_envs()
