"""RuneQuest pending decisions (issue 11 §2): a blow to answer (``incoming``) and the follow-up options of a
statement of intent (``aimed_blow``: the location aimed at; ``spell``: the points put into a variable spell).

    pending: {incoming: {attacker: Gorak, weapon: maul, sr: 7}}         # parry, dodge or take it?
    pending: {incoming: {attacker: Gorak, weapon: maul, sr: 12, aimed: head}}
    pending: {aimed_blow: {target: Gorak, weapon: broadsword}}           # which location?
    pending: {spell: {name: bladesharp, target: Fox}}                    # how many points?

The defender chooses before either roll (§11), so ``incoming`` needs no dice: the blow is the one now being
resolved at strike rank ``sr``; the rest of this round (other blows, other statements of intent) is not known,
so the fight goes on from the next round's statement of intent after it (said in the notes).
"""

from __future__ import annotations

from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules.base import DecisionKind, ally_slots
from npc_tactics.rules.pending import PendingKind, Request, drive, enemy_action, named, read_fields
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.state import Step

INCOMING_NOTE = Said("pending incoming blow: the rest of this round (other blows and statements of intent) is not "
                     "known, so after this blow the fight goes on from the next round")


def _weapon(state: Any, who: int, name: Any, file: str, path: str) -> int:
    names = [w.spec.name for w in state.combatants[who].weapons]
    return names.index(V.choice(name, file, path, names, "weapon"))


def _read_incoming(body: Any, file: str, path: str, acting: str) -> Request:
    data = read_fields(body, file, path, ("attacker", "weapon", "sr", "aimed", "knockback"), ("attacker", "sr"))
    V.integer(data["sr"], file, f"{path}.sr", 1, T.MAX_SR)
    if "knockback" in data:
        V.boolean(data["knockback"], file, f"{path}.knockback")
    return Request(None, data, path)


def _reach_incoming(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
    p, data = request.path, request.data
    defender = engine.pending(state).actor
    attacker = named(state, data["attacker"], file, f"{p}.attacker")
    a = state.combatants[attacker]
    if a.side == state.combatants[defender].side:
        raise ConfigError(file, f"{p}.attacker", Said("{name} is on {other}'s side", name=a.name,
                                                      other=state.combatants[defender].name))
    ws = [i for i, w in enumerate(a.weapons) if w.spec.kind != "shield"] or list(range(len(a.weapons)))
    if "weapon" in data:
        w = _weapon(state, attacker, data["weapon"], file, f"{p}.weapon")
    elif len(ws) == 1:
        w = ws[0]
    else:
        raise ConfigError(file, f"{p}.weapon", Said("which weapon? {name} carries {weapons}", name=a.name,
                                                    weapons=V.listing(x.spec.name for x in a.weapons)))
    loc = -1
    verb = "attack"
    if "aimed" in data:
        locs = [x.spec.name for x in state.combatants[defender].locations]
        loc = locs.index(V.choice(data["aimed"], file, f"{p}.aimed", locs, "location"))
        verb = "aimed"
    if data.get("knockback"):
        verb = "knockback"
    state.phase, state.schedule, state.sched_pos, state.group_end = "resolve", [], 0, 0
    state.decision, state.mask_cache = None, None
    step = Step(verb, int(data["sr"]), w, defender, loc=loc, readied=True)
    if not engine.strike(state, attacker, step, roller):
        raise ConfigError(file, p, Said("{name}'s blow gives {defender} no choice here (out of reach or range, or no "
                                        "parry or dodge left): nothing to decide", name=a.name,
                                        defender=state.combatants[defender].name))
    return state


def _read_aimed(body: Any, file: str, path: str, acting: str) -> Request:
    return Request(None, read_fields(body, file, path, ("target", "weapon"), ("target",)), path)


def _reach_aimed(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
    p, data = request.path, request.data
    me = engine.pending(state).actor
    target = named(state, data["target"], file, f"{p}.target")
    c = state.combatants[me]
    ws = [i for i, w in enumerate(c.weapons) if w.spec.kind != "shield"]
    if "weapon" in data:
        w = _weapon(state, me, data["weapon"], file, f"{p}.weapon")
    elif ws:
        w = ws[0]
    else:
        raise ConfigError(file, f"{p}.weapon", Said("{name} has no weapon to aim a blow with", name=c.name))
    action = enemy_action(engine, state, me, f"aimed:{w}", target, file, f"{p}.target")
    return drive(engine, state, lambda s, d: action if d.kind == DecisionKind.DECLARE else None, [], file, p)


def _read_spell(body: Any, file: str, path: str, acting: str) -> Request:
    return Request(None, read_fields(body, file, path, ("name", "target"), ("name",)), path)


def _reach_spell(engine: Any, state: Any, request: Request, file: str, roller: Roller) -> Any:
    p, data = request.path, request.data
    me = engine.pending(state).actor
    spell = V.string(data["name"], file, f"{p}.name", non_empty=True)
    target = named(state, data.get("target", state.combatants[me].name), file, f"{p}.target")
    cs = state.combatants
    if target == me:
        name = f"cast:{spell}:self"
    elif cs[target].side == cs[me].side:
        name = f"cast:{spell}:ally_{ally_slots(cs, me).index(target)}"
    else:
        return drive(engine, state, lambda s, d: enemy_action(engine, s, me, f"cast:{spell}", target, file,
                                                               f"{p}.target")
                     if d.kind == DecisionKind.DECLARE else None, [], file, p)
    try:
        action = int(engine.catalogue.index(name))
    except KeyError:
        raise ConfigError(file, f"{p}.name", Said("no spell {spell} can be cast on that target",
                                                  spell=repr(spell))) from None
    return drive(engine, state, lambda s, d: action if d.kind == DecisionKind.DECLARE else None, [], file, p)


KINDS = {
    "incoming": PendingKind(DecisionKind.REACT, _read_incoming, _reach_incoming,
                            "a blow from `attacker` with `weapon` at strike rank `sr` (optionally `aimed` at a "
                            "location, `knockback`): parry, dodge or take it", INCOMING_NOTE),
    "aimed_blow": PendingKind(DecisionKind.OPTION, _read_aimed, _reach_aimed,
                              "the acting NPC declares an aimed blow at `target` (with `weapon`): which location"),
    "spell": PendingKind(DecisionKind.OPTION, _read_spell, _reach_spell,
                         "the acting NPC casts the variable spell `name` on `target`: how many points"),
}
