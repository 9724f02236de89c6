"""Text view of an MRQ fight for ``render_mode="ansi"`` (contract §2 ``describe``)."""

from __future__ import annotations

from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.state import ITEM_STATE_NAMES, READY, MRQState
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, REACH_NAMES


def describe(state: MRQState) -> str:
    """Compact text of the fight for ``render_mode="ansi"``."""
    lines = [f"Round {state.round}/{state.max_rounds}"]
    for i, c in enumerate(state.combatants):
        _, item = F.attack_item(c)
        engaged = ", ".join(
            f"{state.combatants[j].name}:{DISTANCE_NAMES[state.distance(i, j)]}"
            for j in state.sides[1 - c.side]
            if state.distance(i, j)
        )
        conds = [
            n
            for n, on in (
                ("prone", c.prone),
                ("entangled", c.entangled_by >= 0),
                (f"impaled×{c.impaled}", c.impaled),
                (f"lost CA {c.lost_ca}", c.lost_ca),
            )
            if on
        ]
        if c.weapon_state != READY:
            conds.append(f"weapon {ITEM_STATE_NAMES[c.weapon_state]}")
        if c.prof.missile is not None:
            state_name = "" if c.missile_state == READY else f" {ITEM_STATE_NAMES[c.missile_state]}"
            conds.append(f"{c.prof.missile.name}{state_name} ×{c.ammo}")
        apart = ", ".join(
            f"{state.combatants[j].name}:{state.metres(i, j)}m"
            for j in state.sides[1 - c.side]
            if not state.distance(i, j) and state.metres(i, j)
        )
        if apart:
            conds.append(f"apart {apart}")
        locs = " ".join(str(h) for h in c.loc_hp)
        lines.append(
            f"[{c.side}] {c.name} ({c.template}) {c.status.name} HP {c.hp}/{c.max_hp} locs [{locs}] "
            f"{item.name} ({REACH_NAMES[item.reach]}) skill {F.base_skill(c)}% CA {c.ca_done}/{c.cas} "
            f"R {c.reactions} SR {c.sr}"
            + (f" engaged {engaged}" if engaged else "")
            + (f" [{', '.join(conds)}]" if conds else "")
        )
    return "\n".join(lines)
