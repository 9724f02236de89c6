"""The fixed RQG action catalogue and precomputed index arrays for fast masks.

DECLARE (statement of intent, §1 phase 1 and §25):
  ``attack:<w>:enemy_k`` strike (melee, or fire/throw if weapon slot ``w`` is a missile weapon);
  ``aimed:<w>:enemy_k`` aimed blow at SR 12 with half skill (location chosen by an ``aim:<i>``
  OPTION); ``knockback:enemy_k``; ``close:enemy_k`` (full MOV towards, no action);
  ``cast:<spell>:enemy_k|self|ally_k`` (points chosen by a ``power:<n>`` OPTION for variable
  spells);
  ``ready:<w>`` (+5 SR); ``first_aid:self|ally_k``; ``defend`` (parry/dodge only; after a spell:
  "nothing more"); ``retreat``; ``flee``.
REACT (each incoming blow, §11, §13): ``parry:<w>``, ``dodge``, ``no_defence``.
OPTION: ``aim:<location index>``, ``power:<points>``.
"""

from __future__ import annotations

from npc_tactics.rules.base import ActionCatalogue, DecisionKind
from npc_tactics.systems.runequest.rules import tables as T

D, R, OPT = DecisionKind.DECLARE, DecisionKind.REACT, DecisionKind.OPTION

MAX_PER_SIDE = 6
N_WEAPONS = 4
ENEMY_SPELLS: tuple[str, ...] = ("disruption", "befuddle")
SELF_SPELLS: tuple[str, ...] = (
    "bladesharp",
    "protection",
    "heal",
    "shield",
    "truesword",
    "heal_wound",
)
ALLY_SPELLS: tuple[str, ...] = ("protection", "heal", "shield", "heal_wound")
WEAPON_SLOTS = tuple(range(N_WEAPONS))

CATALOGUE = ActionCatalogue.build(
    [
        ("attack", [D], "enemy", MAX_PER_SIDE, WEAPON_SLOTS),
        ("aimed", [D], "enemy", MAX_PER_SIDE, WEAPON_SLOTS),
        ("knockback", [D], "enemy", MAX_PER_SIDE, ()),
        ("close", [D], "enemy", MAX_PER_SIDE, ()),
        ("cast", [D], "enemy", MAX_PER_SIDE, ENEMY_SPELLS),
        ("cast", [D], "self", 0, SELF_SPELLS),
        ("cast", [D], "ally", MAX_PER_SIDE - 1, ALLY_SPELLS),
        ("ready", [D], None, 0, WEAPON_SLOTS),
        ("first_aid", [D], "self", 0, ()),
        ("first_aid", [D], "ally", MAX_PER_SIDE - 1, ()),
        ("defend", [D], None, 0, ()),
        ("retreat", [D], None, 0, ()),
        ("flee", [D], None, 0, ()),
        ("parry", [R], None, 0, WEAPON_SLOTS),
        ("dodge", [R], None, 0, ()),
        ("no_defence", [R], None, 0, ()),
        ("aim", [OPT], None, 0, tuple(range(T.AIM_SLOTS))),
        ("power", [OPT], None, 0, tuple(range(1, T.MAX_POWER + 1))),
    ]
)
N: int = len(CATALOGUE)  # annotated: options.py reads it through an import cycle mypyc must type
_ix = CATALOGUE.index

ATTACK = [[_ix(f"attack:{w}:enemy_{k}") for k in range(MAX_PER_SIDE)] for w in WEAPON_SLOTS]
AIMED = [[_ix(f"aimed:{w}:enemy_{k}") for k in range(MAX_PER_SIDE)] for w in WEAPON_SLOTS]
KNOCKBACK = [_ix(f"knockback:enemy_{k}") for k in range(MAX_PER_SIDE)]
CLOSE = [_ix(f"close:enemy_{k}") for k in range(MAX_PER_SIDE)]
CAST_ENEMY = {s: [_ix(f"cast:{s}:enemy_{k}") for k in range(MAX_PER_SIDE)] for s in ENEMY_SPELLS}
CAST_SELF = {s: _ix(f"cast:{s}:self") for s in SELF_SPELLS}
CAST_ALLY = {s: [_ix(f"cast:{s}:ally_{k}") for k in range(MAX_PER_SIDE - 1)] for s in ALLY_SPELLS}
READY = [_ix(f"ready:{w}") for w in WEAPON_SLOTS]
AID_SELF = _ix("first_aid:self")
AID_ALLY = [_ix(f"first_aid:ally_{k}") for k in range(MAX_PER_SIDE - 1)]
DEFEND = _ix("defend")
RETREAT = _ix("retreat")
FLEE = _ix("flee")
PARRY = [_ix(f"parry:{w}") for w in WEAPON_SLOTS]
DODGE = _ix("dodge")
NO_DEFENCE = _ix("no_defence")
AIM = [_ix(f"aim:{i}") for i in range(T.AIM_SLOTS)]
POWER = [_ix(f"power:{n}") for n in range(1, T.MAX_POWER + 1)]
