"""Every rule table of the OSE combat reference, as data (ose-bx.md §3, §6, §9, §10, §14).

Distances are in 1.5 m grid squares (ose-bx.md A7): adjacent (1 square = 1.5 m) is melee range, two squares
(3 m) is the shortest missile range, so the 1.5–2 m gap never occurs. Feet convert at 10' = 3 m = 2 squares.
"""

from __future__ import annotations

SQUARE_M = 1.5  #: metres per grid square (A7)
MELEE_REACH = 1  #: squares: melee needs ≤ 1.5 m (§8)
MISSILE_MIN = 2  #: squares: missiles need ≥ 2 m, i.e. two squares (§6, A7)
#: A charge: closing into melee after at least 20' (6 m) of movement in the round (BECMI's set-vs-charge
#: distance; OSE only says "charging monsters", unverified). A braced weapon then doubles its damage dice.
CHARGE_MIN_SQUARES = 4
BRACE_DAMAGE_MULT = 2
FEET_PER_SQUARE = 5  #: 10' = 3 m = 2 squares (§14.2 REC)


def feet_to_squares(feet: int) -> int:
    """Convert a distance in feet to grid squares (10' = 2 squares)."""
    return feet // FEET_PER_SQUARE


def metres_to_squares(metres: float) -> int:
    """Snap a distance in metres to the 1.5 m grid."""
    return int(round(metres / SQUARE_M))


# ----- initiative and ability modifiers (§3, §6, §9.5) --------------------------------------------------
#: (lowest score, modifier) rows: STR melee to-hit/damage, DEX missile, DEX AC (ose-bx.md §9.5, §6, §14.3).
STANDARD_MOD: tuple[tuple[int, int], ...] = (
    (3, -3),
    (4, -2),
    (6, -1),
    (9, 0),
    (13, 1),
    (16, 2),
    (18, 3),
)
#: DEX initiative modifier, individual initiative only (§3).
DEX_INIT_MOD: tuple[tuple[int, int], ...] = ((3, -2), (4, -1), (9, 0), (13, 1), (18, 2))


def ability_mod(score: int, table: tuple[tuple[int, int], ...] = STANDARD_MOD) -> int:
    """The modifier of ``score`` (3–18) in a (lowest score, modifier) table."""
    mod = table[0][1]
    for low, value in table:
        if score >= low:
            mod = value
    return mod


# ----- attack (§9) -------------------------------------------------------------------------------------
NATURAL_HIT = 20  #: §9.3
NATURAL_MISS = 1  #: §9.3
MATRIX_MIN_ROLL = 2  #: the attack matrix never asks for less than 2 (§9.5)
MATRIX_MAX_ROLL = 20  #: ... nor more than 20 (§9.5)
NORMAL_HUMAN_THAC0 = 20  #: §9.5 row NH

#: Monster THAC0 by Hit Dice: (upper HD bound, THAC0). "1+" means 1 HD plus a bonus (§9.5).
MONSTER_THAC0: tuple[tuple[float, int], ...] = (
    (1, 19),
    (2, 18),
    (3, 17),
    (4, 16),
    (5, 15),
    (6, 14),
    (7, 13),
    (9, 12),
    (11, 11),
    (13, 10),
    (15, 9),
    (17, 8),
    (19, 7),
    (21, 6),
    (float("inf"), 5),
)
#: Class THAC0, hit dice and saves by level are data: ``content/classes.yaml`` (rules/classes.py).


def monster_thac0(hd: int, plus: int) -> int:
    """THAC0 of a monster of ``hd`` Hit Dice with ``plus`` bonus hp (1+1 HD counts as "1+")."""
    effective = hd + 0.5 if plus > 0 else float(hd)
    for bound, thac0 in MONSTER_THAC0:
        if effective <= bound:
            return thac0
    return MONSTER_THAC0[-1][1]  # pragma: no cover


def ac_to_aac(ac: int) -> int:
    """Descending AC to ascending AAC: AAC = 19 − AC (§9.5)."""
    return 19 - ac


def thac0_to_bonus(thac0: int) -> int:
    """THAC0 to attack bonus: AB = 19 − THAC0 (§9.5)."""
    return 19 - thac0


# ----- missiles (§6) -----------------------------------------------------------------------------------
RANGE_MOD: tuple[int, int, int] = (1, 0, -1)  #: short, medium, long (§6)
RANGE_NAMES: tuple[str, str, str] = ("short", "medium", "long")
FULL_COVER = 5  #: cover level meaning "cannot be hit, not visible" (§6, A11); 1–4 = −1..−4 to hit

# ----- movement (§5) -----------------------------------------------------------------------------------
ENCOUNTER_FRACTION = 3  #: encounter movement = base movement / 3 (§5.1)
#: Base movement by armour worn, OSE basic encumbrance without treasure (PUB ✓, docs/ose.md
#: "Published data checked"): unarmoured 120', light (leather) 90', heavy (chain, plate) 60'.
#: Carrying treasure (one band slower) is not modelled. Templates read armour.yaml; this mirrors it.
ARMOUR_MOVEMENT: dict[str, int] = {"none": 120, "leather": 90, "chainmail": 60, "plate_mail": 60}
MAX_ENCOUNTER_ROUNDS = 60  #: §5.1: encounter speed can be kept up for 60 rounds at most

# ----- morale (§4) -------------------------------------------------------------------------------------
MORALE_NEVER_FIGHTS = 2  #: ML 2: will not fight (always fails)
MORALE_FEARLESS = 12  #: ML 12: never checks
MORALE_PASSES_TO_FEARLESS = 2  #: after two passed checks a monster fights to the death

# ----- saving throws (OSE class tables, PUB ✓; sources: docs/ose.md "Published data checked") ----
#: Save categories, in OSE order: Death/poison, Wands, Paralysis/petrification, Breath,
#: Spells/rods/staves (OSE SRD "Saving Throws"). A save succeeds on 1d20 ≥ the value.
SAVE_CATEGORIES: tuple[str, ...] = ("death", "wands", "paralysis", "breath", "spells")
#: Normal human (NH) saves. The class tables (fighter ... halfling, one row per level) are data in
#: ``content/classes.yaml`` (rules/classes.py). Monsters use the OSE monster table by HD; its NH and
#: 1–3 / 4–6 HD rows equal the fighter's 1–3 / 4–6 rows, so a monster "saving as 1" is written ``F1``.
NORMAL_HUMAN_SAVES: tuple[int, int, int, int, int] = (14, 15, 16, 17, 18)


def save_row(save_as: str) -> tuple[int, int, int, int, int]:
    """Saving throw targets for ``save_as``: ``"NH"`` or a class letter + level such as ``"F2"``, ``"C4"``
    (the class rows are read from ``classes.yaml`` by :func:`.classes.save_row`)."""
    if save_as == "NH":
        return NORMAL_HUMAN_SAVES
    from npc_tactics.systems.ose.rules.classes import save_row as class_save_row  # loads the YAML on first use

    return class_save_row(save_as)


# ----- spells (OSE spell descriptions, PUB ✓ except where noted; §7 for casting rules) ----------
#: Sources: the OSE SRD (oldschoolessentials.necroticgnome.com/srd, e.g. index.php/Lightning_Bolt) and its
#: Hebrew copy in itaiag/OSE.SRD.Wiki at commit 16b6aa2c ("4. Magic/..."); docs/ose-spells.md names each page.
#: name -> (spell level, class, range in feet (0 = touch / the caster), target kind). Order = spell ids; the
#: first four are the 0.2.0 spells (their action rows come first). Target kinds: "enemy" (an enemy, or the
#: centre of an area at an enemy), "friend" (the caster or an ally), "self" (the caster only).
#: A reversed spell (Darkness, Cause Light Wounds) is its own id, memorised as such.
SPELLS: dict[str, tuple[int, str, int, str]] = {
    "magic_missile": (1, "magic_user", 150, "enemy"),
    "sleep": (1, "magic_user", 240, "enemy"),
    "hold_person": (2, "cleric", 180, "enemy"),
    "cure_light_wounds": (1, "cleric", 0, "friend"),
    "shield": (1, "magic_user", 0, "self"),
    "charm_person": (1, "magic_user", 120, "enemy"),
    "light": (1, "magic_user", 120, "enemy"),
    "darkness": (1, "magic_user", 120, "enemy"),
    "protection_from_evil": (1, "magic_user", 0, "self"),
    "web": (2, "magic_user", 10, "enemy"),
    "phantasmal_force": (2, "magic_user", 240, "enemy"),
    "invisibility": (2, "magic_user", 240, "friend"),
    "mirror_image": (2, "magic_user", 0, "self"),
    "fire_ball": (3, "magic_user", 240, "enemy"),
    "lightning_bolt": (3, "magic_user", 180, "enemy"),
    "haste": (3, "magic_user", 240, "friend"),
    "cause_light_wounds": (1, "cleric", 0, "enemy"),
    "bless": (2, "cleric", 60, "friend"),
    "silence_15_radius": (2, "cleric", 180, "enemy"),
    "striking": (3, "cleric", 30, "friend"),
}
SPELL_NAMES: tuple[str, ...] = tuple(SPELLS)
#: Spells on a second list: name -> ((class, spell level, range in feet), ...). Hold Person is a 2nd-level
#: cleric spell (180') and a 3rd-level magic-user one (120'); Light/Darkness and Protection from Evil are 1st
#: level on both lists (durations differ: SPELL_ROUNDS).
SPELL_ALSO: dict[str, tuple[tuple[str, int, int], ...]] = {
    "hold_person": (("magic_user", 3, 120),),
    "light": (("cleric", 1, 120),),
    "darkness": (("cleric", 1, 120),),
    "protection_from_evil": (("cleric", 1, 0),),
}


def spell_entry(name: str, spell_list: str) -> tuple[int, int] | None:
    """(spell level, range in feet) of ``name`` on ``spell_list``, or None if that list lacks it."""
    level, cls, feet, _ = SPELLS[name]
    if cls == spell_list:
        return level, feet
    for other, lv, ft in SPELL_ALSO.get(name, ()):
        if other == spell_list:
            return lv, ft
    return None


ROUNDS_PER_TURN = 10  #: OSE: a turn is 10 minutes, a round 10 seconds
UNTIL_FIGHT_ENDS = -1  #: a condition's rounds left when it lasts the whole fight
#: Duration in rounds by (spell, class list); a (base turns, turns per caster level) pair. Durations of a day
#: or more, "permanent" and "until broken" last the fight (UNTIL_FIGHT_ENDS).
SPELL_TURNS: dict[tuple[str, str], tuple[int, int]] = {
    ("shield", "magic_user"): (2, 0),
    ("light", "magic_user"): (6, 1),  #: 6 turns + 1 per level
    ("darkness", "magic_user"): (6, 1),
    ("light", "cleric"): (12, 0),
    ("darkness", "cleric"): (12, 0),
    ("protection_from_evil", "magic_user"): (6, 0),
    ("protection_from_evil", "cleric"): (12, 0),
    ("mirror_image", "magic_user"): (6, 0),
    ("haste", "magic_user"): (3, 0),
    ("bless", "cleric"): (6, 0),
    ("silence_15_radius", "cleric"): (12, 0),
    ("striking", "cleric"): (1, 0),
}


def spell_rounds(name: str, spell_list: str, level: int) -> int:
    """How many rounds a lasting spell of a caster of ``level`` lasts (UNTIL_FIGHT_ENDS if unlisted)."""
    row = SPELL_TURNS.get((name, spell_list))
    if row is None:
        return UNTIL_FIGHT_ENDS
    return (row[0] + row[1] * level) * ROUNDS_PER_TURN


#: Magic Missile: 1d6+1 a missile, hits unerringly (no attack roll, no save).
MAGIC_MISSILE_DAMAGE = "1d6+1"
MAGIC_MISSILE_LEVELS_PER_EXTRA = 5  #: 1 missile at levels 1–5, 3 at 6–10, 5 at 11–15
#: Sleep, no save, undead unaffected: one creature of exactly 4+1 HD (single mode) or 2d8 HD of
#: creatures of 4 HD or less each, fewest HD first (3+2 counts 3, under 1 HD 1), excess wasted.
SLEEP_HD = "2d8"
SLEEP_MAX_HD = 4  #: the 2d8 mode takes creatures of 4 HD or less
SLEEP_SINGLE_HD = (4, 1)  #: the single mode takes a creature of exactly 4+1 HD
#: The OSE text read gives no area: 4 squares (6 m) around the target = B/X 40' square (unverified).
SLEEP_RADIUS = 4
#: Hold Person: save vs spells, −2 for a single target; human-like monsters above 4+1 HD unaffected
#: (humans of any level are affected). Charm Person has the same restriction and no penalty.
HOLD_PERSON_MAX_HD = 4
HOLD_PERSON_SINGLE_PENALTY = -2
CURE_LIGHT_WOUNDS = "1d6+1"  #: up to the subject's maximum hit points
CAUSE_LIGHT_WOUNDS = "1d6+1"  #: reversed: damage to a creature touched, a melee touch attack roll needed
#: Shield: AC 2 [17] against missiles, AC 4 [15] against other attacks (the better of it and the own AC).
SHIELD_AC_MISSILE = 2
SHIELD_AC_OTHER = 4
MIRROR_IMAGES = "1d4"  #: illusory duplicates; each attack on the caster destroys one, hit or miss
PROTECTION_FROM_EVIL = 1  #: −1 to the attacks of creatures of another alignment, +1 to the caster's saves
BLESS_BONUS = 1  #: +1 to attack, damage and morale of allies not yet in melee
STRIKING_DAMAGE = "1d6"  #: extra damage of the enchanted weapon; it counts as magical
PHANTASMAL_ROUNDS = "1d4"  #: an illusory "death" is a faint lasting 1d4 rounds
AREA_DAMAGE_DIE = 6  #: Fire Ball and Lightning Bolt: 1d6 per caster level, save vs spells for half
HASTE_MAX_CREATURES = 24
#: Web: break free in 2d4 turns (normal strength), 4 rounds (magical STR above 18), 2 rounds (giant strength).
WEB_BREAK_NORMAL = "2d4"  #: turns
WEB_BREAK_GIANT = 2  #: rounds: the engine counts monsters above 4+1 HD as of giant strength (a choice)
#: Areas on the battle line (docs/ose-spells.md "Areas"): a radius r is |distance| ≤ r / 5 squares; a square or
#: cube of side s is |distance| ≤ s / 10 squares (half the side each way); the Lightning Bolt is 60' long
#: (12 squares) from the target's square away from the caster. The target's square is the centre.
FIRE_BALL_RADIUS = 4  #: 20' radius
LIGHTNING_BOLT_LENGTH = 12  #: 60' long, 5' wide: one square wide on the line
WEB_HALF = 1  #: 10' cube
PHANTASMAL_HALF = 2  #: 20' cube
HASTE_RADIUS = 6  #: 30' radius
BLESS_HALF = 2  #: 20' square
SILENCE_RADIUS = 3  #: 15' radius
