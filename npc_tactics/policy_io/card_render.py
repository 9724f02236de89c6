"""A tactics card in words: rules, moves and the stat-block Markdown, in English or French (gettext ``card``).

Moves are named from the action catalogue (verb, target slot, weapon or spell), not from one fight's state, since
a card rule applies across fights: "attack the enemy with the broadsword", "declare a fighting withdrawal".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from npc_tactics.i18n import N_, check_lang, translations, translator
from npc_tactics.locale_format import percent as pct
from npc_tactics.policy_io.card_hooks import CardHooks, hooks_for

# The card module imports this one to render itself, so cards, rules and conditions are typed loosely here (a
# type-only import back would be an import cycle for lint-imports).
Card = Any
CardRule = Any
Condition = Any

__all__ = ["EXIT_VERBS", "VERBS", "WORDS", "action_phrase", "condition_text", "pct", "render_markdown", "rule_text"]

#: the action of a "play by the book" rule (``policy_io.card.BY_THE_BOOK``, which this module cannot import)
BOOK_ACTION: Final = -1

#: Move phrases of the verbs two systems share and of the plain moves of any fight; {target}, {weapon}, {spell},
#: {n}, {location} are filled from the action name. A system's own verbs come from its card hooks
#: (:class:`~npc_tactics.policy_io.card_hooks.CardHooks`); a verb named in neither prints as it is.
VERBS: Final[dict[str, str]] = {
    "cast": N_("cast {spell} on {target}"), "hold": N_("hold"), "close": N_("close in on {target}"),
    "move_away": N_("move away"), "withdraw": N_("withdraw"), "retreat": N_("retreat"),
    "shoot": N_("shoot {target}"), "melee": N_("strike {target} in melee"), "attack": N_("attack {target}"),
    "attack+w": N_("attack {target} with {weapon}"), "ready": N_("ready {weapon}"), "defend": N_("defend"),
    "flee": N_("flee"), "parry": N_("parry with {weapon}"), "dodge": N_("dodge"), "aim": N_("aim at location {n}"),
    "advance": N_("advance on {target}"), "charge": N_("charge {target}"), "disengage": N_("disengage"),
    "stand_up": N_("stand up"), "evade": N_("evade"), "strike": N_("strike {target}"), "reload": N_("reload"),
    "run": N_("run"), "wait": N_("wait"),
}
#: Words inside moves that several systems share: body locations (a system's own spells, postures, distances
#: come from its card hooks).
WORDS: Final[dict[str, str]] = {
    "head": N_("head"), "chest": N_("chest"), "abdomen": N_("abdomen"), "left_arm": N_("left arm"),
    "right_arm": N_("right arm"), "left_leg": N_("left leg"), "right_leg": N_("right leg"), "torso": N_("torso"),
    "pelvis": N_("pelvis"),
}
#: Decision kinds as a GM says them (the card's rules are grouped by kind).
KINDS: Final[dict[str, str]] = {
    "declare": N_("declaring"), "act": N_("its turn to act"), "react": N_("a blow is coming"),
    "effect": N_("picking special effects"), "split": N_("splitting the pool"), "option": N_("choosing an option"),
}
#: Verbs that leave the fight or break contact: the card's learned exit (a system adds its own in its hooks).
#: Stepping back or moving away to shoot is repositioning, not an exit, so those verbs are not listed.
EXIT_VERBS: Final = frozenset({"withdraw", "retreat", "flee", "disengage"})
_NO_HOOKS: Final = CardHooks()


@dataclass(frozen=True)
class _Tables:
    """The shared tables merged with one system's hooks: what the card's moves and exits are read from."""

    verbs: dict[str, str]
    words: dict[str, str]
    exits: frozenset[str]
    counted: frozenset[str]
    morale_note: str

    @classmethod
    def of(cls, card: Card) -> _Tables:
        h = hooks_for(card.plugin) or _NO_HOOKS
        return cls({**VERBS, **h.verbs}, {**WORDS, **h.words}, EXIT_VERBS | h.exit_verbs, h.counted, h.morale_note)


def _target(card: Card, token: str, _: Callable[[str], str]) -> str:
    if token == "self":
        return _("itself")
    group, _sep, num = token.partition("_")
    n = int(num) + 1 if num.isdigit() else 1
    if group == "enemy":
        return _("the enemy") if int(card.meta.get("enemy_count", 0)) == 1 else _("enemy {n}").format(n=n)
    return _("ally {n}").format(n=n)


def action_phrase(card: Card, action: int, lang: str = "en") -> str:
    """The move ``action`` of the card's catalogue in words (-1: a "by the book" rule's move)."""
    _ = translator(lang, "card")
    if action == BOOK_ACTION:
        return _("play by the book")
    t = _Tables.of(card)
    name = str(card.actions[action])
    verb, *args = name.split(":")
    template = t.verbs.get(verb + "+w") if any(a.isdigit() for a in args) else None
    template = template or t.verbs.get(verb)
    if template is None:
        return name
    fill: dict[str, Any] = {"target": _("the enemy"), "weapon": "", "spell": "", "n": "", "location": ""}
    weapons = card.meta.get("weapons", [])
    for arg in args:
        if arg == "self" or arg.startswith(("enemy_", "ally_")):
            fill["target"] = _target(card, arg, _)
        elif arg.isdigit():
            k = int(arg)
            fill["n"] = k if verb in t.counted else k + 1
            fill["weapon"] = (str(weapons[k]).replace("_", " ") if k < len(weapons)
                              else _("weapon {n}").format(n=k + 1))
        elif verb == "cast":
            fill["spell"] = _(t.words[arg]) if arg in t.words else arg.replace("_", " ").title()
        else:
            fill["location"] = _(t.words[arg]) if arg in t.words else arg.replace("_", " ")
    return _(template).format(**fill)


def _number(x: float, lang: str) -> str:
    text = f"{x:.0f}" if abs(x - round(x)) < 0.05 else f"{x:.1f}"
    return text.replace(".", ",") if lang == "fr" else text


def condition_text(card: Card, cond: Condition, lang: str = "en") -> str:
    _ = translator(lang, "card")
    feat = card.features[cond.feature]
    if feat.kind == "flag":
        yes = cond.op == "gt"
        if yes:
            return _(feat.yes)
        return _(feat.no) if feat.no else _("not: {what}").format(what=_(feat.yes))
    label = _(feat.label)
    if feat.kind == "count":
        return (f"{label} ≤ {math.floor(cond.value)}" if cond.op == "le"
                else f"{label} ≥ {math.floor(cond.value) + 1}")
    sign = "≤" if cond.op == "le" else ">"
    if feat.kind == "percent":
        return f"{label} {sign} {pct(cond.value, lang)}"
    unit = f" {_(feat.unit)}" if feat.unit else ""
    return f"{label} {sign} {_number(cond.value, lang)}{unit}"


def rule_text(card: Card, rule: CardRule, lang: str = "en", move: str | None = None) -> str:
    """"If A and B: move", "Otherwise: move", or "Always: move" for a kind's only rule. ``move``: the move in
    other words than the card's slot wording (the advisor names it by creature in one fight)."""
    _ = translator(lang, "card")
    move = action_phrase(card, rule.action, lang) if move is None else move
    if not rule.conditions:
        alone = sum(r.kind == rule.kind for r in card.rules) == 1
        return (_("Always: {move}") if alone else _("Otherwise: {move}")).format(move=move)
    conds = _(" and ").join(condition_text(card, c, lang) for c in rule.conditions)
    text = _("If {conditions}: {move}").format(conditions=conds, move=move)
    return "S'il " + text[len("Si il "):] if lang == "fr" and text.startswith("Si il ") else text


def _rate(entry: dict[str, Any] | None, lang: str) -> str:
    if not entry:
        return "-"
    return f"{pct(entry['rate'], lang)} [{pct(entry['low'], lang)}, {pct(entry['high'], lang)}]"


def render_markdown(card: Card, lang: str = "en") -> str:
    """The stat-block card in Markdown: before combat, the rules, morale and retreat, how far to trust it."""
    check_lang(lang)
    _ = translator(lang, "card")
    t = _Tables.of(card)
    m = card.meta
    who = ", ".join(m.get("npcs", [])) or _("the NPC")
    ngettext = translations(lang, "card").ngettext
    facts = {"system": card.system, "scenario": card.scenario, "bundle": m.get("bundle", "?"),
             "depth": m.get("depth", "?"), "rules": len(card.rules), "encounter": m.get("encounter")}
    if m.get("encounter"):  # a generalist: distilled and measured on fights drawn from its distribution
        where = ngettext("{system}, fights drawn from the {encounter} encounter distribution; distilled from the "
                         "bundle {bundle} (a decision tree of depth {depth}, {rules} rule).",
                         "{system}, fights drawn from the {encounter} encounter distribution; distilled from the "
                         "bundle {bundle} (a decision tree of depth {depth}, {rules} rules).",
                         len(card.rules)).format(**facts)
    else:
        where = ngettext("{system}, scenario {scenario}; distilled from the bundle {bundle} (a decision tree of "
                         "depth {depth}, {rules} rule).",
                         "{system}, scenario {scenario}; distilled from the bundle {bundle} (a decision tree of "
                         "depth {depth}, {rules} rules).", len(card.rules)).format(**facts)
    out = ["# " + _("Tactics card: {who}").format(who=who), "", where, ""]
    out += [f"## {_('Before combat')}", ""]
    opening = m.get("opening")
    if opening:
        out.append("- " + _("Opening move: {move} (the network plays it in {share} of its fights).").format(
            move=action_phrase(card, int(opening["action"]), lang), share=pct(opening["share"], lang)))
    if m.get("foes"):
        out.append("- " + _("Facing: {foes}.").format(foes=", ".join(m["foes"])))
    out += ["", f"## {_('Each round, the first rule that applies')}", "",
            f"| # | {_('Decision')} | {_('Rule')} | {_('probability')} | {_('fires')} |", "|---|---|---|---|---|"]
    previous = None
    for r in card.rules:
        when = _(KINDS.get(r.kind, r.kind)) if r.kind != previous else ""
        previous = r.kind
        out.append(f"| {r.index + 1} | {when} | {rule_text(card, r, lang)} | {pct(r.probability, lang)} | "
                   f"{pct(r.fires, lang)} |")
    out += ["", _("Within each kind of decision, the first rule that applies gives the move. Probability: how "
                  "often the network itself picks that move where the rule applies. Fires: the share of the NPC's "
                  "decisions on which the rule is the one that applies. When the rule's move is not allowed, take "
                  "the next allowed one of: {moves}.").format(
        moves=", ".join(action_phrase(card, a, lang) for a in _fallback_examples(card)) or "-"), ""]
    if any(r.action == BOOK_ACTION for r in card.rules):
        out += [_("\"Play by the book\": make the move the system's by-the-book agent makes (`npc-tactics agents "
                  "{system}` describes it), the straightforward play of the rules; the other rules are where the "
                  "network plays otherwise.").format(system=card.system), ""]
    ruled = {r.kind for r in card.rules}
    for kind, moves in card.fallback.items():
        if kind not in ruled and moves:
            out.append("- " + _("{kind}: always {move} (the network's choice there never mattered enough for a "
                                "rule).").format(kind=_(KINDS.get(kind, kind)),
                                                 move=action_phrase(card, moves[0], lang)))
    out += [""] if out[-1] else []
    out += [f"## {_('Morale / retreat')}", ""]
    exits = [r for r in card.rules if r.action != BOOK_ACTION and card.actions[r.action].split(":")[0] in t.exits]
    if exits:
        out.append("- " + _("Learned exit: rule {rules}.").format(rules=", ".join(str(r.index + 1) for r in exits)))
    else:
        out.append("- " + _("Learned exit: none; the card fights on until the end."))
    ev = m.get("evaluation", {})
    if ev:
        out.append("- " + _("The NPC side fled in {card} of card fights and {net} of network fights.").format(
            card=pct(ev["card"]["fled"], lang), net=pct(ev["network"]["fled"], lang)))
    out += (["- " + _(t.morale_note)] if t.morale_note else []) + [""]
    out += _trust(card, lang)
    return "\n".join(out) + "\n"


def _fallback_examples(card: Card) -> list[int]:
    seen: list[int] = []
    for actions in card.fallback.values():
        for a in actions[:2]:
            if a not in seen:
                seen.append(a)
    return seen[:4]


def _trust(card: Card, lang: str) -> list[str]:
    _ = translator(lang, "card")
    ngettext = translations(lang, "card").ngettext
    m = card.meta
    fid, ev = m.get("fidelity", {}), m.get("evaluation", {})
    out = [f"## {_('How far to trust this card')}", ""]
    if fid:
        out.append("- " + ngettext(
            "Fidelity: the card picks the network's most likely move on {plain} of {n} decision the network met, "
            "{weighted} weighted by how much the choice matters.",
            "Fidelity: the card picks the network's most likely move on {plain} of {n} decisions the network met, "
            "{weighted} weighted by how much the choice matters.", int(fid["decisions"])).format(
            plain=pct(fid["plain"], lang), n=fid["decisions"], weighted=pct(fid["weighted"], lang)))
    if ev:
        out.append("- " + ngettext(
            "Win rate over {fights} fight on the same seeds against {opponents}: card {card}, network {net}, "
            "by-the-book {book} (Wilson 95% intervals).",
            "Win rate over {fights} fights on the same seeds against {opponents}: card {card}, network {net}, "
            "by-the-book {book} (Wilson 95% intervals).", int(ev["fights"])).format(
            fights=ev["fights"], opponents=", ".join(dict.fromkeys(ev["opponents"])),
            card=_rate(ev["card"]["win"], lang), net=_rate(ev["network"]["win"], lang),
            book=_rate(ev["by_the_book"]["win"], lang)))
        kept = ev.get("kept_gain")
        if kept is None:
            out.append("- " + _("Kept gain: not defined, the network does not measurably beat by-the-book here."))
        else:
            out.append("- " + _("The card keeps {kept} of the network's gain over by-the-book (bootstrap 95% "
                                "interval {low} to {high}).").format(kept=pct(kept["share"], lang),
                                                                     low=pct(kept["low"], lang),
                                                                     high=pct(kept["high"], lang)))
        if ev["card"]["win"]["high"] < ev["by_the_book"]["win"]["rate"]:  # the GM is better off without the card
            out.append("- " + _("**Verdict: the card wins less often than by-the-book here.** Play this NPC by the "
                                "book, or ask `npc-tactics suggest` (the network) at each decision, rather than "
                                "follow the card."))
        elif kept is not None and kept["share"] < 0.5:  # a card is meant to carry most of what the network knows
            out.append("- " + _("**This card keeps less than half of what the network gains over by-the-book.** "
                                "Where a decision matters, ask `npc-tactics suggest` (the network) rather than "
                                "follow the card."))
    sweep = m.get("sweep", [])
    if sweep:
        out += ["", f"| {_('card')} | {_('depth')} | {_('rules')} | {_('fidelity')} | {_('weighted')} | "
                    f"{_('card win rate')} |", "|---|---|---|---|---|---|"]
        for s in sweep:
            kind = _("exceptions to by-the-book") if s.get("by_the_book") else _("rules only")
            out.append(f"| {kind} | {s['depth']} | {s['rules']} | {pct(s['fidelity'], lang)} | "
                       f"{pct(s['weighted_fidelity'], lang)} | {_rate(s['win'], lang)} |")
        kept = _("exceptions to by-the-book") if m.get("by_the_book") else _("rules only")
        out += ["", _("Kept: {card}, depth {depth}, {why}.").format(card=kept, depth=m.get("depth", "?"),
                                                                    why=_(m.get("choice", "")))]
    return out + [""]
