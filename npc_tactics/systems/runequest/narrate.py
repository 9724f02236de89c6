"""RuneQuest: Roleplaying in Glorantha event sentences (events of ``rules/runequest``)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence, Teller
from npc_tactics.i18n import N_
from npc_tactics.rules.base import Event

__all__ = ["SENTENCES"]

LEVELS = {"critical": N_("critical success"), "special": N_("special success"), "success": N_("success"),
          "failure": N_("failure"), "fumble": N_("fumble"), "": N_("no roll")}
_OUTCOME = {"hit": N_("the blow lands"), "through": N_("part of the blow goes through the parry"),
            "deflect": N_("the parry stops it"), "dodged": N_("dodged"), "miss": N_("missed")}
_LOST = {"no_target": N_("the target is gone"), "no_weapon": N_("no weapon in hand"),
         "out_of_reach": N_("out of reach"), "lost_to_fumble": N_("lost to a fumble"),
         "out_of_range": N_("out of range, or no ammunition left")}  # §22: past the long range band, or no ammo
_CRIT = {"attack": N_("{actor} scores a critical attack!"), "parry": N_("{actor} scores a critical parry!"),
         "dodge": N_("{actor} scores a critical dodge!")}
_FUMBLE = {"armour_breaks": N_("the armour breaks {location_in}"), "drop_weapon": N_("drops the weapon"),
           "lose_attack": N_("loses the next attack"), "lose_parry": N_("loses the next parry"),
           "lose_attack_parry": N_("loses the next attack and parry"),
           "lose_attack_parry_dodge": N_("loses the next attack, parry and dodge")}
_DECLARED = {"attack": N_("attack"), "aimed": N_("an aimed blow"), "cast": N_("a spell"),
             "close": N_("close the distance"),
             "defend": N_("defend"), "first_aid": N_("first aid"), "flee": N_("flee"),
             "knockback": N_("a knockback"), "ready": N_("ready a weapon"), "retreat": N_("retreat")}
_SPELL = {"success": N_("it takes effect"), "failure": N_("the casting fails"), "resisted": N_("resisted"),
          "no_target": N_("no target left"), "no_magic_points": N_("not enough magic points")}
_STATUS = {"active": N_("{who} is back in the fight."), "dead": N_("{who} dies."), "fled": N_("{who} flees."),
           "incapacitated": N_("{who} is out of the fight."), "unconscious": N_("{who} falls unconscious.")}
_LOC_EFFECT = {"bleeding": N_("{target} bleeds from the wound {location_in}."),
               "fell": N_("{target} collapses (wound {location_in})."),
               "instant_death": N_("{target} dies outright (wound {location_in})."),
               "severed": N_("{target}: {location} is severed or maimed."),
               "useless": N_("{target}: {location} is useless.")}


def _attack(e: Event, t: Teller) -> str:
    d = e.data
    defence = d.get("defence", "none")
    level = t.term(LEVELS, d.get("level"))
    dlevel = t.term(LEVELS, d.get("defence_level"))
    if defence == "parry":
        reply = t._("{target} parries: {level}").format(target=t.target(e), level=dlevel)
    elif defence == "dodge":
        reply = t._("{target} dodges: {level}").format(target=t.target(e), level=dlevel)
    else:
        reply = t._("no defence")
    aimed = t._(" (aimed blow)") if d.get("aimed") else ""
    return t.say("SR {sr}: {actor} attacks {target} with {weapon}{aimed} ({skill}%, {level}); {reply} — {outcome}.",
                 e, weapon=t.weapon(d.get("weapon")), aimed=aimed, level=level, reply=reply,
                 outcome=t.term(_OUTCOME, d.get("result")))


def _attack_lost(e: Event, t: Teller) -> str:
    if e.data.get("result") == "recovering_weapon":  # picking the dropped weapon up takes past SR 12 (§10.3)
        why = t._("picking up {weapon} takes past strike rank 12").format(weapon=t.weapon(e.data.get("weapon")))
    else:
        why = t.term(_LOST, e.data.get("result"))
    return t.say("{actor} loses the attack on {target}: {why}.", e, why=why)


def _bleeding(e: Event, t: Teller) -> str:
    if e.data["result"] == "bled_out":  # a bleeding clock ran out (§18, A20): dead at the end of the round
        return t.say("{target} has bled too long: the wound kills at the end of the round.", e)
    return t.ngettext("{target} bleeds: {amount} hit point lost.", "{target} bleeds: {amount} hit points lost.",
                      int(e.data["amount"])).format(target=t.target(e), amount=e.data["amount"])


def _damage(e: Event, t: Teller) -> str:
    d = e.data
    result = d.get("result")
    n = int(d["amount"])
    if result == "abandoned":
        return t.fill(t.ngettext("{target} loses {amount} hit point as first aid is abandoned.",
                                 "{target} loses {amount} hit points as first aid is abandoned.", n), e)
    if result == "poison":  # total hit points, no location (poison.py)
        return t.fill(t.ngettext("{target} loses {amount} hit point to the poison.",
                                 "{target} loses {amount} hit points to the poison.", n), e)
    if result == "spell":
        return t.fill(t.ngettext("Disruption hurts {target} {location_in}: {amount} damage.",
                                 "Disruption hurts {target} {location_in}: {amount} damage.", n), e,
                      location_in=t.location_in(d.get("location")))
    special = {"special": t._("special damage: "), "max_special": t._("maximised special damage: ")}.get(
        str(result), "")
    return t.fill(t.ngettext("{target} takes {special}{amount} damage {location_in} ({points} rolled, "
                             "armour {armour}).",
                             "{target} takes {special}{amount} damage {location_in} ({points} rolled, "
                             "armour {armour}).", n), e, special=special, location_in=t.location_in(d.get("location")))


def _flee(e: Event, t: Teller) -> str:
    if e.data["result"] == "run_down":
        return t.say("{actor} tries to flee but {target} runs it down ({metres} m).", e)
    if e.data.get("engaged"):
        return t.say("{actor} breaks off and flees the fight.", e)
    return t.say("{actor} flees the fight.", e)


def _first_aid(e: Event, t: Teller) -> str:
    if e.data["result"] == "abandoned":
        return t.say("{actor} abandons first aid on {target}.", e)
    return t.say("{actor} gives first aid to {target}.", e)


def _fumble(e: Event, t: Teller) -> str:
    what = t._(_FUMBLE[str(e.data["effect"])]).format(location_in=t.location_in(e.data.get("location")))
    return t.say("{actor} fumbles: {what}.", e, what=what)


def _knockback(e: Event, t: Teller) -> str:
    if e.data["result"] == "success":
        if e.data.get("fell"):
            return t.say("{actor} knocks {target} back {metres} m; {target} falls.", e)
        return t.say("{actor} knocks {target} back {metres} m.", e)
    return t.say("{actor} fails to knock {target} back.", e)


def _location_effect(e: Event, t: Teller) -> str:
    result, where = str(e.data["result"]), e.data.get("location")
    if not where:  # general hit points, not one location (§18)
        return t.say(N_("{target} collapses.") if result == "fell" else N_("{target} is gravely hurt."), e)
    return t._(_LOC_EFFECT[result]).format(target=t.target(e), location=t.location(where),
                                          location_in=t.location_in(where))


def _poison(e: Event, t: Teller) -> str:
    """A dose injected by a blow, taking effect (POT against CON on the resistance table), or still waiting when
    the fight ends (poison.py)."""
    result = e.data["result"]
    if result == "injected":
        return t.say("{actor} poisons {target} with {weapon} (potency {potency}): it takes effect at the end of "
                     "round {due}.", e, weapon=t.weapon(e.data.get("weapon")), due=e.round + int(e.data["delay"]))
    if result == "pending":  # not played: the fight is over
        return t.say("{target} still carries a dose of poison (potency {potency}): it would take effect at the end "
                     "of round {due}, after the fight.", e)
    if result == "overcome":
        return t.say("The poison (potency {potency}) overcomes the CON {con} of {target} ({chance}%).", e)
    return t.say("{target}'s CON {con} resists the poison (potency {potency}, {chance}%): half its effect.", e)


def _spell(e: Event, t: Teller) -> str:
    target = t.target(e) if e.target not in (None, e.actor) else t._("oneself")
    return t.fill(t.ngettext("SR {sr}: {actor} casts {spell} ({power} point) on {on}: {outcome}.",
                             "SR {sr}: {actor} casts {spell} ({power} points) on {on}: {outcome}.",
                             int(e.data["power"])), e,
                  spell=t.spell(e.data.get("spell")), on=target, outcome=t.term(_SPELL, e.data.get("result")))


SENTENCES: dict[str, Sentence] = {
    "absorbed": lambda e, t: t.ngettext("Armour absorbs {points} point on {target} ({location}).",
                                        "Armour absorbs {points} points on {target} ({location}).",
                                        int(e.data["points"])).format(
        points=e.data["points"], target=t.target(e), location=t.location(e.data.get("location"))),
    "aimed_blow": lambda e, t: t.say("{actor} aims a blow at {target}, at {location} ({skill}%).", e,
                                     location=t.location(e.data.get("location"))),
    "attack": _attack,
    "attack_lost": _attack_lost,
    "befuddle_broken": lambda e, t: t.say("Being attacked frees {target} from Befuddle.", e),
    "bleeding": _bleeding,
    "critical": lambda e, t: t._(_CRIT[str(e.data["result"])]).format(actor=t.actor(e)),
    "damage": _damage,
    "declare": lambda e, t: t.say("{actor} states an intent: {what}.", e,
                                  what=t.term(_DECLARED, e.data.get("result"))),
    "defence": lambda e, t: t.say(
        N_("{actor} tries to parry ({chance}%): {level}.") if e.data.get("how") == "parry"
        else N_("{actor} tries to dodge ({chance}%): {level}."), e, level=t.term(LEVELS, e.data.get("result"))),
    "drop": lambda e, t: t.say("{target} drops {weapon}.", e, weapon=t.weapon(e.data.get("weapon"))),
    "fight_end": lambda e, t: t.say(N_("The fight ends after the last round allowed.") if e.data.get("reason")
                                    == "max_rounds" else N_("The fight ends: one side has nobody left standing."), e),
    "first_aid": _first_aid,
    "flee": _flee,
    "fumble": _fumble,
    "heal": lambda e, t: t.fill(t.ngettext("{target} heals {amount} hit point {location_in}.",
                                           "{target} heals {amount} hit points {location_in}.", int(e.data["amount"])),
                                e, location_in=t.location_in(e.data.get("location"))),
    "knockback": _knockback,
    "location_effect": _location_effect,
    "move": lambda e, t: t.say("{actor} moves {metres:g} m towards {target}.", e),
    "parry_lost": lambda e, t: t.say("{actor} cannot parry: the parry was lost to a fumble.", e),
    "poison": _poison,
    "ready": lambda e, t: t.say("{actor} readies {weapon}.", e, weapon=t.weapon(e.data.get("weapon"))),
    "recover_weapon": lambda e, t: t.say("{actor} recovers {weapon} at SR {sr}.", e,
                                         weapon=t.weapon(e.data.get("weapon"))),
    "retreat": lambda e, t: t.say(N_("{actor} disengages.") if e.data["result"] == "disengaged"
                                  else N_("{actor} withdraws out of reach."), e),
    "round_start": lambda e, t: t.say("— Melee round {round} —", e),
    "spell": _spell,
    "stand_up": lambda e, t: t.say("{actor} stands up.", e),
    "status": lambda e, t: t._(_STATUS[str(e.data["status"])]).format(who=t.who(e)),
    "weapon_damage": lambda e, t: t.say(
        N_("{weapon} ({target}) is broken.") if e.data["result"] == "broken"
        else N_("{weapon} ({target}) loses {amount} HP."), e, weapon=t.weapon(e.data.get("weapon"))),
}
