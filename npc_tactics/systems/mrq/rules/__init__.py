"""Mongoose RuneQuest (MRQ1), opposed-test combat variant: rules engine (reference: docs/rules/mrq-opposed.md).

Modules: ``tables`` (every table as data), ``state`` (dataclasses), ``actions`` (the catalogue), ``opposed``
(success levels, margins, combat tables), ``fighters`` (styles, skills, reach), ``damage`` (DP, locations,
wounds), ``fumbles``, ``exchange`` (one attack from blow to effects), ``engine`` (rounds and CAs),
``content`` (YAML), ``profile`` (tactic profile). Docs: docs/mrq.md.
"""
