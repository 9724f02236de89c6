"""Mongoose RuneQuest (opposed tests) event sentences (events of ``rules/mrq``)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.gm.words.vocab import EFFECTS
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event
from npc_tactics.systems.mrq.naming import DISTANCES

__all__ = ["SENTENCES"]

_MODE = {"normal": N_("{actor} attacks {target}"), "precise": N_("{actor} attacks {target} precisely"),
         "missile": N_("{actor} shoots at {target}"), "charge_attack": N_("{actor} charges {target}"),
         "charge_undefended": N_("{actor} charges {target}, who cannot defend"),
         "free_strike": N_("{actor} gets a free strike at {target}"),
         "manoeuvre": N_("{actor} manoeuvres against {target}"), "riposte": N_("{actor} ripostes against {target}"),
         "trample": N_("{actor} tramples {target}")}
_DEFENCE = {"defend": N_("parry"), "precise": N_("precise parry"), "evade": N_("evade")}
_RESULT = {"attacker_critical": N_("critical victory for the attacker"),
           "attacker_major": N_("major victory for the attacker"),
           "attacker_normal": N_("normal victory for the attacker"),
           "attacker_partial": N_("partial victory for the attacker"),
           "defender_critical": N_("critical victory for the defender"),
           "defender_major": N_("major victory for the defender"),
           "defender_normal": N_("normal victory for the defender"),
           "defender_partial": N_("partial victory for the defender"), "miss": N_("both fail")}
_REACTION = {"defend": N_("parries"), "precise": N_("makes a precise parry"), "evade": N_("evades"),
             "none": N_("does not react")}
_FUMBLES = {"ally hit": N_("hits an ally"), "armour lost": N_("loses a piece of armour"), "bad luck": N_("bad luck"),
            "broken limb": N_("breaks a limb"), "entanglement": N_("gets entangled"),
            "hesitation": N_("hesitates"), "limb injured": N_("injures a limb"), "lose balance": N_("loses balance"),
            "numb limb": N_("a limb goes numb"), "stagger": N_("staggers"), "trip": N_("trips"),
            "weapon broken": N_("breaks the weapon"), "weapon damaged": N_("damages the weapon"),
            "weapon dropped": N_("drops the weapon")}
_TABLES = {"melee": N_("melee"), "missile": N_("missile"), "natural": N_("natural weapon")}
_WHY = {"disarm": N_("disarm"), "trip": N_("trip"), "entangle trip": N_("entangle trip"),
        "evade charge": N_("evade the charge"), "free from entanglement": N_("break free"),
        "Endurance vs weapon skill": N_("Endurance against weapon skill"),
        "Resilience vs weapon skill": N_("Resilience against weapon skill"),
        "Brute Force: extract a missile": N_("Brute Force to extract a missile"),
        "Brute Force: pull the weapon free": N_("Brute Force to pull the weapon free"),
        "Endurance: numb limb": N_("Endurance against a numb limb"),
        "keep footing after bash": N_("Acrobatics to keep its footing"),
        "keep footing after knockback": N_("Acrobatics to keep its footing")}
_WOUND = {"serious": N_("{target} suffers a serious wound {location_in}."),
          "major": N_("{target} suffers a major wound {location_in}.")}


def _attack(e: Event, t: Teller) -> str:
    d = e.data
    opening = t._(_MODE[str(d["mode"])]).format(actor=t.actor(e), target=t.target(e))
    result = t.term(_RESULT, d.get("result"))
    n = int(d.get("effects", 0))
    effects = t.ngettext(", {n} special effect", ", {n} special effects", n).format(n=n) if n else ""
    if d.get("defence", "none") == "none":
        return t.say("{opening} ({att_roll} against {att_skill}%), undefended: {result}{effects}.", e,
                     opening=opening, result=result, effects=effects)
    return t.say("{opening} ({att_roll} against {att_skill}%); {defence} ({def_roll} against {def_skill}%): "
                 "{result}{effects}.", e, opening=opening, result=result, effects=effects,
                 defence=t.term(_DEFENCE, d.get("defence")))


def _damage(e: Event, t: Teller) -> str:
    d = e.data
    where, n = t.location_in(d.get("location")), int(d["amount"])
    if d.get("pulled"):
        return t.fill(t.ngettext("Pulling the weapon out deals {amount} damage to {target} {where} "
                                 "({hp} HP left there).",
                                 "Pulling the weapon out deals {amount} damage to {target} {where} "
                                 "({hp} HP left there).", n), e, where=where)
    if d.get("fumble"):
        return t.fill(t.ngettext("{target} hurts itself: {amount} damage {where} ({hp} HP left there).",
                                 "{target} hurts itself: {amount} damage {where} ({hp} HP left there).", n), e,
                      where=where)
    if "rolled" in d:
        return t.fill(t.ngettext("{target} takes {amount} damage {where} (rolled {rolled}, Deflection {dp}, "
                                 "armour {armour}); {hp} HP left there.",
                                 "{target} takes {amount} damage {where} (rolled {rolled}, Deflection {dp}, "
                                 "armour {armour}); {hp} HP left there.", n), e, where=where)
    return t.fill(t.ngettext("{target} takes {amount} damage {where} ({hp} HP left there).",
                             "{target} takes {amount} damage {where} ({hp} HP left there).", n), e, where=where)


def _distance(e: Event, t: Teller) -> str:
    result = e.data["result"]
    if result == "advanced":
        return t.say("{actor} advances on {target} and engages at long reach.", e)
    if result == "approached":
        return t.say("{actor} moves towards {target}: {metres} m apart.", e)
    if result == "fell_back":
        if e.target is None:
            return t.say("{actor} falls back.", e)
        return t.say("{actor} falls back: {metres} m from {target}.", e)
    raise ValueError(result)


def _impaled(e: Event, t: Teller) -> str:
    result = e.data["result"]
    if result == "left_in":
        return t.say("The weapon of {actor} stays in {target}, {where}.", e,
                     where=t.location_in(e.data.get("location")))
    if result == "pulled_free":
        return t.fill(t.ngettext("{actor} pulls the weapon free of {target} ({extra} more damage).",
                                 "{actor} pulls the weapon free of {target} ({extra} more damage).",
                                 int(e.data["extra"])), e)
    if result == "stuck":
        return t.say("The weapon of {actor} stays stuck in {target}.", e)
    if result == "extracted":
        return t.say("{actor} pulls out the embedded missile.", e)
    raise ValueError(result)


def _opposed(e: Event, t: Teller) -> str:
    won = e.data["result"] == "won"
    template = (N_("Opposed test, {why}: {actor} {roll} against {skill}%, {target} {other_roll} against "
                   "{other_skill}%: {actor} wins.") if won else
                N_("Opposed test, {why}: {actor} {roll} against {skill}%, {target} {other_roll} against "
                   "{other_skill}%: {target} wins."))
    return t.say(template, e, why=t.term(_WHY, e.data.get("why")))


def _effect(e: Event, t: Teller) -> str:
    d = e.data
    effect = t.term(EFFECTS, d.get("result"))
    option = d.get("option")
    if option is not None:
        table = DISTANCES if d.get("result") == "change_distance" else None
        shown = t.term(table, option) if table is not None else t.location(option)
        return t.say("{actor} picks a special effect: {effect} ({option}).", e, effect=effect, option=shown)
    return t.say("{actor} picks a special effect: {effect}.", e, effect=effect)


def _status(e: Event, t: Teller) -> str:
    status = e.data["status"]
    if status == "unconscious":
        if e.data.get("bleeding"):
            return t.say("{who} falls unconscious and bleeds.", e)
        return t.say("{who} falls unconscious.", e)
    if status == "incapacitated":
        return t.say("{who} is out of the fight.", e)
    if status == "fled":
        return t.say("{who} leaves the fight.", e)
    if status == "dead":
        return t.say("{who} dies.", e)
    raise ValueError(status)


def _weapon_damage(e: Event, t: Teller) -> str:
    weapon = t.weapon(e.data.get("item"))
    result = e.data["result"]
    if result == "held":
        return t.say("{weapon} ({target}) holds.", e, weapon=weapon)
    if result == "broken":
        return t.say("{weapon} ({target}) breaks.", e, weapon=weapon)
    return t.fill(t.ngettext("{weapon} ({target}) takes {amount} damage.", "{weapon} ({target}) takes {amount} damage.",
                             int(e.data["amount"])), e, weapon=weapon)


SENTENCES: dict[str, Sentence] = {
    "armour_lost": lambda e, t: t.say("{actor} loses the armour {where}.", e,
                                      where=t.location_in(e.data.get("location"))),
    "attack": _attack,
    "bash": lambda e, t: t.say({"fell": N_("{actor} bashes {target} back {metres} m; {target} falls."),
                                "pushed": N_("{actor} bashes {target} back {metres} m."),
                                "unaffected": N_("{target} stands firm against the blow of {actor}.")}[
                                   e.data["result"]], e),
    "charge": lambda e, t: t.say({"caught": N_("The charge of {actor} catches {target}."),
                                  "evaded": N_("{target} evades the charge of {actor}."),
                                  "received": N_("{target} receives the charge of {actor}.")}[e.data["result"]], e),
    "damage": _damage,
    "disarmed": lambda e, t: t.say("{actor} disarms {target}.", e),
    "dismounted": lambda e, t: t.say(N_("{actor} is thrown from the fallen {target} and lands prone.")
                                     if e.data["result"] == "prone"
                                     else N_("{actor} falls from the fallen {target}."), e),
    "distance": _distance,
    "natural_attack": lambda e, t: t.say(N_("{actor} strikes with {weapon} this time ({skill}%)."), e,
                                         weapon=t.weapon(e.data.get("weapon"))),
    "entangled": lambda e, t: t.say("{actor} entangles {target} {where}.", e,
                                    where=t.location_in(e.data.get("location"))),
    "fumble": lambda e, t: t.say("{actor} fumbles ({table} table, {face}): {what}.", e,
                                 table=t.term(_TABLES, e.data.get("table")),
                                 what=t.term(_FUMBLES, e.data.get("result"))),
    "impaled": _impaled,
    "knockback": lambda e, t: t.say({"fell": N_("{actor} knocks {target} back {metres} m; {target} falls."),
                                     "pushed": N_("{actor} knocks {target} back {metres} m."),
                                     "braced": N_("{target} stands firm against the blow of {actor}.")}[
                                        e.data["result"]], e),
    "limb_useless": lambda e, t: t.say("{target}: {location} is useless.", e,
                                       location=t.location(e.data.get("location"))),
    "lost_action": lambda e, t: t.say(N_("{actor} is prone and loses a Combat Action.") if e.data["result"]
                                      == "prone" else N_("{actor} loses a Combat Action."), e),
    "mount_bolts": lambda e, t: t.say("{actor} bolts from the field, its rider {target} fallen.", e),
    "manoeuvre": lambda e, t: t.say(N_("{actor} outmanoeuvres {target}.") if e.data["result"] == "success"
                                    else N_("{actor} fails to outmanoeuvre {target}."), e),
    "opposed_test": _opposed,
    "reaction": lambda e, t: t.ngettext("{actor} {reaction} ({n} Reaction left).", "{actor} {reaction} ({n} Reactions "
                                        "left).", int(e.data["reactions_left"])).format(
        actor=t.actor(e), reaction=t.term(_REACTION, e.data.get("result")), n=e.data["reactions_left"]),
    "ready_weapon": lambda e, t: t.say("{actor} readies the weapon.", e),
    "round_start": lambda e, t: t.say("— Combat round {round} —", e),
    "skill_test": lambda e, t: t.say(N_("{actor} tests {why}: {roll} against {skill}%, passed.")
                                     if e.data["result"] == "passed"
                                     else N_("{actor} tests {why}: {roll} against {skill}%, failed."), e,
                                     why=t.term(_WHY, e.data.get("why"))),
    "special_effect": _effect,
    "stand_up": lambda e, t: t.say("{actor} stands up.", e),
    "status": _status,
    "tripped": lambda e, t: t.say("{actor} trips {target}, who falls prone.", e),
    "weapon_damage": _weapon_damage,
    "wound": lambda e, t: t._(_WOUND[str(e.data["result"])]).format(
        target=t.target(e), location_in=t.location_in(e.data.get("location"))),
}
