"""Dice-pool (Haru'Rak'Zall) event sentences (events of ``rules/dicepool``). A blow's location is named by the
target's body plan (:attr:`Teller.bodies <npc_tactics.gm.words.narrate.Teller>`): a hound's "left_arm" slot is
its left foreleg."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event
from npc_tactics.systems.dicepool.summary import location_in_words, location_words

__all__ = ["SENTENCES"]

_ACTION = {"advance": N_("advance"), "aim": N_("aim"), "cover": N_("take cover"), "draw": N_("draw a weapon"),
           "mount": N_("mount"), "posture": N_("change posture"), "reload": N_("reload"), "run": N_("run"),
           "shoot": N_("shoot"), "strike": N_("strike"), "wait": N_("wait"), "withdraw": N_("withdraw")}
_MODE = {"brawl": N_("bare-handed"), "weapon": N_("with a weapon")}
_BAND = {"short": N_("short"), "medium": N_("medium"), "long": N_("long"), "extreme": N_("extreme")}
_HIT = {"hit": N_("hit"), "miss": N_("miss")}
_POSTURE = {"prone": N_("{actor} drops prone."), "kneeling": N_("{actor} kneels."),
            "standing": N_("{actor} stands up."), "cover_half": N_("{actor} takes half cover."),
            "cover_three_quarters": N_("{actor} takes three-quarters cover.")}
_STATUS = {"dead": N_("{who} dies."), "fled": N_("{who} leaves the fight."),
           "unconscious": N_("{who} falls unconscious.")}


def _hits(n: object, t: Teller) -> str:
    return t.ngettext("{n} success", "{n} successes", int(str(n))).format(n=n)


def _attack(e: Event, t: Teller) -> str:
    d = e.data
    if d["result"] == "forfeit":
        return t.say("{actor} forfeits the blow at {target}.", e)
    result, n = t.term(_HIT, d["result"]), int(d["dice"])
    if d.get("mode") == "ranged":
        located = d.get("located")
        aimed = location_words(t.body(e.target), located, t._) if located else ""
        where = t._(", aimed at {location}").format(location=aimed) if located else ""
        return t.fill(t.ngettext("{actor} shoots at {target} at {band} range{where}: {hits} on {dice} die, "
                                 "{needed} needed: {result}.",
                                 "{actor} shoots at {target} at {band} range{where}: {hits} on {dice} dice, "
                                 "{needed} needed: {result}.", n), e,
                      band=t.term(_BAND, d.get("band")), where=where, result=result, hits=_hits(d["successes"], t))
    return t.fill(t.ngettext("{actor} strikes at {target} {mode}: {hits} on {dice} die, {needed} needed: {result}.",
                             "{actor} strikes at {target} {mode}: {hits} on {dice} dice, {needed} needed: {result}.",
                             n), e, mode=t.term(_MODE, d.get("mode")), result=result, hits=_hits(d["successes"], t))


def _damage(e: Event, t: Teller) -> str:
    d = e.data
    where = location_in_words(t.body(e.target), d.get("location"), t._)
    spread = t._(" (the lightning spreads through metal)") if d.get("spread") else ""
    if d["result"] == "absorbed":
        return t.say("Armour absorbs the whole blow to {target} {where}{spread}.", e, where=where, spread=spread)
    n, kept = int(d["amount"]), int(d["absorbed"])
    absorbed = t.ngettext("{n} absorbed", "{n} absorbed", kept).format(n=kept)  # "1 absorbé", "2 absorbés"
    if d["result"] == "serious":
        return t.fill(t.ngettext("{target} takes {amount} damage {where}, a serious wound ({absorbed}){spread}.",
                                 "{target} takes {amount} damage {where}, a serious wound ({absorbed}){spread}.", n),
                      e, where=where, spread=spread, absorbed=absorbed)
    return t.fill(t.ngettext("{target} takes {amount} damage {where} ({absorbed}){spread}.",
                             "{target} takes {amount} damage {where} ({absorbed}){spread}.", n), e,
                  where=where, spread=spread, absorbed=absorbed)


def _initiative(e: Event, t: Teller) -> str:
    n = int(str(e.data["result"]).split("_")[0])
    ranks = ", ".join(str(r) for r in e.data.get("ranks", []))
    hits = _hits(e.data["successes"], t)
    if n == 0:
        return t.say("{actor} rolls initiative, {hits}: no action this turn.", e, hits=hits)
    return t.ngettext("{actor} rolls initiative, {hits}: {n} action (rank {ranks}).",
                      "{actor} rolls initiative, {hits}: {n} actions (ranks {ranks}).", n).format(
        actor=t.actor(e), hits=hits, n=n, ranks=ranks)


def _split(e: Event, t: Teller) -> str:
    d = e.data
    pool = int(d["pool"])
    if d["result"] == "all_attack":
        return t.fill(t.ngettext("{actor} keeps {pool} die on the attack.",
                                 "{actor} keeps all {pool} dice on the attack.", pool), e)
    if d["result"] == "all_defense":
        return t.fill(t.ngettext("{actor} moves {pool} die to DEFENSE.", "{actor} moves all {pool} dice to DEFENSE.",
                                 pool), e)
    return t.fill(t.ngettext("{actor} moves {dice} of {pool} dice to DEFENSE.",
                             "{actor} moves {dice} of {pool} dice to DEFENSE.", int(d["dice"])), e)


SENTENCES: dict[str, Sentence] = {
    "action": lambda e, t: t.say("{actor} acts: {what}.", e, what=t.term(_ACTION, e.data.get("result"))),
    "aim": lambda e, t: t.say("{actor} takes aim at {target}.", e),
    "attack": _attack,
    "damage": _damage,
    "disarm": lambda e, t: t.say("{actor} disarms {target} ({weapon} falls).", e,
                                 weapon=t.weapon(e.data.get("weapon"))),
    "free_blow": lambda e, t: t.say("{actor} gets a free blow as {target} disengages.", e),
    "initiative": _initiative,
    "posture": lambda e, t: t._(_POSTURE[str(e.data["result"])]).format(actor=t.actor(e)),
    "round_start": lambda e, t: t.say("— Game turn {round} —", e),
    "split": _split,
    "status": lambda e, t: t._(_STATUS[str(e.data["status"])]).format(who=t.who(e)),
}
