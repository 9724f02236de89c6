"""The fixed MRQ action catalogue (docs/mrq.md lists every entry) and precomputed index arrays.

ACT entries are taken on a Combat Action (§1, §20.1), REACT entries answer an incoming attack or charge
(§20.2, §14), EFFECT entries are one special effect each (§4, §20.3), OPTION entries the impale choice (§4.2).
"""

from __future__ import annotations

from npc_tactics.rules.base import ActionCatalogue, DecisionKind
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, LOCATIONS

MAX_PER_SIDE = 6
ACT, REACT, EFFECT, OPTION = (
    (DecisionKind.ACT,),
    (DecisionKind.REACT,),
    (DecisionKind.EFFECT,),
    (DecisionKind.OPTION,),
)

TARGETED_ACTS: tuple[str, ...] = (
    "attack",
    "precise_attack",
    "double_precise_attack",
    "charge",
    "advance",
    "close",
    "step_back",
    "entangle_trip",
    "shoot",
)
SELF_ACTS: tuple[str, ...] = (
    "disengage",
    "withdraw",
    "stand_up",
    "free_self",
    "ready_weapon",
    "pull_free",
    "fall_back",
    "extract_missile",
    "hold",
)
REACTIONS: tuple[str, ...] = (
    "defend",
    "precise_defence",
    "evade",
    "no_reaction",
    "receive_charge",
    "evade_charge",
)
PLAIN_EFFECTS: tuple[str, ...] = (
    "maximise_damage",
    "bypass_armour",
    "disarm",
    "bash",
    "damage_weapon",
    "entangle",
    "impale",
    "expose_defender",
    "maximum_parry",
    "trip",
    "attacker_vulnerable",
    "riposte",
    "attacker_misses",
)
OPTIONS: tuple[str, ...] = ("impale_leave", "impale_pull")

_rows: list[tuple[str, tuple[DecisionKind, ...], str | None, int, tuple[object, ...]]] = []
_rows += [(v, ACT, "enemy", MAX_PER_SIDE, ()) for v in TARGETED_ACTS]
_rows += [(v, ACT, None, 0, ()) for v in SELF_ACTS]
_rows += [(v, REACT, None, 0, ()) for v in REACTIONS]
_rows += [(v, EFFECT, None, 0, ()) for v in PLAIN_EFFECTS]
_rows += [
    ("choose_location", EFFECT, None, 0, LOCATIONS),
    ("deflect_blow", EFFECT, None, 0, LOCATIONS),
    ("change_distance", EFFECT, None, 0, DISTANCE_NAMES),
]
_rows += [(v, OPTION, None, 0, ()) for v in OPTIONS]

CATALOGUE = ActionCatalogue.build(_rows)
N_ACTIONS = len(CATALOGUE)

#: verb → [index per enemy slot] for targeted ACT verbs
TARGETED: dict[str, list[int]] = {v: CATALOGUE.indices(v) for v in TARGETED_ACTS}
#: name → index for every untargeted entry (self acts, reactions, effects, options)
IDX: dict[str, int] = {s.name: s.index for s in CATALOGUE.specs}
#: effect verb → list of indices (one for plain effects, one per option for the parametrised ones)
EFFECT_IDX: dict[str, list[int]] = {
    v: CATALOGUE.indices(v) for v in PLAIN_EFFECTS + ("choose_location", "deflect_blow", "change_distance")
}
VERB: tuple[str, ...] = tuple(s.verb for s in CATALOGUE.specs)
SLOT: tuple[int, ...] = tuple(s.slot for s in CATALOGUE.specs)
OPTION_OF: tuple[object, ...] = tuple(s.option for s in CATALOGUE.specs)
KIND_OF: tuple[DecisionKind, ...] = tuple(next(iter(s.kinds)) for s in CATALOGUE.specs)
