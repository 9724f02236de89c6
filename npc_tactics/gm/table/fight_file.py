"""A tracked fight as JSON: what a GM downloads, keeps in the browser and loads back (``Fight`` <-> dict).

The file holds the set-up and the history only (seed, moves by catalogue name, typed faces): loading replays
it with the rules engine, so a file cannot hold a state the rules would not reach. Every field is checked on
the way in and a mistake is one :class:`~npc_tactics.errors.ConfigError` naming the field
(``steps[12].action: 'attack:enemy_9' is not a legal move ...``). Plain JSON: nothing is ever unpickled.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.gm.table.fight_dice import DICE_MODES
from npc_tactics.gm.table.tracker import CONTROLS, FILE, MAX_STEPS, Fight, SideSpec, Step
from npc_tactics.i18n import Said
from npc_tactics.limits import SEED_MAX

__all__ = ["FORMAT", "VERSION", "fight_from_dict", "fight_to_dict"]

FORMAT = "npc-tactics fight"
VERSION = 1
KEYS = ("format", "version", "system", "sides", "options", "seed", "dice", "distance", "bundle", "combatants",
        "steps", "pending")
BY = ("gm", "advisor")


def _step(step: Step, names: list[str]) -> dict[str, Any]:
    return {"action": names[step.action] if step.action is not None else None, "typed": list(step.typed),
            "by": step.by}


def fight_to_dict(fight: Fight) -> dict[str, Any]:
    names = list(fight.engine.catalogue.names)
    return {
        "format": FORMAT, "version": VERSION, "system": fight.system,
        "sides": [{"name": s.name, "control": s.control} for s in fight.sides],
        "options": dict(fight.options), "seed": fight.seed, "dice": fight.dice, "distance": fight.distance,
        "bundle": fight.bundle_id,
        "combatants": [{"side": m.side, "entry": dict(m.entry)} for m in fight.members],
        "steps": [_step(p.step, names) for p in fight.played] if fight.started or fight.partial else [],
        "pending": _step(fight.partial, names) if fight.partial is not None else None,
    }


def _need(ok: bool, field: str, expected: str, got: Any) -> None:
    """``expected`` (a :class:`Said`, or the one value a field may hold) unless ``ok``."""
    if not ok:
        raise ConfigError(FILE, field, Said("expected {what}, got {got}", what=expected, got=repr(str(got)[:60])))


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_step(raw: Any, where: str, names: list[str]) -> Step:
    _need(isinstance(raw, dict), where, Said("a mapping {{action, typed, by}}"), raw)
    extra = sorted(set(raw) - {"action", "typed", "by"})
    _need(not extra, f"{where}.{extra[0] if extra else ''}", Said("no such key"), extra[:1])
    action = raw.get("action")
    _need(action is None or isinstance(action, str), f"{where}.action", Said("a move name or null"), action)
    if isinstance(action, str) and action not in names:
        raise ConfigError(FILE, f"{where}.action", Said("unknown move {move}", move=repr(action[:60])))
    typed = raw.get("typed", [])
    _need(isinstance(typed, list) and len(typed) <= 500 and all(_int(f) and 1 <= f <= 1000 for f in typed),
          f"{where}.typed", Said("a list of die faces (whole numbers from 1)"), typed)
    by = raw.get("by", "gm")
    _need(by in BY, f"{where}.by", Said("one of {choices}", choices=", ".join(BY)), by)
    return Step(names.index(action) if isinstance(action, str) else None, list(typed), str(by))


def fight_from_dict(data: Any, *, bundle_path: Callable[[str], Path | None] | None = None) -> Fight:
    """The fight ``data`` describes, replayed to where it was saved. ``bundle_path(id)`` finds a named bundle
    (a server's); without one, or for ``bundle: null``, the system's shipped generalist advises."""
    _need(isinstance(data, dict), "", Said("a fight saved by the tracker (a JSON object)"), type(data).__name__)
    extra = sorted(set(data) - set(KEYS))
    if extra:
        raise ConfigError(FILE, extra[0][:60], Said("unknown key; valid keys: {valid}", valid=", ".join(KEYS)))
    _need(data.get("format") == FORMAT, "format", repr(FORMAT), data.get("format"))
    _need(data.get("version") == VERSION, "version", str(VERSION), data.get("version"))
    system = data.get("system")
    _need(isinstance(system, str), "system", Said("a system name"), system)
    sides_raw = data.get("sides", [])
    _need(isinstance(sides_raw, list) and 1 <= len(sides_raw) <= 4, "sides", Said("a list of {{name, control}}"),
          sides_raw)
    sides = []
    for k, s in enumerate(sides_raw):
        _need(isinstance(s, dict) and set(s) <= {"name", "control"}, f"sides[{k}]",
              Said("a mapping {{name, control}}"), s)
        _need(isinstance(s.get("name"), str), f"sides[{k}].name", Said("a name"), s.get("name"))
        _need(s.get("control", "npc") in CONTROLS, f"sides[{k}].control",
              Said("one of {choices}", choices=", ".join(CONTROLS)), s.get("control"))
        sides.append(SideSpec(s["name"], s.get("control", "npc")))
    options = data.get("options", {})
    _need(isinstance(options, dict), "options", Said("a mapping of rules options"), options)
    seed = data.get("seed", 0)
    _need(_int(seed) and 0 <= seed <= SEED_MAX, "seed", Said("a whole number from 0 to {most}", most=SEED_MAX), seed)
    dice = data.get("dice", "auto")
    _need(dice in DICE_MODES, "dice", Said("one of {choices}", choices=", ".join(DICE_MODES)), dice)
    distance = data.get("distance")
    _need(distance is None or (isinstance(distance, int | float) and not isinstance(distance, bool)
                               and 0 <= distance <= 1000), "distance", Said("metres from 0 to 1000"), distance)
    bundle_id = data.get("bundle")
    _need(bundle_id is None or isinstance(bundle_id, str), "bundle", Said("a bundle id or null"), bundle_id)
    path = None
    if bundle_id is not None:
        path = bundle_path(bundle_id) if bundle_path is not None else None
        if path is None:
            raise ConfigError(FILE, "bundle", Said("no bundle {bundle} here", bundle=repr(bundle_id[:60])))
    fight = Fight(system, sides=sides, options=options, seed=seed, dice=dice, distance=distance, bundle=path,
                  bundle_id=bundle_id)
    members = data.get("combatants", [])
    _need(isinstance(members, list) and len(members) <= 8 * len(fight.sides), "combatants",
          Said("a list of {{side, entry}}"), members)
    for k, m in enumerate(members):
        _need(isinstance(m, dict) and set(m) == {"side", "entry"}, f"combatants[{k}]",
              Said("a mapping {{side, entry}}"), m)
        _need(isinstance(m["entry"], dict), f"combatants[{k}].entry", Said("a combatant mapping"), m["entry"])
        try:
            fight.add(m["side"], fields=m["entry"])
        except ConfigError as exc:
            raise ConfigError(FILE, f"combatants[{k}].{exc.field}".rstrip("."), exc.message) from None
    names = list(fight.engine.catalogue.names)
    steps_raw = data.get("steps", [])
    _need(isinstance(steps_raw, list) and len(steps_raw) <= MAX_STEPS, "steps",
          Said("a list of at most {most} steps", most=MAX_STEPS), type(steps_raw).__name__)
    steps = [_read_step(s, f"steps[{k}]", names) for k, s in enumerate(steps_raw)]
    pending = data.get("pending")
    partial = _read_step(pending, "pending", names) if pending is not None else None
    fight.replay(steps, partial)
    return fight
