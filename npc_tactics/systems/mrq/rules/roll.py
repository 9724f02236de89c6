"""The opposed roll of an exchange and the winner's special-effect picks (mrq-opposed.md §2, §3, §4).

Both roll D100 → winner and margin → (EFFECT decisions of the winner, one per effect granted, masked to the
legal ones) → ``resolution.resolve``.
"""

from __future__ import annotations

import numpy as np

from npc_tactics.rules.base import Decision, DecisionKind, EventSink
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules import mounts
from npc_tactics.systems.mrq.rules.actions import N_ACTIONS, VERB
from npc_tactics.systems.mrq.rules.effects import legal_effects
from npc_tactics.systems.mrq.rules.opposed import compare, effects_granted, halve_down, success_level
from npc_tactics.systems.mrq.rules.resolution import resolve
from npc_tactics.systems.mrq.rules.state import MRQState
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, FAILURE, LOCATIONS, MARGIN_NAMES

R = "mrq-opposed.md"


def roll_exchange(state: MRQState, sink: EventSink) -> None:
    """Both roll D100; find the winner and margin; grant effects (§2, §3)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    opts = state.options
    auto = bool(opts["automatic_success_failure"])
    d = state.combatants[ex.defender]
    if ex.mode == "missile":
        skill = M.missile_skill(state, ex.attacker, ex.defender)
    elif ex.mode == "trample":
        a = state.combatants[ex.attacker]
        skill = max(0, a.prof.riding - F.penalty(a))
    else:
        skill = F.attack_skill(state, ex.attacker, ex.defender)
    for _ in range(ex.halvings):
        skill = halve_down(skill)
    ex.att_skill = skill
    ex.att_roll = sink.die(100, "attack", ex.attacker, ex.defender)
    ex.att_level = success_level(ex.att_roll, skill, auto)
    if ex.defence == "none":
        ex.def_level, ex.def_roll = FAILURE, 0  # A3: an undefended defender counts as a failure
    else:
        if ex.guard >= 0:  # a rider defending its mount with its own skill (§13)
            dskill = mounts.guard_skill(state.combatants[ex.guard])
        else:
            dskill = F.acrobatics(d) if ex.defence == "evade" else F.defence_skill(d)
        for _ in range(ex.def_halvings):
            dskill = halve_down(dskill)
        ex.def_skill = dskill
        ex.def_roll = sink.die(100, "defence", ex.defender, ex.attacker)
        ex.def_level = success_level(ex.def_roll, dskill, auto)
    ex.winner, ex.margin = compare(
        ex.att_level, ex.att_roll, ex.def_level, ex.def_roll, bool(opts["margins_among_failures"])
    )
    extra = ex.halvings if ex.winner == 0 else ex.def_halvings if ex.winner == 1 else 0
    n = effects_granted(opts, ex.winner, ex.margin, extra)
    if (ex.defence == "none" and not opts["undefended_effects"] and ex.winner == 0) or ex.mode == "trample":
        n = 0  # a trample grants no special effects to either side [HOUSE]
    ex.effects_left = n
    result = "miss" if ex.winner < 0 else ("attacker_" if ex.winner == 0 else "defender_") + MARGIN_NAMES[ex.margin]
    sink.emit(
        "attack",
        ex.attacker,
        ex.defender,
        rule=f"{R} §2",
        result=result,
        mode=ex.mode,
        defence=ex.defence,
        att_skill=skill,
        att_roll=ex.att_roll,
        def_skill=ex.def_skill,
        def_roll=ex.def_roll,
        margin=ex.margin,
        effects=n,
    )
    ex.phase = "effects"
    next_effect(state, sink)


# ----- special effects -------------------------------------------------------------------------------
def next_effect(state: MRQState, sink: EventSink) -> None:
    """Issue the next EFFECT decision, or resolve the exchange when none is left (or none is legal)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    legal = legal_effects(state, ex) if ex.effects_left > 0 else None
    if legal and ex.winner == 1 and mounts.ridden(state, ex.defender):
        legal = [i for i in legal if VERB[i] != "riposte"]  # a mount does not attack on its own (§13)
    if legal:
        actor = ex.attacker if ex.winner == 0 else ex.defender
        state.decision = Decision(
            mounts.controller(state, actor),  # the rider picks for its mount
            state.combatants[actor].side,
            DecisionKind.EFFECT,
            state.round,
            {
                "remaining": ex.effects_left,
                "margin": ex.margin,
                "role": "attacker" if ex.winner == 0 else "defender",
                "opponent": ex.defender if ex.winner == 0 else ex.attacker,
            },
        )
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        mask[legal] = True
        mask.flags.writeable = False  # shared with clones: legal_mask hands out copies
        state.mask_cache = (state.decision, mask)
        return
    state.decision = None
    resolve(state, sink)


def answer_effect(state: MRQState, sink: EventSink, verb: str, option: object) -> None:
    ex = state.exchange
    assert ex is not None  # noqa: S101
    ex.effects.append(verb)
    ex.effects_left -= 1
    actor = ex.attacker if ex.winner == 0 else ex.defender
    target = ex.defender if ex.winner == 0 else ex.attacker
    item = F.strike_item(state.combatants[actor], ex.mode == "missile" and ex.winner == 0)
    if verb in ("choose_location", "deflect_blow"):
        ex.location = LOCATIONS.index(str(option))
    sink.emit(
        "special_effect",
        actor,
        target,
        rule=f"{R} §4",
        result=verb,
        option=option,
        margin=ex.margin,
        role="attacker" if ex.winner == 0 else "defender",
        weapon=item.name,
        weapon_kind=item.kind,
    )
    state.decision = None
    if verb == "change_distance":
        state.set_distance(ex.attacker, ex.defender, DISTANCE_NAMES.index(str(option)))
    next_effect(state, sink)
