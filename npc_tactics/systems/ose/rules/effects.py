"""Monster abilities in a fight: attack effects (paralysis, poison, energy drain, petrification, disease), special
defences (harmed only by silver or magic weapons, halved damage kinds), and regeneration (docs/ose-monsters.md).

Each rule follows the OSE monster descriptions (the open game content; sources in the doc). The attack code
(:mod:`.combat`) calls :func:`harms` before damage and :func:`apply_effects` after a hit; the round loop calls
:func:`end_of_round` for regeneration and revival; :func:`fall` decides what reaching 0 hit points means.
"""

from __future__ import annotations

import dataclasses

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import holds
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.damage import apply_damage
from npc_tactics.systems.ose.rules.defences import harms, save_target
from npc_tactics.systems.ose.rules.state import Combatant, OSEState, Profile, Strike
from npc_tactics.systems.ose.rules.status import set_status

__all__ = ["EFFECT_SAVES", "apply_effects", "drain_blood", "end_of_round", "harms", "save_target"]

#: effect -> the saving throw against it (tables.SAVE_CATEGORIES index) or -1 for none (energy drain: no save)
EFFECT_SAVES: dict[str, int] = {
    "paralysis": T.SAVE_CATEGORIES.index("paralysis"),
    "poison": T.SAVE_CATEGORIES.index("death"),
    "petrification": T.SAVE_CATEGORIES.index("paralysis"),  #: OSE "paralysis or petrification"
    "energy drain": -1,
    "disease": -1,
    "blood drain": -1,
    "charm": T.SAVE_CATEGORIES.index("spells"),
}
#: what a failed save (or no save) does: the status it puts the victim in, or "" (drain and disease act otherwise)
EFFECT_STATUS: dict[str, Status | None] = {
    "paralysis": Status.INCAPACITATED,  #: 2d4 turns (OSE ghoul, carrion crawler): longer than any fight
    "poison": Status.DEAD,  #: OSE: save versus death or die
    "petrification": Status.INCAPACITATED,  #: turned to stone: out of the fight for good
    "energy drain": None,
    "disease": None,
    "blood drain": None,
    "charm": Status.INCAPACITATED,  #: charmed: it stops fighting the charmer's side (docs/ose-monsters.md)
}
#: immunity words of a template (templates.IMMUNITIES) that stop an effect
EFFECT_IMMUNITY: dict[str, str] = {"paralysis": "paralysis", "poison": "poison", "petrification": "petrification",
                                   "energy drain": "energy_drain", "disease": "disease", "blood drain": "blood_drain",
                                   "charm": "charm"}
LARGE = "large"  #: paralysis_spares entry: creatures larger than ogres (above 4+1 HD) are unaffected


def _spared(p: Profile, effect: str, target: Profile) -> bool:
    if effect != "paralysis":
        return False
    spares = p.paralysis_spares
    if target.cls in spares:
        return True
    return LARGE in spares and target.kind == "monster" and (target.hd > 4 or (target.hd == 4 and target.hd_plus > 1))


def apply_effects(state: OSEState, sink: EventSink, ai: int, ti: int, effects: tuple[str, ...],
                  one: Strike | None = None) -> None:
    """The effects of a strike that hit ``ti`` (and could harm it), in the order the stat line gives them."""
    for effect in effects:
        t = state.combatants[ti]
        if t.status != Status.ACTIVE or t.hp <= 0:
            return
        if effect in holds.GRABS:  # constriction, hold: rules/holds.py
            holds.grab(state, sink, ai, ti, effect, one)
            continue
        if effect == "swallow":  # decided by the attack roll (combat.strike -> holds.swallow_after_hit)
            continue
        ap, tp = state.combatants[ai].prof, t.prof
        rule = f"OSE {effect}"
        if EFFECT_IMMUNITY[effect] in tp.immune or _spared(ap, effect, tp):
            sink.emit("effect", ai, ti, rule=rule, effect=effect, result="unaffected")
            continue
        if effect == "energy drain":
            drain(state, sink, ai, ti)
            continue
        if effect == "blood drain":  # latched on: its next attacks on this victim hit by themselves
            state.combatants[ai].attached = ti
            sink.emit("effect", ai, ti, rule=rule, effect=effect, result="affected")
            continue
        if effect == "charm" and tp.undead:
            sink.emit("effect", ai, ti, rule=rule, effect=effect, result="unaffected")
            continue
        if effect == "disease" and not any(e == "disease" for e, _ in ap.effect_saves):
            t.conditions["disease"] = -1
            sink.emit("effect", ai, ti, rule=rule, effect=effect, result="affected")
            continue
        category = next((c for e, c in ap.effect_saves if e == effect), EFFECT_SAVES[effect])
        if category < 0:  # no save in the rules, but this monster's text gives one (disease: versus death)
            category = T.SAVE_CATEGORIES.index("death")
        need = save_target(tp, category)
        roll = sink.die(20, "save", ti)
        saved = roll >= need
        sink.emit("effect", ai, ti, rule=rule, effect=effect, result="saved" if saved else "failed", roll=roll,
                  need=need, save=T.SAVE_CATEGORIES[category])
        status = EFFECT_STATUS[effect]
        if not saved and effect == "disease":
            t.conditions["disease"] = -1
        elif not saved and status is not None:
            set_status(state, sink, ti, status, effect.replace(" ", "_"))


def drain_blood(state: OSEState, sink: EventSink, ai: int, ti: int) -> bool:
    """OSE stirge, giant leech, giant weasel: latched on, it drains its bite's damage each round with no attack
    roll, until it or its victim is out (or it attacks someone else)."""
    a = state.combatants[ai]
    one = next((s for s in a.prof.routine if "blood drain" in s.effects), None)
    damage = one.damage if one is not None and one.damage else a.prof.melee_damage
    a.attacked = True
    sink.emit("effect", ai, ti, rule="OSE blood drain", effect="blood drain", result="drains")
    amount = sink.roll(damage, "damage", ai, ti).total
    apply_damage(state, sink, ai, ti, amount if amount > 1 else 1, "blood_drain")
    return True


def drain(state: OSEState, sink: EventSink, ai: int, ti: int) -> None:
    """OSE energy drain: one level (or Hit Die) lost for good, with one Hit Die of hit points and what the level
    gave (attack, saves, spells); drained of every level, the victim dies (and rises as a wight days later)."""
    t = state.combatants[ti]
    p = t.prof
    if p.level <= 1:
        sink.emit("drain", ai, ti, rule="OSE energy drain", level=0, lost=t.hp, max_hp=0, hp=0, result="slain")
        t.hp = 0
        set_status(state, sink, ti, Status.DEAD, "energy_drain")
        return
    new, die = _drained_profile(p)
    lost = sink.roll(die, "drain", ti).total
    lost = lost if lost > 1 else 1
    t.prof = new
    t.max_hp = max(1, t.max_hp - lost)
    t.hp = min(t.max_hp, max(0, t.hp - lost))
    _forget_spells(t)
    sink.emit("drain", ai, ti, rule="OSE energy drain", level=new.level, lost=lost, max_hp=t.max_hp, hp=t.hp,
              result="drained" if t.hp > 0 else "slain")
    if t.hp <= 0:
        set_status(state, sink, ti, Status.DEAD, "energy_drain")


def _drained_profile(p: Profile) -> tuple[Profile, str]:
    """The profile one level lower and the hit points of the lost level (a class's die, its flat hp past 9th
    level, a monster's d8)."""
    if p.kind != "character":
        hd = p.hd - 1
        return dataclasses.replace(p, level=hd, hd=hd, thac0=T.monster_thac0(hd, max(0, p.hd_plus))), "1d8"
    from npc_tactics.systems.ose.rules import classes as C

    cc = C.classes()[p.cls]
    row = cc.levels[p.level - 2]
    lost_row = cc.levels[p.level - 1]
    die = f"1d{cc.hit_die}" if lost_row.flat_hp == row.flat_hp else str(lost_row.flat_hp - row.flat_hp)
    new = dataclasses.replace(p, level=row.level, hd=row.level, thac0=row.thac0, saves=row.saves,
                              save_spells=row.saves[T.SAVE_CATEGORIES.index("spells")])
    return new, die


def _forget_spells(c: Combatant) -> None:
    """A drained caster keeps only the memorised spells its new level has slots for (highest spells lost)."""
    if not any(c.spells) or c.prof.kind != "character":
        return
    from npc_tactics.systems.ose.rules import classes as C

    slots = C.classes()[c.prof.cls].levels[c.prof.level - 1].slots
    for level in range(1, 10):
        ids = [s for s, name in enumerate(T.SPELL_NAMES) if T.SPELLS[name][0] == level]
        have = sum(c.spells[s] for s in ids)
        allowed = slots[level - 1] if level - 1 < len(slots) else 0
        for s in reversed(ids):
            while have > allowed and c.spells[s] > 0:
                c.spells[s] -= 1
                have -= 1


def end_of_round(state: OSEState, sink: EventSink) -> None:
    """Regeneration (OSE troll: 3 hp a round from 3 rounds after it is first damaged, never the damage of the
    kinds it cannot regenerate) and revival of downed regenerators."""
    for i, c in enumerate(state.combatants):
        p = c.prof
        if not p.regenerate:
            continue
        if c.regen_from and state.round >= c.regen_from and (c.status == Status.ACTIVE or c.revive_in >= 0):
            room = c.max_hp - c.burnt - c.hp
            if room > 0:
                amount = p.regenerate if p.regenerate < room else room
                c.hp += amount
                sink.emit("regenerate", i, None, rule="OSE regeneration", amount=amount, hp=c.hp,
                          result="regenerated")
        if c.revive_in > 0:
            c.revive_in -= 1
        if c.revive_in == 0 and c.hp > 0:  # it rises once the rounds are up and it has hit points again
            c.revive_in = -1
            set_status(state, sink, i, Status.ACTIVE, "regeneration")
