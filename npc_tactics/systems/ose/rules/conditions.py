"""Lasting effects on a combatant (``Combatant.conditions``: name -> rounds left, -1 until the fight ends) and
what they change in an attack, a save or a casting.

The attack code (:mod:`.combat`) asks these questions on every roll; with no condition on anyone each answer
is the rules' plain value, so a fight without lasting effects plays exactly as before. The spells that set
them are in :mod:`.spells`, :mod:`.spells_area` and :mod:`.spells_buffs` (docs/ose-spells.md).

Condition names: ``shield``, ``protection_from_evil``, ``invisible``, ``mirror_image_1`` .. ``_4`` (one
per image left), ``blind``, ``webbed``, ``fainted`` (Phantasmal Force), ``haste``, ``bless``, ``striking``,
``silenced`` (a Silence 15' Radius moving with the creature) and ``silence_at:<square>`` (one left where a
creature saved, kept on the caster).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.ose.rules.state import Combatant, OSEState
from npc_tactics.systems.ose.rules.tables import (
    BLESS_BONUS,
    PROTECTION_FROM_EVIL,
    SHIELD_AC_MISSILE,
    SHIELD_AC_OTHER,
    SILENCE_RADIUS,
    STRIKING_DAMAGE,
)

__all__ = ["add", "armour_class", "attack_absorbed", "break_invisibility", "can_act", "can_attack", "can_cast",
           "can_move", "damage_bonus", "end_of_round", "extra_damage", "magic_weapon", "morale_bonus",
           "move_multiplier", "save_bonus", "strikes_per_round", "targetable", "to_hit_bonus"]

RULE = "OSE spells (docs/ose-spells.md)"
SILENCE_AT = "silence_at:"
IMAGE = "mirror_image_"
#: conditions that stop every action (the creature believes itself dead)
_HELPLESS = ("fainted",)


def add(state: OSEState, sink: EventSink, i: int, name: str, rounds: int, source: int | None) -> None:
    """Put condition ``name`` on combatant ``i`` for ``rounds`` (-1: the fight) and say so."""
    state.combatants[i].conditions[name] = rounds
    sink.emit("condition", i, source, rule=RULE, condition=name, result="begins", rounds=rounds)


def _remove(state: OSEState, sink: EventSink, i: int, name: str, result: str) -> None:
    del state.combatants[i].conditions[name]
    sink.emit("condition", i, None, rule=RULE, condition=name, result=result, rounds=0)


def _evil_to(attacker: Combatant, warded: Combatant) -> bool:
    """Protection from Evil wards against creatures of another alignment; without alignments on the
    profiles, every enemy counts (the usual case at the table)."""
    a, w = attacker.prof.alignment, warded.prof.alignment
    if a and w:
        return a != w
    return attacker.side != warded.side


def to_hit_bonus(state: OSEState, ai: int, ti: int, missile: bool) -> int:
    """Modifier to the attack roll of ``ai`` against ``ti`` from conditions on either."""
    a, t = state.combatants[ai], state.combatants[ti]
    if not a.conditions and not t.conditions:
        return 0
    mod = BLESS_BONUS if "bless" in a.conditions else 0
    if "protection_from_evil" in t.conditions and _evil_to(a, t):
        mod -= PROTECTION_FROM_EVIL
    return mod


def armour_class(state: OSEState, ti: int, missile: bool) -> int:
    """The descending AC of ``ti`` against this attack (a Shield spell may replace it: the better one counts)."""
    t = state.combatants[ti]
    ac = t.prof.ac
    if "shield" in t.conditions:
        shield = SHIELD_AC_MISSILE if missile else SHIELD_AC_OTHER
        return shield if shield < ac else ac
    return ac


def damage_bonus(state: OSEState, ai: int) -> int:
    """Extra damage of ``ai``'s weapon attacks (Bless: +1)."""
    return BLESS_BONUS if "bless" in state.combatants[ai].conditions else 0


def extra_damage(state: OSEState, sink: EventSink, ai: int, ti: int) -> int:
    """Dice added to a weapon hit of ``ai`` (Striking: 1d6), rolled through the sink."""
    if "striking" not in state.combatants[ai].conditions:
        return 0
    return sink.roll(STRIKING_DAMAGE, "damage", ai, ti).total


def magic_weapon(state: OSEState, ai: int) -> bool:
    """Whether ``ai``'s weapon counts as magical (Striking)."""
    return "striking" in state.combatants[ai].conditions


def attack_absorbed(state: OSEState, sink: EventSink, ai: int, ti: int) -> bool:
    """Whether an attack on ``ti`` is taken by an image of Mirror Image (hit or miss: ask before the roll);
    the image is destroyed and says so."""
    cs = state.combatants[ti].conditions
    if not cs:
        return False
    images = [k for k in cs if k.startswith(IMAGE)]
    if not images:
        return False
    _remove(state, sink, ti, max(images), "absorbed")
    return True


def strikes_per_round(state: OSEState, i: int) -> int:
    """How many times ``i``'s attack routine is used this round (Haste: twice)."""
    return 2 if "haste" in state.combatants[i].conditions else 1


def move_multiplier(state: OSEState, i: int) -> int:
    """Multiplier of ``i``'s encounter movement (Haste: doubled)."""
    return 2 if "haste" in state.combatants[i].conditions else 1


def morale_bonus(state: OSEState, i: int) -> int:
    """Modifier to ``i``'s morale score for a check (Bless: +1)."""
    return BLESS_BONUS if "bless" in state.combatants[i].conditions else 0


def can_act(state: OSEState, i: int) -> bool:
    """False while ``i`` is helpless (fainted from a Phantasmal Force): no move, attack or spell."""
    cs = state.combatants[i].conditions
    return not cs or not any(h in cs for h in _HELPLESS)


def can_attack(state: OSEState, i: int) -> bool:
    """A blinded creature cannot attack (OSE Light); a helpless one does nothing."""
    cs = state.combatants[i].conditions
    return not cs or ("blind" not in cs and can_act(state, i))


def can_move(state: OSEState, i: int) -> bool:
    """An entangled creature (Web) cannot move; a helpless one does nothing."""
    cs = state.combatants[i].conditions
    return not cs or ("webbed" not in cs and can_act(state, i))


def silenced(state: OSEState, i: int) -> bool:
    """Whether ``i`` stands in a Silence 15' Radius (moving with a creature, or left at a square)."""
    pos = state.combatants[i].pos
    for c in state.combatants:
        if not c.conditions:
            continue
        for name in c.conditions:
            if name == "silenced" and abs(c.pos - pos) <= SILENCE_RADIUS:
                return True
            if name.startswith(SILENCE_AT) and abs(int(name[len(SILENCE_AT):]) - pos) <= SILENCE_RADIUS:
                return True
    return False


def can_cast(state: OSEState, i: int) -> bool:
    """Whether ``i`` may declare (and cast) a spell: not in Silence, not helpless."""
    return can_act(state, i) and not silenced(state, i)


def targetable(state: OSEState, ai: int, ti: int) -> bool:
    """Whether ``ai`` can pick ``ti`` as the target of an attack or spell: an enemy cannot see an invisible
    creature; a blind one sees nobody but itself."""
    a, t = state.combatants[ai], state.combatants[ti]
    if "blind" in a.conditions and ai != ti:
        return False
    return "invisible" not in t.conditions or a.side == t.side


def break_invisibility(state: OSEState, sink: EventSink, i: int) -> None:
    """Invisibility ends when the subject attacks or casts a spell (call on each attack and each casting)."""
    if "invisible" in state.combatants[i].conditions:
        _remove(state, sink, i, "invisible", "broken")


def save_bonus(state: OSEState, i: int) -> int:
    """Modifier to ``i``'s saving throws (Protection from Evil: +1; in a fight every save is against enemies)."""
    return PROTECTION_FROM_EVIL if "protection_from_evil" in state.combatants[i].conditions else 0


def end_of_round(state: OSEState, sink: EventSink) -> None:
    """Count down the conditions at the end of a round; those that run out end (and say so)."""
    for i, c in enumerate(state.combatants):
        if not c.conditions:
            continue
        for name, left in list(c.conditions.items()):
            if left < 0:
                continue
            if left <= 1:
                _remove(state, sink, i, name, "ends")
            else:
                c.conditions[name] = left - 1
