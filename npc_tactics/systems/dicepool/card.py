"""What a dice-pool tactics card adds to the shared one (:class:`~npc_tactics.policy_io.card_hooks.CardHooks`):
the attack pool and the target's DEFENSE, reach, hit locations, actions left, who acts next, loaded weapons and
cover, its own moves (drawing, postures, cover, splitting the pool, aiming) in words. The rules have no morale
roll."""

from __future__ import annotations

from typing import Final

from npc_tactics.i18n import N_
from npc_tactics.policy_io.card_features import Feature, flag
from npc_tactics.policy_io.card_hooks import CardHooks

__all__ = ["CARD"]


def _features() -> list[Feature]:
    return [
        Feature("pool", "count", N_("dice in the attack pool"), lambda f: round(12.0 * f.v("context.pool")),
                ("context.pool",)),
        Feature("target_defense", "count", N_("the target's DEFENSE"),
                lambda f: round(12.0 * f.v("context.target_defense")), ("context.target_defense",)),
        flag("engaged", N_("engaged in melee"), N_("not engaged"), lambda f: f.v("self.engaged"), "self.engaged"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 50.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("m")),
        Feature("own_worst_location", "percent", N_("its most hurt location's HP"),
                lambda f: f.worst_location("self"), ("self.hp",)),
        Feature("enemy_worst_location", "percent", N_("the enemy's most hurt location's HP"),
                lambda f: f.worst_enemy_location(), ("enemy_0.hp",)),
        Feature("slots_left", "count", N_("actions it still has this turn"),
                lambda f: round(4.0 * f.v("context.slots_left")), ("context.slots_left",)),
        flag("enemy_next", N_("an enemy acts next"), N_("no enemy acts next"), lambda f: f.v("context.next_enemy"),
             "context.next_enemy"),
        flag("can_shoot", N_("its ranged weapon is loaded"), N_("no loaded ranged weapon"),
             lambda f: f.v("self.can_shoot"), "self.can_shoot"),
        Feature("cover", "count", N_("cover available where it stands"),
                lambda f: round(2.0 * f.v("self.cover_available")), ("self.cover_available",)),
    ]


#: move phrases of its own catalogue verbs (the shared ones: :data:`npc_tactics.policy_io.card_render.VERBS`)
_VERBS: Final[dict[str, str]] = {
    "draw": N_("draw weapon {n}"), "posture": N_("take the {location} posture"), "cover": N_("take {location} cover"),
    "mount": N_("mount"), "split": N_("move {n} of its dice to DEFENSE"), "aim_at": N_("aim at: {location}"),
    # spends the slot aiming at an enemy (D7), not RuneQuest's aim at a hit location (the shared verb)
    "aim": N_("take aim at {target}"),
}
#: words inside its moves
_WORDS: Final[dict[str, str]] = {
    "weapon": N_("weapon"), "none": N_("no location"), "standing": N_("standing"), "kneeling": N_("kneeling"),
    "prone": N_("prone"), "half": N_("half"), "three_quarters": N_("three-quarter"),
}

#: its morale rule, printed next to the learned exit
_MORALE: Final = N_("The dice-pool rules have no morale roll: when a foe breaks off is the gamemaster's call.")

CARD = CardHooks(features=_features, verbs=_VERBS, words=_WORDS, counted=frozenset({"split"}), morale_note=_MORALE)
