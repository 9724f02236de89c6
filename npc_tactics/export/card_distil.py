"""VIPER-style distillation of a bundle's network into a small decision tree over GM-visible features.

1. The network plays (sampling from its probabilities) against its training opponents; every NPC decision is
   recorded and labelled with the network's most likely legal move, weighted by how much the choice matters
   (``max p - 1/legal moves``: forced moves and coin flips weigh nothing).
2. For each decision kind with real choices (declare, react, pick effects ...), a scikit-learn tree of the given
   depth is fitted on the GM features (:mod:`npc_tactics.policy_io.card_features`) of those states; the kinds
   share :data:`MAX_RULES` leaves by weight, so the whole card has at most that many rules.
3. DAgger: the tree's own card plays, the states it reaches are relabelled by the network and added, the tree is
   refitted. Of the trees of every iteration, the one with the best weighted agreement on held-out network
   fights is kept (VIPER picks among its iterates the same way).
4. Each tree becomes a decision list: sibling leaves with the same move are merged, each leaf is a rule with its
   path's conditions (tightest bound per feature), the most used leaf is last as the kind's "otherwise".

By the book (``by_book=True``): a state where the network's move is by-the-book's own is labelled "by the book"
instead, so the trees learn where the network departs from the straightforward play and the card reads as a few
exceptions to by-the-book (its "otherwise" rules mostly say "play by the book").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.policy_io.card import BY_THE_BOOK, Card, CardRule, Condition
from npc_tactics.policy_io.card_features import Feature, FieldView, feature_matrix

__all__ = ["MAX_RULES", "Dataset", "fidelity", "fit_rules", "rule_stats"]

#: A card lists at most this many rules (tree leaves).
MAX_RULES = 7


@dataclass
class Dataset:
    """Labelled NPC decisions: GM features, masks, decision kinds, network labels, weights and probabilities."""

    x: np.ndarray
    masks: np.ndarray
    kinds: list[str]
    labels: np.ndarray
    weights: np.ndarray
    probs: np.ndarray
    book: np.ndarray  #: by-the-book's move at each state (-1: not asked)

    def __add__(self, other: Dataset) -> Dataset:
        return Dataset(np.vstack([self.x, other.x]), np.vstack([self.masks, other.masks]), self.kinds + other.kinds,
                       np.concatenate([self.labels, other.labels]), np.concatenate([self.weights, other.weights]),
                       np.vstack([self.probs, other.probs]), np.concatenate([self.book, other.book]))

    def subset(self, keep: np.ndarray) -> Dataset:
        idx = np.flatnonzero(keep)
        return Dataset(self.x[idx], self.masks[idx], [self.kinds[i] for i in idx], self.labels[idx],
                       self.weights[idx], self.probs[idx], self.book[idx])


def make_dataset(features: Sequence[Feature], field_names: Sequence[str], vectors: np.ndarray, masks: np.ndarray,
                 kinds: list[str], labelled: tuple[np.ndarray, np.ndarray, np.ndarray],
                 book: np.ndarray | None = None) -> Dataset:
    probs, labels, weights = labelled
    x = feature_matrix(features, FieldView(field_names), vectors)
    moves = np.full(len(labels), -1, dtype=np.int64) if book is None else np.asarray(book, dtype=np.int64)
    return Dataset(x, masks, kinds, labels, weights, probs, moves)


def _book_labels(data: Dataset) -> Dataset:
    """``data`` with each state where the network plays by-the-book's move relabelled "by the book" (class
    ``n_actions``, since classes must be non-negative)."""
    same = data.book == data.labels
    labels = np.where(same, data.masks.shape[1], data.labels)
    return Dataset(data.x, data.masks, data.kinds, labels, data.weights, data.probs, data.book)


@dataclass
class _Node:
    feature: int = -1
    threshold: float = 0.0
    left: _Node | None = None
    right: _Node | None = None
    weights: np.ndarray | None = None  # weighted class mass at a leaf (over the tree's classes)

    @property
    def leaf(self) -> bool:
        return self.left is None


def _from_sklearn(tree: Any) -> _Node:
    t = tree.tree_

    def build(i: int) -> _Node:
        if t.children_left[i] == -1:
            return _Node(weights=np.asarray(t.value[i][0], dtype=np.float64) * float(t.weighted_n_node_samples[i]))
        return _Node(int(t.feature[i]), float(t.threshold[i]), build(int(t.children_left[i])),
                     build(int(t.children_right[i])))
    return build(0)


def _merge(node: _Node) -> _Node:
    """Merge sibling leaves that give the same move (a split that changes nothing for the GM)."""
    if node.leaf:
        return node
    node.left, node.right = _merge(node.left), _merge(node.right)  # type: ignore[arg-type]
    left, right = node.left, node.right
    if left.leaf and right.leaf and left.weights is not None and right.weights is not None \
            and int(np.argmax(left.weights)) == int(np.argmax(right.weights)):
        return _Node(weights=left.weights + right.weights)
    return node


def _leaves(node: _Node, path: list[tuple[int, str, float]]) -> list[tuple[list[tuple[int, str, float]], _Node]]:
    if node.leaf:
        return [(path, node)]
    assert node.left is not None and node.right is not None
    return (_leaves(node.left, [*path, (node.feature, "le", node.threshold)])
            + _leaves(node.right, [*path, (node.feature, "gt", node.threshold)]))


def _tightest(path: list[tuple[int, str, float]], features: Sequence[Feature]) -> list[Condition]:
    """One upper and one lower bound per feature at most, in the order the tree first tested them."""
    bounds: dict[tuple[int, str], float] = {}
    for f, op, t in path:
        key = (f, op)
        bounds[key] = min(bounds.get(key, t), t) if op == "le" else max(bounds.get(key, t), t)
    return [Condition(features[f].name, op, round(float(t), 6)) for (f, op), t in bounds.items()]


def leaf_budget(weights: dict[str, float], total: int = MAX_RULES) -> dict[str, int]:
    """Share ``total`` rules among decision kinds: one each, the rest by weight (largest remainder)."""
    kinds = [k for k, w in sorted(weights.items(), key=lambda kv: -kv[1]) if w > 0][:total]
    budget = dict.fromkeys(kinds, 1)
    spare, mass = total - len(kinds), sum(weights[k] for k in kinds)
    if spare <= 0 or mass <= 0:
        return budget
    quota = {k: spare * weights[k] / mass for k in kinds}
    for k in kinds:
        budget[k] += int(quota[k])
    left = total - sum(budget.values())
    for k in sorted(kinds, key=lambda k: -(quota[k] - int(quota[k])))[:left]:
        budget[k] += 1
    return budget


def _kind_rules(data: Dataset, features: Sequence[Feature], kind: str, depth: int, leaves: int,
                seed: int) -> list[CardRule]:
    from sklearn.tree import DecisionTreeClassifier

    book = data.masks.shape[1]  # the "by the book" class (only in by-the-book labels)

    def rule(conds: list[Condition], ranked: list[int]) -> CardRule:
        action = BY_THE_BOOK if ranked[0] == book else ranked[0]
        return CardRule(0, kind, conds, action, "", [a for a in ranked[1:] if a != book][:3], 0.0, 0.0)

    if leaves < 2 or len(np.unique(data.labels)) < 2:
        totals = np.bincount(data.labels, weights=data.weights)
        ranked = [int(a) for a in np.argsort(-totals, kind="stable") if totals[a] > 0]
        return [rule([], ranked)]
    tree = DecisionTreeClassifier(max_depth=depth, max_leaf_nodes=leaves, min_weight_fraction_leaf=0.01,
                                  random_state=seed)
    tree.fit(data.x, data.labels, sample_weight=data.weights)
    classes = [int(c) for c in tree.classes_]
    found = _leaves(_merge(_from_sklearn(tree)), [])
    mass = [float(node.weights.sum()) if node.weights is not None else 0.0 for _, node in found]
    last = int(np.argmax(mass))
    order = sorted((i for i in range(len(found)) if i != last), key=lambda i: -mass[i]) + [last]
    rules = []
    for i in order:
        path, node = found[i]
        assert node.weights is not None
        ranked = [classes[j] for j in np.argsort(-node.weights, kind="stable") if node.weights[j] > 0]
        rules.append(rule([] if i == last else _tightest(path, features), ranked))
    # Leaves are disjoint, so a rule giving the same move as "otherwise" changes nothing when dropped: its states
    # fall through to "otherwise" (only the order of alternatives for a forbidden move can differ).
    return [r for r in rules[:-1] if r.action != rules[-1].action] + rules[-1:]


def fit_rules(data: Dataset, features: Sequence[Feature], depth: int, seed: int = 0,
              by_book: bool = False) -> list[CardRule]:
    """One tree of ``depth`` per decision kind that has real choices, the :data:`MAX_RULES` leaves shared among
    kinds by weight; each tree becomes that kind's rules, its most used leaf last as "otherwise". Kinds are
    listed by weight. Rule statistics (probability, fires) are left at 0: see :func:`rule_stats`. With
    ``by_book`` (``data.book`` filled in), states where the network agrees with by-the-book are learnt as "by the
    book" (module docstring)."""
    if by_book:
        if (data.book < 0).any():
            raise ValueError("fit_rules(by_book=True) needs by-the-book's move at every state")
        data = _book_labels(data)
    kinds = np.asarray(data.kinds)
    keep = data.weights > 0
    weights = {str(k): float(data.weights[kinds == k].sum()) for k in np.unique(kinds)}
    if not keep.any():  # every decision forced: one rule per kind, the most common move
        keep = np.ones(len(kinds), dtype=bool)
        data = Dataset(data.x, data.masks, data.kinds, data.labels, np.ones(len(kinds)), data.probs, data.book)
        weights = {str(k): float((kinds == k).sum()) for k in np.unique(kinds)}
    rules: list[CardRule] = []
    for kind, budget in leaf_budget(weights).items():
        sub = data.subset(keep & (kinds == kind))
        chosen = _kind_rules(sub, features, kind, depth, budget, seed)
        # Merged or dropped leaves leave part of the budget unused: grow the tree until the kind's rules fill it.
        for leaves in range(budget + 1, 4 * budget + 1):
            if len(chosen) >= budget:
                break
            grown = _kind_rules(sub, features, kind, depth, leaves, seed)
            if len(grown) > budget:
                break
            chosen = grown
        rules += chosen
    for i, rule in enumerate(rules):
        rule.index = i
    return rules


def fallback_lists(data: Dataset) -> dict[str, list[int]]:
    """Per decision kind, the network's moves from most to least often chosen: tried when a rule's move and its
    alternatives are not allowed."""
    counts: dict[str, Counter[int]] = {}
    for kind, label in zip(data.kinds, data.labels, strict=True):
        counts.setdefault(kind, Counter())[int(label)] += 1
    return {k: [a for a, _ in c.most_common()] for k, c in sorted(counts.items())}


def card_choices(card: Card, vectors: np.ndarray, masks: np.ndarray, kinds: Sequence[str],
                 book: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The card's move and the index of the rule that applied, for each visited state; a "by the book" rule's
    move is ``book[i]`` (-1 without it)."""
    moves = np.zeros(len(vectors), dtype=np.int64)
    fired = np.zeros(len(vectors), dtype=np.int64)
    for i, (vec, mask, kind) in enumerate(zip(vectors, masks, kinds, strict=True)):
        a, rule = card.choose(vec, mask, kind)
        if a == BY_THE_BOOK:
            a = int(book[i]) if book is not None else -1
        moves[i], fired[i] = a, (rule.index if rule is not None else -1)
    return moves, fired


def fidelity(moves: np.ndarray, data: Dataset) -> tuple[float, float, int]:
    """Agreement with the network's most likely legal move on decisions with a real choice (two legal moves or
    more): plain, weighted by how much the choice matters, and the number of such decisions."""
    choice = data.masks.sum(axis=1) >= 2
    n = int(choice.sum())
    if n == 0:
        return 1.0, 1.0, 0
    agree = (moves == data.labels)[choice]
    w = data.weights[choice]
    weighted = float((agree * w).sum() / w.sum()) if w.sum() > 0 else float(agree.mean())
    return float(agree.mean()), weighted, n


def rule_stats(card: Card, fired: np.ndarray, data: Dataset) -> None:
    """Fill each rule's ``fires`` (share of decisions where it applies) and ``probability`` (the network's mean
    probability of the rule's move there) from states the network visited."""
    n = max(len(fired), 1)
    for rule in card.rules:
        where = fired == rule.index
        rule.fires = float(where.sum()) / n
        if not where.any():
            rule.probability = 0.0
        elif rule.action == BY_THE_BOOK:  # the network's probability of by-the-book's move where the rule fires
            idx = np.flatnonzero(where & (data.book >= 0))
            rule.probability = float(data.probs[idx, data.book[idx]].mean()) if len(idx) else 0.0
        else:
            rule.probability = float(data.probs[where, rule.action].mean())
