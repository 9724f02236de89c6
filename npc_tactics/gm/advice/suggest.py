"""What should this NPC do now? Rank the acting NPC's legal moves at any decision, with odds, honestly.

A GM describes the fight in the system's own terms (a situation YAML: combatants from the bestiary, wounds,
distances, the round, which NPC acts and, optionally, the decision pending: a blow to answer, a pool to
split, effects to pick, a follow-up option); ``content.load_situation`` turns it into an engine state at that
decision; the policy's masked probabilities rank the moves. On top of that:

* ``odds=N``: N rollouts of the rest of the fight per move (:mod:`npc_tactics.gm.advice.odds`), the NPC side played
  by the policy and the other side by ``opponent`` (a scripted agent, a bundle or a run folder).
* ``think=S`` (or ``playouts=N``): decision-time search over the policy's likely moves
  (:mod:`npc_tactics.agents.search`): its move goes first, with the play-outs' mean value; 0 is the network alone.
* Out of distribution: when the situation's observation lies outside the ranges the bundle met in training,
  the features are named and the answer falls back to rollout odds (run automatically), saying so.
* The whole turn: where the NPC's turn spans several decisions, the plan for the rest of the round.
* Trust: how long the policy trained, its evaluation rates, the rules version (:mod:`npc_tactics.gm.advice.trust`).
Whatever the loader had to assume comes back as ``assumptions`` lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.search import Ranked
from npc_tactics.configs.sniff import wrong_system_error
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.advice.odds import DEFAULT_FALLBACK_ODDS, MAX_ODDS, mark_within_best, move_odds
from npc_tactics.gm.advice.result import RankedMove, SearchSummary, Suggestion
from npc_tactics.gm.advice.trust import trust_of
from npc_tactics.gm.advice.turn import plan_turn
from npc_tactics.gm.advice.unusual import rests_on, unusual_lines
from npc_tactics.gm.words.labels import card_rule, labeler_of
from npc_tactics.gm.words.summary import summary
from npc_tactics.i18n import translator
from npc_tactics.limits import MAX_THINK
from npc_tactics.plugin import System
from npc_tactics.policy_io.agent import Observation, Policy
from npc_tactics.registry import get_system
from npc_tactics.rollouts import RolloutJob, run_rollouts
from npc_tactics.rollouts.agents import agent_builder, check_spec

__all__ = ["SHIPPED_DIR", "RankedMove", "Suggestion", "shipped_bundle", "suggest"]

#: the generalist bundles shipped with the package, one folder per system (trained by `make policies`)
SHIPPED_DIR = Path(__file__).resolve().parents[2] / "policies"


def shipped_bundle(system: str) -> Path:
    """The shipped generalist bundle of ``system`` (``npc_tactics/policies/<system>``): what ``suggest --system``
    uses when no --run or --bundle is named. An unknown system lists the systems; a system without a shipped
    bundle lists those that have one."""
    name = get_system(system).name
    path = SHIPPED_DIR / name
    if not (path / "schema.json").is_file():
        have = sorted(p.name for p in SHIPPED_DIR.glob("*") if (p / "schema.json").is_file())
        raise UserError(f"no shipped policy for {name} (shipped: {', '.join(have) or 'none'}); "
                        "train one, or run `make policies`")
    return path


def _run_system(run: Path) -> tuple[str, dict[str, Any]]:
    """The system and rules options of a run folder, from its validated config.yaml (no model loaded)."""
    from npc_tactics.runs import RunDir

    config = RunDir(run).config()
    return config.system, dict(config.options)


def _engine(info: Any, options: dict[str, Any], source: str | Path | None, *, from_run: bool) -> Any:
    """The system's engine under the policy's rules options; a bad option (a hand-edited config.yaml of a run)
    is one line naming the file and the option, not a ValueError from deep in the rules."""
    try:
        return info.load("engine")(options)
    except (ValueError, TypeError) as exc:
        where = str(Path(str(source)) / "config.yaml") if from_run else str(source or "the policy")
        raise ConfigError(where, "options", str(exc)) from None


def _load_policy(run_dir: str | Path) -> Any:
    import warnings

    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.runs import RulesVersionWarning

    with warnings.catch_warnings():  # the agent's notes carry it into the suggestion instead
        warnings.simplefilter("ignore", RulesVersionWarning)
        return load_policy_agent(run_dir)


def _check_options(odds: int, top: int | None, workers: int | None, think: float, playouts: int | None) -> None:
    if isinstance(think, bool) or not isinstance(think, int | float) or not 0.0 <= think <= MAX_THINK:
        raise UserError(f"think: expected seconds of search from 0 to {MAX_THINK:g}, got {think!r}")
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
        raise UserError(f"playouts: expected a whole number of play-outs, at least 1, got {playouts!r}")
    if isinstance(odds, bool) or not isinstance(odds, int) or not 0 <= odds <= MAX_ODDS:
        raise UserError(f"odds: expected a whole number of rollouts per move from 0 to {MAX_ODDS}, got {odds!r}")
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise UserError(f"top: expected a whole number of moves, at least 1, got {top!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise UserError(f"workers: expected a whole number of processes, at least 1, got {workers!r}")


def suggest(source: str | Path | None, situation: str | Path | dict[str, Any], *, seed: int = 0,
            policy: Any | None = None, odds: int = 0, opponent: str = "by-the-book", lang: str = "en",
            top: int | None = None, workers: int | None = None, turn: bool = True, think: float = 0.0,
            playouts: int | None = None) -> Suggestion:
    """Rank the legal moves of the NPC that decides in ``situation`` with the policy of ``source`` (a run folder
    or a bundle folder; or ``policy``, e.g. a bundle's :class:`~npc_tactics.policy_io.onnx_agent.OnnxAgent`).

    ``odds``: rollouts per move (0: none, unless the situation is out of distribution); ``opponent``: who plays
    the other side in rollouts; ``top``: list (and roll out) only the policy's N most probable moves;
    ``workers``: rollout processes (default: one per core; the figures do not depend on it); ``turn``: plan the
    rest of the NPC's round; ``think``: seconds of decision-time search (0: the network alone), or
    ``playouts``: a search of that many play-outs (reproducible for a seed; wins over ``think``). Raises
    :class:`~npc_tactics.errors.UserError` (bad option or run dir) or ``ConfigError`` (bad situation file,
    naming the field). The situation is read before the policy is loaded.
    """
    _check_options(odds, top, workers, think, playouts)
    _ = translator(lang)
    if policy is not None:
        system, options = policy.system, dict(policy.options)
    elif source is not None and (Path(source) / "schema.json").is_file():
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        policy = load_bundle_agent(source)
        system, options = policy.system, dict(policy.options)
    else:
        system, options = _run_system(Path(str(source)))
    info = get_system(system)
    engine = _engine(info, options, source, from_run=policy is None)
    content = info.load("content")
    assumptions: list[str] = []
    try:
        state = content.load_situation(engine, situation, RngRoller(np.random.default_rng(seed)), notes=assumptions)
    except ConfigError as exc:
        raise wrong_system_error(exc, situation, "situation", info.name, f"the run {source} is") from None
    check_spec(info, opponent)
    if policy is None:
        policy = _load_policy(str(source))
    encoder = info.load("encoder")(engine)
    size = int(getattr(encoder, "size", 0))
    if not isinstance(policy, Policy):
        raise UserError(f"{source}: {type(policy).__name__} gives no move probabilities: suggest needs a trained "
                        "policy (a run or a bundle)")
    wants = policy.obs_size
    if size and wants != size:
        raise UserError(
            f"{source}: its policy reads {wants} observation values but {info.name} gives {size}: the model "
            "and config.yaml of this run disagree (a model copied from another run or an older encoder?)"
        )
    decision = engine.pending(state)
    if decision is None:
        raise UserError(f"{situation}: the fight described is already over; nobody has a decision to make")
    notes: list[str] = list(policy.notes)
    if decision.side != policy.side:
        notes.append(_("the acting combatant is on side {side}, the policy was trained for side {trained}; "
                       "ranking it anyway from its own perspective").format(
                           side=decision.side, trained=policy.side))
    notes.extend(_("bundle: {warning}").format(warning=w) for w in policy.warnings)
    mask = engine.legal_mask(state, decision)
    vector = encoder.encode(state, decision)
    if not np.all(np.isfinite(vector)):
        raise UserError(f"{situation}: a number in this situation is too large to describe to the policy")
    outside = policy.out_of_range(vector)
    fallback = bool(outside) and odds == 0
    if outside:  # what is unusual, by creature and in the game's words; the feature names stay in the JSON
        notes.extend(unusual_lines(info, state, decision, outside, lang))
        notes.append(rests_on(lang, rollouts=DEFAULT_FALLBACK_ODDS if fallback else odds, fallback=fallback,
                              opponent=opponent))
    probs = policy.action_probabilities(vector, mask)
    legal = np.flatnonzero(mask)
    order = [int(a) for a in sorted(legal, key=lambda a: (-float(probs[a]), int(a)))]
    label = labeler_of(info, engine, lang)
    n_odds = DEFAULT_FALLBACK_ODDS if fallback else odds
    bundle = policy.bundle
    spec = str(bundle.path) if bundle is not None else None
    spec = spec or (str(source) if source is not None and Path(source).is_dir() else None)
    odds_by_move: dict[int, Any] = {}
    if n_odds:
        if spec is None:
            raise UserError("odds: rollouts need the policy's bundle or run folder on disk (give --bundle or --run)")
        rolled = order if fallback or top is None else order[:top]
        npc = "by-the-book" if fallback else spec  # out of its distribution, the policy does not play on either
        sides = [npc if s == decision.side else opponent for s in range(int(engine.spec.sides))]
        job = RolloutJob(engine, state, decision.actor, decision.side, tuple(sides))
        runs = run_rollouts(job, rolled, n_odds, seed=seed, workers=workers)
        odds_by_move = mark_within_best({m: move_odds(r) for m, r in runs.items()})
    if fallback:
        order.sort(key=lambda a: (-odds_by_move[a].score, -float(probs[a]), a))
    searched: dict[int, Ranked] = {}
    thought: SearchSummary | None = None
    if (think > 0 or playouts is not None) and not fallback and len(order) > 1:
        searched, thought = _search(engine, encoder, state, decision, policy, info, opponent, seed=seed,
                                    think=think, playouts=playouts)
        ranked = list(searched)
        order = ranked + [a for a in order if a not in searched]
    shown_moves = order if top is None else order[:top]
    moves = [RankedMove(a, engine.catalogue.name(a), float(probs[a]), label(state, decision, a),
                        odds_by_move.get(a), searched.get(a)) for a in shown_moves]
    if top is not None and top < len(order):
        notes.append(_("{shown} of {legal} legal moves shown (--top)").format(shown=len(moves), legal=len(order)))
    plan = None
    if turn and moves:
        plan = plan_turn(engine, encoder, state, moves[0].action, policy, agent_builder(info, opponent),
                         label, seed=seed)
    return Suggestion(
        system=info.name, actor=state.combatants[decision.actor].name, decision=decision.kind.name,
        round=int(getattr(state, "round", 0)), moves=moves, notes=notes,
        situation_text=summary(info, engine, state, decision, lang), assumptions=assumptions,
        ranked_by="rollouts" if fallback else "search" if thought is not None else "policy", odds=n_odds,
        opponent=opponent if n_odds else None,
        seed=seed, out_of_distribution=[(n, v, lo, hi) for n, v, lo, hi in outside], turn=plan,
        trust=trust_of(source, policy, engine.spec.version), card_rule=card_rule(spec, info, engine, state,
                                                                                  decision, lang),
        legal_moves=len(order), lang=lang, context=dict(decision.context), search=thought)


def _search(engine: Any, encoder: Any, state: Any, decision: Any, policy: Any, system: System, opponent: str, *,
            seed: int, think: float, playouts: int | None) -> tuple[dict[int, Ranked], SearchSummary]:
    """The search agent's ranking at this decision (its move first), over ``policy`` itself (already loaded),
    the other side played by ``opponent``."""
    import time

    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.agents.search import DEFAULT_BUDGET, SearchAgent

    agent = SearchAgent(engine, np.random.default_rng(seed), policy=lambda _engine, _rng: policy,
                        opponent=factory_of(system, opponent), budget=playouts or DEFAULT_BUDGET,
                        encoder=encoder)
    started = time.perf_counter()
    ranking = agent.rank(state, decision, seed=seed, seconds=None if playouts is not None else think)
    seconds = time.perf_counter() - started
    own = int(policy.act(Observation(None, state, decision, engine, encoder), engine.legal_mask(state, decision)))
    return ({r.move: r for r in ranking},
            SearchSummary(playouts=agent.playouts, seconds=seconds, think=None if playouts is not None else think,
                          budget=playouts, policy_move=own, opponent=opponent))
