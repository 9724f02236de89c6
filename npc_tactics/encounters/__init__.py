"""Encounters: fights composed from each system's bestiary, and seeded distributions of them.

* :func:`compose` builds one fight from ``(template, count)`` pairs per side (the odds/encounter builder and the
  generator both use it); :func:`templates` lists the names it accepts; :func:`threat` rates a template.
* :mod:`.spec` reads an encounter distribution (YAML) and :mod:`.generator` draws fights from it, seeded.

Layer: above the rules (it builds scenarios with the systems' own parsers), below the envs (which draw one
fight per episode from a distribution).
"""

from npc_tactics.encounters.compose import (
    MAX_PER_SIDE,
    compose,
    scenario_mapping,
    side_threat,
    templates,
    threat,
    threats,
)

__all__ = ["MAX_PER_SIDE", "compose", "scenario_mapping", "side_threat", "templates", "threat", "threats"]
