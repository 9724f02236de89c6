"""``npc-tactics play``: a person plays the PCs against a bundle's NPCs at the table, decision by decision.

The fight is the system's own engine loop (ARCHITECTURE.md): at each decision of a PC, the legal moves are
listed by name (:func:`~npc_tactics.gm.words.labels.labeler`) with numbers to pick; at each decision of an NPC, the
bundle's policy chooses its most probable legal move, shown with its probability and, when the bundle has a
tactics card, the card rule behind it. Dice are rolled by the engine from ``--seed`` or typed by the person
(:class:`~npc_tactics.gm.table.dice.TypedDiceRoller`: forced rolls, checked against the die asked for). Every
event is told in plain words (:class:`~npc_tactics.gm.words.play_words.Narrator`), in English or French.

Input is read through ``ask`` and output written through ``say``, so the loop runs the same in a terminal and
in tests. A bad answer is asked again, never a traceback; ``q`` (or the end of input) stops the fight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller, Roller
from npc_tactics.errors import UserError
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import MAX_DECISIONS
from npc_tactics.gm.table.dice import TypedDiceRoller
from npc_tactics.gm.words.labels import card_rule, labeler
from npc_tactics.gm.words.narrate import teller
from npc_tactics.gm.words.play_words import Narrator
from npc_tactics.gm.words.replay import given_side_names, side_names
from npc_tactics.gm.words.summary import summary
from npc_tactics.i18n import translator
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision, DecisionKind, SideResult

__all__ = ["DICE_MODES", "PlayResult", "Quit", "play"]

DICE_MODES = ("auto", "manual")
QUIT_WORDS = {"q", "quit", "exit", "quitter"}
HELP_WORDS = {"?", "h", "help", "aide"}
STATUS_WORDS = {"s", "status", "etat", "état"}
DOMAIN = "play"


class Quit(Exception):
    """The person asked to stop (``q``) or the input ended."""


PlayResult = dict[str, Any]


class Table:
    """One fight at the table: the engine, the bundle's NPCs, the person's PCs, the dice and the words."""

    def __init__(self, arena: Arena, agent: Any, bundle: Path, *, lang: str, dice: str, seed: int,
                 ask: Callable[[str], str], say: Callable[[str], None]) -> None:
        self.arena = arena
        self.engine = arena.engine
        self.agent = agent
        self.bundle = bundle
        self.npc_side = int(agent.side)
        self.lang = lang
        self._ = translator(lang, DOMAIN)
        self.ask_raw = ask
        self.say = say
        self.label = labeler(arena.system, self.engine, lang)
        self.seed = seed
        self.manual = dice == "manual"
        self.narrator: Narrator | None = None
        self.sides: list[str] = []  #: what the GM calls each side (:func:`~npc_tactics.gm.words.replay.side_names`)
        self.state: Any = None
        self.roller: Roller
        if self.manual:
            self.roller = TypedDiceRoller(self.ask, say, self._)
        else:
            self.roller = RngRoller(np.random.default_rng(seed))

    # ----- input ------------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """One answer; ``q`` and the end of input stop the fight, ``?`` prints the help, ``s`` the status."""
        while True:
            try:
                answer = self.ask_raw(prompt)
            except EOFError:
                raise Quit from None
            word = answer.strip().lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in HELP_WORDS:
                self.help()
                continue
            if word in STATUS_WORDS and self.state is not None:
                self.status()
                continue
            return answer

    def help(self) -> None:
        _ = self._
        self.say(_("Type the number of a move, or the face you rolled when a die is asked for; "
                   "'s' shows the fight, 'q' quits, '?' this help."))

    def status(self) -> None:
        self.say(summary(self.arena.system, self.engine, self.state, self.engine.pending(self.state), self.lang,
                         self.sides))

    # ----- the fight --------------------------------------------------------------------------------------
    def run(self) -> PlayResult:
        _ = self._
        engine = self.engine
        # the combatants' names, from a throw-away opening (no dice typed for it): the opening's own rolls are
        # then announced with who rolls and why, in the GM's words
        names = self._names_from_scenario()
        self.use_names(names)
        self.say(_("{scenario} ({system}): you play {pc}; the bundle {bundle} plays {npc}.").format(
            scenario=self.arena.scenario_name, system=self.arena.system, pc=self.pc_sides_text(names),
            bundle=self.bundle.name, npc=self.side_text(self.npc_side, names)))
        self.say(_("Dice: rolled by the engine (seed {seed}).").format(seed=self.seed) if not self.manual
                 else _("Dice: you roll them and type each face."))
        self.help()
        self.state, opening = engine.new_combat(self.arena.scenario, self.roller)
        real = [(str(c.name), int(c.side)) for c in self.state.combatants]
        if real != names:
            self.use_names(real)
        self.tell(opening)  # hit points, initiative, morale: what the rules roll before the first decision
        shown_round = -1
        decisions = 0
        while (outcome := engine.outcome(self.state)) is None:
            decision = engine.pending(self.state)
            if decision is None:
                raise RuntimeError(f"{engine.spec.name} engine has no pending decision but no outcome either")
            rnd = int(getattr(self.state, "round", 0))
            if rnd != shown_round:
                self.say("")
                self.say(_("=== Round {n} ===").format(n=rnd))
                self.status()
                shown_round = rnd
            mask = engine.legal_mask(self.state, decision)
            if decision.side == self.npc_side:
                action = self.npc_move(decision, mask)
            else:
                action = self.pc_move(decision, mask)
            self.state, events = engine.step(self.state, action, self.roller, inplace=True, mask=mask)
            self.tell(events)
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"the fight did not end after {MAX_DECISIONS} decisions")
        return self.finish(outcome)

    def side_text(self, side: int, names: list[tuple[str, int]]) -> str:
        """A side as the GM reads it: its name and members ("goblins (Snikkit)"), or a name made of its members
        when the scenario gives it none ("Brannoc's side")."""
        name = self.sides[side] if side < len(self.sides) else str(side)
        if given_side_names(self.arena.scenario, len(self.sides))[side] is None:
            return name
        return f"{name} ({', '.join(n for n, s in names if s == side)})"

    def pc_sides_text(self, names: list[tuple[str, int]]) -> str:
        return ", ".join(self.side_text(s, names) for s in range(int(self.engine.spec.sides)) if s != self.npc_side)

    def _names_from_scenario(self) -> list[tuple[str, int]]:
        state, _opening = self.engine.new_combat(self.arena.scenario, RngRoller(np.random.default_rng(0)))
        return [(str(c.name), int(c.side)) for c in state.combatants]

    def use_names(self, names: list[tuple[str, int]]) -> None:
        n_sides = max(int(self.engine.spec.sides), 1 + max((s for _n, s in names), default=-1))
        self.sides = side_names(self.arena.scenario, names, n_sides, teller([], self.lang))
        self.narrator = Narrator(self.arena.system, [n for n, _side in names], self.lang, self.sides)
        if isinstance(self.roller, TypedDiceRoller):
            self.roller.names = [n for n, _side in names]
            self.roller.why_words = self.narrator.why

    def who(self, decision: Decision) -> str:
        return str(self.state.combatants[decision.actor].name)

    def npc_move(self, decision: Decision, mask: np.ndarray) -> int:
        _ = self._
        vector = self.arena.encoder.encode(self.state, decision)
        probs = self.agent.action_probabilities(vector, mask)
        action = int(np.argmax(np.where(mask, probs, -1.0)))
        self.say(_("{actor} (NPC) chooses: {move} ({p:.0%} by the policy).").format(
            actor=self.who(decision), move=self.label(self.state, decision, action), p=float(probs[action])))
        rule = card_rule(str(self.bundle), self.arena.system, self.engine, self.state, decision, self.lang)
        if rule is not None:
            self.say(_("  tactics card: {text}").format(text=rule["text"]))
        return action

    def pc_move(self, decision: Decision, mask: np.ndarray) -> int:
        _ = self._
        legal = [int(a) for a in np.flatnonzero(mask)]
        attacker = decision.context.get("attacker")
        if decision.kind == DecisionKind.REACT and isinstance(attacker, int):
            self.say(_("{actor} is attacked by {attacker}: how does {actor} answer?").format(
                actor=self.who(decision), attacker=self.state.combatants[attacker].name))
        else:
            self.say(_("{actor} decides:").format(actor=self.who(decision)))
        for k, action in enumerate(legal, 1):
            self.say(f"  {k:>2}. {self.label(self.state, decision, action)}")
        prompt = _("Your move for {actor} [1-{n}]: ").format(actor=self.who(decision), n=len(legal))
        while True:
            answer = self.ask(prompt).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.say(_("Please type a number from 1 to {n} ('?' for help, 'q' to quit).").format(n=len(legal)))

    def tell(self, events: list[Any]) -> None:
        assert self.narrator is not None  # set before the first decision
        echoes = self.narrator.echoes
        for e in events:
            if e.kind == "round_start" or e.kind in echoes or (e.kind == "roll" and self.manual):
                continue
            self.say("  " + self.narrator.tell(e))

    def finish(self, outcome: Any) -> PlayResult:
        _ = self._
        pc = next(s for s in range(int(self.engine.spec.sides)) if s != self.npc_side)
        result = SideResult(int(outcome.results[pc]))
        words = {SideResult.WIN: _("You win."), SideResult.LOSS: _("The NPCs win."),
                 SideResult.DRAW: _("A draw."), SideResult.FLED: _("Your side fled the field.")}
        self.say("")
        self.say(_("End of the fight after round {n}: {result}").format(n=int(outcome.rounds), result=words[result]))
        return {"result": result.name.lower(), "rounds": int(outcome.rounds)}


def play(system: str, scenario: str, bundle: str | Path, *, lang: str = "en", seed: int = 0, dice: str = "auto",
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
         options: Mapping[str, Any] | None = None) -> PlayResult | None:
    """Play one fight of ``scenario`` against the NPCs of ``bundle``; None when the person quit.

    Bad arguments (unknown language or dice mode, a folder that is not a bundle, a bundle of another system, a
    scenario whose NPCs the bundle cannot read) raise :class:`UserError` before anything is asked."""
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    _ = translator(lang, DOMAIN)
    if dice not in DICE_MODES:
        raise UserError(f"--dice: unknown mode {dice!r}; valid modes: {', '.join(DICE_MODES)}")
    agent = load_bundle_agent(bundle, deterministic=True)
    wanted = get_system(system).name
    if agent.system != wanted:
        raise UserError(f"--bundle: {bundle} plays {agent.system!r}, not {wanted!r}")
    arena = Arena.build(wanted, scenario, options if options is not None else agent.options)
    size = int(getattr(arena.encoder, "size", 0))
    if size and size != agent.obs_size:
        raise UserError(f"--bundle: {bundle} reads {agent.obs_size} observation values but {arena.system} "
                        f"{arena.scenario_name} gives {size}")
    if not 0 <= agent.side < int(arena.engine.spec.sides):
        raise UserError(f"--bundle: {bundle} plays side {agent.side}, which {arena.system} does not have")
    for warning in agent.warnings:
        say(_("bundle: {warning}").format(warning=warning))
    table = Table(arena, agent, Path(bundle), lang=lang, dice=dice, seed=seed, ask=ask, say=say)
    try:
        return table.run()
    except Quit:
        say("")
        say(_("Fight stopped. Goodbye."))
        return None
    except KeyboardInterrupt:  # the CLI exits 130; end the half-typed line first
        say("")
        raise

