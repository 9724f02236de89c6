"""``python -m npc_tactics.cli``: the same as the ``npc-tactics`` command."""

from npc_tactics.cli.main import main

main()
