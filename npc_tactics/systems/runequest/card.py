"""What a RuneQuest tactics card adds to the shared one (:class:`~npc_tactics.policy_io.card_hooks.CardHooks`):
reach, hit locations, magic points, the incoming blow (its weapon class and strike rank), parry and dodge
chances, aimed blows, knockback, first aid and a spell's power in words. RuneQuest has no morale roll."""

from __future__ import annotations

from typing import Final

from npc_tactics.i18n import N_
from npc_tactics.policy_io.card_features import Feature, field_value, flag
from npc_tactics.policy_io.card_hooks import CardHooks

__all__ = ["CARD"]


def _features() -> list[Feature]:
    classes = {
        "light": (N_("the blow comes from a light weapon"), N_("the blow is not from a light weapon")),
        "medium": (N_("the blow comes from a medium weapon"), N_("the blow is not from a medium weapon")),
        "great": (N_("the blow comes from a great weapon"), N_("the blow is not from a great weapon")),
        "shield": (N_("the blow comes from a shield"), N_("the blow is not from a shield")),
        "missile": (N_("the blow is a missile"), N_("the blow is not a missile")),
        "natural": (N_("the blow comes from a natural weapon"), N_("the blow is not from a natural weapon")),
    }
    return [
        flag("engaged", N_("engaged in melee"), N_("not engaged"), lambda f: f.v("context.engaged"),
             "context.engaged"),
        flag("in_reach", N_("an enemy within reach"), N_("no enemy within reach"),
             lambda f: f.any("enemy", "in_reach"), "enemy_0.in_reach"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 30.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("m")),
        Feature("mp", "count", N_("magic points"), lambda f: round(20.0 * f.v("self.mp")), ("self.mp",)),
        Feature("worst_wound", "percent", N_("its worst location's damage (of that location's HP)"),
                lambda f: 3.0 * f.v("self.worst_wound"), ("self.worst_wound",)),
        *(flag(f"incoming_{w}", yes, no, field_value(f"context.incoming_class_{w}"), f"context.incoming_class_{w}")
          for w, (yes, no) in classes.items()),
        Feature("incoming_sr", "count", N_("strike rank of the incoming blow"),
                lambda f: round(12.0 * f.v("context.incoming_sr")), ("context.incoming_sr",)),
        Feature("parry_chance", "percent", N_("its parry chance"), lambda f: f.v("context.parry_chance"),
                ("context.parry_chance",)),
        Feature("dodge_chance", "percent", N_("its dodge chance"), lambda f: f.v("context.dodge_chance"),
                ("context.dodge_chance",)),
        Feature("parries_used", "count", N_("parries already made this round"),
                lambda f: round(4.0 * f.v("self.parries_used")), ("self.parries_used",)),
        flag("enemy_great", N_("an enemy wields a great weapon"), N_("no enemy with a great weapon"),
             lambda f: f.any("enemy", "great_weapon"), "enemy_0.great_weapon"),
        flag("option_aim", N_("choosing where to aim"), N_("not choosing where to aim"),
             lambda f: f.v("context.option_aim"), "context.option_aim"),
        flag("option_power", N_("choosing a spell's power"), N_("not choosing a spell's power"),
             lambda f: f.v("context.option_power"),
             "context.option_power"),
    ]


#: move phrases of its own catalogue verbs (the shared ones: :data:`npc_tactics.policy_io.card_render.VERBS`)
_VERBS: Final[dict[str, str]] = {
    "aimed": N_("aimed blow at {target}"), "aimed+w": N_("aimed blow at {target} with {weapon}"),
    "knockback": N_("knock {target} back"), "first_aid": N_("first aid on {target}"),
    "no_defence": N_("do not defend"), "power": N_("put {n} MP into the spell"),
}

#: its morale rule, printed next to the learned exit
_MORALE: Final = N_("RuneQuest has no morale roll in combat: when a foe breaks off is the gamemaster's call.")

CARD = CardHooks(features=_features, verbs=_VERBS, counted=frozenset({"power"}), morale_note=_MORALE)
