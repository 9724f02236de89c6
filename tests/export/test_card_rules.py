"""Tactics cards without training: GM features, the decision list, tree-to-rules, budgets, kept gain, files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.export.card import kept_gain
from npc_tactics.export.card_distil import MAX_RULES, Dataset, fidelity, fit_rules, leaf_budget
from npc_tactics.policy_io.card import Card, CardError, CardRule, Condition
from npc_tactics.policy_io.card_features import (
    FieldView,
    common_features,
    feature_matrix,
    features_for,
    features_from,
    system_features,
)
from npc_tactics.policy_io.card_hooks import hooks_for
from npc_tactics.policy_io.card_render import render_markdown, rule_text
from npc_tactics.registry import get_system
from npc_tactics.rules.base import DecisionKind

SYSTEMS = ("ose", "runequest", "mrq", "dicepool")


def _start(system: str) -> tuple[Arena, object, object, np.ndarray]:
    arena = Arena.build(system)
    state, _ = arena.engine.new_combat(arena.scenario, RngRoller(np.random.default_rng(0)))
    decision = arena.engine.pending(state)
    return arena, state, decision, arena.encoder.encode(state, decision)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_declared_feature_reads_the_installed_encoder(system: str) -> None:
    arena, _state, decision, vec = _start(system)
    names = [f.name for f in arena.encoder.fields]
    feats = features_for(get_system(system), names)
    kinds = {k.name.lower() for k in arena.engine.spec.decision_kinds}
    expected = [f.name for f in system_features(hooks_for(get_system(system)))
                if not (f.name.startswith("decision_") and f.name.removeprefix("decision_") not in kinds)]
    assert [f.name for f in feats] == expected  # none silently dropped (but kinds the system never has)
    values = dict(zip([f.name for f in feats], feature_matrix(feats, FieldView(names), vec[None, :])[0],
                      strict=True))
    assert values["own_hp"] == pytest.approx(1.0)  # nobody is hurt before the first blow
    assert values["enemies_standing"] == 1 and values["allies_standing"] == 0  # each default scenario is a duel
    assert values[f"decision_{decision.kind.name.lower()}"] == 1.0
    for feat in feats:
        if feat.kind == "flag":
            assert feat.yes and feat.no, f"{feat.name} needs both phrases"
            assert values[feat.name] in (0.0, 1.0)


def _card(rules: list[CardRule], fallback: dict[str, list[int]] | None = None, side: int = 0) -> Card:
    arena = Arena.build("ose")
    names = [f.name for f in arena.encoder.fields]
    return Card("ose", "goblin_duel", side, "0" * 64, names, list(arena.engine.catalogue.names), rules,
                fallback or {}, {"enemy_count": 1})


def test_the_first_rule_that_applies_gives_the_move_then_alternatives_then_fallback() -> None:
    arena, _state, _decision, vec = _start("ose")
    names = list(arena.engine.catalogue.names)
    withdraw, none_, retreat = names.index("declare_withdraw"), names.index("declare_none"), \
        names.index("declare_retreat")
    rules = [CardRule(0, "declare", [Condition("own_hp", "le", 0.5)], retreat, "", [], 0, 0),
             CardRule(1, "declare", [Condition("enemies_standing", "gt", 0.5)], withdraw, "", [none_], 0, 0),
             CardRule(2, "declare", [], none_, "", [], 0, 0)]
    card = _card(rules, {"declare": [retreat]})
    mask = np.zeros(len(names), dtype=bool)
    mask[[withdraw, none_, retreat]] = True
    assert card.choose(vec, mask, "declare") == (withdraw, rules[1])  # hp 100%: rule 1 skipped, rule 2 fires
    mask[withdraw] = False
    assert card.choose(vec, mask, "declare")[0] == none_  # the rule's alternative
    mask[none_] = False
    assert card.choose(vec, mask, "declare")[0] == retreat  # then the kind's fallback list
    assert card.choose(vec, mask, "react") == (retreat, None)  # no rule for that kind: fallback only
    hurt = vec.copy()
    hurt[[f.name for f in arena.encoder.fields].index("self.hp")] = 0.25
    assert card.first_rule(hurt, "declare") is rules[0]
    assert rule_text(card, rules[0]) == "If own hit points ≤ 50%: declare a retreat"
    assert rule_text(card, rules[1], "fr") == "Si ennemis debout ≥ 1 : déclarer un repli en combattant"
    assert rule_text(card, rules[2]) == "Otherwise: declare nothing special"


def test_rule_for_answers_only_the_npc_side_of_the_card_system() -> None:
    arena, state, decision, _vec = _start("ose")
    card = _card([CardRule(0, decision.kind.name.lower(), [], 0, "", [], 0, 0)], side=decision.side)
    other = type(decision)(decision.actor, 1 - decision.side, decision.kind, decision.round, decision.context)
    assert card.rule_for(get_system("ose"), arena.engine, state, decision) is card.rules[0]
    assert card.rule_for(get_system("ose"), arena.engine, state, other) is None
    assert card.rule_for(get_system("mrq"), arena.engine, state, decision) is None


def _synthetic(n: int = 600, seed: int = 0) -> tuple[Dataset, list]:
    """Decisions whose network label is 'withdraw' exactly when own HP <= 30%, else 'melee' (declare kind)."""
    arena = Arena.build("ose")
    names = [f.name for f in arena.encoder.fields]
    feats = features_for(get_system("ose"), names)
    rng = np.random.default_rng(seed)
    x = np.zeros((n, len(feats)))
    col = [f.name for f in feats].index("own_hp")
    x[:, col] = rng.uniform(0, 1, n)
    x[:, [f.name for f in feats].index("range")] = rng.uniform(0, 20, n)  # noise the tree must ignore
    labels = np.where(x[:, col] <= 0.3, 35, 43)  # withdraw, melee:enemy_0
    masks = np.zeros((n, 49), dtype=bool)
    masks[:, [35, 43, 34]] = True
    probs = np.zeros((n, 49))
    probs[np.arange(n), labels] = 0.9
    probs[:, 34] = 0.1
    return Dataset(x, masks, ["act"] * n, labels, np.full(n, 0.9 - 1 / 3), probs, np.full(n, -1)), feats


def test_fit_rules_recovers_a_threshold_rule_in_gm_units() -> None:
    data, feats = _synthetic()
    rules = fit_rules(data, feats, depth=3)
    assert len(rules) == 2  # the noise splits were merged away: same move on both sides
    first, last = rules
    assert [c.feature for c in first.conditions] == ["own_hp"] and not last.conditions
    threshold = first.conditions[0].value
    assert 0.25 < threshold < 0.35
    assert {first.action, last.action} == {35, 43}
    moves = np.array([35 if (first.action == 35) == first.conditions[0].holds(v) else 43
                      for v in data.x[:, [f.name for f in feats].index("own_hp")]])
    plain, weighted, n = fidelity(moves, data)
    assert plain > 0.98 and weighted > 0.98 and n == len(data.labels)


def test_leaf_budget_shares_seven_rules_with_one_at_least_per_kind() -> None:
    assert leaf_budget({"declare": 10.0, "react": 1.0}) == {"declare": 6, "react": 1}
    assert leaf_budget({"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.0}) == {"a": 3, "b": 2, "c": 2}
    many = leaf_budget({k.name.lower(): 1.0 + i for i, k in enumerate(DecisionKind)})
    assert sum(many.values()) == MAX_RULES and min(many.values()) == 1


def test_kept_gain_is_the_share_of_the_network_gain_over_by_the_book() -> None:
    net = np.array([1] * 60 + [0] * 40, dtype=bool)
    book = np.array([1] * 40 + [0] * 60, dtype=bool)
    card = np.array([1] * 50 + [0] * 50, dtype=bool)
    kept = kept_gain(card, net, book, seed=0)
    assert kept is not None and kept["share"] == pytest.approx(0.5)
    assert kept["low"] <= 0.5 <= kept["high"]
    assert kept_gain(net, net, book, seed=0)["share"] == pytest.approx(1.0)  # type: ignore[index]
    assert kept_gain(card, book, net, seed=0) is None  # the network does not beat by-the-book


def test_card_files_round_trip_and_a_stale_or_broken_card_is_refused(tmp_path: Path) -> None:
    card = _card([CardRule(0, "declare", [Condition("own_hp", "le", 0.5)], 2, "declare_retreat", [], 0.7, 0.1),
                  CardRule(1, "declare", [], 0, "declare_none", [], 0.9, 0.9)], {"declare": [0]})
    card.save(tmp_path, lang="fr")
    again = Card.load(tmp_path, onnx_sha256="0" * 64)
    assert again is not None and again.to_dict() == card.to_dict()
    assert "## Avant le combat" in (tmp_path / "card.md").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "card.json").read_text())["rules"][0]["text"]["fr"].startswith("Si ")
    with pytest.raises(CardError, match="another policy.onnx"):
        Card.load(tmp_path, onnx_sha256="1" * 64)
    raw = json.loads((tmp_path / "card.json").read_text())
    raw["rules"][-1]["conditions"] = raw["rules"][0]["conditions"]
    (tmp_path / "card.json").write_text(json.dumps(raw))
    with pytest.raises(CardError, match="otherwise"):
        Card.load(tmp_path, onnx_sha256="0" * 64)
    assert Card.load(tmp_path / "nothing-here") is None


def test_markdown_card_has_the_stat_block_sections_in_both_languages() -> None:
    card = _card([CardRule(0, "declare", [], 0, "declare_none", [], 1.0, 1.0)], {"declare": [0], "act": [36]})
    en, fr = render_markdown(card, "en"), render_markdown(card, "fr")
    assert "- its turn to act: always retreat (the network's choice" in en  # a kind without a rule says its move
    for heading in ("Before combat", "Each round, the first rule that applies", "Morale / retreat",
                    "How far to trust this card"):
        assert f"## {heading}" in en and f"## {heading}" not in fr
    assert "2d6" in en and "Moral OSE" in fr
    assert "Always: declare nothing special" in en and "Toujours : ne rien déclarer de particulier" in fr


def test_a_rule_with_the_otherwise_move_is_dropped_as_it_changes_nothing() -> None:
    data, feats = _synthetic(800, seed=1)
    names = [f.name for f in feats]
    hp, rng_ = data.x[:, names.index("own_hp")], data.x[:, names.index("range")]
    data.labels = np.where((hp > 0.5) & (rng_ > 10), 35, 43)  # withdraw only when healthy and far
    rules = fit_rules(data, feats, depth=2)
    assert [r.action for r in rules] == [35, 43]  # the tree's two "melee" leaves became one "otherwise"
    assert sorted(c.feature for c in rules[0].conditions) == ["own_hp", "range"]
    assert all((35 if all(c.holds(v[names.index(c.feature)]) for c in rules[0].conditions) else 43) == label
               for v, label in zip(data.x, data.labels, strict=True))


def test_kept_gain_is_not_defined_for_a_gain_that_may_be_nothing() -> None:
    rng = np.random.default_rng(3)
    book = rng.random(1000) < 0.40
    net = book.copy()
    net[np.flatnonzero(~book)[:1]] = True  # one fight better: the gain's interval reaches 0
    card = rng.random(1000) < 0.32
    assert net.mean() > book.mean() and kept_gain(card, net, book, seed=0) is None


def test_a_card_that_loses_to_by_the_book_says_so() -> None:
    names = list(Arena.build("ose").engine.catalogue.names)
    card = _card([CardRule(0, "declare", [], names.index("declare_none"), "", [], 0.9, 0.9)])

    def rate(r: float, lo: float, hi: float) -> dict[str, float]:
        return {"rate": r, "low": lo, "high": hi, "count": int(r * 1000), "n": 1000}

    def evaluation(card_high: float) -> dict[str, object]:
        return {"fights": 1000, "opponents": ["by-the-book"], "kept_gain": None,
                "card": {"win": rate(card_high - 0.03, card_high - 0.06, card_high), "fled": 0.0},
                "network": {"win": rate(0.60, 0.57, 0.63), "fled": 0.0},
                "by_the_book": {"win": rate(0.50, 0.47, 0.53), "fled": 0.0}}

    card.meta["evaluation"] = evaluation(0.45)
    assert "**Verdict: the card wins less often than by-the-book here.**" in render_markdown(card)
    assert "**Verdict : la fiche gagne moins souvent" in render_markdown(card, "fr")
    card.meta["evaluation"] = evaluation(0.52)  # within by-the-book's reach: no verdict
    assert "Verdict" not in render_markdown(card)


def test_a_card_that_keeps_less_than_half_of_the_gain_says_so_plainly() -> None:
    names = list(Arena.build("ose").engine.catalogue.names)
    card = _card([CardRule(0, "declare", [], names.index("declare_none"), "", [], 0.9, 0.9)])

    def rate(r: float) -> dict[str, float]:
        return {"rate": r, "low": r - 0.03, "high": r + 0.03, "count": int(r * 1000), "n": 1000}

    def evaluation(share: float) -> dict[str, object]:
        return {"fights": 1000, "opponents": ["by-the-book"],
                "kept_gain": {"share": share, "low": share - 0.2, "high": share + 0.2},
                "card": {"win": rate(0.50 + 0.10 * share), "fled": 0.0}, "network": {"win": rate(0.60), "fled": 0.0},
                "by_the_book": {"win": rate(0.50), "fled": 0.0}}

    plain = "**This card keeps less than half of what the network gains over by-the-book.**"
    card.meta["evaluation"] = evaluation(0.28)
    assert plain in render_markdown(card)
    assert "**Cette fiche garde moins de la moitié" in render_markdown(card, "fr")
    card.meta["evaluation"] = evaluation(0.85)
    assert plain not in render_markdown(card)


def test_a_by_the_book_card_keeps_only_where_the_network_departs_from_by_the_book() -> None:
    from dataclasses import replace

    from npc_tactics.export.card_distil import card_choices, rule_stats
    from npc_tactics.policy_io.card import BY_THE_BOOK

    data, feats = _synthetic()
    # by-the-book always strikes (43); the network withdraws (35) at own HP <= 30%, strikes otherwise
    data = replace(data, book=np.full(len(data.labels), 43))
    with pytest.raises(ValueError, match="by-the-book's move"):
        fit_rules(replace(data, book=np.full(len(data.labels), -1)), feats, depth=3, by_book=True)
    rules = fit_rules(data, feats, depth=3, by_book=True)
    assert [r.action for r in rules] == [35, BY_THE_BOOK]
    assert rules[0].conditions == [Condition("own_hp", "le", pytest.approx(0.3, abs=0.02))]
    assert all(BY_THE_BOOK not in r.alternatives for r in rules)
    names = [f.name for f in Arena.build("ose").encoder.fields]
    card = Card("ose", "goblin_duel", 0, "0" * 64, names, list(Arena.build("ose").engine.catalogue.names), rules,
                {"act": [43, 35]}, {"enemy_count": 1})
    vectors = np.zeros((len(data.labels), len(names)), dtype=np.float32)
    vectors[:, names.index("self.hp")] = data.x[:, [f.name for f in feats].index("own_hp")]
    moves, fired = card_choices(card, vectors, data.masks, data.kinds, data.book)
    assert (moves == data.labels).mean() > 0.97  # the exception and by-the-book together give the network's moves
    rule_stats(card, fired, data)
    assert rules[1].probability == pytest.approx(0.9)  # the network's probability of by-the-book's move there
    text = rule_text(card, rules[1])
    assert text == "Otherwise: play by the book"
    assert "Play by the book" in render_markdown(card) and "selon les règles" in render_markdown(card, "fr")
    raw = card.to_dict()
    assert Card.from_dict(json.loads(json.dumps(raw))).rules[1].action == BY_THE_BOOK
    raw["rules"][1]["action"] = -2
    with pytest.raises(CardError, match="by the book"):
        Card.from_dict(raw)


def test_a_card_agent_asks_by_the_book_for_by_the_book_rules() -> None:
    from npc_tactics.agents.card import CardAgent
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.evaluation.fight import agent_rngs, play_fight
    from npc_tactics.policy_io.card import BY_THE_BOOK

    arena = Arena.build("runequest")
    names = [f.name for f in arena.encoder.fields]
    kinds = [k.name.lower() for k in DecisionKind]
    rules = [CardRule(i, k, [], BY_THE_BOOK, "by-the-book", [], 1.0, 0.0) for i, k in enumerate(kinds)]
    card = Card("runequest", "parry_duel", 0, "0" * 64, names, list(arena.engine.catalogue.names), rules, {})
    book = agent_factory("runequest", "by-the-book")
    for seed in range(4):  # a card that is all "by the book" plays by-the-book's fights exactly
        rngs = agent_rngs(seed, 2)
        a = play_fight(arena.engine, arena.encoder, arena.scenario, [CardAgent(card), book(arena.engine, rngs[1])],
                       seed)
        b = play_fight(arena.engine, arena.encoder, arena.scenario,
                       [book(arena.engine, np.random.default_rng(0)), book(arena.engine, rngs[1])], seed)
        assert a.results == b.results and a.actions == b.actions and a.rounds == b.rounds


def test_a_system_without_card_hooks_gets_the_common_features_only() -> None:
    names = [f.name for f in Arena.build("ose").encoder.fields]
    common = [f.name for f in features_from(None, names)]
    assert common == [f.name for f in common_features() if all(n in names for n in f.needs)]
    assert set(common) < {f.name for f in features_for(get_system("ose"), names)}
    with pytest.raises(ValueError, match="unknown system 'nope'"):  # a card of an unknown system
        Card("nope", "s", 0, "0" * 64, names, [], [], {})


def test_the_fake_system_card_reads_its_own_hooks() -> None:
    from tests.fakesys import card as fake_card
    from tests.fakesys import registered

    with registered() as name:
        assert hooks_for(get_system(name)) is fake_card.CARD
        arena = Arena.build(name)
        names = [f.name for f in arena.encoder.fields]
        actions = list(arena.engine.catalogue.names)
        flee, attack = actions.index("flee:self"), actions.index("attack:enemy_0")
        rules = [CardRule(0, "act", [Condition("enemy_guarding", "gt", 0.5)], flee, "", [], 0, 0),
                 CardRule(1, "act", [], attack, "", [], 0, 0)]
        card = Card(name, "duel", 0, "0" * 64, names, actions, rules, {}, {"enemy_count": 1})
        assert {"own_hp", "round", "enemy_guarding"} <= set(card.features)
        assert rule_text(card, rules[0]) == "If an enemy is defending: flee"  # a shared verb
        md = render_markdown(card)
        assert "Learned exit: rule 1." in md and fake_card.CARD.morale_note in md
