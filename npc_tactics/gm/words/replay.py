"""``npc-tactics replay``: play one fight and tell it blow by blow, so a GM sees how an NPC fights.

The fight is exactly fight ``seed`` of ``simulate`` with the same agents (same dice stream, same agent streams);
each decision is shown by its move name (:func:`~npc_tactics.gm.words.naming.move_label`) and each event by its sentence
(:mod:`npc_tactics.gm.words.narrate`). Dice rolls, and events that only echo a choice just told (each system's
``SystemWords.echoes``), are shown only in verbose mode.

Sides are called by their names (:func:`side_names`: the scenario's ``sides: - name: goblins``, else their members,
"Brannoc's side"); the side number is said only beside the agent that plays it, since ``--agents`` lists the
agents by side number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.agents.resolve import agent_label, factory_of
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import MAX_DECISIONS, agent_rngs
from npc_tactics.gm.words.naming import move_label
from npc_tactics.gm.words.narrate import Teller, bodies_of, echoes, narrate_event, teller
from npc_tactics.i18n import N_, check_lang
from npc_tactics.plugin import System
from npc_tactics.rules.base import DecisionKind, Event, SideResult

__all__ = ["Line", "Replay", "given_side_names", "members_side_name", "replay", "side_names"]

QUIET = ("roll", "echo")
_RESULTS = {"win": N_("{side} won"), "loss": N_("{side} lost"), "draw": N_("{side} drew"),
            "fled": N_("{side} fled the field")}
#: the names the scenario loaders give a side the file leaves unnamed ("side 0", "side_1"): not the GM's words
_STAND_IN = re.compile(r"side[ _]?\d+", re.IGNORECASE)
#: most members a side named after them lists by name ("the side of Aldric, Pell and 2 others")
NAMED_MEMBERS = 3


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the story: ``kind`` is ``decision``, ``event``, ``roll``, ``echo`` (a record repeating what
    the story just told) or ``end``; rolls and echoes are told only in verbose mode."""

    round: int
    kind: str
    text: str
    event: str = ""
    raw: bool = False


@dataclass
class Replay:
    system: str
    scenario: str
    seed: int
    lang: str
    agents: list[str]
    lines: list[Line] = field(default_factory=list)
    roll_whys: set[str] = field(default_factory=set)  #: what the rolls were for, as the engine wrote it

    @property
    def raw_lines(self) -> list[Line]:
        """Events told as a raw dump for want of a sentence (none in any shipped scenario: tested)."""
        return [line for line in self.lines if line.raw]

    def text(self, verbose: bool = False) -> str:
        return "\n".join(line.text for line in self.lines if verbose or line.kind not in QUIET) + "\n"

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "scenario": self.scenario, "seed": self.seed, "lang": self.lang,
                "agents": list(self.agents), "lines": [asdict(line) for line in self.lines]}


def given_side_names(scenario: Any, sides: int) -> list[str | None]:
    """The name a scenario or situation gives each of its ``sides`` (``sides: - name: goblins``: the loaders'
    ``side_names``, or the mapping's ``sides[k].name``), None where it gives none; the stand-ins the loaders put
    in for a missing name ("side 0", "side_0") count as none."""
    names = getattr(scenario, "side_names", None)
    if names is None and isinstance(scenario, Mapping):
        names = [s.get("name") if isinstance(s, Mapping) else None for s in scenario.get("sides") or ()]
    out: list[str | None] = []
    for k in range(sides):
        name = names[k] if names is not None and k < len(names) else None
        text = name.strip() if isinstance(name, str) else ""
        out.append(text if text and not _STAND_IN.fullmatch(text) else None)
    return out


def members_side_name(members: Sequence[str], t: Teller) -> str:
    """A side without a name, called after its members: "Brannoc's side", "the side of Brannoc and Gorak", "the
    side of Aldric, Pell and 2 others" (in the teller's language)."""
    if not members:
        return t._("nobody")
    if len(members) == 1:
        return t._("{name}'s side").format(name=members[0])
    if len(members) <= NAMED_MEMBERS:
        return t._("the side of {names} and {last}").format(names=", ".join(members[:-1]), last=members[-1])
    rest = len(members) - (NAMED_MEMBERS - 1)
    return t.ngettext("the side of {names} and {n} other", "the side of {names} and {n} others", rest).format(
        names=", ".join(members[: NAMED_MEMBERS - 1]), n=rest)


def side_names(scenario: Any, combatants: Sequence[tuple[str, int]], sides: int, t: Teller) -> list[str]:
    """What a GM calls each side: the name the scenario gives it, else one made of its members
    (:func:`members_side_name`); ``combatants`` are ``(name, side)`` pairs."""
    given = given_side_names(scenario, sides)
    return [given[k] or members_side_name([n for n, s in combatants if s == k], t) for k in range(sides)]


def _members(state: Any) -> list[tuple[str, int]]:
    return [(str(c.name), int(c.side)) for c in state.combatants]


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _round_headers_first(lines: list[Line], system: System, t: Teller) -> list[Line]:
    """Each round's header before the round's first line (engines announce a round when its dice are first
    rolled, after some choices of that round; the first round's header may come before any event at all)."""
    headers = {line.round: line for line in lines if line.event == "round_start"}
    rounds = sorted({line.round for line in lines if line.round > 0})
    if rounds and rounds[0] not in headers:
        text, _ = narrate_event(system, Event("round_start", rounds[0], data={"result": str(rounds[0])}), t)
        headers[rounds[0]] = Line(rounds[0], "event", text, "")
    out: list[Line] = []
    for line in lines:
        if line.event == "round_start":
            continue
        header = headers.pop(line.round, None) if line.round > 0 else None
        if header is not None:
            out.append(header)
        out.append(line)
    return out + list(headers.values())


def replay(system: System, scenario: str | None, agents: Sequence[str], seed: int = 0, lang: str = "en",
           options: Mapping[str, Any] | None = None) -> Replay:
    """Play fight ``seed`` of ``scenario`` between ``agents`` (side 0 first) and tell it in ``lang``."""
    check_lang(lang)
    arena = Arena.build(system, scenario, options)
    if len(agents) != arena.sides:
        raise ValueError(f"{arena.system} needs one agent per side ({arena.sides}), got {len(agents)}")
    factories = [factory_of(arena.plugin, spec) for spec in agents]
    arena.check_agents(factories, agents)
    players = [make(arena.engine, rng) for make, rng in zip(factories, agent_rngs(seed, len(factories)), strict=True)]
    engine = arena.engine
    roller = RngRoller(np.random.default_rng(seed))
    state, opening = engine.new_combat(arena.scenario, roller)
    members = _members(state)
    n_sides = max(arena.sides, 1 + max((s for _n, s in members), default=-1))
    sides = side_names(arena.scenario, members, n_sides, teller([], lang))
    t = teller([n for n, _s in members], lang, sides, bodies_of(state))
    story = Replay(arena.system, arena.scenario_name, seed, lang, [agent_label(a) for a in agents])
    for side, name in enumerate(sides):
        names = ", ".join(n for n, s in members if s == side) or t._("nobody")
        story.lines.append(Line(0, "decision", _first_up(t._(
            "{side}: {names}; played by {agent} (side {number} in --agents).").format(
            side=name, names=names, agent=story.agents[side] if side < len(story.agents) else "?", number=side))))
    quiet = echoes(arena.plugin)

    def tell(events: Any) -> None:
        for e in events:
            text, raw = narrate_event(arena.plugin, e, t)
            if e.kind == "roll":
                story.roll_whys.add(str(e.data.get("why", "")))
            kind = "roll" if e.kind == "roll" else "echo" if e.kind in quiet else "event"
            story.lines.append(Line(e.round, kind, text, e.kind, raw))

    tell(opening)  # initiative, hit points, morale: the rolls made before the first decision
    decisions = 0
    while engine.outcome(state) is None:
        decision = engine.pending(state)
        if decision is None:
            raise RuntimeError(f"{engine.spec.name} engine has no pending decision but no outcome either")
        mask = engine.legal_mask(state, decision)
        action = int(players[decision.side].act(Observation(None, state, decision, engine, arena.encoder), mask))
        label = move_label(arena.plugin, engine, state, decision, action, lang)
        attacker = decision.context.get("attacker")
        if decision.kind == DecisionKind.REACT and isinstance(attacker, int):
            chose = t._("{actor}, attacked by {attacker}, chooses: {move}.").format(
                actor=t.name(decision.actor), attacker=t.name(attacker), move=label)
        else:
            chose = t._("{actor} chooses: {move}.").format(actor=t.name(decision.actor), move=label)
        story.lines.append(Line(int(getattr(state, "round", 0)), "decision", chose))
        state, events = engine.step(state, action, roller, inplace=True, mask=mask)
        tell(events)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"fight with seed {seed} did not end after {MAX_DECISIONS} decisions")
    story.lines = _round_headers_first(story.lines, arena.plugin, t)
    outcome = engine.outcome(state)
    assert outcome is not None  # the loop ends only on an outcome
    results = ", ".join(
        t._(_RESULTS[SideResult(int(r)).name.lower()]).format(side=t.side(s))
        for s, r in enumerate(outcome.results))
    story.lines.append(Line(int(outcome.rounds), "end", t.ngettext(
        "End of the fight after {n} round: {results}.", "End of the fight after {n} rounds: {results}.",
        int(outcome.rounds)).format(n=int(outcome.rounds), results=results)))
    return story
