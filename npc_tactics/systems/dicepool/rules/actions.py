"""The fixed action catalogue of the dice-pool system (dice-pool.md §11) and its index arrays.

ACT (one per action slot): strike/shoot/aim/advance at ``enemy_k``, draw weapon ``w``, reload, withdraw,
postures (standing, kneeling, prone), cover (half, three_quarters), run, mount, wait.
SPLIT (before a melee attack): ``split:n`` moves n skill dice to DEFENSE (0..MAX_POOL, masked to the pool).
OPTION (after choosing to shoot): ``aim_at:none``, ``aim_at:<location>`` (−2 dice, no location roll) or
``aim_at:weapon`` (−2 dice, the target's readied weapon: the source's own example, L44).
"""

from __future__ import annotations

from npc_tactics.rules.base import ActionCatalogue, DecisionKind
from npc_tactics.systems.dicepool.rules.tables import AIM_ITEMS, LOCATIONS, MAX_POOL, POSTURE_NAMES

MAX_PER_SIDE = 6
MAX_WEAPONS = 3

ACT = (DecisionKind.ACT,)

CATALOGUE = ActionCatalogue.build(
    [
        ("strike", ACT, "enemy", MAX_PER_SIDE, ()),
        ("shoot", ACT, "enemy", MAX_PER_SIDE, ()),
        ("aim", ACT, "enemy", MAX_PER_SIDE, ()),
        ("advance", ACT, "enemy", MAX_PER_SIDE, ()),
        ("draw", ACT, None, 0, tuple(range(MAX_WEAPONS))),
        ("reload", ACT, None, 0, ()),
        ("withdraw", ACT, None, 0, ()),
        ("posture", ACT, None, 0, POSTURE_NAMES),
        ("cover", ACT, None, 0, ("half", "three_quarters")),
        ("run", ACT, None, 0, ()),
        ("mount", ACT, None, 0, ()),
        ("wait", ACT, None, 0, ()),
        ("split", (DecisionKind.SPLIT,), None, 0, tuple(range(MAX_POOL + 1))),
        ("aim_at", (DecisionKind.OPTION,), None, 0, ("none",) + LOCATIONS + AIM_ITEMS),
    ]
)

N_ACTIONS: int = len(CATALOGUE)  # annotated: options.py reads it through an import cycle mypyc must type

STRIKE = CATALOGUE.index("strike:enemy_0")
SHOOT = CATALOGUE.index("shoot:enemy_0")
AIM = CATALOGUE.index("aim:enemy_0")
ADVANCE = CATALOGUE.index("advance:enemy_0")
DRAW = CATALOGUE.index("draw:0")
RELOAD = CATALOGUE.index("reload")
WITHDRAW = CATALOGUE.index("withdraw")
POSTURE = CATALOGUE.index("posture:standing")  # + posture index
COVER = CATALOGUE.index("cover:half")  # + concealment index - 1
RUN = CATALOGUE.index("run")
MOUNT = CATALOGUE.index("mount")
WAIT = CATALOGUE.index("wait")
SPLIT = CATALOGUE.index("split:0")  # + dice moved to DEFENSE
AIM_AT = CATALOGUE.index("aim_at:none")  # + 1 + location index
AIM_WEAPON = CATALOGUE.index("aim_at:weapon")  # the target's readied weapon (D8)
