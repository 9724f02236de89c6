"""Per-system observation encoders (see :mod:`npc_tactics.encoders.base`)."""
