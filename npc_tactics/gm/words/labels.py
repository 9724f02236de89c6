"""Words for moves and the tactics-card rule that fires, shared by ``suggest``, ``play`` and the tracker: move names
by combatant and weapon come from :func:`npc_tactics.gm.words.naming.move_label`, the rule from the bundle's card
(:class:`npc_tactics.policy_io.card.Card`).

A card is written over slots ("attack enemy 2") since one rule serves every fight; at the table the rule is
shown with its move named in this fight ("attack Yanioth with the short spear"), and when that move cannot be
made here, or is not the move ranked first, the text says so rather than contradict the ranking beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from npc_tactics.gm.words.naming import move_label
from npc_tactics.i18n import translator
from npc_tactics.plugin import System
from npc_tactics.policy_io.card import BY_THE_BOOK, Card

__all__ = ["against_top", "card_rule", "labeler_of"]


def labeler_of(system: System, engine: Any, lang: str) -> Callable[[Any, Any, int], str]:
    """``label(state, decision, action) -> str``: the GM's words for a move of ``system``."""

    def label(state: Any, decision: Any, action: int) -> str:
        return str(move_label(system, engine, state, decision, int(action), lang=lang))

    return label


def _index(engine: Any, name: str) -> int | None:
    """The entry of this engine's catalogue named ``name`` (None: the card's catalogue had a move this one lacks)."""
    names = [str(n) for n in engine.catalogue.names]
    return names.index(name) if name in names else None


def card_rule(bundle: str | None, system: System, engine: Any, state: Any, decision: Any, lang: str,
              *, top: int | None = None) -> dict[str, Any] | None:
    """The rule of the bundle's tactics card that fires here, its move named in this fight, or None without a
    card (or for a decision the card is not for).

    ``text`` is what the GM reads; ``action``/``index`` the move the card plays here (the rule's, or when that is
    not allowed, the card's next allowed choice); ``legal`` whether the rule's own move is allowed here;
    ``probability`` and ``fires`` come from the card. With ``top`` (the move ranked first), ``agrees`` says
    whether the card plays it, and the text says so when it does not (:func:`against_top`)."""
    if bundle is None or not (Path(bundle) / "card.json").is_file():
        return None
    card = Card.load(bundle)
    if card is None or card.system != system.name:  # a card of another system has no rule here
        return None
    plugin = card.plugin  # the card's system, resolved once
    found = card.play_for(plugin, engine, state, decision)
    if found is None:
        return None
    rule, played = found
    _ = translator(lang)
    label = labeler_of(plugin, engine, lang)
    legal = True
    if played == BY_THE_BOOK:  # say which move that is here, and match it to its row of the ranking
        book = _book_move(plugin, engine, state, decision)
        index: int | None = book
        text = rule.text(lang) + " " + _("(here: {move})").format(move=label(state, decision, book))
    else:
        own = _index(engine, card.actions[rule.action])
        index = _index(engine, card.actions[played])
        named = label(state, decision, own) if own is not None else None
        text = rule.text(lang, named)
        legal = own is not None and own == index
        if not legal:
            text = (_("{rule}: not possible here, so the card plays {move}").format(
                rule=text, move=label(state, decision, index)) if index is not None
                else _("{rule}: not possible here").format(rule=text))
    name = str(engine.catalogue.names[index]) if index is not None else None
    out = {"text": text, "action": name, "index": index, "legal": legal, "probability": float(rule.probability),
           "fires": float(rule.fires)}
    if top is not None:
        out = against_top(out, int(top), label(state, decision, int(top)), lang)
    return out


def against_top(rule: dict[str, Any], top: int, top_label: str, lang: str) -> dict[str, Any]:
    """``rule`` (from :func:`card_rule`) with ``agrees`` set for the move ranked first, ``top``; when the card
    plays another move, its text says plainly that the ranking puts ``top_label`` first."""
    if "agrees" in rule:  # said already
        return rule
    agrees = rule.get("index") == top
    text = str(rule["text"])
    if not agrees:
        _ = translator(lang)
        text = _("{rule} (the card's move; the ranking puts {top} first)").format(rule=text, top=top_label)
    return {**rule, "text": text, "agrees": agrees}


def _book_move(system: System, engine: Any, state: Any, decision: Any) -> int:
    """The by-the-book agent's move at ``decision`` (what a card's "play by the book" rule means there)."""
    import numpy as np

    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.policy_io.agent import Observation

    encoder = system.load("encoder")(engine)
    book = factory_of(system, "by-the-book")(engine, np.random.default_rng(0))
    return int(book.act(Observation(None, state, decision, engine, encoder), engine.legal_mask(state, decision)))
