"""The fixed OSE action catalogue (ose-bx.md §13) and precomputed index ranges for the hot path.

DECLARE (before initiative, §2): ``declare_none``, ``declare_withdraw``, ``declare_retreat``,
``cast:<spell>:enemy_k`` for offensive spells and ``cast:cure_light_wounds:self|ally_k``; the spells added
after 0.2.0 (``tables.SPELLS`` from ``shield`` on) have their rows at the end of the catalogue, after the ACT rows,
so the 49 rows of 0.2.0 keep their indices: ``cast:<spell>:enemy_k``, ``cast:<spell>:self`` (+ ``ally_k`` for
spells on a friend).
ACT (on the side's turn; the decision's ``context["phase"]`` says which step):
move step ``hold``, ``close:enemy_k``, ``move_away``, ``withdraw``, ``retreat``; missile step
``shoot:enemy_k`` or ``hold``; melee step (and slow weapons at the end of the round) ``melee:enemy_k`` or
``hold``. Target slots follow :func:`~npc_tactics.rules.base.enemy_slots` / ``ally_slots`` order.
"""

from __future__ import annotations

from npc_tactics.rules.base import ActionCatalogue, DecisionKind
from npc_tactics.systems.ose.rules.tables import SPELL_NAMES, SPELLS

MAX_PER_SIDE = 6
D, A = DecisionKind.DECLARE, DecisionKind.ACT
#: the 0.2.0 spells, whose rows come before the ACT rows (shipped policies read those indices)
FIRST_SPELLS = 4
OFFENSIVE = tuple(s for s in SPELL_NAMES[:FIRST_SPELLS] if SPELLS[s][3] == "enemy")
FRIENDLY = tuple(s for s in SPELL_NAMES[:FIRST_SPELLS] if SPELLS[s][3] == "friend")

_rows: list[tuple[str, tuple[DecisionKind, ...], str | None, int, tuple[str, ...]]] = [
    ("declare_none", (D,), None, 0, ()),
    ("declare_withdraw", (D,), None, 0, ()),
    ("declare_retreat", (D,), None, 0, ()),
]
for _s in OFFENSIVE:
    _rows.append(("cast", (D,), "enemy", MAX_PER_SIDE, (_s,)))
for _s in FRIENDLY:
    _rows.append(("cast", (D,), "self", 0, (_s,)))
    _rows.append(("cast", (D,), "ally", MAX_PER_SIDE - 1, (_s,)))
_rows += [
    ("hold", (A,), None, 0, ()),
    ("close", (A,), "enemy", MAX_PER_SIDE, ()),
    ("move_away", (A,), None, 0, ()),
    ("withdraw", (A,), None, 0, ()),
    ("retreat", (A,), None, 0, ()),
    ("shoot", (A,), "enemy", MAX_PER_SIDE, ()),
    ("melee", (A,), "enemy", MAX_PER_SIDE, ()),
]
for _s in SPELL_NAMES[FIRST_SPELLS:]:
    _kind = SPELLS[_s][3]
    if _kind == "enemy":
        _rows.append(("cast", (D,), "enemy", MAX_PER_SIDE, (_s,)))
    else:
        _rows.append(("cast", (D,), "self", 0, (_s,)))
        if _kind == "friend":
            _rows.append(("cast", (D,), "ally", MAX_PER_SIDE - 1, (_s,)))
CATALOGUE = ActionCatalogue.build(_rows)
N_ACTIONS: int = len(CATALOGUE)  # annotated: options.py reads it through an import cycle mypyc must type

DECLARE_NONE = CATALOGUE.index("declare_none")
DECLARE_WITHDRAW = CATALOGUE.index("declare_withdraw")
DECLARE_RETREAT = CATALOGUE.index("declare_retreat")
HOLD = CATALOGUE.index("hold")
MOVE_AWAY = CATALOGUE.index("move_away")
WITHDRAW = CATALOGUE.index("withdraw")
RETREAT = CATALOGUE.index("retreat")
CLOSE0 = CATALOGUE.index("close:enemy_0")
SHOOT0 = CATALOGUE.index("shoot:enemy_0")
MELEE0 = CATALOGUE.index("melee:enemy_0")

#: spell id -> first index of ``cast:<spell>:enemy_0`` (offensive spells)
CAST_ENEMY0: dict[int, int] = {
    SPELL_NAMES.index(s): CATALOGUE.index(f"cast:{s}:enemy_0") for s in SPELL_NAMES if SPELLS[s][3] == "enemy"
}
#: spell id -> (index of ``cast:<spell>:self``, first index of ``cast:<spell>:ally_0``) (spells on a friend)
CAST_FRIEND: dict[int, tuple[int, int]] = {
    SPELL_NAMES.index(s): (CATALOGUE.index(f"cast:{s}:self"), CATALOGUE.index(f"cast:{s}:ally_0"))
    for s in SPELL_NAMES
    if SPELLS[s][3] == "friend"
}
#: spell id -> index of ``cast:<spell>:self`` (spells on the caster only)
CAST_SELF: dict[int, int] = {
    SPELL_NAMES.index(s): CATALOGUE.index(f"cast:{s}:self") for s in SPELL_NAMES if SPELLS[s][3] == "self"
}

#: action index -> (kind code, spell id, target kind, slot): decoded once, read on every step.
K_DECLARE_NONE, K_DECLARE_WITHDRAW, K_DECLARE_RETREAT, K_CAST = 0, 1, 2, 3
K_HOLD, K_CLOSE, K_MOVE_AWAY, K_WITHDRAW, K_RETREAT, K_SHOOT, K_MELEE = 4, 5, 6, 7, 8, 9, 10
_VERB_CODE = {
    "declare_none": K_DECLARE_NONE,
    "declare_withdraw": K_DECLARE_WITHDRAW,
    "declare_retreat": K_DECLARE_RETREAT,
    "cast": K_CAST,
    "hold": K_HOLD,
    "close": K_CLOSE,
    "move_away": K_MOVE_AWAY,
    "withdraw": K_WITHDRAW,
    "retreat": K_RETREAT,
    "shoot": K_SHOOT,
    "melee": K_MELEE,
}
DECODE: tuple[tuple[int, int, str | None, int], ...] = tuple(
    (_VERB_CODE[s.verb], SPELL_NAMES.index(s.option) if s.option else -1, s.target, s.slot)
    for s in CATALOGUE
)

MEANING: dict[str, str] = {
    "declare_none": "declare nothing (free to move and attack later)",
    "declare_withdraw": "declare a fighting withdrawal: back off half encounter movement (§5.2)",
    "declare_retreat": "declare a retreat: flee at full movement, no attack, +2 to be hit, no shield (§5.2)",
    "cast": "declare a spell at a target: no move, no other action, disrupted if hit first (§7)",
    "hold": "do nothing in this step",
    "close": "move toward the enemy, stopping adjacent (melee reach)",
    "move_away": "move a full encounter move away from the enemies (not engaged)",
    "withdraw": "carry out the declared fighting withdrawal",
    "retreat": "carry out the declared retreat",
    "shoot": "missile attack at the enemy (≥ 2 m, in range, visible)",
    "melee": "melee attack at an adjacent enemy (≤ 1.5 m)",
}
