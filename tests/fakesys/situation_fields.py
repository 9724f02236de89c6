"""The keys a fake situation holds, declared once: :func:`tests.fakesys.content.load_situation` takes its key lists
and simple checks from them, :mod:`tests.fakesys.form` its inputs."""

from __future__ import annotations

from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import SituationField as F
from npc_tactics.rules.situation_fields import SituationFields
from tests.fakesys.engine import MAX_ROUNDS

STATUSES = tuple(s.name.lower() for s in Status)

FIELDS = SituationFields((
    F("round", "situation", "int", "the round being played", low=1, high=MAX_ROUNDS, default=1, label="Round"),
    F("acting", "situation", "name", "the fighter whose decision is wanted", required=True),
    F("options", "situation", "mapping", "rules options (hit_on)"),
    F("sides", "situation", "list", "two lists of fighters", required=True),
    F("name", "combatant", "text", "the fighter's name", required=True),
    F("hp", "combatant", "int", "hit points now", low=0, required=True),
    F("max_hp", "combatant", "int", "hit points unhurt; not given: hp", low=1),
    F("status", "combatant", "choice", "what the fighter is doing", choices=STATUSES, default="active"),
    F("defending", "combatant", "bool", "on the defensive this round", default=False, label="Defending"),
))
