"""Every table of the MRQ opposed-test variant as data (reference: docs/rules/mrq-opposed.md).

Tags follow the reference: [SEED] source text, [RECON] reconstructed, [PUB] published MRQ1 (unverified unless
marked), [REC] the reference's recommended reading, [HOUSE] our own choice where both are silent.
"""

from __future__ import annotations

# ----- success levels (mrq-opposed.md §2) ---------------------------------------------------------------
FUMBLE, FAILURE, SUCCESS, CRITICAL = 0, 1, 2, 3
LEVEL_NAMES: tuple[str, ...] = ("fumble", "failure", "success", "critical")
MARGIN_NAMES: tuple[str, ...] = ("partial", "normal", "major", "critical")  # §3: margins 0..3

# ----- Combat Actions by DEX (§1, [PUB ✓] MGP8102 GM screen) -----------------------------------------
#: (highest DEX, Combat Actions) rows; DEX 19+ gives 4.
COMBAT_ACTIONS_BY_DEX: tuple[tuple[int, int], ...] = ((6, 1), (12, 2), (18, 3), (999, 4))


def combat_actions(dex: int) -> int:
    """Combat Actions per round for ``dex`` (§1)."""
    for top, n in COMBAT_ACTIONS_BY_DEX:
        if dex <= top:
            return n
    return 4


# ----- hit locations (§17, [PUB]) ---------------------------------------------------------------------
#: Slot names used by the action catalogue; quadrupeds reuse the slots with the names of QUADRUPED_LOCATIONS.
LOCATIONS: tuple[str, ...] = (
    "right_leg",
    "left_leg",
    "abdomen",
    "chest",
    "right_arm",
    "left_arm",
    "head",
)
QUADRUPED_LOCATIONS: tuple[str, ...] = (
    "right_hind_leg",
    "left_hind_leg",
    "hindquarters",
    "forequarters",
    "right_front_leg",
    "left_front_leg",
    "head",
)
#: The location names of each body (the same seven slots).
LOCATION_NAMES: dict[str, tuple[str, ...]] = {"humanoid": LOCATIONS, "quadruped": QUADRUPED_LOCATIONS}
RIGHT_LEG, LEFT_LEG, ABDOMEN, CHEST, RIGHT_ARM, LEFT_ARM, HEAD = range(7)
#: d20 face → location slot: 1–3 right leg, 4–6 left leg, 7–9 abdomen, 10–12 chest, 13–15 right arm,
#: 16–18 left arm, 19–20 head. A rider striking down rolls 1d10+10 (§13) on the same table.
HIT_LOCATION_D20: tuple[int, ...] = (0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6)
#: location role per body plan: "leg" (movement), "arm" (holds an item), "vital" (head/chest/abdomen).
ROLES: dict[str, tuple[str, ...]] = {
    "humanoid": ("leg", "leg", "vital", "vital", "arm", "arm", "vital"),
    "quadruped": ("leg", "leg", "vital", "vital", "leg", "leg", "vital"),
}
#: The quadruped table published for the Mongoose RuneQuest family (1-2 right hind leg, 3-4 left hind leg, 5-7
#: hindquarters, 8-10 forequarters, 11-13 right front leg, 14-16 left front leg, 17-20 head; as printed in the
#: Mythras creature templates of mythras.skoll.xyz, e.g. enemy_template/7023 and 8486). A template's
#: ``hit_locations: quadruped`` (or a stat block printing these rows) uses it; a quadruped without the field keeps
#: the humanoid bands over the quadruped names, as the shipped wolf and warhorse were played and trained ([HOUSE]).
QUADRUPED_HIT_LOCATION_D20: tuple[int, ...] = (0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6)
#: named d20 tables a template may give as ``hit_locations``
HIT_TABLES: dict[str, tuple[int, ...]] = {"humanoid": HIT_LOCATION_D20, "quadruped": QUADRUPED_HIT_LOCATION_D20}
LIMBS: dict[str, tuple[int, ...]] = {"humanoid": (0, 1, 4, 5), "quadruped": (0, 1, 4, 5)}
UPPER_BODY: tuple[int, ...] = (CHEST, RIGHT_ARM, LEFT_ARM, HEAD)  # reachable by 1d10+10 (§13)

# ----- location hit points by SIZ+CON (§17.1 [PUB ✓] legs/abdomen/chest-to-20; rest [PUB] unverified) -----
#: per band of 5 points of SIZ+CON: offsets relative to the leg value (leg = band index + 1).
LOCATION_HP_OFFSET: dict[str, tuple[int, ...]] = {
    "humanoid": (0, 0, 1, 2, -1, -1, 0),  # legs, abdomen +1, chest +2, arms -1, head +0
    "quadruped": (0, 0, 1, 2, 0, 0, 0),  # [HOUSE] front legs are legs
}


def location_hp(siz_con: int, body: str = "humanoid") -> tuple[int, ...]:
    """Location HP for a SIZ+CON total (§17.1; +1 to every location per further 5 points)."""
    leg = max(1, (max(siz_con, 1) + 4) // 5)
    return tuple(max(1, leg + off) for off in LOCATION_HP_OFFSET[body])


# ----- damage modifier by STR+SIZ (§17.1 [PUB ✓]) ----------------------------------------------------
DAMAGE_MODIFIER: tuple[tuple[int, str], ...] = (
    (5, "-1d8"),
    (10, "-1d6"),
    (15, "-1d4"),
    (20, "-1d2"),
    (25, ""),
    (30, "1d2"),
    (35, "1d4"),
    (40, "1d6"),
    (45, "1d8"),
    (50, "1d10"),
    (60, "1d12"),
    (70, "2d6"),
    (80, "2d8"),
    (90, "2d10"),
    (100, "2d12"),
)


def damage_modifier(str_siz: int) -> str:
    """The damage modifier expression for STR+SIZ ("" for +0)."""
    for top, expr in DAMAGE_MODIFIER:
        if str_siz <= top:
            return expr
    return "2d12"


# ----- combat tables (§3) ---------------------------------------------------------------------------
#: WITH Deflection Points (§3.1 [RECON]): margin → (attacker-win DP factor, defender-win outcome).
#: DP factor: "half" (partial/normal: the defender deflects with half its DP) or "none" (not parried).
#: Defender outcome: "half_damage" (attacker damage halved, full DP) or "fails" (attack fails completely).
DP_TABLE_ATTACKER_DP: tuple[str, ...] = ("half", "half", "none", "none")
DP_TABLE_DEFENDER: tuple[str, ...] = ("half_damage", "half_damage", "fails", "fails")
#: effects granted by margin on the DP table; option ``dp_effects_by_margin`` (A4) overrides it.
DP_TABLE_EFFECTS: tuple[int, ...] = (0, 1, 1, 1)
#: WITHOUT Deflection Points (§3.2 [SEED]): attacker wins → normal damage; defender wins → attack fails.
SIMPLE_TABLE_EFFECTS: tuple[int, ...] = (0, 1, 2, 3)

# ----- special effects (§4) -------------------------------------------------------------------------
#: (name, starred: unusable with the simplified table) — attacker column then defender column.
ATTACKER_EFFECTS: tuple[tuple[str, bool], ...] = (
    ("maximise_damage", False),
    ("choose_location", False),
    ("bypass_armour", False),
    ("disarm", False),
    ("bash", False),
    ("damage_weapon", False),
    ("entangle", False),
    ("impale", False),
    ("expose_defender", True),  # A19: starred here too, it does nothing without DP
)
DEFENDER_EFFECTS: tuple[tuple[str, bool], ...] = (
    ("maximum_parry", True),
    ("deflect_blow", True),
    ("trip", False),
    ("disarm", False),
    ("change_distance", False),
    ("damage_weapon", False),
    ("attacker_vulnerable", False),
    ("riposte", False),
    ("attacker_misses", True),
)
STARRED: frozenset[str] = frozenset(n for n, s in ATTACKER_EFFECTS + DEFENDER_EFFECTS if s)

# ----- engagement distance and reach (A23 [REC], [HOUSE] values) ---------------------------------------
APART, LONG, CLOSE = 0, 1, 2
DISTANCE_NAMES: tuple[str, ...] = ("apart", "long", "close")
REACH_NAMES: tuple[str, ...] = ("touch", "short", "medium", "long", "very_long")
LONG_WEAPON_REACH = 3  #: reach ≥ long is a "long weapon" (lance...) for the rider's location roll (§13)

# ----- fumble tables (§6 [RECON]) -------------------------------------------------------------------
#: (lowest d20, highest d20, code, name). Codes are resolved in fumbles.py.
MELEE_FUMBLES: tuple[tuple[int, int, str, str], ...] = (
    (1, 3, "lose_ca", "stagger"),
    (4, 6, "drop_weapon", "weapon dropped"),
    (7, 9, "lose_1d3_ca", "lose balance"),
    (10, 12, "weapon_damaged", "weapon damaged"),
    (13, 14, "prone_1d3", "trip"),
    (15, 16, "armour_lost", "armour lost"),
    (17, 18, "ally_hit", "ally hit"),
    (19, 19, "roll_twice", "bad luck"),
    (
        20,
        20,
        "roll_three",
        "weapon broken",
    ),  # A10: named "weapon broken", printed effect "roll three times"
)
NATURAL_FUMBLES: tuple[tuple[int, int, str, str], ...] = (
    (1, 3, "lose_ca", "hesitation"),
    (4, 6, "numb_limb", "numb limb"),
    (7, 9, "lose_1d3_ca", "entanglement"),
    (10, 12, "limb_injured", "limb injured"),
    (13, 14, "prone_1d3", "trip"),
    (15, 16, "broken_limb", "broken limb"),
    (17, 18, "ally_hit_major", "ally hit"),
    (19, 19, "roll_twice", "bad luck"),
    (20, 20, "roll_three", "curse"),
)
MISSILE_FUMBLES: tuple[tuple[int, int, str, str], ...] = (
    (1, 3, "lose_ca", "disoriented"),
    (4, 6, "drop_weapon_1d2", "weapon dropped"),
    (7, 9, "lose_1d3_ca", "entangled with weapon"),
    (10, 12, "weapon_lost", "weapon lost"),
    (13, 14, "weapon_self_damaged", "weapon damaged"),
    (15, 16, "ally_hit_only", "ally hit"),
    (17, 18, "self_hit", "clumsiness"),
    (19, 19, "roll_twice", "muddle"),
    (20, 20, "roll_three", "damnation"),
)
FUMBLE_TABLES: dict[str, tuple[tuple[int, int, str, str], ...]] = {
    "melee": MELEE_FUMBLES,
    "natural": NATURAL_FUMBLES,
    "missile": MISSILE_FUMBLES,
}

# ----- modifiers (§4, §6, §13) ----------------------------------------------------------------------
IMPALED_PENALTY = 20  #: −20% to all activities per weapon left in a wound (§4.2 Impale)
ENTANGLED_VITAL_PENALTY = 20  #: entangled head/chest/abdomen: −20% to all activities (§4.2 Entangle)
PRONE_DEFENCE_PENALTY = 30  #: prone: all defensive actions −30% (§6 row 13–14)
MOUNTED_BONUS = 20  #: rider vs an opponent below it (§13)
DISARM_BONUS = 20  #: two-handed sword or entangling weapon on a Disarm test (§4.2)
ENORMOUS_SIZ_RATIO = 3  #: [HOUSE] Bash does not move a target with SIZ ≥ 3× the basher's (§4.2, §15)

# ----- missiles, movement and knockback (§11, §13, §15; [PUB] unverified and [HOUSE] values) ----------
MAX_GAP = 200  #: metres: falling back never opens a gap wider than this [HOUSE]
#: default movement per Combat Action by body plan; a mounted combatant uses its mount's ([PUB] unverified)
MOVE_BY_BODY: dict[str, int] = {"humanoid": 4, "quadruped": 6, "mounted": 10}
KNOCKBACK_METRES_PER = 5  #: knocked back 1 m per full 5 points of damage over SIZ, at least 1 m [HOUSE]
