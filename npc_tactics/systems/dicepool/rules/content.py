"""Scenarios and GM situations for the dice-pool system (systems/dicepool/content/scenarios/*.yaml).

A scenario lists two sides (side 0 = the NPCs) of combatants built from bestiary templates with per-
combatant overrides; a situation is a fight in progress (current location HP, postures, DEFENSE dice,
round) handed back at the acting NPC's slot. A combatant names a ``template`` (shipped, or from a user
bestiary), or gives its own character sheet as ``stat_block`` text (rules/sheet.py), or the bestiary's stat
fields in full with no template. :func:`stat_line` is a combatant's sheet on one line in the GM's language (the
tracker's hook), its labels the sheet's own English or French ones (content/sheet_labels.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.configs import system_dir
from npc_tactics.configs import validate as V
from npc_tactics.dice import Roller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import N_, Said
from npc_tactics.rules import loading
from npc_tactics.rules.base import Status
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.dicepool.rules.bestiary import REQUIRED_STATS, STAT_KEYS, build_fighter, check_template
from npc_tactics.systems.dicepool.rules.combat import face
from npc_tactics.systems.dicepool.rules.options import SPEC
from npc_tactics.systems.dicepool.rules.pool import situation_ranks
from npc_tactics.systems.dicepool.rules.sheet import format_sheet
from npc_tactics.systems.dicepool.rules.sheet_labels import slug
from npc_tactics.systems.dicepool.rules.situation_fields import FIELDS
from npc_tactics.systems.dicepool.rules.state import PHASE_ACT, DicePoolState, Fighter
from npc_tactics.systems.dicepool.rules.user_bestiary import (
    all_templates,
    bestiary_listing,
    check_bestiary,
    one_line,
    sheet_fields,
)

#: a status its wounds give a combatant, in words (the assumption notes of a situation)
_STATUS_WORDS = {"unconscious": N_("unconscious"), "dead": N_("dead"), "incapacitated": N_("out of the fight")}

__all__ = ["Scenario", "bestiary_listing", "check_bestiary", "describe_state", "list_scenarios", "load_scenario",
           "load_situation", "scenario_from_mapping", "stat_block", "stat_line"]

SCENARIO_DIR = system_dir("dicepool") / "scenarios"
SCENARIO_KEYS = ("name", "description", "max_rounds", "escape_distance", "options", "sides")
#: the keys a situation reads (a whole scenario's and its own), declared once in :mod:`.situation_fields`
SITUATION_KEYS = FIELDS.keys("situation")
assert set(SCENARIO_KEYS) <= set(SITUATION_KEYS)
COMBATANT_KEYS = (
    "template",
    "stat_block",
    "name",
    "position",
    "readied",
    "posture",
    "concealment",
    "cover",
    "mounted",
) + STAT_KEYS
SITUATION_COMBATANT_KEYS = COMBATANT_KEYS + FIELDS.keys("combatant")


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: what :meth:`DicePoolEngine.new_combat` accepts."""

    name: str
    description: str
    max_rounds: int
    escape_distance: float
    options: Mapping[str, Any]
    side_names: tuple[str, str]
    fighters: tuple[Fighter, ...] = field(repr=False)


def _combatant(
    file: str, raw: Any, fld: str, side: int, situation: bool
) -> tuple[Fighter, dict[str, Any]]:
    keys = SITUATION_COMBATANT_KEYS if situation else COMBATANT_KEYS
    d = V.mapping(raw, file, fld, keys)
    template, stats, default_name = _stat_block(file, d, fld)
    name = V.string(d.get("name", default_name), file, f"{fld}.name", non_empty=True)
    f = build_fighter(
        file,
        template,
        stats,
        {k: v for k, v in d.items() if k in STAT_KEYS},
        fld,
        side,
        name,
    )
    f.position = V.number(d.get("position", 0), file, f"{fld}.position", -V.MAX_METRES, V.MAX_METRES)
    if "readied" in d:
        names = [w.name for w in f.weapons]
        r = V.choice(d["readied"], file, f"{fld}.readied", ["none", *names], "weapon")
        f.readied = -1 if r == "none" else names.index(r)
    f.posture = T.POSTURE_NAMES.index(
        V.choice(d.get("posture", "standing"), file, f"{fld}.posture", T.POSTURE_NAMES, "posture")
    )
    f.cover_available = T.CONCEALMENT_NAMES.index(
        V.choice(d.get("cover", "none"), file, f"{fld}.cover", T.CONCEALMENT_NAMES, "cover")
    )
    f.concealment = T.CONCEALMENT_NAMES.index(
        V.choice(
            d.get("concealment", "none"), file, f"{fld}.concealment", T.CONCEALMENT_NAMES, "concealment"
        )
    )
    f.cover_available = max(f.cover_available, f.concealment)
    f.cover_spot, f.spot_cover = f.position, f.cover_available
    f.mounted = V.boolean(d.get("mounted", False), file, f"{fld}.mounted")
    if f.mounted and f.mount_speed == 0:
        raise ConfigError(file, f"{fld}.mounted", Said("this combatant has no mount (mount_speed is 0)"))
    return f, d


def _stat_block(file: str, d: dict[str, Any], fld: str) -> tuple[str, dict[str, Any], str]:
    """(template name, stat fields, default combatant name) of a combatant: its ``template``, its sheet's text
    (``stat_block``) or, with neither, its own fields in full (the fields it gives override the others)."""
    if "template" in d and "stat_block" in d:
        raise ConfigError(file, f"{fld}.stat_block", Said("give one of template (a bestiary name) or stat_block "
                                                          "(the character sheet's text), not both"))
    if "template" in d:
        bestiary = all_templates()
        template = V.choice(d["template"], file, f"{fld}.template", bestiary, "template")
        return template, bestiary[template][1], template
    if "stat_block" in d:
        sheet_name, stats = sheet_fields(d["stat_block"], file, f"{fld}.stat_block")
        return slug(sheet_name or "") or "stat_block", stats, sheet_name or "creature"
    missing = [k for k in REQUIRED_STATS if k not in d]
    if missing:
        raise ConfigError(file, f"{fld}.template", Said("missing required key (or give stat_block, the character "
                                                        "sheet's text, or the stat fields in full: {missing} missing)",
                                                        missing=", ".join(missing)))
    return "custom", {}, "creature"


def _sheet_of(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """A tracker combatant's sheet fields: its template with the stat fields it changes, its pasted sheet
    (English or French) read by the sheet's parser, or its fields in full; None when it does not read as a
    sheet."""
    file = "<tracker>"
    d = {k: v for k, v in entry.items() if k in COMBATANT_KEYS}
    try:
        template, stats, _ = _stat_block(file, d, "")
        fields: dict[str, Any] = check_template({**stats, **{k: v for k, v in d.items() if k in STAT_KEYS}}, file,
                                                "", template)
    except ConfigError:
        return None
    return fields


def stat_line(entry: Mapping[str, Any], lang: str = "en") -> str | None:
    """The sheet of a tracker combatant on one line in ``lang`` (``Initiative 9, ... | Skills: brawl 5, ...``,
    ``INITIATIVE 9, ... | Compétences : bagarre 5, ...``): its template with the stat fields it changes, its pasted
    sheet (English or French) read by the sheet's parser, or its fields in full, printed as the bestiary prints
    its own (None when the entry does not read as a sheet: the tracker then shows what the GM typed)."""
    fields = _sheet_of(entry)
    return None if fields is None else one_line(fields, lang)


def stat_block(entry: Mapping[str, Any]) -> str | None:
    """The character sheet of a tracker combatant as text its sheet parser reads back (what the tracker's Edit
    box starts from), or None when the entry does not read as a sheet."""
    fields = _sheet_of(entry)
    return None if fields is None else format_sheet(fields, str(entry.get("name", "")) or None)


def _apply_situation(
    file: str, f: Fighter, d: dict[str, Any], fld: str, rules: Any, notes: list[str]
) -> None:
    """Current wounds and conditions of a fight in progress (load_situation); impossible ones are errors."""
    from npc_tactics.systems.dicepool.rules.combat import attack_pool, melee_skill, wound_status

    if "location_hp" in d:
        locs = V.mapping(d["location_hp"], file, f"{fld}.location_hp", T.LOCATIONS)
        threshold = 0 if rules.serious_wound_at_zero else -1
        for n, v in locs.items():
            i = T.LOCATION_INDEX[n]
            # below −max HP means nothing more: a location at −max is already death (D16)
            f.loc_hp[i] = V.integer(v, file, f"{fld}.location_hp.{n}", -f.loc_max[i], f.loc_max[i])
            f.serious[i] = f.loc_hp[i] <= threshold
        f.hp = sum(h for h in f.loc_hp if h > 0)
    else:
        notes.append(Said("{name}: location_hp not given, assumed unhurt ({hp} HP)", name=f.name, hp=f.max_hp))
    pool = attack_pool(f, melee_skill(f))
    f.defense_dice = FIELDS.read(d, "defense_dice", file, fld, "combatant")
    if f.defense_dice > pool:
        raise ConfigError(
            file,
            f"{fld}.defense_dice",
            f"at most {pool} (the dice of its melee pool that can be moved to DEFENSE), got {f.defense_dice}",
        )
    f.moving = FIELDS.read(d, "moving", file, fld, "combatant")
    if f.moving and (f.posture or f.concealment):
        raise ConfigError(
            file, f"{fld}.moving", "a moving combatant stands and has left its cover (posture, concealment)"
        )
    wounds = wound_status(f, rules)
    if "status" in d:
        f.status = Status[FIELDS.read(d, "status", file, fld, "combatant").upper()]
        if f.status == Status.ACTIVE and wounds != Status.ACTIVE:
            raise ConfigError(
                file,
                f"{fld}.status",
                f"its location_hp make it {wounds.name.lower()} (D16), it cannot be active",
            )
    elif wounds != Status.ACTIVE:
        f.status = wounds
        notes.append(Said("{name}: status not given, {status} from its wounds (D16)", name=f.name,
                          status=Said(_STATUS_WORDS.get(wounds.name.lower(), wounds.name.lower()))))
    if "readied" not in d and len(f.weapons) > 1:
        notes.append(Said("{name}: readied not given, assumed {weapon}", name=f.name, weapon=f.weapons[0].name))
    if "position" not in d:
        notes.append(Said("{name}: position not given, assumed 0 m", name=f.name))


def _sides(
    file: str, data: dict[str, Any], situation: bool, rules: Any = None, notes: list[str] | None = None
) -> tuple[tuple[str, str], list[Fighter], list[dict[str, Any]]]:
    sides = V.two_sides(data["sides"], file)
    names: list[str] = []
    fighters: list[Fighter] = []
    raws: list[dict[str, Any]] = []
    for s, side_raw in enumerate(sides):
        sd = V.mapping(side_raw, file, f"sides[{s}]", ("name", "combatants"), ("combatants",))
        names.append(V.string(sd.get("name", f"side_{s}"), file, f"sides[{s}].name", non_empty=True))
        members = V.sequence(sd["combatants"], file, f"sides[{s}].combatants", 1, MAX_PER_SIDE, "combatants")
        for k, raw in enumerate(members):
            fld = f"sides[{s}].combatants[{k}]"
            f, d = _combatant(file, raw, fld, s, situation)
            if any(g.name == f.name for g in fighters):
                raise ConfigError(
                    file,
                    f"{fld}.name", f"duplicate combatant name {f.name!r}; give each a distinct name"
                )
            if situation:
                _apply_situation(file, f, d, fld, rules, notes if notes is not None else [])
            fighters.append(f)
            raws.append({**d, "_field": fld})
    return (names[0], names[1]), fighters, raws


def _given(options: Any) -> Any:
    """A scenario's ``options:`` left empty (null) means none."""
    return {} if options is None else options


def scenario_from_mapping(data: Any, file: str) -> Scenario:
    """Validate a scenario mapping (unknown keys are errors) and build its fighters."""
    d = V.mapping(data, file, "", SCENARIO_KEYS, ("name", "sides"))
    side_names, fighters, _ = _sides(file, d, False)
    return Scenario(
        name=V.string(d["name"], file, "name", non_empty=True),
        description=V.string(d.get("description", ""), file, "description"),
        max_rounds=V.integer(d.get("max_rounds", 20), file, "max_rounds", 1, 1000),
        escape_distance=V.number(d.get("escape_distance", 40), file, "escape_distance", 1, 2 * V.MAX_METRES),
        options=loading.read_options(SPEC, _given(d.get("options")), file),
        side_names=side_names,
        fighters=tuple(fighters),
    )


def list_scenarios() -> list[tuple[str, str]]:
    """(name, one-line description) of every shipped scenario."""
    return loading.list_scenarios(SCENARIO_DIR)


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name, or a YAML file path; validated."""
    return loading.load_scenario(name_or_path, SCENARIO_DIR, scenario_from_mapping)


def load_situation(
    engine: Any,
    path_or_mapping: str | Path | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> DicePoolState:
    """:func:`load_plain_situation`, plus an optional ``pending:`` decision (``split`` or ``aim``, see
    :mod:`npc_tactics.systems.dicepool.rules.pending`)."""
    from npc_tactics.rules.pending import load_with_pending
    from npc_tactics.systems.dicepool.rules.pending import KINDS

    return load_with_pending(load_plain_situation, KINDS, engine, path_or_mapping, roller, notes)  # type: ignore[no-any-return]  # the shared pending loader returns Any; it returns this system's state


def load_plain_situation(
    engine: Any,
    path_or_mapping: str | Path | Mapping[str, Any],
    roller: Roller,
    notes: list[str] | None = None,
) -> DicePoolState:
    """A fight in progress, at the slot of ``acting`` (then the ``then`` names, then a new game turn).

    Fields: those of a scenario, plus ``round``, ``acting`` (a combatant name), ``then`` (names holding the
    rest of this game turn's slots, in order: an order the initiative rules of §3 can produce) and per
    combatant ``location_hp``, ``defense_dice``, ``aim_target`` (an enemy's name), ``moving``, ``status``,
    ``facing`` (the name of the combatant it faces), declared once with their ranges and defaults in
    :mod:`.situation_fields`. Each assumption made for a missing field is appended to ``notes`` as one
    plain-English line.
    """
    notes = notes if notes is not None else []
    file, data = V.document(path_or_mapping)
    d = V.mapping(data, file, "", SITUATION_KEYS, FIELDS.required("situation"))
    options, rules = engine.resolved(loading.read_options(SPEC, _given(d.get("options")), file))
    _, fighters, raws = _sides(file, d, True, rules, notes)
    names = [f.name for f in fighters]
    for f, raw in zip(fighters, raws, strict=True):
        fld = raw["_field"]
        if "aim_target" in raw:
            f.aim_target = names.index(V.choice(raw["aim_target"], file, f"{fld}.aim_target", names, "name"))
            w = f.weapon
            if fighters[f.aim_target].side == f.side or w is None or not w.ranged:
                raise ConfigError(
                    file, f"{fld}.aim_target", "an enemy, aimed at with a readied ranged weapon (D7)"
                )
        if "facing" in raw:
            other = fighters[names.index(V.choice(raw["facing"], file, f"{fld}.facing", names, "name"))]
            if other is f:
                raise ConfigError(file, f"{fld}.facing", "the name of another combatant")
            face(f, other)
        else:
            face_nearest_enemy_of(fighters, f)
    acting = loading.acting_index(d["acting"], fighters, file)
    then = [
        names.index(V.choice(n, file, f"then[{i}]", names, "combatant"))
        for i, n in enumerate(V.sequence(d.get("then", []), file, "then", what="combatant names"))
    ]
    for i, who in enumerate(then):
        if fighters[who].status != Status.ACTIVE:
            raise ConfigError(file, f"then[{i}]", f"{names[who]!r} is not active and holds no slot")
    if "then" not in d:
        notes.append(Said("then not given: a new game turn (new initiative roll) starts after {name}",
                          name=names[acting]))
    order = [acting, *then]
    absent = [i for i, f in enumerate(fighters) if f.status == Status.ACTIVE and i not in order]
    try:
        ranks, n_ta = situation_ranks(
            order, [f.coordination for f in fighters], names, absent, rules.zero_successes_act_last
        )
    except ValueError as exc:
        raise ConfigError(file, "then", str(exc)) from None
    round_ = FIELDS.read(d, "round", file)
    if "round" not in d:
        notes.append(Said("round not given, assumed game turn 1"))  # the declared default
    max_rounds = FIELDS.read(d, "max_rounds", file, default=max(FIELDS.field("max_rounds").default, round_),
                             low=round_)
    state = DicePoolState(
        fighters,
        round_,
        max_rounds,
        FIELDS.read(d, "escape_distance", file),
        rules,
        options=options,
    )
    state.queue = list(zip(ranks, order, strict=True))
    state.n_ta = n_ta
    state.slot = 0
    state.phase = PHASE_ACT
    active_sides = {f.side for f in fighters if f.status == Status.ACTIVE}
    if len(active_sides) < 2:
        raise ConfigError(file, "sides", "both sides need at least one active combatant")
    engine.enter(state, roller)
    return state


def face_nearest_enemy_of(fighters: list[Fighter], f: Fighter) -> None:
    """Default facing of a situation: toward the nearest enemy (D6)."""
    enemies = [c for c in fighters if c.side != f.side]
    face(f, min(enemies, key=lambda c: abs(c.position - f.position)))


def describe_state(engine: Any, state: DicePoolState) -> str:
    """Multi-line text: game turn, current slot, then each combatant's HP, position and conditions."""
    lines = [f"Game turn {state.round}/{state.max_rounds}"]
    if state.result is not None:
        lines[0] += f" - over: {state.result.reason}"
    elif state.actor >= 0:
        lines[0] += f", rank {state.rank}, acting: {state.combatants[state.actor].name}"
    for i, f in enumerate(state.combatants):
        w = f.weapon.name if f.weapon else "empty hands"
        cond = [T.POSTURE_NAMES[f.posture]]
        if f.concealment:
            cond.append(f"{T.CONCEALMENT_NAMES[f.concealment]} cover")
        if f.moving:
            cond.append("moving")
        if f.defense_dice:
            cond.append(f"+{f.defense_dice} DEF dice")
        if f.aim_target >= 0:
            cond.append(f"aiming at {state.combatants[f.aim_target].name}")
        serious = [T.LOCATIONS[k] for k, s in enumerate(f.serious) if s]
        if serious:
            cond.append("serious: " + ",".join(serious))
        lines.append(
            f"[{i}] {f.name} (side {f.side}, {f.status.name.lower()}) HP {f.hp}/{f.max_hp} "
            f"@{f.position:g}m {w}; " + ", ".join(cond)
        )
    return "\n".join(lines)
