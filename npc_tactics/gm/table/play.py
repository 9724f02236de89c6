"""``npc-tactics play``: a person plays the PCs against a bundle's NPCs at the table, decision by decision.

The fight is the system's own engine loop (ARCHITECTURE.md): at each decision of a PC, the legal moves are
listed by name (:func:`~npc_tactics.gm.words.labels.labeler_of`) with numbers to pick; at each decision of an NPC, the
bundle's policy chooses its most probable legal move, shown with its probability and, when the bundle has a
tactics card, the card rule behind it. With ``think`` seconds or ``playouts`` per decision (``--think`` /
``--playouts``, as for ``suggest``), the decision-time search over that policy chooses instead
(:mod:`npc_tactics.agents.search`; by-the-book plays the PCs in its play-outs), and a line says so when it
overrules the network; a play-out budget plays the same fight for the same seed and answers. Dice are rolled by
the engine from ``--seed`` or typed by the person (:class:`~npc_tactics.gm.table.dice.TypedDiceRoller`: forced
rolls, checked against the die asked for). Every event is told in plain words
(:class:`~npc_tactics.gm.words.play_words.Narrator`), in English or French.

Input is read through ``ask`` and output written through ``say``, so the loop runs the same in a terminal and
in tests. A bad answer is asked again, never a traceback; ``q`` (or the end of input) stops the fight.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller, Roller
from npc_tactics.errors import UserError
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import MAX_DECISIONS
from npc_tactics.gm.table.dice import TypedDiceRoller
from npc_tactics.gm.words.labels import card_rule, labeler_of
from npc_tactics.gm.words.narrate import bodies_of, teller
from npc_tactics.gm.words.play_words import Narrator
from npc_tactics.gm.words.replay import given_side_names, side_names
from npc_tactics.gm.words.summary import summary
from npc_tactics.i18n import translations, translator
from npc_tactics.locale_format import integer
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision, DecisionKind, SideResult

__all__ = ["DICE_MODES", "NpcSearch", "PlayResult", "Quit", "play"]

DICE_MODES = ("auto", "manual")
QUIT_WORDS = {"q", "quit", "exit", "quitter"}
HELP_WORDS = {"?", "h", "help", "aide"}
STATUS_WORDS = {"s", "status", "etat", "état"}
DOMAIN = "play"
#: Who plays the PCs in the search's play-outs: the opponent model of ``suggest --think``.
SEARCH_OPPONENT = "by-the-book"


class Quit(Exception):
    """The person asked to stop (``q``) or the input ended."""


PlayResult = dict[str, Any]


class NpcSearch:
    """The decision-time search over the bundle's policy that chooses the NPCs' moves (``--think`` / ``--playouts``):
    a :class:`~npc_tactics.agents.search.SearchAgent` whose play-outs continue the fight with the policy on the
    NPC's side and :data:`SEARCH_OPPONENT` on the others, as ``suggest`` searches. ``playouts`` (a budget per
    decision, the same moves for the same ``seed``) wins over ``think`` (seconds per decision)."""

    def __init__(self, arena: Arena, policy: Any, *, seed: int, think: float = 0.0,
                 playouts: int | None = None) -> None:
        from npc_tactics.agents.resolve import factory_of
        from npc_tactics.agents.search import DEFAULT_BUDGET, SearchAgent

        self.think = float(think)
        self.budget = playouts
        self.agent = SearchAgent(arena.engine, np.random.default_rng([seed, 1]),
                                 policy=lambda _engine, _rng: policy,
                                 opponent=factory_of(arena.plugin, SEARCH_OPPONENT),
                                 budget=playouts or DEFAULT_BUDGET, encoder=arena.encoder)
        #: seconds of each searched decision (one legal move is not searched)
        self.timings: list[float] = []

    def choose(self, state: Any, decision: Decision) -> tuple[int, int]:
        """The move the search plays at ``decision`` and the play-outs it rests on (0: a single legal move)."""
        before = self.agent.playouts
        started = time.perf_counter()
        ranked = self.agent.rank(state, decision, seconds=None if self.budget is not None else self.think)
        spent = self.agent.playouts - before
        if spent:
            self.timings.append(time.perf_counter() - started)
        return ranked[0].move, spent


class Table:
    """One fight at the table: the engine, the bundle's NPCs, the person's PCs, the dice and the words."""

    def __init__(self, arena: Arena, agent: Any, bundle: Path, *, lang: str, dice: str, seed: int,
                 ask: Callable[[str], str], say: Callable[[str], None], search: NpcSearch | None = None) -> None:
        self.arena = arena
        self.engine = arena.engine
        self.agent = agent
        self.bundle = bundle
        self.npc_side = int(agent.side)
        self.lang = lang
        self._ = translator(lang, DOMAIN)
        self.ngettext = translations(lang, DOMAIN).ngettext
        self.ask_raw = ask
        self.say = say
        self.label = labeler_of(arena.plugin, self.engine, lang)
        self.seed = seed
        self.manual = dice == "manual"
        self.search = search  #: chooses the NPCs' moves when given; else the network's most probable move
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
        self.say(summary(self.arena.plugin, self.engine, self.state, self.engine.pending(self.state), self.lang,
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
        if self.search is not None:
            self.say(self.search_text())
        self.help()
        self.state, opening = engine.new_combat(self.arena.scenario, self.roller)
        real = [(str(c.name), int(c.side)) for c in self.state.combatants]
        self.use_names(real, bodies_of(self.state))  # the names the rules gave, and the bodies hit locations name
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

    def use_names(self, names: list[tuple[str, int]], bodies: Sequence[str] = ()) -> None:
        n_sides = max(int(self.engine.spec.sides), 1 + max((s for _n, s in names), default=-1))
        self.sides = side_names(self.arena.scenario, names, n_sides, teller([], self.lang))
        self.narrator = Narrator(self.arena.plugin, [n for n, _side in names], self.lang, self.sides, bodies)
        if isinstance(self.roller, TypedDiceRoller):
            self.roller.names = [n for n, _side in names]
            self.roller.why_words = self.narrator.why

    def search_text(self) -> str:
        """The line that says how the NPCs' moves are searched."""
        _ = self._
        assert self.search is not None
        if self.search.budget is not None:
            return self.ngettext("Search: {n} play-out per NPC decision (in them, your side plays by the book).",
                                 "Search: {n} play-outs per NPC decision (in them, your side plays by the book).",
                                 self.search.budget).format(n=integer(self.search.budget, self.lang))
        seconds = f"{self.search.think:g}"
        return _("Search: {seconds} s per NPC decision (in them, your side plays by the book).").format(
            seconds=seconds.replace(".", ",") if self.lang == "fr" else seconds)

    def who(self, decision: Decision) -> str:
        return str(self.state.combatants[decision.actor].name)

    def npc_move(self, decision: Decision, mask: np.ndarray) -> int:
        _ = self._
        vector = self.arena.encoder.encode(self.state, decision)
        probs = self.agent.action_probabilities(vector, mask)
        action = int(np.argmax(np.where(mask, probs, -1.0)))
        network, spent = action, 0
        if self.search is not None:
            action, spent = self.search.choose(self.state, decision)
        self.say(_("{actor} (NPC) chooses: {move} ({p:.0%} by the policy).").format(
            actor=self.who(decision), move=self.label(self.state, decision, action), p=float(probs[action])))
        if action != network:
            self.say(self.ngettext("  searched {n} play-out: {move} instead of the policy's choice, {policy}.",
                                   "  searched {n} play-outs: {move} instead of the policy's choice, {policy}.",
                                   spent).format(n=integer(spent, self.lang),
                                                 move=self.label(self.state, decision, action),
                                                 policy=self.label(self.state, decision, network)))
        rule = card_rule(str(self.bundle), self.arena.plugin, self.engine, self.state, decision, self.lang)
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
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(legal):
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
         options: Mapping[str, Any] | None = None, think: float = 0.0,
         playouts: int | None = None) -> PlayResult | None:
    """Play one fight of ``scenario`` against the NPCs of ``bundle``; None when the person quit.

    ``think``: seconds of decision-time search per NPC decision (0: the network alone), or ``playouts``: a search
    of that many play-outs (reproducible for a seed; wins over ``think``), as for ``suggest``. Bad arguments
    (unknown language or dice mode, a bad search setting, a folder that is not a bundle, a bundle of another
    system, a scenario whose NPCs the bundle cannot read) raise :class:`UserError` before anything is asked."""
    from npc_tactics.gm.advice.suggest import _check_options
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    _check_options(0, None, None, think, playouts)  # suggest's own check of --think and --playouts
    _ = translator(lang, DOMAIN)
    if dice not in DICE_MODES:
        raise UserError(f"--dice: unknown mode {dice!r}; valid modes: {', '.join(DICE_MODES)}")
    agent = load_bundle_agent(bundle, deterministic=True)
    plugin = get_system(system)  # the command's system, resolved once here
    wanted = plugin.name
    if agent.system != wanted:
        raise UserError(f"--bundle: {bundle} plays {agent.system!r}, not {wanted!r}")
    arena = Arena.build(plugin, scenario, options if options is not None else agent.options)
    size = int(getattr(arena.encoder, "size", 0))
    if size and size != agent.obs_size:
        raise UserError(f"--bundle: {bundle} reads {agent.obs_size} observation values but {arena.system} "
                        f"{arena.scenario_name} gives {size}")
    if not 0 <= agent.side < int(arena.engine.spec.sides):
        raise UserError(f"--bundle: {bundle} plays side {agent.side}, which {arena.system} does not have")
    for warning in agent.warnings:
        say(_("bundle: {warning}").format(warning=warning))
    search = NpcSearch(arena, agent, seed=seed, think=think, playouts=playouts) \
        if think > 0 or playouts is not None else None
    table = Table(arena, agent, Path(bundle), lang=lang, dice=dice, seed=seed, ask=ask, say=say, search=search)
    try:
        return table.run()
    except Quit:
        say("")
        say(_("Fight stopped. Goodbye."))
        return None
    except KeyboardInterrupt:  # the CLI exits 130; end the half-typed line first
        say("")
        raise

