"""What a Mongoose RuneQuest tactics card adds to the shared one
(:class:`~npc_tactics.policy_io.card_hooks.CardHooks`): Combat Actions and Reactions, the exchange's margin and
special effects, charges, impaling and hit locations, its manoeuvres in words, and its distance bands. MRQ's
combat rules have no morale roll."""

from __future__ import annotations

from typing import Final

from npc_tactics.i18n import N_
from npc_tactics.policy_io.card_features import Feature, flag
from npc_tactics.policy_io.card_hooks import CardHooks

__all__ = ["CARD"]


def _features() -> list[Feature]:
    return [
        Feature("ca", "count", N_("Combat Action of the round"), lambda f: round(5.0 * f.v("context.ca")),
                ("context.ca",)),
        Feature("reactions", "count", N_("Reactions left"), lambda f: round(5.0 * f.v("context.reactions_left")),
                ("context.reactions_left",)),
        Feature("margin", "count", N_("margin of victory"), lambda f: round(3.0 * f.v("context.margin")),
                ("context.margin",)),
        flag("won_attacking", N_("it won the exchange as attacker"), N_("it did not win as attacker"),
             lambda f: 1.0 if f.v("context.role") > 0.5 else 0.0, "context.role"),
        flag("damage_passes", N_("the blow's damage gets through"), N_("no damage through yet"),
             lambda f: f.v("context.damage_passes"), "context.damage_passes"),
        flag("charge", N_("a charge is coming"), N_("no charge coming"), lambda f: f.v("context.charge"),
             "context.charge"),
        flag("precise_incoming", N_("the incoming attack is precise"), N_("the incoming attack is not precise"),
             lambda f: f.v("context.precise"),
             "context.precise"),
        Feature("opp_damage", "number", N_("the opponent weapon's maximum damage"),
                lambda f: 20.0 * f.v("context.opp_weapon_damage"), ("context.opp_weapon_damage",)),
        Feature("own_worst_location", "percent", N_("its most hurt location's HP"),
                lambda f: f.worst_location("self"), ("self.loc_head",)),
        Feature("enemy_worst_location", "percent", N_("the enemy's most hurt location's HP"),
                lambda f: f.worst_enemy_location(), ("enemy_0.loc_head",)),
        flag("can_strike", N_("it can strike an enemy now"), N_("it cannot strike an enemy now"),
             lambda f: f.any("enemy", "actor_can_strike"), "enemy_0.actor_can_strike"),
        flag("enemy_prone", N_("an enemy is prone"), N_("no enemy prone"), lambda f: f.any("enemy", "prone"),
             "enemy_0.prone"),
        flag("impale_choice", N_("its weapon is stuck in the enemy"), N_("no weapon stuck"),
             lambda f: f.v("context.impale"),
             "context.impale"),
    ]


#: move phrases of its own catalogue verbs (the shared ones: :data:`npc_tactics.policy_io.card_render.VERBS`)
_VERBS: Final[dict[str, str]] = {
    "precise_attack": N_("precise attack on {target}"),
    "double_precise_attack": N_("doubly precise attack on {target}"),
    "step_back": N_("step back from {target}"), "entangle_trip": N_("entangle or trip {target}"),
    "free_self": N_("free itself"), "ready_weapon": N_("ready its weapon"), "pull_free": N_("pull its weapon free"),
    "fall_back": N_("fall back"), "extract_missile": N_("pull out a missile"),
    "precise_defence": N_("precise defence"), "no_reaction": N_("no reaction"),
    "receive_charge": N_("receive the charge"), "evade_charge": N_("evade the charge"),
    "maximise_damage": N_("effect: maximise damage"), "bypass_armour": N_("effect: bypass armour"),
    "disarm": N_("effect: disarm"), "bash": N_("effect: bash"), "damage_weapon": N_("effect: damage the weapon"),
    "entangle": N_("effect: entangle"), "impale": N_("effect: impale"),
    "expose_defender": N_("effect: expose defender"), "maximum_parry": N_("effect: maximum parry"),
    "trip": N_("effect: trip"), "attacker_vulnerable": N_("effect: attacker vulnerable"),
    "riposte": N_("effect: riposte"), "attacker_misses": N_("effect: attacker misses"),
    "choose_location": N_("effect: choose the location ({location})"),
    "deflect_blow": N_("effect: deflect the blow to {location}"),
    "change_distance": N_("effect: change distance to {location}"), "impale_leave": N_("leave the weapon in"),
    "impale_pull": N_("pull the weapon out"),
}
#: words inside its moves
_WORDS: Final[dict[str, str]] = {"apart": N_("apart"), "long": N_("long")}

#: its morale rule, printed next to the learned exit
_MORALE: Final = N_("Mongoose RuneQuest's combat rules have no morale roll: when a foe breaks off is the gamemaster's "
                    "call.")

CARD = CardHooks(features=_features, verbs=_VERBS, words=_WORDS, morale_note=_MORALE)
