"""The nouns a GM reads, as data: weapons, hit locations, spells, MRQ special effects, postures, distances.

Each id from the rules tables and content files maps to an English noun phrase marked with :func:`N_` (so the
extraction finds it) and translated where it is shown. Weapon and location phrases carry their article
("the short bow" / "l'arc court"), because French articles depend on the noun; ``in the head`` / ``à la tête``
is a separate entry because French contracts the preposition ("au bras droit"). An id missing here (a GM's
own weapon in a situation file) is shown with its underscores turned into spaces, untranslated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from npc_tactics.i18n import N_

__all__ = ["DECISION_KINDS", "EFFECTS", "LOCATIONS", "LOCATIONS_IN", "LOCATION_LABELS", "SPELLS", "WEAPONS",
           "location_label", "word"]

WEAPONS: dict[str, str] = {
    "battle_axe": N_("the battle axe"),
    "battleaxe": N_("the battle axe"),
    "bite": N_("its bite"),
    "broadsword": N_("the broadsword"),
    "buckler": N_("the buckler"),
    "club": N_("the club"),
    "composite_bow": N_("the composite bow"),
    "crossbow": N_("the crossbow"),
    "dagger": N_("the dagger"),
    "djinn_fire": N_("the djinn's fire"),
    "fists": N_("bare fists"),
    "great_axe": N_("the great axe"),
    "greataxe": N_("the great axe"),
    "greatsword": N_("the greatsword"),
    "hand_axe": N_("the hand axe"),
    "head_butt": N_("a head butt"),
    "horse_kick": N_("its kick"),
    "javelin": N_("the javelin"),
    "kite_shield": N_("the kite shield"),
    "lance": N_("the lance"),
    "large_shield": N_("the large shield"),
    "light_crache_foudre": N_("the light crache-foudre"),
    "long_bow": N_("the long bow"),
    "longspear": N_("the long spear"),
    "mace": N_("the mace"),
    "martial_arts": N_("martial arts"),
    "medium_shield": N_("the medium shield"),
    "mount trample": N_("its mount's hooves"),
    "polearm": N_("the polearm"),
    "rapier": N_("the rapier"),
    "short_bow": N_("the short bow"),
    "short_spear": N_("the short spear"),
    "short_sword": N_("the short sword"),
    "shortbow": N_("the short bow"),
    "shortspear": N_("the short spear"),
    "shortsword": N_("the short sword"),
    "silver_dagger": N_("the silver dagger"),
    "sling": N_("the sling"),
    "small_shield": N_("the small shield"),
    "spear": N_("the spear"),
    "staff": N_("the staff"),
    "sword": N_("the sword"),
    "target_shield": N_("the target shield"),
    "tower_shield": N_("the tower shield"),
    "troll_maul": N_("the troll maul"),
    "two_handed_sword": N_("the two-handed sword"),
    "war_hammer": N_("the war hammer"),
    "whip": N_("the whip"),
    "wolf_bite": N_("its bite"),
    "": N_("bare hands"),
    # natural attack forms of monsters (OSE stat lines, RuneQuest creatures)
    "beak": N_("its beak"),
    "butt": N_("a butt"),
    "claw": N_("its claws"),
    "constrict": N_("its coils"),
    "crush": N_("a crushing blow"),
    "fist": N_("its fist"),
    "gore": N_("a goring horn or tusk"),
    "hoof": N_("its hooves"),
    "horn": N_("its horn"),
    "hug": N_("a bear hug"),
    "kick": N_("a kick"),
    "peck": N_("its beak"),
    "pincer": N_("its pincers"),
    "pseudopod": N_("a pseudopod"),
    "punch": N_("its fist"),
    "ram": N_("a ram"),
    "slam": N_("a slam"),
    "squeeze": N_("a squeeze"),
    "sting": N_("its sting"),
    "strike": N_("a blow"),
    "tail": N_("its tail"),
    "talon": N_("its talons"),
    "tentacle": N_("a tentacle"),
    "touch": N_("its touch"),
    "trample": N_("trampling"),
    "tusk": N_("its tusks"),
    "weapon": N_("its weapon"),
    "wing": N_("a wing"),
    "natural": N_("its natural weapons"),
    "heavy_mace": N_("the heavy mace"),
    "scimitar": N_("the scimitar"),
    "war_maul": N_("the war maul"),
    "great_club": N_("the great club"),
    "halberd": N_("the halberd"),
    "bear_claw": N_("its claws"),
    "small_bite": N_("its bite"),
    "boar_tusk": N_("its tusks"),
    "lion_claw": N_("its claws"),
    "giant_club": N_("the giant's club"),
    "heavy_crache_foudre": N_("the heavy crache-foudre"),
    "wrestling_hold": N_("a wrestling hold"),
    "martial_strike": N_("a martial-arts blow"),
    "hooves": N_("its hooves"),
    "tail_lash": N_("a lash of its tail"),
    "talons": N_("its talons"),
}

LOCATIONS: dict[str, str] = {
    "head": N_("the head"),
    "chest": N_("the chest"),
    "abdomen": N_("the abdomen"),
    "torso": N_("the torso"),
    "pelvis": N_("the pelvis"),
    "right_arm": N_("the right arm"),
    "left_arm": N_("the left arm"),
    "right_leg": N_("the right leg"),
    "left_leg": N_("the left leg"),
    "forequarters": N_("the forequarters"),
    "hindquarters": N_("the hindquarters"),
    "right_foreleg": N_("the right foreleg"),
    "left_foreleg": N_("the left foreleg"),
    "right_front_leg": N_("the right foreleg"),
    "left_front_leg": N_("the left foreleg"),
    "right_hind_leg": N_("the right hind leg"),
    "left_hind_leg": N_("the left hind leg"),
    "right_middle_leg": N_("the right middle leg"),
    "left_middle_leg": N_("the left middle leg"),
    "thorax": N_("the thorax"),
    "body": N_("the body"),
    "right_wing": N_("the right wing"),
    "left_wing": N_("the left wing"),
    "tail": N_("the tail"),
    "weapon": N_("the weapon"),
    "": N_("no particular spot"),
}

LOCATIONS_IN: dict[str, str] = {
    "head": N_("in the head"),
    "chest": N_("in the chest"),
    "abdomen": N_("in the abdomen"),
    "torso": N_("in the torso"),
    "pelvis": N_("in the pelvis"),
    "right_arm": N_("in the right arm"),
    "left_arm": N_("in the left arm"),
    "right_leg": N_("in the right leg"),
    "left_leg": N_("in the left leg"),
    "forequarters": N_("in the forequarters"),
    "hindquarters": N_("in the hindquarters"),
    "right_foreleg": N_("in the right foreleg"),
    "left_foreleg": N_("in the left foreleg"),
    "right_front_leg": N_("in the right foreleg"),
    "left_front_leg": N_("in the left foreleg"),
    "right_hind_leg": N_("in the right hind leg"),
    "left_hind_leg": N_("in the left hind leg"),
    "right_middle_leg": N_("in the right middle leg"),
    "left_middle_leg": N_("in the left middle leg"),
    "thorax": N_("in the thorax"),
    "weapon": N_("on the weapon"),
    "body": N_("in the body"),
    "right_wing": N_("in the right wing"),
    "left_wing": N_("in the left wing"),
    "tail": N_("in the tail"),
    "": N_("somewhere"),
}

#: A hit location's bare name, as a label beside its box on the GM's pages ("Right arm" / "Bras droit"): every
#: location of every system's body plans (RuneQuest's humanoid, quadruped, bird, serpent, centaur, winged humanoid,
#: wyvern, scorpion-man and harpy tables, MRQ's humanoid and quadruped, the dice pool's slots). A GM's own location
#: (a RuneQuest ``hit_locations`` row) has none: :func:`location_label` writes its key readably.
LOCATION_LABELS: dict[str, str] = {
    "head": N_("Head"),
    "chest": N_("Chest"),
    "abdomen": N_("Abdomen"),
    "torso": N_("Torso"),
    "pelvis": N_("Pelvis"),
    "right_arm": N_("Right arm"),
    "left_arm": N_("Left arm"),
    "right_leg": N_("Right leg"),
    "left_leg": N_("Left leg"),
    "forequarters": N_("Forequarters"),
    "hindquarters": N_("Hindquarters"),
    "right_foreleg": N_("Right foreleg"),
    "left_foreleg": N_("Left foreleg"),
    "right_front_leg": N_("Right foreleg"),
    "left_front_leg": N_("Left foreleg"),
    "right_hind_leg": N_("Right hind leg"),
    "left_hind_leg": N_("Left hind leg"),
    "right_middle_leg": N_("Right middle leg"),
    "left_middle_leg": N_("Left middle leg"),
    "thorax": N_("Thorax"),
    "body": N_("Body"),
    "right_wing": N_("Right wing"),
    "left_wing": N_("Left wing"),
    "tail": N_("Tail"),
}

SPELLS: dict[str, str] = {
    "magic_missile": N_("Magic Missile"),
    "sleep": N_("Sleep"),
    "hold_person": N_("Hold Person"),
    "cure_light_wounds": N_("Cure Light Wounds"),
    "bladesharp": N_("Bladesharp"),
    "protection": N_("Protection"),
    "heal": N_("Heal"),
    "disruption": N_("Disruption"),
    "befuddle": N_("Befuddle"),
    "shield": N_("Shield"),
    "truesword": N_("Truesword"),
    "heal_wound": N_("Heal Wound"),
    # OSE spells added in issue 26 ("shield" above is shared with RuneQuest's)
    "charm_person": N_("Charm Person"),
    "light": N_("Light"),
    "darkness": N_("Darkness"),
    "protection_from_evil": N_("Protection from Evil"),
    "web": N_("Web"),
    "phantasmal_force": N_("Phantasmal Force"),
    "invisibility": N_("Invisibility"),
    "mirror_image": N_("Mirror Image"),
    "fire_ball": N_("Fire Ball"),
    "lightning_bolt": N_("Lightning Bolt"),
    "haste": N_("Haste"),
    "cause_light_wounds": N_("Cause Light Wounds"),
    "bless": N_("Bless"),
    "silence_15_radius": N_("Silence 15' Radius"),
    "striking": N_("Striking"),
}

EFFECTS: dict[str, str] = {
    "maximise_damage": N_("Maximise Damage"),
    "bypass_armour": N_("Bypass Armour"),
    "disarm": N_("Disarm Opponent"),
    "bash": N_("Bash"),
    "damage_weapon": N_("Damage Weapon"),
    "entangle": N_("Entangle"),
    "impale": N_("Impale"),
    "expose_defender": N_("Expose Defender"),
    "maximum_parry": N_("Maximum Parry"),
    "trip": N_("Trip Opponent"),
    "attacker_vulnerable": N_("Attacker Vulnerable"),
    "riposte": N_("Riposte"),
    "attacker_misses": N_("Attacker Misses"),
    "choose_location": N_("Choose Location"),
    "deflect_blow": N_("Deflect Blow"),
    "change_distance": N_("Change Engagement Distance"),
}

#: ``DecisionKind`` names as a GM calls the moment of choice ("statement of intent", "reaction" ...)
DECISION_KINDS: dict[str, str] = {
    "DECLARE": N_("statement of intent"),
    "ACT": N_("action"),
    "REACT": N_("reaction to a blow"),
    "EFFECT": N_("special effect"),
    "SPLIT": N_("attack/DEFENSE split"),
    "OPTION": N_("follow-up choice"),
}


def word(table: Mapping[str, str], key: object, _: Callable[[str], str]) -> str:
    """The translated phrase of ``key`` in ``table``, or ``key`` with spaces for underscores when unknown."""
    text = str(key) if key is not None else ""
    phrase = table.get(text)
    return _(phrase) if phrase is not None else text.replace("_", " ")


def location_label(key: object, _: Callable[[str], str]) -> str:
    """The bare name of hit location ``key`` translated by ``_`` ("Right arm"), or, for a location of no table
    (a GM's own), ``key`` written readably: "left_tentacle" is "Left tentacle", never an empty label."""
    text = str(key) if key is not None else ""
    phrase = LOCATION_LABELS.get(text)
    if phrase is not None:
        return _(phrase)
    readable = " ".join(text.replace("_", " ").split())
    return readable[:1].upper() + readable[1:] if readable else "?"
