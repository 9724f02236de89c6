"""Venom: a stat block's poisoned weapon (``poison: {weapon: sting, potency: CON}``) and the poison rule.

Sources. The scorpion man of the Chaosium-licensed Foundry RQG wiki module (``bestiary.scorpionMan.notes``): "The
sting injects a systemic poison with a potency equal to the CON of the scorpion man." The rule, as Chaosium's Basic
Roleplaying prints it (brp.chaosium.com, "6.10 Poison"; RQG's own text on poison was not found in a public copy:
[unverified] against RQG): the poison's potency (POT) is matched against the victim's CON on the resistance table;
if it overcomes the CON, its full POT is lost from total hit points, else half of it (rounded up); the damage is
not suffered in the round of the poisoning: unless the poison says otherwise, three combat rounds later for a
fast-acting poison.

As played here: a blow of the poisoned weapon that takes hit points off the victim (through armour: "injects")
leaves a dose; at the end of the round ``delay`` rounds later (default 3) the victim's CON resists it on the
resistance table used for magic points (50% + 5% a point of POT over CON, 5..95, ``calc.resistance_chance``;
one D100, the poison overcoming on a roll at or under the chance), and the hit points are lost from the total
(no location, no armour), before the end-of-round deaths (§19). Each dose is rolled on its own. A dose still
waiting when the fight ends is not played (the fight is over; nothing in the fight cures one) but is reported: one
event ``poison`` with result ``pending`` per dose on a victim still in the fight, after ``fight_end``; no dose, no
event, and no die either way.

A GM's situation may state doses already taken (``poison_doses: [{potency, rounds}]``, :func:`situation_doses`):
``rounds`` is how many rounds after the situation's own it takes effect at the end of (0: at the end of this
round). Its poisoner is not known (:data:`NO_POISONER`): its events have no actor, as a bleeding wound's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules.state import Incoming, RQState

__all__ = ["DELAY_ROUNDS", "DOSE_FIELDS", "FIELDS", "MAX_DOSES", "NO_POISONER", "OWN_CON", "after_blow", "at_fight_end",
           "check", "from_text", "potency_of", "situation_doses", "take_effect", "to_text"]

FIELDS = ("weapon", "potency", "delay")
OWN_CON = "CON"  #: ``potency: CON``: the creature's own CON (the scorpion man's sting)
DELAY_ROUNDS = 3  #: rounds before a dose takes effect (Basic Roleplaying: three combat rounds, fast-acting)
MAX_DELAY = 20
MAX_POTENCY = 99
RULE = "poison (BRP 6.10; RQG [unverified])"
ALIVE = (Status.ACTIVE, Status.UNCONSCIOUS, Status.INCAPACITATED)
DOSE_FIELDS = ("potency", "rounds")  #: a situation's dose (``poison_doses``), both required
MAX_DOSES = 20  #: doses a situation may state per combatant
NO_POISONER = -1  #: the poisoner of a situation's dose: not known (its events have no actor)


# ----- the stat-block field
# -----------------------------------------------------------------------------------------------
def check(v: Any, wnames: list[str], f: str, p: str) -> dict[str, Any]:
    """``poison``: ``{weapon, potency, delay?}`` naming one of the stat block's weapons, a potency 1..99 or CON,
    a delay in rounds 0..20; returned checked (``potency: con`` as ``CON``)."""
    d = V.mapping(v, f, p, FIELDS, ("weapon", "potency"))
    out: dict[str, Any] = {"weapon": V.choice(d["weapon"], f, V.join(p, "weapon"), wnames, "weapon")}
    pot = d["potency"]
    if isinstance(pot, str):
        if pot.strip().upper() != OWN_CON:
            raise ConfigError(f, V.join(p, "potency"), Said("expected a number 1..99 or CON (the creature's own), "
                                                            "got {got}", got=shown(pot)))
        out["potency"] = OWN_CON
    else:
        out["potency"] = V.integer(pot, f, V.join(p, "potency"), 1, MAX_POTENCY)
    if "delay" in d:
        out["delay"] = V.integer(d["delay"], f, V.join(p, "delay"), 0, MAX_DELAY)
    return out


def potency_of(v: Mapping[str, Any], con: int) -> int:
    """The potency of a checked ``poison`` field for a creature of CON ``con``."""
    pot = v["potency"]
    return con if pot == OWN_CON else int(pot)


def from_text(value: str) -> dict[str, Any] | None:
    """The ``poison`` field of a pasted stat block's line ``Poison: Sting, potency CON`` (``, delay 2``
    optional; the weapon as its name in the weapon table), or None when it does not read so."""
    parts = [x.strip() for x in value.split(",")]
    if len(parts) not in (2, 3) or not parts[0]:
        return None
    out: dict[str, Any] = {"weapon": "_".join(parts[0].replace("-", " ").lower().split())}
    for part, key in zip(parts[1:], FIELDS[1:], strict=False):
        words = part.split()
        if len(words) != 2 or words[0].lower() != key:
            return None
        if key == "potency" and words[1].upper() == OWN_CON:
            out[key] = OWN_CON
        elif words[1].isascii() and words[1].isdigit():
            out[key] = int(words[1])
        else:
            return None
    return out


def to_text(v: Mapping[str, Any], title: Callable[[str], str]) -> str:
    """The value of the ``Poison:`` line of a printed stat block (:func:`from_text` reads it back)."""
    text = f"{title(str(v['weapon']))}, potency {v['potency']}"
    return text + (f", delay {v['delay']}" if "delay" in v else "")


# ----- the fight
# ----------------------------------------------------------------------------------------------------------
def after_blow(s: RQState, inc: Incoming, lost: int, sink: EventSink) -> None:
    """A blow of ``inc`` that took ``lost`` hit points off its target: a dose if its weapon is the poisoned one."""
    a = s.combatants[inc.attacker]
    if lost <= 0 or a.spec.poison_weapon != inc.weapon or s.combatants[inc.defender].status not in ALIVE:
        return
    due = s.round + a.spec.poison_delay
    s.doses.append((due, inc.defender, a.spec.poison_potency, inc.attacker))
    sink.emit("poison", inc.attacker, inc.defender, rule=RULE, weapon=a.weapons[inc.weapon].spec.name,
              potency=a.spec.poison_potency, delay=a.spec.poison_delay, result="injected")


def take_effect(s: RQState, sink: EventSink) -> None:
    """End of round: each dose due now is resisted by its victim's CON and costs total hit points (full POT
    when it overcomes, half rounded up when resisted); doses of victims dead or gone are dropped."""
    if not s.doses:
        return
    waiting = []
    for due, ti, pot, ai in s.doses:
        c = s.combatants[ti]
        if c.status not in ALIVE:
            continue
        if due > s.round:
            waiting.append((due, ti, pot, ai))
            continue
        by = _poisoner(ai)
        chance = calc.resistance_chance(pot, c.spec.con)
        overcome = sink.die(100, "resistance", by, ti) <= chance
        amount = pot if overcome else -(-pot // 2)
        sink.emit("poison", by, ti, rule=RULE, potency=pot, con=c.spec.con, chance=chance, amount=amount,
                  result="overcome" if overcome else "resisted")
        c.hp -= amount
        c.dirty = True
        c.befuddled_rounds = 0  # damage breaks Befuddle (R2)
        sink.emit("damage", by, ti, rule=RULE, amount=amount, location="", result="poison")
    s.doses = waiting


def at_fight_end(s: RQState, sink: EventSink) -> None:
    """The fight is over: each dose still waiting on a victim in the fight is told (``pending``, with the round at
    whose end it would take effect), not played. Doses of the dead or fled are left out, as the round's end drops
    them. Nothing is rolled, so the fight's dice are the same with or without doses."""
    for due, ti, pot, ai in s.doses:
        if s.combatants[ti].status in ALIVE:
            sink.emit("poison", _poisoner(ai), ti, rule=RULE, potency=pot, due=due, result="pending")


def _poisoner(ai: int) -> int | None:
    """The actor of a dose's events: its poisoner, or none for a situation's dose (:data:`NO_POISONER`)."""
    return None if ai == NO_POISONER else ai


# ----- a GM's situation
# ---------------------------------------------------------------------------------------------------
def situation_doses(v: Any, f: str, p: str) -> list[tuple[int, int]]:
    """A situation combatant's ``poison_doses``: a list of at most 20 ``{potency: 1..99, rounds: 0..20}``, returned
    as ``(potency, rounds)`` pairs in the order written; an error names the dose's field (``p[0].potency``)."""
    out = []
    for j, dose in enumerate(V.sequence(v, f, p, 0, MAX_DOSES)):
        q = V.join(p, j)
        d = V.mapping(dose, f, q, DOSE_FIELDS, DOSE_FIELDS)
        out.append((V.integer(d["potency"], f, V.join(q, "potency"), 1, MAX_POTENCY),
                    V.integer(d["rounds"], f, V.join(q, "rounds"), 0, MAX_DELAY)))
    return out
