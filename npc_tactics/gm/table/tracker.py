"""The combat tracker: one fight a GM runs round after round with the system's own rules engine.

A :class:`Fight` is its set-up (system, side names and who controls each side, rules options, seed, dice mode,
the combatants as scenario entries) and its history: the opening, then one :class:`Step` per decision (the move
played and the faces the GM typed during it). Everything else (the engine state, the events, the log) is
derived by replaying that history: the engines are deterministic given their dice (the seeded dice of a step
come from ``default_rng([seed, step])``, :mod:`.fight_dice`), so undo is "drop the last step and replay", and a
saved fight (:mod:`.fight_file`) is that history as JSON, validated when it is read back.

The GM names the sides and says who plays each (:meth:`Fight.set_side`: names at any time, control before the
start, or at any time unless the PCs' dice are typed). At each decision the fight says who decides: a side
controlled by the ``pc``\\s waits for the GM to give the player's move; at an ``npc`` side's decision the
advisor (:mod:`.fight_advice`) ranks the moves first. With typed dice, a step stops at the first die not typed
yet (``prompt``), and goes on when it is typed. Combatants are entries of the system's scenario mapping (a
template name, or whatever the system's loader takes: an OSE ``stat_block``, ``{class: elf, level: 9}``), placed
in the encounter builder's formation (:class:`~npc_tactics.encounters.adapters.Adapter`) and checked by the
system's scenario parser as they are added. No system is named here: everything comes through the registry.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.encounters.adapters import Adapter, adapter
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.table.fight_dice import DICE_MODES, DiePrompt, ImpossibleFace, NeedDie, StepRoller
from npc_tactics.gm.table.stat_words import check_class_level, default_stem
from npc_tactics.gm.words.labels import labeler_of
from npc_tactics.i18n import Said, SaidN
from npc_tactics.plugin import System
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event

__all__ = ["CONTROLS", "FILE", "MAX_STEPS", "Fight", "Member", "SideSpec", "Step"]

CONTROLS = ("npc", "pc")
#: The name errors about a fight give as their file (a fight lives in memory or in a JSON file of the GM's).
FILE = "fight"
#: Most decisions one fight may hold (a runaway client cannot grow a fight without bound).
MAX_STEPS = 5000
#: Most combatants per side of any shipped system (the system's parser may allow fewer).
MAX_PER_SIDE = 8
STAND_IN = "Stand-in"


@dataclass
class SideSpec:
    name: str
    control: str = "npc"  #: "npc": the advisor answers first; "pc": the GM gives the player's move


@dataclass
class Member:
    side: int
    entry: dict[str, Any]  #: one combatant of the system's scenario mapping (``name`` always set)


@dataclass
class Step:
    action: int | None  #: None: the opening (hit points, initiative...) before the first decision
    typed: list[int] = field(default_factory=list)
    by: str = "gm"  #: "gm" (a move the GM gave) or "advisor" (the advisor's move, played in one click)


@dataclass
class Played:
    """What one completed step produced (derived, never saved)."""

    step: Step
    events: list[Event]
    round: int
    actor: int | None
    labels: dict[str, str]  #: the move in each language
    dice: list[tuple[int, int, bool]]


def _check_side(k: int, name: Any, control: Any) -> None:
    if control not in CONTROLS:
        raise ConfigError(FILE, f"sides[{k}].control", Said("expected one of {choices}, got {got}",
                                                            choices=", ".join(CONTROLS), got=repr(control)))
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise ConfigError(FILE, f"sides[{k}].name", Said("expected a name of 1 to 60 characters"))


def _face_said(error: ValueError) -> str:
    """A saved fight's impossible typed face (:class:`.fight_dice.ImpossibleFace`) as a sentence the GM reads in
    their language, its English unchanged; any other error as it is."""
    if isinstance(error, ImpossibleFace):
        return Said("typed face #{n} is {face}, impossible on a d{sides}", n=error.n, face=error.face,
                    sides=error.sides)
    return str(error)


def _letters(k: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: the tell-apart suffix of same-template combatants ("Goblin A", "Goblin B")."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(65 + r) + out
    return out


@functools.lru_cache(maxsize=16)
def _policy(path: str) -> Any:
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    return load_bundle_agent(path, deterministic=True)


class Fight:
    """One tracked fight (see the module docstring). Mistakes in what is asked raise :class:`UserError`
    (:class:`ConfigError` naming the field for a bad combatant, option or saved fight)."""

    def __init__(self, system: str, *, sides: Sequence[SideSpec] | None = None,
                 options: Mapping[str, Any] | None = None, seed: int = 0, dice: str = "auto",
                 distance: float | None = None, bundle: str | Path | None = None,
                 bundle_id: str | None = None) -> None:
        info = get_system(system)  # the one place a fight (an HTTP body, a saved fight) resolves its system
        #: the system, and its name (what a saved fight and the API say)
        self.plugin: System = info
        self.system = info.name
        self.adapter: Adapter = adapter(info)
        if dice not in DICE_MODES:
            raise ConfigError(FILE, "dice", Said("unknown dice mode {mode}; valid modes: {valid}", mode=repr(dice),
                                                 valid=", ".join(DICE_MODES)))
        self.dice = dice
        self.seed = int(seed)
        self.options = dict(options or {})
        if bundle is None:
            from npc_tactics.gm.advice.suggest import shipped_bundle

            bundle = shipped_bundle(self.system)
        self.bundle = Path(bundle)
        self.bundle_id = bundle_id
        self.policy = _policy(str(self.bundle))
        if self.policy.system != self.system:
            raise ConfigError(FILE, "bundle", Said("the bundle plays {plays}, not {system}",
                                                   plays=repr(self.policy.system), system=repr(self.system)))
        try:
            self.engine = info.make_engine({**dict(self.policy.options), **self.options})
        except (ValueError, TypeError) as exc:
            raise ConfigError(FILE, "options", str(exc)) from None
        self.encoder = info.load("encoder")(self.engine)
        n = int(self.engine.spec.sides)
        given = list(sides or [])
        if len(given) > n:
            raise ConfigError(FILE, "sides", Said("{system} fights have {n} sides, got {got}", system=self.system,
                                                  n=n, got=len(given)))
        defaults = [SideSpec("NPCs", "npc"), SideSpec("PCs", "pc")] + [SideSpec(f"side {k}") for k in range(2, n)]
        self.sides = given + defaults[len(given):n]
        for k, s in enumerate(self.sides):
            _check_side(k, s.name, s.control)
        self.distance = float(distance) if distance is not None else float(self.adapter.default_distance)
        self.members: list[Member] = []
        self.started = False
        self.played: list[Played] = []
        self.partial: Step | None = None  #: the step waiting for a typed die
        self.prompt: DiePrompt | None = None
        self.state: Any = None
        self._labels = {lang: labeler_of(self.plugin, self.engine, lang) for lang in ("en", "fr")}

    # ----- set-up -------------------------------------------------------------------------------------
    def can_change_control(self) -> bool:
        """Whether a side may still change hands: always before the start; after it, unless PCs' dice are typed
        (``pcs``: which dice were typed depends on who played each side, so the saved history would not replay)."""
        return not self.started or self.dice != "pcs"

    def set_side(self, side: int, *, name: str | None = None, control: str | None = None) -> None:
        """Rename ``side`` (at any time: names are words only) or give it to the GM or the advisor
        (see :meth:`can_change_control`)."""
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(self.sides):
            raise ConfigError(FILE, "side", Said("expected a side from 0 to {top}, got {side}", top=len(self.sides) - 1,
                                                   side=repr(side)))
        old = self.sides[side]
        new = SideSpec(old.name if name is None else name.strip(), old.control if control is None else control)
        _check_side(side, new.name, new.control)
        if new.control != old.control and not self.can_change_control():
            raise ConfigError(FILE, f"sides[{side}].control", Said(
                "with the PCs' dice typed, who plays a side is chosen before the fight starts"))
        if any(k != side and s.name == new.name for k, s in enumerate(self.sides)):
            raise ConfigError(FILE, f"sides[{side}].name", Said("the other side is already called {name}",
                                                                name=repr(new.name)))
        self.sides[side] = new

    def templates(self) -> list[str]:
        return list(self.adapter.templates())

    def add(self, side: int, template: str | None = None, *, name: str | None = None,
            fields: Mapping[str, Any] | None = None, lang: str = "en") -> int:
        """Add a combatant to ``side`` (by template name, or ``fields`` the system's scenario entry takes);
        checked at once by the system's scenario parser. Returns its index in :attr:`members`. With no name, a
        character is named by its class in ``lang`` ("Magicien 1 A"), anything else by its template."""
        if self.started:
            raise ConfigError(FILE, "", Said("the fight has started: combatants are added before it starts"))
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < len(self.sides):
            raise ConfigError(FILE, "side", Said("expected a side from 0 to {top}, got {side}", top=len(self.sides) - 1,
                                                   side=repr(side)))
        entry = dict(fields or {})
        check_class_level(self.plugin, FILE, entry)
        if template is not None:
            entry["template"] = template
        if name is not None:
            entry["name"] = name
        k = sum(m.side == side for m in self.members)
        base = {key: v for key, v in self.adapter.entry(str(entry.get("template", "x")), "x", side, k,
                                                         self.distance).items() if key not in ("template", "name")}
        entry = {**base, **entry}
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            entry["name"] = self._name_for(entry, lang)
        if any(m.entry["name"] == entry["name"] for m in self.members):
            raise ConfigError(FILE, "name", Said("a combatant is already called {name}; give another name",
                                                 name=repr(entry["name"])))
        if k >= MAX_PER_SIDE:
            raise ConfigError(FILE, "side", Said("at most {n} combatants on a side", n=MAX_PER_SIDE))
        self._check([*self.members, Member(side, entry)])
        self.members.append(Member(side, entry))
        return len(self.members) - 1

    def _name_for(self, entry: Mapping[str, Any], lang: str = "en", but: int | None = None) -> str:
        """The default name of ``entry`` in ``lang``: its class and level, template or "monster", and the first
        letter no other combatant (member ``but`` aside) has with that stem ("Goblin B")."""
        stem = default_stem(self.plugin, entry, lang)
        taken = {m.entry["name"] for k, m in enumerate(self.members) if k != but}
        k = 0
        while f"{stem} {_letters(k)}" in taken:
            k += 1
        return f"{stem} {_letters(k)}"

    def _named_by_default(self, entry: Mapping[str, Any]) -> bool:
        """Whether ``entry``'s name is a default one (its stem in either language and a letter: "Goblin A")."""
        name = str(entry.get("name", ""))
        stems = (default_stem(self.plugin, entry, lang) for lang in ("en", "fr"))
        return any(re.fullmatch(re.escape(stem) + r" [A-Z]+", name) for stem in stems)

    def remove(self, index: int) -> None:
        if self.started:
            raise ConfigError(FILE, "", Said("the fight has started: combatants are removed before it starts"))
        if not 0 <= index < len(self.members):
            raise ConfigError(FILE, "combatant", SaidN("no combatant {index}; there is {n}",
                                                        "no combatant {index}; there are {n}",
                                                        n=len(self.members), index=index))
        del self.members[index]

    def edit(self, index: int, fields: Mapping[str, Any], remove: Sequence[str] = (), *, lang: str = "en") -> None:
        """Change combatant ``index`` before the start (a corrected stat block, another level): drop the keys
        ``remove``, set ``fields``, and check the result with the system's parser as :meth:`add` does; on a
        mistake the combatant is left as it was. A combatant still called by its default name ("Fighter 2 A")
        whose class, level or template changes is named anew in ``lang`` ("Magicien 3 A")."""
        if self.started:
            raise ConfigError(FILE, "", Said("the fight has started: combatants are changed before it starts"))
        if not 0 <= index < len(self.members):
            raise ConfigError(FILE, "combatant", SaidN("no combatant {index}; there is {n}",
                                                        "no combatant {index}; there are {n}",
                                                        n=len(self.members), index=index))
        member = self.members[index]
        entry = {k: v for k, v in member.entry.items() if k not in remove or k == "name"}
        entry.update(fields)
        if "class" in fields or "level" in fields:
            check_class_level(self.plugin, FILE, entry)
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            entry["name"] = member.entry["name"]
        if "name" not in fields and {"class", "level", "template"} & set(fields) and \
                self._named_by_default(member.entry):
            entry["name"] = self._name_for(entry, lang, but=index)
        if any(k != index and m.entry["name"] == entry["name"] for k, m in enumerate(self.members)):
            raise ConfigError(FILE, "name", Said("a combatant is already called {name}; give another name",
                                                 name=repr(entry["name"])))
        changed = Member(member.side, entry)
        self._check([changed if k == index else m for k, m in enumerate(self.members)])
        self.members[index] = changed

    def scenario_mapping(self, members: Sequence[Member] | None = None) -> dict[str, Any]:
        members = self.members if members is None else members
        sides = [{"name": s.name, "combatants": [dict(m.entry) for m in members if m.side == k]}
                 for k, s in enumerate(self.sides)]
        return {"name": "tracker", "description": "a fight run with the combat tracker", "sides": sides,
                **self.adapter.top(self.distance)}

    def _check(self, members: list[Member]) -> Any:
        """Parse the scenario these members make (a stand-in fills an empty side), naming the new entry's
        field on error."""
        mapping = self.scenario_mapping(members)
        for k, side in enumerate(mapping["sides"]):
            if not side["combatants"]:
                other = next(m for m in members if m.side != k) if len(members) else None
                if other is None:
                    raise ConfigError(FILE, "", Said("add a combatant first"))
                stand = {key: v for key, v in other.entry.items() if key != "position"}
                side["combatants"] = [{**stand, "name": STAND_IN}]
        try:
            return self.adapter.parse(mapping, FILE)
        except ConfigError as exc:
            if re.fullmatch(r"sides\[\d+\]\.combatants", exc.field):
                raise ConfigError(FILE, "side", exc.message) from None
            field_path = exc.field.split("].", 2)[-1] if exc.field.startswith("sides[") else exc.field
            raise ConfigError(FILE, field_path if "combatants[" in exc.field else exc.field, exc.message) from None

    # ----- running ------------------------------------------------------------------------------------
    def _typed_for(self, actor: int | None) -> bool:
        if self.dice == "auto":
            return False
        if self.dice == "manual":
            return True
        if actor is None or self.state is None or not 0 <= actor < len(self.state.combatants):
            return False
        return self.sides[int(self.state.combatants[actor].side)].control == "pc"

    def start(self) -> None:
        """Build round 1 and roll the opening (hit points, initiative...): the first step of the history."""
        if self.started:
            raise ConfigError(FILE, "", Said("the fight has already started"))
        for k in range(len(self.sides)):
            if not any(m.side == k for m in self.members):
                raise ConfigError(FILE, f"sides[{k}]", Said("side {name} has no combatant",
                                                              name=repr(self.sides[k].name)))
        self.scenario = self._check(self.members)
        self.started = True
        self._run(Step(None))

    def _attempt(self, step: Step, typed: Sequence[int]) -> tuple[Any, list[Event], StepRoller]:
        """``step`` played from the current state with the faces ``typed`` (raises :class:`NeedDie`)."""
        roller = StepRoller(self.seed, len(self.played), typed, self._typed_for)
        if step.action is None:
            state, events = self.engine.new_combat(self.scenario, roller)
        else:
            state, events = self.engine.step(self.state, step.action, roller)
        return state, events, roller

    def typed_prompts(self) -> list[tuple[DiePrompt, int]]:
        """The prompts the faces typed so far in the waiting step answered, with each face (for the page)."""
        if self.partial is None:
            return []
        out = []
        for k, face in enumerate(self.partial.typed):
            try:
                self._attempt(self.partial, self.partial.typed[:k])
            except NeedDie as need:
                out.append((need.prompt, face))
        return out

    def _run(self, step: Step) -> None:
        """Play ``step`` from the current state; a die not typed yet leaves it waiting (``prompt``)."""
        index = len(self.played)
        before = self.state
        actor, labels = None, {}
        if step.action is not None:
            decision = self.engine.pending(before)
            assert decision is not None  # play() and replay() checked that a decision is pending
            labels = {lang: f(before, decision, step.action) for lang, f in self._labels.items()}
            actor = int(decision.actor)
        try:
            state, events, roller = self._attempt(step, step.typed)
        except NeedDie as need:
            self.partial, self.prompt = step, need.prompt
            return
        if roller.next_typed < len(step.typed):
            raise ConfigError(FILE, f"steps[{index}].typed", Said("{n} faces typed but the step rolled only {used} of "
                                                                  "them", n=len(step.typed), used=roller.next_typed))
        self.partial, self.prompt = None, None
        self.played.append(Played(step, events, int(getattr(before if before is not None else state, "round", 0)),
                                  actor, labels, roller.used))
        self.state = state

    @property
    def decision(self) -> Any:
        """The engine's pending decision (None before the start, at a typed die and once the fight is over)."""
        if not self.started or self.prompt is not None or self.state is None:
            return None
        return self.engine.pending(self.state)

    def outcome(self) -> Any:
        return self.engine.outcome(self.state) if self.started and self.state is not None else None

    def legal(self) -> list[int]:
        d = self.decision
        if d is None:
            return []
        import numpy as np

        return [int(a) for a in np.flatnonzero(self.engine.legal_mask(self.state, d))]

    def action_index(self, action: int | str) -> int:
        names = list(self.engine.catalogue.names)
        if isinstance(action, str):
            if action not in names:
                raise ConfigError(FILE, "action", Said("unknown move {move} in {system}", move=repr(action),
                                                       system=self.system))
            return names.index(action)
        return int(action)

    def play(self, action: int | str, *, by: str = "gm") -> None:
        """Play ``action`` (catalogue index or name) at the pending decision."""
        if self.prompt is not None:
            raise ConfigError(FILE, "", Said("a die is awaited: type it (or undo) before the next move"))
        d = self.decision
        if d is None:
            raise ConfigError(FILE, "", Said("no decision is pending: the fight is over") if self.started
                              else Said("no decision is pending: start the fight"))
        index = self.action_index(action)
        if index not in self.legal():
            raise ConfigError(FILE, "action", Said("{move} is not a legal move for {name} now",
                                                   move=repr(self.engine.catalogue.name(index)),
                                                   name=self.state.combatants[d.actor].name))
        if len(self.played) >= MAX_STEPS:
            raise UserError(f"a tracked fight holds at most {MAX_STEPS} steps")
        self._run(Step(index, [], by))

    def type_die(self, face: int) -> None:
        """The face the GM rolled for the die :attr:`prompt` asks for."""
        if self.prompt is None or self.partial is None:
            raise ConfigError(FILE, "", Said("no die is awaited"))
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= self.prompt.sides:
            raise ConfigError(FILE, "face", Said("expected a face from 1 to {sides} of a d{sides}, got {face}",
                                                 sides=self.prompt.sides, face=repr(face)))
        step = self.partial
        step.typed.append(face)
        self._run(step)

    def advise(self, *, odds: int = 24, lang: str = "en", workers: int | None = 1) -> dict[str, Any]:
        """The advisor's answer at the pending decision (any side's: a PC's answer is a hint)."""
        from npc_tactics.gm.table.fight_advice import advise

        if self.decision is None:
            raise ConfigError(FILE, "", Said("no decision is pending"))
        return advise(self.engine, self.encoder, self.state, self.policy, self.bundle, self.plugin,
                      self._labels.get(lang, self._labels["en"]), lang=lang, odds=odds,
                      seed=self.seed + len(self.played), workers=workers)

    def play_advice(self, *, odds: int = 24, workers: int | None = 1) -> dict[str, Any]:
        """Play the advisor's move (one click); returns the advice that was followed."""
        advice = self.advise(odds=odds, workers=workers)
        self.play(int(advice["do"]["index"]), by="advisor")
        return advice

    def undo(self) -> None:
        """Take back the last typed face of a waiting step, else the last step (the opening too), and replay."""
        if self.partial is not None and self.partial.typed:
            steps = [p.step for p in self.played]
            partial = Step(self.partial.action, self.partial.typed[:-1], self.partial.by)
            self.replay(steps, partial)
            return
        if self.partial is not None:
            steps = [p.step for p in self.played]
        elif self.played:
            steps = [p.step for p in self.played[:-1]]
        else:
            raise ConfigError(FILE, "", Said("nothing to undo"))
        self.replay(steps, None)

    def replay(self, steps: Sequence[Step], partial: Step | None = None) -> None:
        """Rebuild the fight from its seed and ``steps`` (then ``partial``, a step waiting for a die)."""
        self.played, self.partial, self.prompt, self.state, self.started = [], None, None, None, False
        if not steps and partial is None:
            return
        if not steps:  # the opening itself waits for a die
            steps, partial = [], partial
            if partial is not None and partial.action is not None:
                raise ConfigError(FILE, "pending.action", Said("the first step is the opening: its action is null"))
            self.scenario = self._check(self.members)
            self.started = True
            self._run(Step(None, list(partial.typed) if partial is not None else [], "gm"))
            if self.prompt is None:
                raise ConfigError(FILE, "pending.typed", Said("the opening needs no more typed faces: put it in "
                                                              "steps"))
            return
        if steps[0].action is not None:
            raise ConfigError(FILE, "steps[0].action", Said("the first step is the opening: its action is null"))
        self.scenario = self._check(self.members)
        self.started = True
        for k, step in enumerate(steps):
            if k and step.action is None:
                raise ConfigError(FILE, f"steps[{k}].action", Said("only the first step (the opening) has no action"))
            if k and self.decision is None:
                raise ConfigError(FILE, f"steps[{k}]", Said("the fight was already over (or waiting for a die) here"))
            if k and step.action is not None and step.action not in self.legal():
                raise ConfigError(FILE, f"steps[{k}].action", Said("{move} is not a legal move at this point of the "
                                                                   "fight",
                                                                   move=repr(self.engine.catalogue.name(step.action))))
            try:
                self._run(Step(step.action, list(step.typed), step.by))
            except ValueError as exc:
                raise ConfigError(FILE, f"steps[{k}].typed", _face_said(exc)) from None
            if self.prompt is not None:
                raise ConfigError(FILE, f"steps[{k}].typed", Said("too few faces typed for this step"))
        if partial is not None:
            if self.decision is None or (partial.action is not None and partial.action not in self.legal()):
                raise ConfigError(FILE, "pending.action", Said("not a legal move at the end of the steps"))
            try:
                self._run(Step(partial.action, list(partial.typed), partial.by))
            except ValueError as exc:
                raise ConfigError(FILE, "pending.typed", _face_said(exc)) from None
            if self.prompt is None:
                raise ConfigError(FILE, "pending.typed", Said("the step needs no more typed faces: put it in steps"))

    def names(self) -> list[str]:
        if self.state is not None:
            return [str(c.name) for c in self.state.combatants]
        return [str(m.entry["name"]) for k in range(len(self.sides)) for m in self.members if m.side == k]

    def who_decides(self) -> str | None:
        d = self.decision
        return None if d is None else self.sides[int(d.side)].control
