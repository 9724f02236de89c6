"""Attack pools, DEFENSE values, damage, hit locations and wounds (dice-pool.md §5–§8).

The rules options are read from a frozen :class:`~npc_tactics.systems.dicepool.rules.engine.Rules` object.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.dice import parse
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.state import Fighter, Weapon


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


def behind(target: Fighter, attacker: Fighter) -> bool:
    """True when ``attacker`` stands on the side ``target`` turns its back to (D6: facing on the line)."""
    gap = attacker.position - target.position
    return target.facing != 0 and gap != 0 and (gap > 0) != (target.facing > 0)


def melee_defense(target: Fighter, rules: Any, attacker: Fighter | None = None) -> int:
    """DEFENSE against a blow: base + dice moved to DEFENSE (§5, D5), at least 0.

    House readings (each an option): cover only if ``cover_vs_melee``; kneeling −1 / prone −2 when
    ``low_posture_melee_penalty`` (H5: a low posture is a target against shots, a handicap against blows);
    ``rear_defense_penalty`` against an attacker behind the target (D6: the source names a "DÉFENSE de face").
    """
    d = target.defense + target.defense_dice
    if rules.cover_vs_melee:
        d += T.CONCEALMENT_BONUS[target.concealment] + T.POSTURE_BONUS[target.posture]
    if rules.low_posture_melee_penalty:
        d -= T.POSTURE_BONUS[target.posture]
    if attacker is not None and behind(target, attacker):
        d -= rules.rear_defense_penalty
    return max(0, d)


def cover_at(f: Fighter) -> int:
    """Concealment available where ``f`` stands: its cover spot's, within COVER_SPOT_REACH of it (H1)."""
    return f.spot_cover if abs(f.position - f.cover_spot) <= T.COVER_SPOT_REACH else 0


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

    Armour points absorb non-electric damage at the locations they cover (D14, ``armour_absorbs``); the
    source's lightning example (L67-68) shows no absorption by the helmet, so electric damage ignores armour.
    Then mark serious wounds (location HP ≤ 0, or < 0 with ``serious_wound_at_zero`` false) and update the
    status (D16, house defaults): a location at −(its max HP), or ``death_serious_wounds`` serious wounds
    (0: never) → dead; head or torso serious, or ``out_serious_wounds`` serious wounds → out of the fight
    (UNCONSCIOUS); limbs alone → penalties.
    """
    hit = list(locations)
    if electric and rules.electric_spread and any(f.metal[i] for i in hit):
        hit += [i for i, m in enumerate(f.metal) if m and i not in hit]
    threshold = 0 if rules.serious_wound_at_zero else -1
    for n, loc in enumerate(hit):
        absorbed = 0 if electric or not rules.armour_absorbs else min(amount, f.protection[loc])
        f.loc_hp[loc] -= amount - absorbed
        result = "wound" if amount > absorbed else "absorbed"
        if f.loc_hp[loc] <= threshold and not f.serious[loc]:
            f.serious[loc] = True
            result = "serious"
        sink.emit(
            "damage",
            actor,
            target,
            rule="dice-pool.md §8" if n < len(locations) else "dice-pool.md D15",
            amount=amount - absorbed,
            absorbed=absorbed,
            location=T.LOCATIONS[loc],
            spread=n >= len(locations),
            result=result,
        )
    f.hp = sum(h for h in f.loc_hp if h > 0)
    if f.status != Status.ACTIVE:
        return
    new = wound_status(f, rules)
    if new == Status.ACTIVE:
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


def wound_status(f: Fighter, rules: Any) -> Status:
    """The status its wounds give ``f`` (D16 house defaults; also used to check situations)."""
    serious = sum(f.serious)
    if (rules.death_serious_wounds and serious >= rules.death_serious_wounds) or any(
        h <= -m for h, m in zip(f.loc_hp, f.loc_max, strict=True)
    ):
        return Status.DEAD
    if (
        f.serious[T.HEAD]
        or f.serious[T.TORSO]
        or (rules.out_serious_wounds and serious >= rules.out_serious_wounds)
    ):
        return Status.UNCONSCIOUS
    return Status.ACTIVE


def face(f: Any, other: Any) -> None:
    """Turn ``f`` toward ``other`` on the line (D6); unchanged when they stand on the same spot."""
    if other.position != f.position:
        f.facing = 1 if other.position > f.position else -1


def face_nearest_enemy(state: Any, f: Any) -> None:
    """Opening facing: toward the nearest enemy (D6)."""
    enemies = [c for c in state.combatants if c.side != f.side]
    if enemies:
        face(f, min(enemies, key=lambda c: abs(c.position - f.position)))
