"""The command line: ``npc-tactics <command>``; each module holds one family of commands."""
