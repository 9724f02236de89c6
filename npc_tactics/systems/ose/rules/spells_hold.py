"""OSE Hold Person (cleric 2, magic-user 3) and its two ways of casting (docs/ose-spells.md "Hold Person").

[SRD-he] ``4. Magic/Cleric Spells/2 - Hold Person.md`` and ``4. Magic/Magic-User Spells/3 - Hold Person.md``
(itaiag/OSE.SRD.Wiki, commit 9e35b355560b30b65fb7e9fe2ad60318bf2633f1), as the English SRD ``Hold_Person_(C)``:
"It may be cast in two ways: 1. Against an individual: the target's saving throw is penalised by -2. 2. Against
a group: 1d4 individuals in the group are targeted." The action catalogue declares a spell at one target, so
which way a caster uses is the rules option ``hold_person_mode``: ``single`` (the individual, −2: the engine's
play before the option, the default), ``group`` (1d4 of the group around the declared target, each saving
normally), ``best`` (per cast, the way that holds more enemies on average).

The group (the text gives none of its size): the declared target and the caster's other enemies standing
within 10' of it (:data:`HOLD_GROUP_HALF` squares each way, a 20' cube), each one the caster could target
itself (range, sight, cover) and could hold (a person, not immune); the declared target first, then the
nearest to it (then by index). 1d4 of them, in that order, are targeted.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules.combat import set_status
from npc_tactics.systems.ose.rules.spells_common import person, save, spell_target_ok
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import HOLD_PERSON_SINGLE_PENALTY, SPELL_NAMES

#: 1d4 individuals of a group are targeted
HOLD_GROUP_DIE = 4
#: the group: enemies within this many squares of the declared target (10' each way, a 20' cube)
HOLD_GROUP_HALF = 2
RULE = "OSE Hold Person"
HOLD = SPELL_NAMES.index("hold_person")
MODES = ("single", "group", "best")


def holdable(state: OSEState, j: int) -> bool:
    """A person Hold Person can hold: humans, demihumans, human-like monsters up to 4+1 HD, not undead or immune."""
    p = state.combatants[j].prof
    return person(p) and "hold" not in p.immune


def fail_chance(state: OSEState, j: int, modifier: int) -> float:
    """The chance that ``j`` fails its save vs spells at ``modifier`` (a d20, no natural 1 or 20: ``save``)."""
    need = state.combatants[j].prof.save_spells - modifier - K.save_bonus(state, j)
    fails = need - 1
    if fails < 0:
        fails = 0
    if fails > 20:
        fails = 20
    return fails / 20.0


def group_targets(state: OSEState, ci: int, ti: int) -> list[int]:
    """The group of a group-mode Hold Person declared at ``ti``, in the order its 1d4 are taken (module text)."""
    cs = state.combatants
    centre = cs[ti].pos
    side = cs[ci].side
    others: list[tuple[int, int]] = []
    for j in range(len(cs)):
        e = cs[j]
        if j == ti or e.side == side or abs(e.pos - centre) > HOLD_GROUP_HALF:
            continue
        if holdable(state, j) and spell_target_ok(state, ci, j, HOLD):
            others.append((abs(e.pos - centre), j))
    others.sort()
    return [ti] + [j for _, j in others]


def group_expected(state: OSEState, targets: list[int]) -> float:
    """Enemies a group-mode cast holds on average: the k-th of the group is targeted when 1d4 >= k."""
    total = 0.0
    for k in range(min(len(targets), HOLD_GROUP_DIE)):
        j = targets[k]
        if holdable(state, j):
            total += (HOLD_GROUP_DIE - k) / HOLD_GROUP_DIE * fail_chance(state, j, 0)
    return total


def single_expected(state: OSEState, ti: int) -> float:
    return fail_chance(state, ti, HOLD_PERSON_SINGLE_PENALTY) if holdable(state, ti) else 0.0


def mode_for(state: OSEState, ci: int, ti: int) -> str:
    """``single`` or ``group``: the option's way, or with ``best`` the one with more enemies held on average
    (a tie: single)."""
    mode = str(state.options.get("hold_person_mode", "single"))
    if mode != "best":
        return mode
    return "group" if group_expected(state, group_targets(state, ci, ti)) > single_expected(state, ti) else "single"


def _hold_one(state: OSEState, sink: EventSink, ci: int, j: int, modifier: int) -> None:
    if not holdable(state, j):  # OSE Hold Person: the HD limit is for human-like monsters; humans of any level
        sink.emit("hold", ci, j, rule=RULE, result="unaffected")
        return
    if not save(state, sink, j, ci, RULE, modifier):
        set_status(state, sink, j, Status.INCAPACITATED, "hold_person")


def hold_person(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """Resolve a cast Hold Person declared at ``ti`` (the spell is spent; module text for the two ways)."""
    if mode_for(state, ci, ti) != "group":
        _hold_one(state, sink, ci, ti, HOLD_PERSON_SINGLE_PENALTY)
        return
    # the 1d4 is the roll event (why "cast"); each creature targeted shows in its save (or its "hold" event).
    # No "area" event: events_spells.py declares that kind rare (no shipped scenario's fights emit it)
    targets = group_targets(state, ci, ti)
    count = sink.roll(f"1d{HOLD_GROUP_DIE}", "cast", ci, ti).total
    for j in targets[:count]:
        c = state.combatants[j]
        if c.status == Status.ACTIVE and c.hp > 0:
            _hold_one(state, sink, ci, j, 0)
