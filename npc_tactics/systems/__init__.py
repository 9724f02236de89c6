"""One package per rules system: ``ose``, ``runequest``, ``mrq``, ``dicepool``.

Each holds everything of its system: ``rules/`` (the pure engine, tables as data), ``encoder.py`` (the
observation fields), ``agents.py`` (scripted opponents), ``naming.py`` and ``narrate.py`` (moves and events in a
GM's words). Shared code reaches a system only through :mod:`npc_tactics.registry` (import strings), never by
importing it; a system's modules import the shared kit below them (``rules.base``, ``encoders.base``,
``agents.base``, ``gm.naming``'s ``Words``).
"""
