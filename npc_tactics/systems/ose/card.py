"""What an OSE tactics card adds to the shared one (:class:`~npc_tactics.policy_io.card_hooks.CardHooks`): the
combat round's steps, melee contact, initiative, missiles and spells a GM sees at the table, the declarations
in words (two of them leave the fight) and the optional morale rule."""

from __future__ import annotations

from typing import Final

from npc_tactics.i18n import N_
from npc_tactics.policy_io.card_features import Feature, field_value, flag
from npc_tactics.policy_io.card_hooks import CardHooks

__all__ = ["CARD"]


def _features() -> list[Feature]:
    phases = {"move": (N_("in the movement step"), N_("not in the movement step")),
              "missile": (N_("in the missile step"), N_("not in the missile step")),
              "melee": (N_("in the melee step"), N_("not in the melee step"))}
    return [
        *(flag(f"phase_{p}", yes, no, field_value(f"context.phase_{p}"), f"context.phase_{p}")
          for p, (yes, no) in phases.items()),
        flag("engaged", N_("an enemy is adjacent (melee)"), N_("no enemy adjacent"),
             lambda f: f.any("enemy", "adjacent"), "enemy_0.adjacent"),
        Feature("range", "number", N_("distance to the nearest enemy"), lambda f: 20.0 * f.low("enemy", "distance"),
                ("enemy_0.distance",), unit=N_("squares")),
        flag("won_initiative", N_("its side won initiative"), N_("its side did not win initiative"),
             lambda f: 1.0 if f.v("context.initiative") > 0.5 else 0.0, "context.initiative"),
        flag("enemy_missile", N_("an enemy has a missile weapon"), N_("no enemy has a missile weapon"),
             lambda f: f.any("enemy", "missile"), "enemy_0.missile"),
        flag("own_missile", N_("it has a missile weapon with ammunition"), N_("no missile weapon or ammunition"),
             lambda f: f.v("self.missile"), "self.missile"),
        Feature("spells", "count", N_("spells left"), lambda f: round(4.0 * f.v("self.spells")), ("self.spells",)),
        flag("enemy_casting", N_("an enemy is casting"), N_("no enemy casting"),
             lambda f: f.any("enemy", "casting"), "enemy_0.casting"),
    ]


#: move phrases of its own catalogue verbs (the shared ones: :data:`npc_tactics.policy_io.card_render.VERBS`)
_VERBS: Final[dict[str, str]] = {
    "declare_none": N_("declare nothing special"), "declare_withdraw": N_("declare a fighting withdrawal"),
    "declare_retreat": N_("declare a retreat"),
}
#: words inside its moves
_WORDS: Final[dict[str, str]] = {
    "magic_missile": N_("magic missile"), "sleep": N_("sleep"), "hold_person": N_("hold person"),
    "cure_light_wounds": N_("cure light wounds"), "shield": N_("shield"), "charm_person": N_("charm person"),
    "light": N_("light"), "darkness": N_("darkness"), "protection_from_evil": N_("protection from evil"),
    "web": N_("web"), "phantasmal_force": N_("phantasmal force"), "invisibility": N_("invisibility"),
    "mirror_image": N_("mirror image"), "fire_ball": N_("fire ball"), "lightning_bolt": N_("lightning bolt"),
    "haste": N_("haste"), "cause_light_wounds": N_("cause light wounds"), "bless": N_("bless"),
    "silence_15_radius": N_("silence 15' radius"), "striking": N_("striking"),
}

#: its morale rule, printed next to the learned exit
_MORALE: Final = N_("OSE morale (optional rule): roll 2d6 when the side's first member is killed and when half of "
                    "it is out of the fight; above the morale score, the monsters flee or surrender. Two passed "
                    "checks: they fight to the death.")

CARD = CardHooks(features=_features, verbs=_VERBS, words=_WORDS,
                 exit_verbs=frozenset({"declare_withdraw", "declare_retreat"}), morale_note=_MORALE)
