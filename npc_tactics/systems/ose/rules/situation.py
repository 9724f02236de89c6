"""A GM's description of an OSE fight in progress -> a state at the acting NPC's next decision (contract §4).

Keys: ``scenario`` (optional shipped name or path: field, options and round cap default to it), ``round``,
``acting`` (combatant name), ``phase`` (``declare`` | ``move`` | ``missile`` | ``melee``; default: the first
step where the acting NPC has a real choice), ``max_rounds``, ``escape_distance``, ``field_length``,
``cover``, ``daylight``, ``options`` and ``sides`` as in a scenario, where each side may also give
``morale_checked`` (checks already made: first_death, half_down) and each combatant ``max_hp``, ``status``
(active, dead, fled, held, asleep, surrendered), ``declared`` (none, withdraw, retreat) and
``morale_passed`` (0-2). ``hp`` is the current hit points (see :func:`load_situation`). A combatant is a
template, or a ``stat_block`` (an OSE stat line), with any field override of a scenario combatant (``ac``,
``hd``, ``thac0``, ``movement``, ``saves``, ``damage``, ``attacks``, ``morale``). Who is engaged
follows from positions: enemies 1.5 m apart are in melee. For the move/missile/melee steps the acting side
is taken to have won initiative.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.dice import parse as parse_dice
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import N_, Said
from npc_tactics.rules import loading
from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.systems.ose.rules import legal
from npc_tactics.systems.ose.rules import scenario as C
from npc_tactics.systems.ose.rules.combat import OUT, OUT_WITH_FLED
from npc_tactics.systems.ose.rules.situation_fields import (
    FIELDS,
    MORALE_CHECKS,
    PHASES,
    STATUS_NAMES,
)
from npc_tactics.systems.ose.rules.state import (
    DECL_RETREAT,
    DECL_WITHDRAW,
    PHASE_NAMES,
    STAGE_DECLARE,
    STAGE_GROUP,
    OSEState,
)

#: the note when a situation leaves out ``morale_checked`` for a morale trigger that already happened
_MORALE_TAKEN = {
    "first_death": N_("{side}: a member is dead and morale_checked was not given; its first death morale check is "
                      "taken as already made"),
    "half_down": N_("{side}: half the side is out and morale_checked was not given; its half down morale check is "
                    "taken as already made"),
}

#: the keys a situation adds to a scenario, declared once in :mod:`.situation_fields`
SITUATION_KEYS = FIELDS.keys("situation")
EXTRA_KEYS = tuple(k for k in FIELDS.keys("combatant") if k != "hp")
SIDE_EXTRA_KEYS = FIELDS.keys("side")
STATUSES = {
    "active": Status.ACTIVE,
    "dead": Status.DEAD,
    "fled": Status.FLED,
    "held": Status.INCAPACITATED,
    "asleep": Status.INCAPACITATED,
    "unconscious": Status.UNCONSCIOUS,
    "surrendered": Status.SURRENDERED,
}
assert tuple(STATUSES) == STATUS_NAMES


def load_situation(
    engine: Any,
    path_or_mapping: str | Path | Mapping[str, Any],
    roller: Any,
    notes: list[str] | None = None,
) -> OSEState:
    """Read a situation (YAML path or mapping) and return the state waiting for ``acting``'s decision.

    Hit points: ``hp`` is the current HP. With ``max_hp`` too, hp may not exceed it; alone, the maximum is
    the template's average (or hp itself if higher) and hp may not exceed the most the template can have;
    ``max_hp`` alone means unhurt; neither: rolled from the template. Every such assumption is appended
    to ``notes`` as a plain-English line."""
    said = notes if notes is not None else []
    file, data = V.document(path_or_mapping)
    data = V.mapping(data, file, "", SITUATION_KEYS, required=FIELDS.required("situation"))
    base: dict[str, Any] = {}
    if "scenario" in data:
        raw_scenario = data["scenario"]
        try:
            if isinstance(raw_scenario, Mapping):  # inlined: an HTTP body names no file on the server
                sc = C.parse_scenario(raw_scenario, file)
            else:
                sc = C.load_scenario(V.string(raw_scenario, file, "scenario"))
        except ConfigError as exc:
            if isinstance(raw_scenario, Mapping):
                raise ConfigError(file, V.join("scenario", exc.field), exc.message) from None
            raise ConfigError(file, "scenario", _error_said(exc)) from None
        except Exception as exc:  # UnknownNameError
            raise ConfigError(file, "scenario", str(exc)) from None
        base = {"max_rounds": sc.max_rounds, "options": dict(sc.options)}
        fld = sc.field
    keys = ("max_rounds", "escape_distance", "field_length", "cover", "daylight", "options")
    merged = {**base, **{k: data[k] for k in keys if k in data}}
    extras: list[dict[str, Any]] = []
    side_extras: list[dict[str, Any]] = []
    plain_sides = []
    for s, side in enumerate(V.two_sides(data["sides"], file)):
        sp = V.join("sides", s)
        side = V.mapping(side, file, sp, C.SIDE_KEYS + SIDE_EXTRA_KEYS)
        cp = V.join(sp, "combatants")
        plain = []
        for k, m in enumerate(V.sequence(side.get("combatants"), file, cp, what="combatants")):
            p = V.join(cp, k)
            m = V.mapping(m, file, p, C.COMBATANT_KEYS + EXTRA_KEYS)
            plain.append({key: v for key, v in m.items() if key not in EXTRA_KEYS and key != "hp"})
            extras.append({"path": p, **{key: m[key] for key in EXTRA_KEYS + ("hp",) if key in m}})
        side_extras.append({"path": sp, **{k: side[k] for k in SIDE_EXTRA_KEYS if k in side}})
        keep = {k: v for k, v in side.items() if k not in SIDE_EXTRA_KEYS + ("combatants",)}
        plain_sides.append({**keep, "combatants": plain})
    scenario = C.parse_scenario({**merged, "sides": plain_sides}, file)
    if base and not any(k in data for k in ("escape_distance", "field_length", "cover", "daylight")):
        scenario = replace(scenario, field=fld)
    hps = [_hit_points(spec, ex, file) for spec, ex in zip(scenario.combatants, extras, strict=True)]
    scenario = replace(
        scenario,
        combatants=tuple(
            replace(spec, hp=h[1]) if h[1] is not None else spec
            for spec, h in zip(scenario.combatants, hps, strict=True)
        ),
    )
    opts = engine.resolve_options(scenario.options)
    sink = EventSink(roller, 1, record_rolls=False)
    state = C.build_state(scenario, opts, sink)
    state.round = FIELDS.read(data, "round", file, high=scenario.max_rounds)
    for c, ex, (current, _, note) in zip(state.combatants, extras, hps, strict=True):
        if current is not None:
            c.hp = current
        _apply_extra(c, ex, file)
        if note.startswith("rolled:"):
            said.append(Said("{name}: hp not given, rolled {hp} ({dice})", name=c.name, hp=c.hp, dice=note[7:]))
        elif note:
            said.append(Said("{name}: {note}", name=c.name, note=note))
    state.recount()
    _morale_history(state, side_extras, extras, file, said, scenario.side_names)
    actor = loading.acting_index(data["acting"], state.combatants, file)
    sides_active = {c.side for c in state.combatants if c.status == Status.ACTIVE}
    if len(sides_active) < 2:
        raise ConfigError(file, "sides", Said("the fight is already over: one side has nobody active"))
    phase = FIELDS.read(data, "phase", file) if data.get("phase") is not None else None
    state = _position_at(state, actor, [phase] if phase else list(PHASES), file)
    entered: OSEState = engine.enter(state, roller)[0]
    return entered


def _error_said(exc: ConfigError) -> str:
    """``str(exc)`` (the scenario file's own error, file and field first) as a sentence whose message part is said
    in the GM's language; the text as it is when it is not that (flattened or cut)."""
    said = (Said("{file}: {field}: {message}", file=exc.file, field=exc.field, message=exc.message) if exc.field
            else Said("{file}: {message}", file=exc.file, message=exc.message))
    return said if said == str(exc) else str(exc)


def _template_hp(expr: int | str) -> tuple[int, int]:
    """(average rounded down, the most possible) of a template's hit points, each at least 1."""
    if isinstance(expr, int):
        return max(1, expr), max(1, expr)
    d = parse_dice(expr)
    return max(1, int(d.mean)), max(1, d.maximum)


def _hit_points(spec: Any, ex: dict[str, Any], file: str) -> tuple[int | None, int | None, str]:
    """(current HP or None, max HP or None = roll it, the assumption made or "") for one combatant."""
    p = ex["path"]
    status = FIELDS.read(ex, "status", file, p, "combatant")
    expr = spec.template.hp
    avg, top = _template_hp(expr)
    tname = spec.template.profile.template
    has_max = "max_hp" in ex
    mx = FIELDS.read(ex, "max_hp", file, p, "combatant") if has_max else None
    if "hp" not in ex:
        if status == "dead":
            return 0, mx or avg, ""
        if mx is not None:
            return mx, mx, Said("hp not given, taken as max_hp {mx} (unhurt)", mx=mx)
        if isinstance(expr, int):
            return None, None, ""
        return None, None, f"rolled:{expr}"
    hp = ex["hp"]
    hpath = V.join(p, "hp")
    if isinstance(hp, bool) or not isinstance(hp, int):
        raise ConfigError(file, hpath, Said("expected the current hit points as a whole number, got {got}",
                                            got=repr(hp)))
    if status == "dead":
        if hp > 0:
            raise ConfigError(file, hpath, Said("expected 0 or less for a dead combatant (0 HP or less is dead), got "
                                                "{hp}", hp=hp))
        return hp, mx or avg, ""
    if hp < 1:
        raise ConfigError(
            file, hpath, Said("expected at least 1, got {hp} (0 HP or less is dead: write status: dead)", hp=hp)
        )
    if mx is not None:
        if hp > mx:
            raise ConfigError(file, hpath, Said("expected at most max_hp ({max_hp}), got {hp}", max_hp=mx, hp=hp))
        return hp, mx, ""
    if hp > top:
        raise ConfigError(
            file,
            hpath,
            Said("expected at most {top}, the most a {template} can have ({dice}); give max_hp for a tougher one",
                 top=top, template=tname, dice=expr),
        )
    if hp >= avg:
        return hp, hp, Said("max_hp not given, taken as {hp} (unhurt: hp {hp} is at least the {template} average)",
                            hp=hp, template=tname)
    return hp, avg, Said("max_hp not given, taken as {avg} (the {template} average, {dice}); hp {hp} is its current "
                         "hit points", avg=avg, template=tname, dice=expr, hp=hp)


def _apply_extra(c: Any, ex: dict[str, Any], file: str) -> None:
    p = ex["path"]
    if "status" in ex:
        c.status = STATUSES[FIELDS.read(ex, "status", file, p, "combatant")]
    declared = FIELDS.read(ex, "declared", file, p, "combatant")
    if declared == "withdraw":
        c.declared = DECL_WITHDRAW
    elif declared == "retreat":
        c.declared = DECL_RETREAT
        c.retreating = True
    if "morale_passed" in ex:
        c.morale_passes = FIELDS.read(ex, "morale_passed", file, p, "combatant")
    _regeneration(c, ex, file)


def _regeneration(c: Any, ex: dict[str, Any], file: str) -> None:
    """A regenerator's state (rules/effects.py): ``regenerating_from`` (the round at whose end it first regains hit
    points; default for a wounded one: already regenerating) and ``burnt`` (fire or acid damage it cannot
    regenerate, at most the hit points it lost)."""
    p = ex["path"]
    for key in ("regenerating_from", "burnt"):
        if key in ex and not c.prof.regenerate:
            raise ConfigError(file, V.join(p, key), Said("{name} does not regenerate (its template has no "
                                                         "regenerate)", name=c.name))
    if not c.prof.regenerate:
        return
    if "regenerating_from" in ex:
        c.regen_from = FIELDS.read(ex, "regenerating_from", file, p, "combatant")
    elif c.hp < c.max_hp:
        c.regen_from = 1
    if "burnt" in ex:
        c.burnt = FIELDS.read(ex, "burnt", file, p, "combatant", high=c.max_hp - c.hp)


def _morale_history(
    state: OSEState,
    side_extras: list[dict[str, Any]],
    extras: list[dict[str, Any]],
    file: str,
    notes: list[str],
    side_names: tuple[str, ...],
) -> None:
    """The side's morale checks already made (§4): "first death" and "half down" never fire twice.

    ``morale_checked`` lists the checks made; a trigger that has happened but is not listed is due (rolled
    at the side's next morale step). Without ``morale_checked``, checks whose trigger has happened are
    taken as made (said in ``notes``)."""
    cs = state.combatants
    gone = OUT_WITH_FLED if state.options["morale_count_fled"] else OUT
    for side, sx in enumerate(side_extras):
        members = [c for c in cs if c.side == side]
        happened = {
            "first_death": any(c.status == Status.DEAD for c in members),
            "half_down": 2 * sum(1 for c in members if c.status in gone) >= len(members),
        }
        if "morale_checked" in sx:
            mp = V.join(sx["path"], "morale_checked")
            listed = V.sequence(sx["morale_checked"], file, mp, 0, 2, "checks (first_death, half_down)")
            done = {V.choice(x, file, V.join(mp, k), MORALE_CHECKS, "morale check") for k, x in enumerate(listed)}
            for ex, c in zip(extras, cs, strict=True):
                if c.side == side and c.morale_passes > len(done):
                    raise ConfigError(
                        file,
                        V.join(ex["path"], "morale_passed"),
                        Said("expected at most {n}, the checks listed in morale_checked, got {passed}", n=len(done),
                             passed=c.morale_passes),
                    )
        else:
            done = {k for k, v in happened.items() if v}
            monsters = any(c.prof.morale > 0 for c in members)
            for k in sorted(done):
                if monsters:
                    notes.append(Said(_MORALE_TAKEN[k], side=side_names[side]))
        state.first_death[side] = "first_death" in done or happened["first_death"]
        state.half_out[side] = "half_down" in done or happened["half_down"]
        due = any(v and k not in done for k, v in happened.items())
        state.morale_due[side] = 1 if due else 0


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
            file, "acting", Said("{name} has no legal action in this situation", name=repr(cs[actor].name))
        )
    st, legal_now, decision = fallback
    st.legal = legal_now
    st.decision = decision
    return st
