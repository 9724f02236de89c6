"""Every table of the RQG combat reference as data (runequest-glorantha.md; "§n" cites its
sections).

Nothing here computes a fight: the engine reads these tuples and dicts. Levels are indexed
``CRIT, SPECIAL, SUCCESS, FAILURE, FUMBLE`` = 0..4 everywhere.
"""

from __future__ import annotations

from typing import NamedTuple

# ----- success levels (§8, A1)
# ------------------------------------------------------------------------
CRIT, SPECIAL, SUCCESS, FAILURE, FUMBLE = 0, 1, 2, 3, 4
LEVEL_NAMES: tuple[str, ...] = ("critical", "special", "success", "failure", "fumble")
AUTO_SUCCESS_MAX = 5  #: 01-05 always succeeds (§8)
AUTO_FAILURE_MIN = 96  #: 96-00 always fails (§8)
SPECIAL_0102_LOW, SPECIAL_0102_HIGH = 6, 7  #: skills 6-7 special on 01-02 (published table, A1)

# ----- strike ranks (§3.2, §3.3)
# ----------------------------------------------------------------------
#: (highest DEX of the band, DEX SR); DEX 19+ -> 0 (§3.3)
DEX_SR: tuple[tuple[int, int], ...] = ((5, 5), (8, 4), (12, 3), (15, 2), (18, 1))
DEX_SR_TOP = 0
#: (highest SIZ of the band, SIZ SR); SIZ 22+ -> 0 (§3.3)
SIZ_SR: tuple[tuple[int, int], ...] = ((6, 3), (14, 2), (21, 1))
SIZ_SR_TOP = 0
READY_SR = 5  #: ready a weapon, spell or missile; also the reload between S/MR shots (§3.2, §5)
SR_PER_3M = 1  #: each full 3 m of movement (§3.2)
MAX_SR = 12  #: the 12-SR limit (§6)
#: split attacks: a weapon skill over SPLIT_ABOVE may be divided, each attack keeping at least
#: SPLIT_MIN_SKILL (RQG "Skills over 100%"; the minimum is [unverified], split.py)
SPLIT_ABOVE = 100
SPLIT_MIN_SKILL = 50
#: surprise by an enemy within (max distance m, +SR); A14: <=3 m +3, >3 and <=9 m +1
SURPRISE_SR: tuple[tuple[int, int], ...] = ((3, 3), (9, 1))
RUNE_SPELL_SR = 1  #: Rune magic takes effect at SR 1, +1 per extra MP (§4)
#: switching from a weapon to spirit magic in the same round, with a hand free (§4; not Rune magic)
HAND_SWITCH_SR = 5

# ----- damage bonus and hit points (Published data)
# --------------------------------------------------
#: (highest STR+SIZ of the band, damage bonus dice or "" for none)
DAMAGE_BONUS: tuple[tuple[int, str], ...] = (
    (12, "-1d4"),
    (24, ""),
    (32, "1d4"),
    (40, "1d6"),
    (56, "2d6"),
)
DB_EXTRA_STEP = 16  #: each further 16 (or part) above 56 adds +1d6

#: location HP by total HP: (highest total, most locations (legs, abdomen, head), chest, arms) (§15)
LOCATION_HP: tuple[tuple[int, int, int, int], ...] = (
    (6, 2, 3, 1),
    (9, 3, 4, 2),
    (12, 4, 5, 3),
    (15, 5, 6, 4),
    (18, 6, 7, 5),
)
LOCATION_HP_STEP = 3  #: each further 3 total HP adds +1 to every location
#: the creature tables' two further columns, as offsets of the legs' column (the RQG Bestiary's blocks as the
#: Foundry RQG system computes them: location HP = max(2, ceil(total / 3)) + the location's "baseHpDelta", which
#: gives the three §15 columns above exactly at every total; -2: a scorpion man's legs, +2: a harpy's chest and
#: head). A location keeps at least MIN_LOCATION_HP [HOUSE: the formula gives a -2 location 0 HP at total <= 6]
LOCATION_HP_OFFSETS: dict[str, tuple[str, int]] = {"most-2": ("most", -2), "most+2": ("most", 2)}
MIN_LOCATION_HP = 1

# ----- hit-location tables (§15)
# -----------------------------------------------------------------------


class LocationRow(NamedTuple):
    name: str
    kind: str  #: "limb", "abdomen", "chest" or "head": which row of the §18 effects table applies
    low: int
    high: int
    #: "most", "chest" or "arm": which LOCATION_HP column gives its HP ("most-2", "most+2": LOCATION_HP_OFFSETS)
    hp_row: str


HIT_LOCATIONS: dict[str, tuple[LocationRow, ...]] = {
    "humanoid": (
        LocationRow("right_leg", "limb", 1, 4, "most"),
        LocationRow("left_leg", "limb", 5, 8, "most"),
        LocationRow("abdomen", "abdomen", 9, 11, "most"),
        LocationRow("chest", "chest", 12, 12, "chest"),
        LocationRow("right_arm", "limb", 13, 15, "arm"),
        LocationRow("left_arm", "limb", 16, 18, "arm"),
        LocationRow("head", "head", 19, 20, "most"),
    ),
    # [PUB] RQG quadruped table; hindquarters count as abdomen, forequarters as chest for §18.
    "quadruped": (
        LocationRow("right_hind_leg", "limb", 1, 2, "most"),
        LocationRow("left_hind_leg", "limb", 3, 4, "most"),
        LocationRow("hindquarters", "abdomen", 5, 7, "most"),
        LocationRow("forequarters", "chest", 8, 10, "chest"),
        LocationRow("right_foreleg", "limb", 11, 13, "arm"),
        LocationRow("left_foreleg", "limb", 14, 16, "arm"),
        LocationRow("head", "head", 17, 20, "most"),
    ),
    # [PUB] the RQG flying-bird table (hawks, eagles, vrok hawks), as the Chaosium-licensed Foundry RQG wiki module
    # prints it (pack-templates/hit-locations-birds-flying, commit 34492dc): tail -2, legs -1, abdomen 0, chest
    # +1, wings 0, head 0. A useless leg puts it down; a wing or the tail only stops its flight (not modelled).
    "bird": (
        LocationRow("tail", "limb", 1, 1, "most-2"),
        LocationRow("right_leg", "limb", 2, 4, "arm"),
        LocationRow("left_leg", "limb", 5, 7, "arm"),
        LocationRow("abdomen", "abdomen", 8, 9, "most"),
        LocationRow("chest", "chest", 10, 12, "chest"),
        LocationRow("right_wing", "limb", 13, 14, "most"),
        LocationRow("left_wing", "limb", 15, 16, "most"),
        LocationRow("head", "head", 17, 20, "most"),
    ),
    # [PUB] the RQG serpent table, as the same module prints it (pack-templates/hit-locations-serpents): the tail a
    # limb, the body an abdomen for §18 with the chest's HP (+1), the head
    "serpent": (
        LocationRow("tail", "limb", 1, 6, "most"),
        LocationRow("body", "abdomen", 7, 14, "chest"),
        LocationRow("head", "head", 15, 20, "most"),
    ),
    # RQG body plans with more than seven locations, as the Chaosium-licensed Foundry VTT RuneQuest Glorantha
    # wiki module prints them (sun-dragon-cult/fvtt-module-wiki-rqg, pack-templates/hit-locations-*): d20 bands,
    # kinds ("hitLocationType") and HP ("baseHpDelta" +1 = the chest's column, -1 = an arm's, 0 = the legs').
    "centaur": (
        LocationRow("right_hind_leg", "limb", 1, 2, "arm"),
        LocationRow("left_hind_leg", "limb", 3, 4, "arm"),
        LocationRow("hindquarters", "abdomen", 5, 6, "chest"),
        LocationRow("forequarters", "abdomen", 7, 8, "chest"),
        LocationRow("right_foreleg", "limb", 9, 10, "arm"),
        LocationRow("left_foreleg", "limb", 11, 12, "arm"),
        LocationRow("chest", "chest", 13, 14, "chest"),
        LocationRow("right_arm", "limb", 15, 16, "arm"),
        LocationRow("left_arm", "limb", 17, 18, "arm"),
        LocationRow("head", "head", 19, 20, "chest"),
    ),
    "winged_humanoid": (
        LocationRow("right_leg", "limb", 1, 3, "most"),
        LocationRow("left_leg", "limb", 4, 6, "most"),
        LocationRow("abdomen", "abdomen", 7, 9, "most"),
        LocationRow("chest", "chest", 10, 10, "chest"),
        LocationRow("right_wing", "limb", 11, 12, "arm"),
        LocationRow("left_wing", "limb", 13, 14, "arm"),
        LocationRow("right_arm", "limb", 15, 16, "arm"),
        LocationRow("left_arm", "limb", 17, 18, "arm"),
        LocationRow("head", "head", 19, 20, "most"),
    ),
    "wyvern": (
        LocationRow("tail", "limb", 1, 1, "most"),
        LocationRow("right_leg", "limb", 2, 4, "most"),
        LocationRow("left_leg", "limb", 5, 7, "most"),
        LocationRow("abdomen", "abdomen", 8, 9, "most"),
        LocationRow("chest", "chest", 10, 12, "chest"),
        LocationRow("right_wing", "limb", 13, 14, "arm"),
        LocationRow("left_wing", "limb", 15, 16, "arm"),
        LocationRow("head", "head", 17, 20, "most"),
    ),
    # The module's own tables for two creatures (pack-templates/hit-locations-scorpion-men, -harpies), neither
    # the centaur's nor the winged humanoid's. Their -2 and +2 offsets are the columns of LOCATION_HP_OFFSETS
    # (the scorpion man's six legs, the harpy's chest and head); the shipped templates also give the module's
    # HP in ``location_hp`` (the same figures).
    # Scorpion man: every leg and the tail a limb, the thorax (his arachnid body) chest-kind at the legs' column.
    "scorpion_man": (
        LocationRow("right_hind_leg", "limb", 1, 1, "most-2"),
        LocationRow("right_middle_leg", "limb", 2, 2, "most-2"),
        LocationRow("right_foreleg", "limb", 3, 4, "most-2"),
        LocationRow("left_hind_leg", "limb", 5, 5, "most-2"),
        LocationRow("left_middle_leg", "limb", 6, 6, "most-2"),
        LocationRow("left_foreleg", "limb", 7, 8, "most-2"),
        LocationRow("tail", "limb", 9, 10, "most"),
        LocationRow("thorax", "chest", 11, 12, "most"),
        LocationRow("chest", "chest", 13, 14, "chest"),
        LocationRow("right_arm", "limb", 15, 16, "arm"),
        LocationRow("left_arm", "limb", 17, 18, "arm"),
        LocationRow("head", "head", 19, 20, "most"),
    ),
    # Harpy: no arms; abdomen and wings +1 (the chest column), chest and head +2.
    "harpy": (
        LocationRow("right_leg", "limb", 1, 2, "most"),
        LocationRow("left_leg", "limb", 3, 4, "most"),
        LocationRow("abdomen", "abdomen", 5, 7, "chest"),
        LocationRow("chest", "chest", 8, 9, "most+2"),
        LocationRow("right_wing", "limb", 10, 13, "chest"),
        LocationRow("left_wing", "limb", 14, 17, "chest"),
        LocationRow("head", "head", 18, 20, "most+2"),
    ),
}
#: hit locations a table may have (the observation encoder sums over any number of locations)
MAX_LOCATIONS = 12
#: ``aim:<i>`` entries of the catalogue: an aimed blow picks one of a table's last AIM_SLOTS rows (aim_location)
AIM_SLOTS = 7


def aim_location(n_locations: int, slot: int) -> int:
    """The location index ``aim:<slot>`` names in a table of ``n_locations`` rows: the row itself up to seven
    rows; on a bigger table one of its last seven (the highest d20 bands: a centaur's forequarters to head, a
    winged humanoid's abdomen to head, a wyvern's legs to head, a scorpion man's left foreleg to head) [HOUSE:
    the catalogue has seven aim entries]."""
    return slot + max(0, n_locations - AIM_SLOTS)
#: the limb that holds a shield and that a small shield covers (§12)
SHIELD_ARM = "left_arm"
#: locations a shield covers against missiles, by shield size (§12; A9: the bearer's default choice)
SHIELD_COVER: dict[str, tuple[str, ...]] = {
    "small": ("left_arm",),
    "medium": ("left_arm", "chest"),
    "large": ("left_arm", "chest", "head"),
}

# ----- location effects (§18, A18-A20)
# --------------------------------------------------------------------
BLEED_OUT_ROUNDS: dict[str, int] = {
    "abdomen": 50,
    "chest": 50,
    "head": 25,
}  #: 10 min / 5 min at 12 s a round
SEVERE_BLEED_PER_ROUND = 1  #: >= 2L on abdomen, chest or head: 1 HP a round until treated

# ----- attack / parry results (§10)
# -------------------------------------------------------------------------


class ParryCell(NamedTuple):
    """One cell of the 5x5 table. ``outcome``: "hit" (defender takes it), "through" (parrying weapon
    blocks per ``code`` P1/PX/PF, excess to a location), "deflect" (defender rolls its parrying
    weapon's damage against the attacking weapon per ``code`` A1/AX/AF), "miss" (nothing)."""

    outcome: str
    mode: str  #: "normal", "special" or "max_special": whose damage depends on ``outcome``
    code: str
    dest: str  #: "location" or "adjacent" (A5)
    ignore_armour: bool
    attacker_fumbles: bool
    defender_fumbles: bool


def _c(
    outcome: str,
    mode: str = "",
    code: str = "",
    dest: str = "location",
    ignore: bool = False,
    af: bool = False,
    df: bool = False,
) -> ParryCell:
    return ParryCell(outcome, mode, code, dest, ignore, af, df)


#: ATTACK_PARRY[attack level][parry level] (§10.2)
ATTACK_PARRY: tuple[tuple[ParryCell, ...], ...] = (
    (  # critical attack
        _c("through", "normal", "P1"),
        _c("through", "max_special", "P1", "adjacent", True),
        _c("through", "max_special", "PF", "adjacent", True),
        _c("hit", "max_special", ignore=True),
        _c("hit", "max_special", ignore=True, df=True),
    ),
    (  # special attack
        _c("deflect", "normal", "A1"),
        _c("through", "normal", "P1"),
        _c("through", "special", "PX", "adjacent"),
        _c("hit", "special"),
        _c("hit", "special", df=True),
    ),
    (  # normal attack
        _c("deflect", "special", "AX"),
        _c("deflect", "normal", "A1"),
        _c("through", "normal", "P1"),
        _c("hit", "normal"),
        _c("hit", "normal", df=True),
    ),
    (  # failed attack
        _c("deflect", "special", "AF"),
        _c("deflect", "special", "AX"),
        _c("deflect", "normal", "A1"),
        _c("miss"),
        _c(
            "hit", "normal", df=True
        ),  # A6: source literal, option failed_attack_hits_on_defender_fumble
    ),
    # fumbled attack: the failed-attack row plus the attacker's fumble; fumble/fumble: both fumble
    (
        _c("deflect", "special", "AF", af=True),
        _c("deflect", "special", "AX", af=True),
        _c("deflect", "normal", "A1", af=True),
        _c("miss", af=True),
        _c("miss", af=True, df=True),
    ),
)


class DodgeCell(NamedTuple):
    outcome: str  #: "dodged", "miss" or "hit"
    mode: str
    ignore_armour: bool
    attacker_fumbles: bool
    defender_fumbles: bool


def _d(
    outcome: str, mode: str = "", ignore: bool = False, af: bool = False, df: bool = False
) -> DodgeCell:
    return DodgeCell(outcome, mode, ignore, af, df)


#: DODGE[dodge level][attack level] (§13.1)
DODGE: tuple[tuple[DodgeCell, ...], ...] = (
    (_d("dodged"), _d("dodged"), _d("dodged"), _d("miss"), _d("miss", af=True)),
    (_d("hit", "special"), _d("dodged"), _d("dodged"), _d("miss"), _d("miss", af=True)),
    (
        _d("hit", "special", True),
        _d("hit", "special"),
        _d("dodged"),
        _d("miss"),
        _d("miss", af=True),
    ),
    (
        _d("hit", "max_special", True),
        _d("hit", "special"),
        _d("hit", "normal"),
        _d("miss"),
        _d("miss", af=True),
    ),
    (
        _d("hit", "max_special", True, df=True),
        _d("hit", "special", df=True),
        _d("hit", "normal", df=True),
        _d("hit", "normal", df=True),
        _d("miss", af=True, df=True),
    ),
)

#: an undefended blow (no parry, no dodge, or a flight's free attack): by attack level
UNDEFENDED: tuple[DodgeCell, ...] = (
    _d("hit", "max_special", True),
    _d("hit", "special"),
    _d("hit", "normal"),
    _d("miss"),
    _d("miss", af=True),
)

# ----- fumbles (§10.3)
# --------------------------------------------------------------------------------------
#: (highest d20, effect); the 05-08 row fixed to the published table
FUMBLE_TABLE: tuple[tuple[int, str], ...] = (
    (4, "lose_parry"),
    (8, "lose_attack"),
    (12, "lose_attack_parry"),
    (15, "lose_attack_parry_dodge"),
    (18, "armour_breaks"),
    (20, "drop_weapon"),
)

# ----- defence penalties (§11, §13)
# -------------------------------------------------------------------------
SUCCESSIVE_DEFENCE_PENALTY = 20
MIN_DEFENCE_CHANCE = 5
DODGE_ENC_PENALTY = 1  #: per ENC point up to max ENC
DODGE_OVER_ENC_PENALTY = 5  #: per ENC point above max ENC

# ----- first aid (§20.1)
# ------------------------------------------------------------------------------------
#: heal dice by level (crit, special, success); failure nothing; fumble inflicts 1d3
FIRST_AID_HEAL: tuple[str, ...] = ("1d3+3", "2d3", "1d3")
FIRST_AID_FUMBLE_DAMAGE = "1d3"
FIRST_AID_HEAL_ROUNDS = 5
FIRST_AID_ABANDON_LOSS = 2

# ----- ranges (§22, A10)
# ------------------------------------------------------------------------------------
RANGE_BANDS: tuple[tuple[float, int], ...] = (
    (1.0, 1),
    (1.5, 2),
    (2.0, 4),
)  #: (x effective range, divisor)
THROWN_MAX_RANGE = 20

# ----- movement and melee geometry (A11, A13)
# ---------------------------------------------------------------
MELEE_REACH_M = 2  #: within 2 m of an active enemy = engaged (A11)
DISENGAGE_GAP_M = 3  #: a retreat or knockback leaves at least this gap to every enemy
#: published knockback (§21, A12 [PUB, unverified]): 1 m per 5 points (or part) of rolled damage
#: above the target's SIZ, then a DEX x 5 roll or the target falls
KNOCKBACK_POINTS_PER_M = 5
KNOCKBACK_DEX_MULT = 5
KNOCKBACK_RULES = ("published", "push")  #: option ``knockback_rule``; "push": the v0 house rule

# ----- magic (§4, Published data)
# ---------------------------------------------------------------------------


class SpellRow(NamedTuple):
    name: str
    kind: str  #: "spirit" or "rune"
    target: str  #: "self", "friend" (self or ally) or "enemy"
    variable: bool  #: points chosen at casting (an OPTION decision)
    fixed_cost: int  #: MP (spirit) or Rune points (rune) when not variable
    duration: int  #: rounds; 0 = instant
    resisted: bool  #: must overcome the target's MP (resistance roll)


SPELLS: dict[str, SpellRow] = {
    "bladesharp": SpellRow("bladesharp", "spirit", "self", True, 0, 10, False),
    "protection": SpellRow("protection", "spirit", "friend", True, 0, 10, False),
    "heal": SpellRow("heal", "spirit", "friend", True, 0, 0, False),
    "disruption": SpellRow("disruption", "spirit", "enemy", False, 1, 0, True),
    "befuddle": SpellRow("befuddle", "spirit", "enemy", False, 2, 10, True),
    "shield": SpellRow("shield", "rune", "friend", True, 0, 75, False),
    "truesword": SpellRow("truesword", "rune", "self", False, 2, 75, False),
    "heal_wound": SpellRow("heal_wound", "rune", "friend", True, 1, 0, False),
}
SPIRIT_RANGE_M = 50
RUNE_RANGE_M = 160
DISRUPTION_DAMAGE = "1d3"
BLADESHARP_SKILL_PER_POINT = 5
#: spirit spells cast without a free hand: Bladesharp is cast on the weapon held in hand (§4, A26)
NO_FREE_HAND_SPELLS: tuple[str, ...] = ("bladesharp",)
SHIELD_AP_PER_POINT = 2  #: [PUB, unverified] Rune spell Shield: +2 AP per point (§16)
MAX_POWER = 6  #: the largest number of points (MP / Rune points) offered by the power OPTION
RESISTANCE_BASE = 50
RESISTANCE_PER_POINT = 5
