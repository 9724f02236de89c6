"""``npc-tactics replay``: play one fight and tell it blow by blow, so a GM sees how an NPC fights.

The fight is exactly fight ``seed`` of ``simulate`` with the same agents (same dice stream, same agent streams);
each decision is shown by its move name (:func:`~npc_tactics.gm.words.naming.move_label`) and each event by its sentence
(:mod:`npc_tactics.gm.words.narrate`). Dice rolls, and events that only echo a choice just told (each system's
``SystemWords.echoes``), are shown only in verbose mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.agents.resolve import agent_factory, agent_label
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import MAX_DECISIONS, agent_rngs
from npc_tactics.gm.words.naming import move_label
from npc_tactics.gm.words.narrate import Teller, echoes, narrate_event, teller
from npc_tactics.i18n import N_, check_lang
from npc_tactics.rules.base import DecisionKind, Event, SideResult

__all__ = ["Line", "Replay", "replay"]

QUIET = ("roll", "echo")
_RESULTS = {"win": N_("side {side} wins"), "loss": N_("side {side} loses"), "draw": N_("side {side} draws"),
            "fled": N_("side {side} fled the field")}


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


def _side_names(state: Any, t: Teller) -> list[str]:
    sides: dict[int, list[str]] = {}
    for c in state.combatants:
        sides.setdefault(int(c.side), []).append(str(c.name))
    return [", ".join(sides.get(s, [])) or t._("nobody") for s in range(max(sides) + 1)]


def _round_headers_first(lines: list[Line], system: str, t: Teller) -> list[Line]:
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


def replay(system: str, scenario: str | None, agents: Sequence[str], seed: int = 0, lang: str = "en",
           options: Mapping[str, Any] | None = None) -> Replay:
    """Play fight ``seed`` of ``scenario`` between ``agents`` (side 0 first) and tell it in ``lang``."""
    check_lang(lang)
    arena = Arena.build(system, scenario, options)
    if len(agents) != arena.sides:
        raise ValueError(f"{arena.system} needs one agent per side ({arena.sides}), got {len(agents)}")
    factories = [agent_factory(arena.system, spec) for spec in agents]
    arena.check_agents(factories, agents)
    players = [make(arena.engine, rng) for make, rng in zip(factories, agent_rngs(seed, len(factories)), strict=True)]
    engine = arena.engine
    roller = RngRoller(np.random.default_rng(seed))
    state, opening = engine.new_combat(arena.scenario, roller)
    t = teller([str(c.name) for c in state.combatants], lang)
    story = Replay(arena.system, arena.scenario_name, seed, lang, [agent_label(a) for a in agents])
    for side, names in enumerate(_side_names(state, t)):
        story.lines.append(Line(0, "decision", t._("Side {side} ({agent}): {names}.").format(
            side=side, agent=story.agents[side] if side < len(story.agents) else "?", names=names)))
    quiet = echoes(arena.system)

    def tell(events: Any) -> None:
        for e in events:
            text, raw = narrate_event(arena.system, e, t)
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
        label = move_label(arena.system, engine, state, decision, action, lang)
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
    story.lines = _round_headers_first(story.lines, arena.system, t)
    outcome = engine.outcome(state)
    assert outcome is not None  # the loop ends only on an outcome
    results = ", ".join(
        t._(_RESULTS[SideResult(int(r)).name.lower()]).format(side=s)
        for s, r in enumerate(outcome.results))
    story.lines.append(Line(int(outcome.rounds), "end", t.ngettext(
        "End of the fight after {n} round: {results}.", "End of the fight after {n} rounds: {results}.",
        int(outcome.rounds)).format(n=int(outcome.rounds), results=results)))
    return story
