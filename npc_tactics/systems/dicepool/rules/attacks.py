"""Resolution of melee blows and shots once their SPLIT/OPTION decision is made (dice-pool.md §5–§8)."""

from __future__ import annotations

from npc_tactics.rules.base import Decision, EventSink
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.combat import (
    attack_pool,
    deal_damage,
    melee_defense,
    melee_skill,
    range_band,
    roll_locations,
    shot_defense,
    weapon_damage,
)
from npc_tactics.systems.dicepool.rules.pool import roll_pool
from npc_tactics.systems.dicepool.rules.state import DicePoolState


def resolve_strike(
    state: DicePoolState, decision: Decision, to_defense: int, sink: EventSink
) -> None:
    """Melee or brawl blow after the split (§5, §6): successes ≥ DEFENSE hit; net successes add damage."""
    actor, target = decision.actor, state.target
    f = state.combatants[actor]
    pool = decision.context["pool"]
    f.defense_dice = to_defense
    sink.emit(
        "split",
        actor,
        target,
        rule="dice-pool.md §5 D5",
        dice=to_defense,
        pool=pool,
        next=decision.context["next"],
        result="all_attack"
        if to_defense == 0
        else ("all_defense" if to_defense == pool else "mixed"),
    )
    blow(state, actor, target, pool - to_defense, sink, "dice-pool.md §5 D4")


def blow(state: DicePoolState, actor: int, target: int, dice: int, sink: EventSink, rule: str) -> None:
    """Roll ``dice`` of the actor's melee pool against the target's DEFENSE; a hit deals net successes +
    STRENGTH (+ the weapon's damage) to a 2d6 location (§5, §6)."""
    f, t = state.combatants[actor], state.combatants[target]
    w = f.weapon if f.weapon is not None and not f.weapon.ranged else None
    mode = "weapon" if w is not None else "brawl"
    if dice <= 0:
        sink.emit("attack", actor, target, rule="dice-pool.md D5", mode=mode, result="forfeit")
        return
    needed = melee_defense(t, state.rules, f) + (0 if state.rules.hit_on_equal else 1)
    successes = roll_pool(sink, dice, "attack", actor, target, state.rules.reroll_chain)
    hit = successes >= needed
    sink.emit(
        "attack",
        actor,
        target,
        rule=rule,
        mode=mode,
        dice=dice,
        successes=successes,
        needed=needed,
        result="hit" if hit else "miss",
    )
    if not hit:
        return
    net = successes - needed
    damage = net + f.strength + (weapon_damage(w, sink, actor, target) if w is not None else 0)
    locations, _ = roll_locations(w, sink, actor, target)
    deal_damage(
        t,
        actor,
        target,
        damage,
        locations,
        w is not None and w.electric,
        state.rules,
        sink,
        "dice-pool.md §6",
    )


def free_blow(state: DicePoolState, actor: int, target: int, sink: EventSink) -> None:
    """House rule H6 (option ``disengage``): ``target`` leaves melee, ``actor`` gets one blow with the dice
    it has not moved to DEFENSE (its DEFENSE dice stay where they are)."""
    f = state.combatants[actor]
    sink.emit("free_blow", actor, target, rule="house H6: disengagement", result="disengage")
    blow(state, actor, target, attack_pool(f, melee_skill(f)) - f.defense_dice, sink, "house H6")


def resolve_shot(state: DicePoolState, actor: int, location: int, sink: EventSink) -> None:
    """A shot (§7): pool (−2 dice if aimed at a location or at the weapon) + aim bonus vs DEFENSE + range +
    cover. ``location`` −1: plain shot; 0..6: a body location; ``len(LOCATIONS)``: the target's readied
    weapon, knocked from its hand on a hit (D8, the source's own example at L44)."""
    f = state.combatants[actor]
    target = state.target
    t = state.combatants[target]
    rules = state.rules
    w = f.weapon
    if w is None:  # the mask only offers shoot with a readied ranged weapon
        raise RuntimeError(f"{f.name} shoots without a readied weapon")
    band = range_band(w, abs(t.position - f.position), rules.shorter_band_on_boundary)
    needed = shot_defense(t, band, rules) + (0 if rules.hit_on_equal else 1)
    dice = attack_pool(f, w.skill) - (T.LOCATION_AIM_DICE if location >= 0 else 0)
    bonus = rules.aim_bonus if f.aim_target == target else 0
    f.aim_target = -1
    if f.ammo[f.readied] > 0:
        f.ammo[f.readied] -= 1
    if w.reload:
        f.loaded[f.readied] = False
    successes = roll_pool(sink, dice, "shot", actor, target, rules.reroll_chain) + bonus
    hit = successes >= needed
    sink.emit(
        "attack",
        actor,
        target,
        rule="dice-pool.md §7",
        mode="ranged",
        dice=dice,
        bonus=bonus,
        successes=successes,
        needed=needed,
        band=T.RANGE_BANDS[band][0],
        located=_aim_name(location),
        result="hit" if hit else "miss",
    )
    if not hit:
        return
    if location == len(T.LOCATIONS):
        lost = t.weapon.name if t.weapon is not None else ""
        t.readied = -1
        sink.emit("disarm", actor, target, rule="dice-pool.md §7 D8", weapon=lost, result="disarmed")
        return
    damage = successes - needed + weapon_damage(w, sink, actor, target)
    if w.thrown and rules.strength_on_thrown:
        damage += f.strength
    if location >= 0:
        locations: tuple[int, ...] = (location,)
    else:
        locations, _ = roll_locations(w, sink, actor, target)
    deal_damage(t, actor, target, damage, locations, w.electric, rules, sink, "dice-pool.md §7")


def _aim_name(location: int) -> str:
    if location < 0:
        return ""
    if location < len(T.LOCATIONS):
        return T.LOCATIONS[location]
    return T.AIM_ITEMS[location - len(T.LOCATIONS)]
