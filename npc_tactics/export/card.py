"""``npc-tactics card BUNDLE_DIR``: distil a bundle's policy into a tactics card, measure it, write it.

The card itself (:class:`Card`, loaded without scikit-learn) lives in :mod:`npc_tactics.policy_io.card`; this
module builds it: DAgger/VIPER distillation (:mod:`npc_tactics.export.card_distil`) at each depth of the sweep,
for two kinds of card (rules only, and exceptions to by-the-book: rules that say where the network departs from
by-the-book, "play by the book" otherwise), then the card, the network and by-the-book each play the same
``fights`` seeds in the NPC seat against the bundle's training opponents in turn
(:mod:`npc_tactics.export.card_play`). The smallest depth whose card wins within :data:`WITHIN` of the network
is kept, the better kind at that depth (the best card if none is).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.card import CardAgent
from npc_tactics.errors import UserError
from npc_tactics.export.card_distil import (
    Dataset,
    card_choices,
    fallback_lists,
    fidelity,
    fit_rules,
    make_dataset,
    rule_stats,
)
from npc_tactics.export.card_play import Visited, label_with_network, play_seat, seat_summary
from npc_tactics.i18n import N_
from npc_tactics.plugin import System
from npc_tactics.policy_io.card import BY_THE_BOOK, Card, CardError, CardRule
from npc_tactics.policy_io.card_features import features_for
from npc_tactics.policy_io.onnx_agent import OnnxAgent

__all__ = ["DEFAULT_DEPTHS", "WITHIN", "Card", "CardError", "CardRule", "build_card", "kept_gain"]

DEFAULT_DEPTHS = (2, 3, 4, 5)
#: A card is good enough when its win rate is at most this far below the network's.
WITHIN = 0.02
#: the ``action_name`` of a "play by the book" rule
BOOK_NAME = "by-the-book"
CHOICES = {
    "within": N_("the smallest depth within 2 points"),
    "best": N_("no depth came within 2 points; the best card is kept"),
}


def kept_gain(card: np.ndarray, net: np.ndarray, book: np.ndarray, seed: int,
              resamples: int = 2000) -> dict[str, float] | None:
    """The share of the network's win-rate gain over by-the-book that the card keeps, with a paired bootstrap
    95% interval over fights; None when the network does not measurably beat by-the-book (the gain's own
    bootstrap interval reaches 0): a share of a gain that may be nothing is noise (it gave -900%)."""
    gain = float(net.mean() - book.mean())
    if gain <= 0:
        return None
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(net), size=(resamples, len(net)))
    num = card[idx].mean(axis=1) - book[idx].mean(axis=1)
    den = net[idx].mean(axis=1) - book[idx].mean(axis=1)
    if float(np.percentile(den, 2.5)) <= 0:
        return None
    ok = den > 0
    shares = num[ok] / den[ok]
    low, high = (np.percentile(shares, [2.5, 97.5]) if len(shares) else (np.nan, np.nan))
    return {"share": float((card.mean() - book.mean()) / gain), "low": float(low), "high": float(high)}


def _scene(arena: Any, side: int) -> dict[str, Any]:
    """Names and weapons from the scenario's opening state, for the card's words."""
    from npc_tactics.dice import RngRoller

    state, _ = arena.engine.new_combat(arena.scenario, RngRoller(np.random.default_rng(0)))
    mine = [c for c in state.combatants if int(c.side) == side]
    foes = [c for c in state.combatants if int(c.side) != side]
    weapons = []
    for w in getattr(mine[0], "weapons", ()) if mine else ():
        spec = getattr(w, "spec", None)
        weapons.append(str(getattr(spec, "name", w)))
    return {"npcs": [str(c.name) for c in mine], "foes": [str(c.name) for c in foes], "enemy_count": len(foes),
            "weapons": weapons}


def build_card(bundle_dir: str | Path, *, fights: int = 2000, depths: Sequence[int] = DEFAULT_DEPTHS, seed: int = 0,
               dagger_fights: int = 300, iterations: int = 3,
               log: Callable[[str], None] | None = None) -> Card:
    """Distil, measure and return the card of the bundle in ``bundle_dir`` (not written: see :meth:`Card.save`)."""
    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.policy_io.bundle import read_bundle

    say = log or (lambda msg: print(msg, file=sys.stderr))
    if fights < 1 or dagger_fights < 5 or iterations < 1:
        raise UserError("card: fights must be at least 1, DAgger fights at least 5 and iterations at least 1")
    if not depths or any(not 1 <= d <= 8 for d in depths):
        raise UserError(f"--depths: expected depths between 1 and 8, got {list(depths)}")
    bundle = read_bundle(bundle_dir)
    s = bundle.schema
    net = OnnxAgent.from_bundle(bundle, deterministic=True)
    arena = Arena.build(s.system, s.scenario, s.options)
    names = [f.name for f in s.observation.fields]
    features = features_for(arena.plugin, names)
    opponents = [factory_of(arena.plugin, o) for o in s.training.opponents]
    book = factory_of(arena.plugin, "by-the-book")
    seeds = [seed + i for i in range(fights)]
    fight_of = _encounter_draws(arena.plugin, s.training.encounter)

    def seat(npc: Any, seat_seeds: Sequence[int], record: bool = True) -> tuple[list[str], Visited]:
        # every recorded decision also gets by-the-book's move there, for the by-the-book cards
        return play_seat(arena, s.side, npc, opponents, seat_seeds, record=record, fight_of=fight_of, book=book)

    def dataset(seen: Visited) -> Dataset:
        vectors, masks = seen.arrays()
        return make_dataset(features, names, vectors, masks, seen.kinds, label_with_network(net, vectors, masks),
                            seen.book_moves())

    say(f"card: network and by-the-book, {fights} fights each")
    net_results, visited = seat(lambda e, r: net, seeds)
    book_results, _ = seat(book, seeds, record=False)
    valid = dataset(visited)

    def sampler(engine: Any, rng: np.random.Generator) -> OnnxAgent:
        return OnnxAgent(net.policy, system=s.system, scenario=s.scenario, side=s.side, name=net.name,
                         options=dict(s.options), deterministic=False, rng=rng)

    say(f"card: {dagger_fights} fights of the network sampling its moves (DAgger start)")
    _, start = seat(sampler, [seed + 1_000_000 + i for i in range(dagger_fights)])
    start_data = dataset(start)
    held = np.asarray(start.fights) % 5 == 0
    train0, holdout = start_data.subset(~held), start_data.subset(held)
    # a generalist meets other creatures in every fight: its card names none of them (slots and weapon numbers)
    scene = (_scene(arena, s.side) if fight_of is None else
             {"npcs": [], "foes": [], "enemy_count": 0, "weapons": [], "encounter": s.training.encounter})
    base_meta = {"bundle": bundle.name, "timesteps": s.training.timesteps, **scene}
    fallback = fallback_lists(start_data)

    def make(rules: list[CardRule], depth: int, by_book: bool) -> Card:
        for r in rules:
            r.action_name = BOOK_NAME if r.action == BY_THE_BOOK else s.actions[r.action]
        return Card(s.system, s.scenario, s.side, s.onnx.sha256, names, list(s.actions), rules, fallback,
                    {**base_meta, "depth": depth, "by_the_book": by_book})

    wins = {k: np.array([r == "win" for r in v]) for k, v in (("net", net_results), ("book", book_results))}
    sweep, cards = [], {}
    for by_book in (False, True):  # plain cards, then cards of exceptions to by-the-book
        for depth in depths:
            data, best, best_score = train0, None, -1.0
            for it in range(iterations):
                card = make(fit_rules(data, features, depth, seed, by_book=by_book), depth, by_book)
                score = fidelity(_moves(card, start, held), holdout)[1]
                if score > best_score:
                    best, best_score = card, score
                if it + 1 < iterations:
                    dag_seeds = [seed + 2_000_000 + 100_000 * depth + 10_000 * it + i for i in range(dagger_fights)]
                    _, seen = seat(_card_maker(card), dag_seeds)
                    data = data + dataset(seen)
            assert best is not None
            moves, fired = card_choices(best, *visited.arrays(), visited.kinds, visited.book_moves())
            plain, weighted, n = fidelity(moves, valid)
            rule_stats(best, fired, valid)
            results, _ = seat(_card_maker(best), seeds, record=False)
            summary = seat_summary(results)
            wins[_key(depth, by_book)] = np.array([r == "win" for r in results])
            best.meta["fidelity"] = {"plain": plain, "weighted": weighted, "decisions": n}
            best.meta["card_summary"] = summary
            cards[(by_book, depth)] = best
            sweep.append({"depth": depth, "by_the_book": by_book, "rules": len(best.rules), "fidelity": plain,
                          "weighted_fidelity": weighted, "win": summary["win"], "fled": summary["fled"]})
            say(f"card: {'by-the-book ' if by_book else ''}depth {depth}: {len(best.rules)} rules, fidelity "
                f"{plain:.3f} (weighted {weighted:.3f}), win rate {summary['win']['rate']:.3f}")
    net_sum, book_sum = seat_summary(net_results), seat_summary(book_results)

    def won(key: tuple[bool, int]) -> float:
        return float(cards[key].meta["card_summary"]["win"]["rate"])

    good = [k for k in cards if won(k) >= net_sum["win"]["rate"] - WITHIN]
    if good:  # the smallest depth within reach of the network, the better card of the two kinds at that depth
        chosen, choice = min(good, key=lambda k: (k[1], -won(k))), CHOICES["within"]
    else:
        chosen, choice = max(cards, key=lambda k: (won(k), -k[1])), CHOICES["best"]
    chosen_book, depth = chosen
    card = cards[chosen]
    first = Counter(visited.chosen[i] for i in range(len(visited.fights))
                    if i == 0 or visited.fights[i] != visited.fights[i - 1])
    opening, count = first.most_common(1)[0]
    card.meta.update({
        "choice": choice, "sweep": sweep,
        "opening": {"action": int(opening), "share": count / fights},
        "evaluation": {"fights": fights, "seed": seed, "opponents": list(s.training.opponents),
                       "card": card.meta.pop("card_summary"), "network": net_sum, "by_the_book": book_sum,
                       "kept_gain": kept_gain(wins[_key(depth, chosen_book)], wins["net"], wins["book"], seed)},
    })
    for other in cards.values():
        other.meta.pop("card_summary", None)
    return card


def _encounter_draws(system: System, encounter: str | None) -> Callable[[int], Any] | None:
    """For a bundle trained on an encounter distribution: seed -> that seed's training-range draw (the fights the
    policy was made for, never the held-out ones); None for a single-scenario bundle."""
    if encounter is None:
        return None
    from npc_tactics.encounters.generator import Generator, training_seed
    from npc_tactics.encounters.spec import load_encounter

    gen = Generator(load_encounter(encounter, system))
    return lambda k: gen.draw(training_seed(k))


def _key(depth: int, by_book: bool) -> str:
    return f"card{depth}{'b' if by_book else ''}"


def _card_maker(card: Card) -> Callable[[Any, np.random.Generator], CardAgent]:
    """An NPC seat played by ``card`` (the card has no randomness: the seat's generator is unused)."""
    return lambda engine, rng: CardAgent(card)


def _moves(card: Card, start: Any, held: np.ndarray) -> np.ndarray:
    """The card's moves on the held-out states of the DAgger start (the selection set)."""
    vectors, masks = start.arrays()
    idx = np.flatnonzero(held)
    return card_choices(card, vectors[idx], masks[idx], [start.kinds[i] for i in idx], start.book_moves()[idx])[0]
