"""A GM's description of an OSE fight in progress -> a state at the acting NPC's next decision (contract §4).

Keys: ``scenario`` (optional shipped name or path: field, options and round cap default to it), ``round``,
``acting`` (combatant name), ``phase`` (``declare`` | ``move`` | ``missile`` | ``melee``; default: the first
step where the acting NPC has a real choice), ``max_rounds``, ``escape_distance``, ``field_length``,
``cover``, ``options`` and ``sides`` as in a scenario, where each combatant may also give ``max_hp``,
``status`` (active, dead, fled, held, asleep) and ``declared`` (none, withdraw, retreat). Who is engaged
follows from positions: enemies 1.5 m apart are in melee. For the move/missile/melee steps the acting side is
taken to have won initiative.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.rules.ose import legal
from npc_tactics.rules.ose.state import (
    DECL_RETREAT,
    DECL_WITHDRAW,
    PHASE_NAMES,
    STAGE_DECLARE,
    STAGE_GROUP,
    OSEState,
)

SITUATION_KEYS = (
    "scenario",
    "round",
    "acting",
    "phase",
    "max_rounds",
    "escape_distance",
    "field_length",
    "cover",
    "options",
    "sides",
)
EXTRA_KEYS = ("max_hp", "status", "declared")
STATUSES = {
    "active": Status.ACTIVE,
    "dead": Status.DEAD,
    "fled": Status.FLED,
    "held": Status.INCAPACITATED,
    "asleep": Status.INCAPACITATED,
    "unconscious": Status.UNCONSCIOUS,
}
PHASES = ("declare", "move", "missile", "melee")
DECLARATIONS = ("none", "withdraw", "retreat")


def load_situation(
    engine: Any, path_or_mapping: str | Path | Mapping[str, Any], roller: Any, notes: list[str] | None = None
) -> OSEState:
    """Read a situation (YAML path or mapping) and return the state waiting for ``acting``'s decision."""
    from npc_tactics.rules.ose import content as C

    file, data = V.document(path_or_mapping)
    data = V.mapping(data, file, "", SITUATION_KEYS, required=("acting", "sides"))
    base: dict[str, Any] = {}
    if "scenario" in data:
        try:
            sc = C.load_scenario(V.string(data["scenario"], file, "scenario"))
        except ConfigError as exc:
            raise ConfigError(file, "scenario", str(exc)) from None
        except Exception as exc:  # UnknownNameError
            raise ConfigError(file, "scenario", str(exc)) from None
        base = {"max_rounds": sc.max_rounds, "options": dict(sc.options)}
        fld = sc.field
    scen = {
        k: data[k]
        for k in ("max_rounds", "escape_distance", "field_length", "cover", "options")
        if k in data
    }
    merged = {**base, **scen}
    extras: list[dict[str, Any]] = []
    plain_sides = []
    for s, side in enumerate(V.two_sides(data["sides"], file)):
        side = V.mapping(side, file, V.join("sides", s))
        cp = V.join("sides", s, "combatants")
        plain = []
        for k, m in enumerate(V.sequence(side.get("combatants"), file, cp, what="combatants")):
            p = V.join(cp, k)
            m = V.mapping(m, file, p, C.COMBATANT_KEYS + EXTRA_KEYS, required=("template",))
            plain.append({key: v for key, v in m.items() if key not in EXTRA_KEYS})
            extras.append({"path": p, **{key: m[key] for key in EXTRA_KEYS if key in m}})
        plain_sides.append(
            {**{k: v for k, v in side.items() if k != "combatants"}, "combatants": plain}
        )
    scenario = C.parse_scenario({**merged, "sides": plain_sides}, file)
    if base and not any(k in data for k in ("escape_distance", "field_length", "cover")):
        scenario = C.Scenario(
            scenario.name,
            scenario.description,
            scenario.max_rounds,
            scenario.options,
            fld,
            scenario.side_names,
            scenario.combatants,
            file,
        )
    opts = dict(engine.options)
    opts.update(scenario.options)
    opts.update(getattr(engine, "_explicit", {}))
    sink = EventSink(roller, 1, record_rolls=False)
    state = C.build_state(scenario, opts, sink)
    state.round = V.integer(data.get("round", 1), file, "round", 1, scenario.max_rounds)
    for c, ex in zip(state.combatants, extras, strict=True):
        _apply_extra(c, ex, file)
    state.recount()
    names = [c.name for c in state.combatants]
    acting = V.choice(data["acting"], file, "acting", names, "combatant")
    actor = names.index(acting)
    if state.combatants[actor].status != Status.ACTIVE:
        raise ConfigError(file, "acting", f"{acting!r} is not active and cannot decide")
    sides_active = {c.side for c in state.combatants if c.status == Status.ACTIVE}
    if len(sides_active) < 2:
        raise ConfigError(file, "sides", "the fight is already over: one side has nobody active")
    phase = V.choice(data["phase"], file, "phase", PHASES, "phase") if data.get("phase") is not None else None
    return _position_at(state, actor, [phase] if phase else list(PHASES), file)


def _apply_extra(c: Any, ex: dict[str, Any], file: str) -> None:
    p = ex["path"]
    if "max_hp" in ex:
        c.max_hp = V.integer(ex["max_hp"], file, V.join(p, "max_hp"), low=1)
        c.hp = min(c.hp, c.max_hp)
    if c.hp > c.max_hp:
        raise ConfigError(file, V.join(p, "hp"), f"current hp {c.hp} is above max_hp {c.max_hp}")
    if "status" in ex:
        c.status = STATUSES[V.choice(ex["status"], file, V.join(p, "status"), STATUSES, "status")]
    declared = V.choice(ex.get("declared", "none"), file, V.join(p, "declared"), DECLARATIONS, "declaration")
    if declared == "withdraw":
        c.declared = DECL_WITHDRAW
    elif declared == "retreat":
        c.declared = DECL_RETREAT
        c.retreating = True


def _position_at(state: OSEState, actor: int, phases: list[str], file: str) -> OSEState:
    """Put the round loop at ``actor``'s first step (in ``phases``) that offers a choice."""
    cs = state.combatants
    side = cs[actor].side
    fallback = None
    for phase in phases:
        if phase == "declare":
            state.stage = STAGE_DECLARE
            state.queue = list(range(len(cs)))
            state.qpos = actor
            options = legal.declare(state, actor)
            kind = DecisionKind.DECLARE
        else:
            state.stage = STAGE_GROUP
            mine = [i for i, c in enumerate(cs) if c.side == side and c.status == Status.ACTIVE]
            others = [i for i, c in enumerate(cs) if c.side != side and c.status == Status.ACTIVE]
            state.groups = [mine, others]
            for g, members in enumerate(state.groups):
                for i in members:
                    cs[i].group = g
            state.group_idx = 0
            state.simul = False
            state.phase = PHASE_NAMES.index(phase)
            state.queue = mine[mine.index(actor) :]
            state.qpos = 0
            options = legal.act(state, actor, state.phase)
            kind = DecisionKind.ACT
        if len(options) > 1 or (options and fallback is None):
            snapshot = (
                state.clone(),
                tuple(options),
                Decision(actor, side, kind, state.round, {"phase": phase}),
            )
            if len(options) > 1:
                fallback = snapshot
                break
            fallback = snapshot
    if fallback is None:
        raise ConfigError(
            file, "acting", f"{cs[actor].name!r} has no legal action in this situation"
        )
    st, options, decision = fallback
    st.legal = options
    st.decision = decision
    return st
