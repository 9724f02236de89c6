"""Which hands and weapons an action leaves busy: the knockback weapon (§21, A12) and the free hand
a spirit spell needs after a weapon action (§4 hand switch)."""

from __future__ import annotations

from npc_tactics.systems.runequest.rules.state import Combatant

__all__ = ["free_hand_after", "has_free_hand", "knock_weapon"]


def knock_weapon(c: Combatant, shield_first: bool = True) -> int:
    """The weapon a knockback uses (A12): with the ``push`` house rule a ready shield, else the
    first ready melee weapon; with the published damage-vs-SIZ test (``shield_first=False``) the
    first ready melee weapon, else the shield (the weapon rolls more damage)."""
    prefer = "shield" if shield_first else "melee"
    best = -1
    for w, wp in enumerate(c.weapons):
        if (
            c.ready >> w & 1
            and wp.spec.kind in ("shield", "melee")
            and (wp.hp > 0 or wp.spec.max_hp == 0)
        ):
            if wp.spec.kind == prefer:
                return w
            if best < 0:
                best = w
    return best


def free_hand_after(c: Combatant, w: int) -> bool:
    """Whether a hand is free after an action with weapon ``w`` (§4 hand switch): the weapon's
    hands (none once thrown) plus the other ready weapons that still fit, against usable hands."""
    hands = c.usable_hands()
    spec = c.weapons[w].spec
    used = 0 if spec.kind == "thrown" else spec.hands
    for x, wp in enumerate(c.weapons):
        if x != w and c.ready >> x & 1 and used + wp.spec.hands <= hands:
            used += wp.spec.hands
    return used < hands


def has_free_hand(c: Combatant) -> bool:
    """Whether the ready weapons leave a usable hand empty (most spirit spells need one, §4)."""
    used = sum(wp.spec.hands for x, wp in enumerate(c.weapons) if c.ready >> x & 1)
    return used < c.usable_hands()
