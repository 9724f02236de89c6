"""Attack pools, DEFENSE values, damage, hit locations and wounds (dice-pool.md §5–§8).

The rules options are read from a frozen :class:`~npc_tactics.rules.dicepool.engine.Rules` object.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.dice import parse
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.rules.dicepool import tables as T
from npc_tactics.rules.dicepool.state import Fighter, Weapon


def attack_pool(f: Fighter, skill: str) -> int:
    """Dice of ``skill`` left after unusable arms (−2 dice each, house default D16), within 0..MAX_POOL."""
    pool = f.skills.get(skill, 0)
    serious = f.serious
    if serious[T.LEFT_ARM]:
        pool -= T.ARM_WOUND_DICE
    if serious[T.RIGHT_ARM]:
        pool -= T.ARM_WOUND_DICE
    return 0 if pool < 0 else (T.MAX_POOL if pool > T.MAX_POOL else pool)


def melee_skill(f: Fighter) -> str:
    """The skill used to strike: the readied melee weapon's, else brawl (§5, §6)."""
    w = f.weapon
    return w.skill if w is not None and not w.ranged else "brawl"


def can_move(f: Fighter) -> bool:
    """False once the pelvis or both legs are seriously wounded (house default D16)."""
    s = f.serious
    return not (s[T.PELVIS] or (s[T.LEFT_LEG] and s[T.RIGHT_LEG]))


def move_speed(f: Fighter) -> int:
    """Metres per move action: the mount's when mounted; halved by one seriously wounded leg (D16)."""
    speed = f.mount_speed if f.mounted else f.speed
    if f.serious[T.LEFT_LEG] or f.serious[T.RIGHT_LEG]:
        speed //= 2
    return max(1, speed)


def range_band(weapon: Weapon, distance: float, shorter_on_boundary: bool = True) -> int:
    """Index into RANGE_BANDS, or -1 beyond 2 × long range (§7, D10: a boundary distance → shorter band)."""
    if distance > weapon.max_range:
        return -1
    for band, limit in enumerate(weapon.ranges):
        if distance < limit or (shorter_on_boundary and distance == limit):
            return band
    return 3


def shot_defense(target: Fighter, band: int, rules: Any) -> int:
    """DEFENSE against a shot: base + range band + concealment + posture + moving (§7, D11 cumulative)."""
    bonuses = (
        T.CONCEALMENT_BONUS[target.concealment],
        T.POSTURE_BONUS[target.posture],
        T.MOVING_BONUS if target.moving else 0,
    )
    cover = sum(bonuses) if rules.cover_cumulative else max(bonuses)
    dice = target.defense_dice if rules.defense_dice_vs_shots else 0
    return target.defense + T.RANGE_BANDS[band][1] + cover + dice


def melee_defense(target: Fighter, rules: Any) -> int:
    """DEFENSE against a blow: base + dice moved to DEFENSE (§5, D5) (+ cover if ``cover_vs_melee``)."""
    d = target.defense + target.defense_dice
    if rules.cover_vs_melee:
        d += T.CONCEALMENT_BONUS[target.concealment] + T.POSTURE_BONUS[target.posture]
    return d


def weapon_damage(weapon: Weapon, sink: EventSink, actor: int, target: int) -> int:
    """Roll the weapon's damage dice, or return its constant base damage (spell weapons, D12)."""
    expr = parse(weapon.damage)
    if not expr.dice:
        return expr.bonus
    return sink.roll(expr, "weapon_damage", actor, target).total


def roll_locations(
    weapon: Weapon | None, sink: EventSink, actor: int, target: int
) -> tuple[tuple[int, ...], str]:
    """Roll 2d6 on the common or the huge-weapon table (§8): (location indices hit, area name)."""
    total = sink.roll("2d6", "hit_location", actor, target).total
    if weapon is not None and weapon.huge:
        area = T.HUGE_AREA[total]
        return T.HUGE_AREA_LOCATIONS[area], area
    loc = T.COMMON_LOCATION[total]
    return (loc,), T.LOCATIONS[loc]


def deal_damage(
    f: Fighter,
    actor: int,
    target: int,
    amount: int,
    locations: tuple[int, ...],
    electric: bool,
    rules: Any,
    sink: EventSink,
    rule: str,
) -> None:
    """Subtract ``amount`` from each location hit; electricity spreads through connected metal (D15).

    Then mark serious wounds (location HP ≤ 0, or < 0 with ``serious_wound_at_zero`` false) and update the
    status: ``death_serious_wounds`` serious wounds or a location at −max HP → dead; head or torso → out of
    the fight (unconscious); limbs → penalties (D16, house defaults).
    """
    hit = list(locations)
    if electric and rules.electric_spread and any(f.metal[i] for i in hit):
        hit += [i for i, m in enumerate(f.metal) if m and i not in hit]
    threshold = 0 if rules.serious_wound_at_zero else -1
    for n, loc in enumerate(hit):
        f.loc_hp[loc] -= amount
        result = "wound"
        if f.loc_hp[loc] <= threshold and not f.serious[loc]:
            f.serious[loc] = True
            result = "serious"
        sink.emit(
            "damage",
            actor,
            target,
            rule="dice-pool.md §8" if n < len(locations) else "dice-pool.md D15",
            amount=amount,
            location=T.LOCATIONS[loc],
            spread=n >= len(locations),
            result=result,
        )
    f.hp = sum(h for h in f.loc_hp if h > 0)
    if f.status != Status.ACTIVE:
        return
    serious = sum(f.serious)
    if serious >= rules.death_serious_wounds or any(
        h <= -m for h, m in zip(f.loc_hp, f.loc_max, strict=True)
    ):
        new = Status.DEAD
    elif f.serious[T.HEAD] or f.serious[T.TORSO]:
        new = Status.UNCONSCIOUS
    else:
        return
    f.status = new
    sink.emit(
        "status",
        target,
        None,
        rule="dice-pool.md D16",
        status=new.name.lower(),
        result=new.name.lower(),
    )
