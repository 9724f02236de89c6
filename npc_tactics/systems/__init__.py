"""One package per rules system: ``ose``, ``runequest``, ``mrq``, ``dicepool``.

Each holds everything of its system (``docs/architecture.md`` draws it): ``rules/`` (the pure engine, tables as
data), ``events.py``, ``encoder.py``, ``agents.py``, the GM's words (``naming``, ``narrate``, ``summary``,
``words``), ``tactics.py``, ``card.py``, ``form.py``, ``encounter.py`` and ``wear.py``, and ``content/``. Its
``__init__`` exports ``SYSTEM``, the typed plugin (:mod:`npc_tactics.plugin`); shared code reaches a system only
through the plugin's hooks, never by importing it.
"""
