"""What the tracker shows of a fight, in English or French: the round and decision, one card per combatant, the
die awaited, the outcome and the log in plain words (gm-words' narration, the sentences of ``replay``/``play``).

The order of the round (:func:`order_view`) is what each system's rules hold, read off the engine state by the
system's ``tracker_order`` hook (``npc_tactics/systems/<name>/tracker_order.py``) and only put in words here:
the page never sorts it. The JSON of :func:`view` is the body of ``GET /fights/{id}`` and what the page draws;
:func:`log_lines` is the fight log (also printed by ``examples/tracker_client.py``). Words of the tracker itself
are in the gettext domain ``web`` (``npc_tactics/gm/service/web_strings.py``); the die prompt and round header
reuse ``play``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from npc_tactics.gm.table.fight_dice import prompt_text
from npc_tactics.gm.table.fight_import import edit_text, stat_line
from npc_tactics.gm.table.stat_words import member_text
from npc_tactics.gm.table.tracker import Fight
from npc_tactics.gm.words.narrate import bodies_of, roll_why, teller
from npc_tactics.gm.words.play_words import Narrator
from npc_tactics.gm.words.summary import STATUSES
from npc_tactics.gm.words.vocab import DECISION_KINDS, word
from npc_tactics.i18n import N_, translations, translator
from npc_tactics.plugin import System
from npc_tactics.rules.base import SideResult
from npc_tactics.rules.outcome import Status

__all__ = ["log_lines", "order_hook", "order_view", "outcome_text", "view"]

#: Resources read off a combatant where its system keeps them under these names (no system named here).
RESOURCES: dict[str, str] = {
    "ammo": N_("ammunition: {n}"),
    "spells": N_("spells left: {n}"),
    "mp": N_("magic points: {n}"),
    "reactions": N_("Reactions left: {n}"),
    "defense_dice": N_("dice in DEFENSE: {n}"),
}
#: Decision context keys shown with the round (what each system says about where in the round it is).
CONTEXT_WORDS: dict[str, str] = {
    "phase": N_("phase: {v}"), "sr": N_("strike rank {v}"), "rank": N_("action rank {v}"),
    "ca": N_("Combat Action {v}"), "pool": N_("pool {v}"), "remaining": N_("effects left {v}"),
}

#: the values of a decision's ``phase`` the systems use, in the GM's words
PHASE_WORDS: dict[str, str] = {
    "declare": N_("declarations"), "morale": N_("morale"), "move": N_("movement"), "missile": N_("missiles"),
    "spell": N_("spells"), "melee": N_("melee"), "slow": N_("slow weapons"), "option": N_("choice of options"),
    "then": N_("next action"), "resolve": N_("resolution"), "react": N_("reaction"), "over": N_("over"),
}


#: What the number of a row of the order stands for (the ``measure`` a system's ``tracker_order`` gives).
MEASURE_WORDS: dict[str, str] = {
    "side_initiative": N_("side initiative {v}"), "initiative": N_("initiative {v}"),
    "strike_rank": N_("strike rank {v}"), "action_rank": N_("action rank {v}"),
    "actions_left": N_("Combat Actions left: {v}"), "action_turn": N_("Action Turn {v}"),
}
#: Who plays a side, in the GM's words (``SideSpec.control``).
CONTROL_WORDS: dict[str, str] = {"npc": N_("played by the advisor (NPCs)"), "pc": N_("played by the GM (PCs)")}


def _web(lang: str) -> Any:
    return translator(lang, "web")


def resources(c: Any, _: Any) -> list[str]:
    out = []
    for key, template in RESOURCES.items():
        value = getattr(c, key, None)
        if isinstance(value, list | tuple):
            value = sum(int(v) for v in value if isinstance(v, int))
            if value == 0:
                continue
        if key == "ammo" and not getattr(getattr(c, "prof", None), "missile_weapon", True):
            continue  # a combatant with no missile weapon: what it carries to throw is not a resource to track
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append(_(template).format(n=value))
    return out


def cards(fight: Fight, lang: str) -> list[dict[str, Any]]:
    state = fight.state
    if state is None:
        return []
    gt = translations(lang).gettext
    _ = _web(lang)
    details = fight.plugin.system_words().details
    decision = fight.decision
    acting = decision.actor if decision is not None else (fight.prompt.actor if fight.prompt else None)
    lines = {m.entry["name"]: stat_line(fight.plugin, m.entry, lang) for m in fight.members}
    out = []
    for i, c in enumerate(state.combatants):
        status = Status(int(c.status))
        out.append({"index": i, "name": str(c.name), "side": int(c.side), "status": status.name.lower(),
                    "status_text": gt(STATUSES.get(status, str(status))), "details": details(state, i, gt, lang),
                    "hp": int(getattr(c, "hp", 0)), "max_hp": int(getattr(c, "max_hp", 0) or 0),
                    "resources": resources(c, _), "acting": acting == i,
                    "stat_line": lines.get(str(c.name)),
                    "side_name": fight.sides[int(c.side)].name, "control": fight.sides[int(c.side)].control})
    return out


def order_hook(system: System) -> Callable[[Any], dict[str, Any]] | None:
    """The system's ``tracker_order`` hook: ``order(state)``, the order its rules give this round, read off the
    engine state (``None``: the system gives none)."""
    return system.order_function()


def order_view(fight: Fight, lang: str) -> dict[str, Any] | None:
    """The order this round as the system's rules give it (its ``tracker_order`` hook), in the GM's words: one
    row per combatant (or per action), with its name, side, number, and the current actor marked."""
    if fight.state is None or fight.outcome() is not None:
        return None
    hook = order_hook(fight.plugin)
    if hook is None:
        return None
    _ = _web(lang)
    got = hook(fight.state)
    decision = fight.decision
    acting = decision.actor if decision is not None else (fight.prompt.actor if fight.prompt else None)
    cs = fight.state.combatants
    rows = []
    for r in got["rows"]:
        i = int(r["index"])
        side = int(cs[i].side)
        parts = [_(MEASURE_WORDS[r["measure"]]).format(v=r["number"]) if r.get("number") is not None
                 else _("not declared yet")]
        parts += [_(MEASURE_WORDS[m]).format(v=n) for m, n in r.get("also", [])]
        rows.append({"index": i, "name": str(cs[i].name), "side": side, "side_name": fight.sides[side].name,
                     "control": fight.sides[side].control, "number": r.get("number"), "text": " · ".join(parts),
                     "group": int(r.get("group", 0)), "done": bool(r.get("done")), "now": bool(r.get("now")),
                     "acting": acting == i})
    phase = got.get("phase")
    first = [fight.sides[k].name for k in got.get("first", [])]
    if len(first) == 1:
        first_text = _("{side} act first").format(side=first[0])
    elif first:
        first_text = _("Tied initiative: the sides act at the same time")
    else:
        first_text = ""
    notes = [first_text] if first_text else []
    if phase:
        notes.append(_("phase: {v}").format(v=_(PHASE_WORDS[phase]) if phase in PHASE_WORDS else phase))
    if got.get("cycle"):
        notes.append(_("Combat Action {v}").format(v=got["cycle"]))
    return {"title": _("Order this round"), "phase": phase, "first": list(got.get("first", [])),
            "notes": notes, "rows": rows}


def sides_view(fight: Fight, lang: str) -> list[dict[str, Any]]:
    _ = _web(lang)
    return [{"index": k, "name": s.name, "control": s.control, "control_text": _(CONTROL_WORDS[s.control])}
            for k, s in enumerate(fight.sides)]


def decision_view(fight: Fight, lang: str) -> dict[str, Any] | None:
    d = fight.decision
    if d is None:
        return None
    gt = translations(lang).gettext
    _ = _web(lang)
    label = fight._labels.get(lang, fight._labels["en"])
    where = [_(CONTEXT_WORDS[k]).format(v=_(PHASE_WORDS[v]) if k == "phase" and v in PHASE_WORDS else v)
             for k, v in d.context.items()
             if k in CONTEXT_WORDS and isinstance(v, str | int) and not isinstance(v, bool)]
    return {"actor": int(d.actor), "name": str(fight.state.combatants[d.actor].name), "side": int(d.side),
            "kind": d.kind.name.lower(), "kind_text": word(DECISION_KINDS, d.kind.name, gt),
            "who": fight.sides[int(d.side)].control, "where": where,
            "moves": [{"index": a, "action": fight.engine.catalogue.name(a), "label": label(fight.state, d, a)}
                      for a in fight.legal()]}


def outcome_text(fight: Fight, lang: str) -> str | None:
    outcome = fight.outcome()
    if outcome is None:
        return None
    ngettext = translations(lang, "web").ngettext
    results = [SideResult(int(r)) for r in outcome.results]
    n = int(outcome.rounds)
    # no verb agreeing with a side's name ("NPCs", "Kesh's side"): a noun phrase after the colon
    winners = [fight.sides[k].name for k, r in enumerate(results) if r == SideResult.WIN]
    if winners:
        return ngettext("End of the fight after {n} round: victory for {side}.",
                        "End of the fight after {n} rounds: victory for {side}.", n).format(
            n=n, side=", ".join(winners))
    fled = [fight.sides[k].name for k, r in enumerate(results) if r == SideResult.FLED]
    if fled:
        return ngettext("End of the fight after {n} round: {side} fled the field.",
                        "End of the fight after {n} rounds: {side} fled the field.", n).format(
            n=n, side=", ".join(fled))
    return ngettext("End of the fight after {n} round: a draw.", "End of the fight after {n} rounds: a draw.",
                    n).format(n=n)


def log_lines(fight: Fight, lang: str) -> list[dict[str, Any]]:
    """The fight so far in plain words: round headers, each move (and who chose it), each event, each die."""
    if not fight.played and fight.partial is None:
        return []
    names = fight.names()
    sides = [s.name for s in fight.sides]
    narrator = Narrator(fight.plugin, names, lang, sides, bodies_of(fight.state))
    play_ = translator(lang, "play")
    _ = _web(lang)
    lines: list[dict[str, Any]] = []
    shown = -1
    for k, p in enumerate(fight.played):
        first = len(lines)
        for e in p.events:
            if e.round != shown:
                shown = e.round
                lines.append({"step": k, "kind": "round", "text": play_("=== Round {n} ===").format(n=e.round)})
            if e.kind == "round_start" or e.kind in narrator.echoes:
                continue
            lines.append({"step": k, "kind": "event", "text": narrator.tell(e)})
        if p.actor is not None:
            who = _("advisor") if p.step.by == "advisor" else _("GM")
            text = _("{actor}: {move} ({who})").format(actor=names[p.actor], move=p.labels.get(lang, ""), who=who)
            lines.insert(first, {"step": k, "kind": "move", "text": text})
        typed = [f for f in p.dice if f[2]]
        if typed:
            lines.append({"step": k, "kind": "dice", "text": _("typed: {faces}").format(
                faces=", ".join(f"d{s}={f}" for s, f, _t in typed))})
    if fight.prompt is not None and fight.partial is not None:
        t = teller(names, lang, sides)
        for prompt, face in fight.typed_prompts():  # this step's faces so far, each with what it was for
            asked = prompt_text(prompt, names, lambda w: roll_why(w, t), lang)
            lines.append({"step": len(fight.played), "kind": "dice",
                          "text": _("{asked}: {face}").format(asked=asked, face=face)})
    done = outcome_text(fight, lang)
    if done:
        lines.append({"step": len(fight.played), "kind": "end", "text": done})
    return lines


def die_view(fight: Fight, lang: str) -> dict[str, Any] | None:
    if fight.prompt is None:
        return None
    names = fight.names()
    t = teller(names, lang, [s.name for s in fight.sides])
    return {**fight.prompt.to_dict(), "text": prompt_text(fight.prompt, names, lambda w: roll_why(w, t), lang),
            "typed": list(fight.partial.typed) if fight.partial is not None else []}


def member_view(fight: Fight, k: int, lang: str) -> dict[str, Any]:
    """One combatant of the roster: its entry as the parser reads it, its stat line shown in ``lang``
    (``stat_line``), the text the Edit box starts from (``stat_block``: the full stat block in the book layout
    its parser reads back where the system prints one, else the English stat line), and
    what it is in a word (``what``: its template, its class and level)."""
    m = fight.members[k]
    line = stat_line(fight.plugin, m.entry)
    return {"index": k, "side": m.side, "name": m.entry["name"], "entry": dict(m.entry),
            "stat_line": line if lang == "en" else stat_line(fight.plugin, m.entry, lang),
            "stat_block": edit_text(fight.plugin, m.entry) or line,
            "what": member_text(fight.plugin, m.entry, lang, _web(lang)("stat block"))}


def view(fight: Fight, lang: str = "en", *, log: bool = True) -> dict[str, Any]:
    """Everything the page shows of ``fight`` now (see the module docstring)."""
    _ = _web(lang)
    d = fight.decision
    round_no = int(getattr(fight.state, "round", 0)) if fight.state is not None else 0
    out = fight.outcome()
    return {
        "system": fight.system, "lang": lang, "seed": fight.seed, "dice": fight.dice,
        "sides": sides_view(fight, lang), "can_change_control": fight.can_change_control(),
        "members": [member_view(fight, k, lang) for k in range(len(fight.members))],
        "started": fight.started, "round": round_no,
        "round_text": _("Round {n}").format(n=round_no) if fight.started else "",
        "decision": decision_view(fight, lang) if d is not None else None,
        "die": die_view(fight, lang),
        "order": order_view(fight, lang),
        "combatants": cards(fight, lang),
        "over": out is not None,
        "outcome": None if out is None else {"results": [SideResult(int(r)).name.lower() for r in out.results],
                                             "winner": out.winner, "rounds": int(out.rounds), "reason": out.reason,
                                             "text": outcome_text(fight, lang)},
        "steps": len(fight.played), "can_undo": bool(fight.played or fight.partial),
        "log": log_lines(fight, lang) if log else [],
    }
