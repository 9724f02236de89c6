"""Pure rule arithmetic: success levels, strike ranks, derived characteristics, penalties, ranges.

Every function here is a table look-up or a formula of runequest-glorantha.md, with no state and no
dice, so tests can pin exact values (and probabilities, see :func:`level_probabilities`).
"""

from __future__ import annotations

from fractions import Fraction

from npc_tactics.systems.runequest.rules import tables as T


def round_half_up(num: int, den: int) -> int:
    """``num/den`` rounded to nearest, .5 up, for non-negative integers (A1)."""
    return (2 * num + den) // (2 * den)


def thresholds(skill: int) -> tuple[int, int, int, int]:
    """(critical max, special max, success max, fumble min) of a D100 roll against ``skill`` (§8,
    A1).

    critical = max(1, skill/20 rounded half up); special = max(1, skill/5 rounded half up);
    success = skill clamped to 05..95; fumble from 100 - round((100 - skill)/20) + 1 (00 always
    fumbles).
    """
    s = max(0, skill)
    crit = max(1, round_half_up(s, 20))
    special = max(1, round_half_up(s, 5))
    if T.SPECIAL_0102_LOW <= s <= T.SPECIAL_0102_HIGH:
        special = 2  # skills 6-7: special 01-02 (published table, A1)
    success = min(T.AUTO_FAILURE_MIN - 1, max(T.AUTO_SUCCESS_MAX, s))
    fumble = 100 - round_half_up(max(0, 100 - s), 20) + 1
    return crit, special, success, min(fumble, 100)


def success_level(roll: int, skill: int) -> int:
    """The level (``tables.CRIT`` ... ``tables.FUMBLE``) of a D100 ``roll`` (1..100, 100 = 00)
    (§8)."""
    crit, special, success, fumble = thresholds(skill)
    if roll <= success:
        if roll <= crit:
            return T.CRIT
        if roll <= special:
            return T.SPECIAL
        return T.SUCCESS
    if roll >= fumble:
        return T.FUMBLE
    return T.FAILURE


def level_probabilities(skill: int) -> tuple[Fraction, ...]:
    """Exact probability of each level for ``skill`` (tests and analysis)."""
    counts = [0] * 5
    for roll in range(1, 101):
        counts[success_level(roll, skill)] += 1
    return tuple(Fraction(c, 100) for c in counts)


def dex_sr(dex: int) -> int:
    """DEX strike rank (§3.3)."""
    for top, sr in T.DEX_SR:
        if dex <= top:
            return sr
    return T.DEX_SR_TOP


def siz_sr(siz: int) -> int:
    """SIZ strike rank (§3.3)."""
    for top, sr in T.SIZ_SR:
        if siz <= top:
            return sr
    return T.SIZ_SR_TOP


def damage_bonus(str_: int, siz: int) -> str:
    """Damage bonus dice from STR+SIZ ("" for none) (Published data)."""
    total = str_ + siz
    for top, db in T.DAMAGE_BONUS:
        if total <= top:
            return db
    extra = -(-(total - T.DAMAGE_BONUS[-1][0]) // T.DB_EXTRA_STEP)
    return f"{2 + extra}d6"


def total_hp(con: int, siz: int, pow_: int) -> int:
    """CON + SIZ modifier + POW modifier (Published data)."""
    siz_mod = -(-siz // 4) - 3
    if pow_ <= 4:
        pow_mod = -1
    elif pow_ <= 16:
        pow_mod = 0
    else:
        pow_mod = -(-pow_ // 4) - 4
    return con + siz_mod + pow_mod


def location_hp(total: int, hp_row: str) -> int:
    """HP of a location whose §15 column is ``hp_row`` ("most", "chest", "arm", or the creature tables' "most-2"
    and "most+2": ``tables.LOCATION_HP_OFFSETS``, at least ``tables.MIN_LOCATION_HP``) for ``total`` HP."""
    base, offset = T.LOCATION_HP_OFFSETS.get(hp_row, (hp_row, 0))
    col = {"most": 1, "chest": 2, "arm": 3}[base]
    last = T.LOCATION_HP[-1]
    hp = last[col] - (-(total - last[0]) // T.LOCATION_HP_STEP)  # past the table: +1 per 3 total HP
    for row in T.LOCATION_HP:
        if total <= row[0]:
            hp = row[col]
            break
    return max(T.MIN_LOCATION_HP, hp + offset) if offset else hp


def max_enc(str_: int, con: int) -> int:
    """Maximum ENC = min(STR, (STR+CON)/2 rounded half up) (A17)."""
    return min(str_, round_half_up(str_ + con, 2))


def dodge_chance(skill: int, enc: int, max_enc_: int) -> int:
    """Dodge minus 1% per ENC up to max ENC and 5% per ENC above it (§13; test vector 8)."""
    within = min(enc, max_enc_)
    over = max(0, enc - max_enc_)
    return skill - T.DODGE_ENC_PENALTY * within - T.DODGE_OVER_ENC_PENALTY * over


def successive_chance(skill: int, previous: int) -> int:
    """Chance of a parry or dodge after ``previous`` ones this round: -20% each, minimum 5% (§11,
    §13)."""
    return max(T.MIN_DEFENCE_CHANCE, skill - T.SUCCESSIVE_DEFENCE_PENALTY * previous)


def range_divisor(distance: float, effective: int, thrown: bool, thrown_bands: bool = False) -> int:
    """Skill divisor at ``distance`` (1, 2, 4) or 0 if out of range (§22, A10)."""
    if thrown and not thrown_bands:
        return 1 if distance <= min(effective, T.THROWN_MAX_RANGE) else 0
    for factor, div in T.RANGE_BANDS:
        if distance <= effective * factor:
            return div
    return 0


def surprise_sr(distance: float) -> int:
    """SR added when surprised by an enemy at ``distance`` m (§3.2, A14)."""
    for top, sr in T.SURPRISE_SR:
        if distance <= top:
            return sr
    return 0


def move_sr(metres: float) -> int:
    """+1 SR per full 3 m moved (§3.2)."""
    return int(metres // 3) * T.SR_PER_3M


def split_strike_rank(total: int) -> tuple[int, int]:
    """(full rounds spent, SR in the round after them) of an action needing ``total`` SR (§6).

    37 SR -> (3, 1): rounds 1-3 entirely, effect at SR 1 of round 4.
    """
    if total <= T.MAX_SR:
        return 0, total
    k = -(-total // T.MAX_SR) - 1
    return k, total - T.MAX_SR * k


def shots_per_round(dex_sr_: int, rate: str, first_sr: int | None = None) -> list[int]:
    """Strike ranks of the shots a missile weapon fires this round (§5; test vector 1).

    ``rate`` "1" (1/MR) or "S" (S/MR: reload 5 SR then DEX SR again while <= 12).
    """
    sr = dex_sr_ if first_sr is None else first_sr
    if sr > T.MAX_SR:
        return []
    shots = [sr]
    if rate == "S":
        while shots[-1] + T.READY_SR + dex_sr_ <= T.MAX_SR:
            shots.append(shots[-1] + T.READY_SR + dex_sr_)
    return shots


def resistance_chance(attacker: int, defender: int) -> int:
    """MP vs MP resistance roll: 50% + 5% per point of difference, clamped to 5..95 (Published)."""
    chance = T.RESISTANCE_BASE + T.RESISTANCE_PER_POINT * (attacker - defender)
    return min(95, max(5, chance))


def fumble_effect(d20: int) -> str:
    """The effect name of a D20 roll on the fumble table (§10.3; 05-08 row fixed)."""
    for top, effect in T.FUMBLE_TABLE:
        if d20 <= top:
            return effect
    raise ValueError(f"fumble roll {d20} outside 1..20")


def chain_sr(spell_sr: int, then_sr: int, seed_literal: bool) -> int:
    """SR of an action following a spell in the same round: spell SR + the action's own SR (§4,
    §7.1).

    ``seed_literal`` reads the Vasana example literally (A3): the spell counts as its 5 SR ready
    cost whenever that is more than its DEX SR + extra MP.
    """
    first = max(spell_sr, T.READY_SR) if seed_literal else spell_sr
    return first + then_sr


def combined_sr(*costs: int, parallel: bool = True) -> int:
    """Cost of actions done together outside melee: the highest (§7.1), or their sum if not in
    parallel."""
    return max(costs) if parallel else sum(costs)


def over_100(attack: int, defence: int) -> tuple[int, int]:
    """Skills over 100% (RQG p. 201, [PUB]): the lower of two opposed skills loses the excess of the
    higher over 100; the higher is unchanged (147 vs 137 -> 147 vs 90)."""
    if attack > 100 and attack > defence:
        return attack, defence - (attack - 100)
    if defence > 100 and defence > attack:
        return attack - (defence - 100), defence
    return attack, defence


def half_db(db: str) -> str:
    """Half a damage bonus for thrown weapons ([PUB] RQG): halve the dice count when even (2D6 ->
    1D6), else the die size (1D4 -> 1D2, 1D6 -> 1D3; -1D4 -> -1D2)."""
    if not db:
        return db
    sign = "-" if db.startswith("-") else ""
    n_s, size_s = db.lstrip("-").lower().split("d")
    n, size = int(n_s), int(size_s)
    if n % 2 == 0:
        return f"{sign}{n // 2}d{size}"
    return f"{sign}{n}d{max(1, size // 2)}"


def metres(x: float) -> str:
    """A position or distance as text, to 0.1 m without trailing zeros: 1.5 -> "1.5m", 2.0 -> "2m"
    (issue 8 §5: a 1.5 m position printed as "2m" hid that it is within reach)."""
    v = round(x, 1) + 0.0  # + 0.0 turns -0.0 into 0.0
    return f"{v:g}m"
