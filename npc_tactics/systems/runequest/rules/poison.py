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
waiting when the fight ends is not played; nothing in the fight cures one.
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

__all__ = ["DELAY_ROUNDS", "FIELDS", "OWN_CON", "after_blow", "check", "from_text", "potency_of", "take_effect",
           "to_text"]

FIELDS = ("weapon", "potency", "delay")
OWN_CON = "CON"  #: ``potency: CON``: the creature's own CON (the scorpion man's sting)
DELAY_ROUNDS = 3  #: rounds before a dose takes effect (Basic Roleplaying: three combat rounds, fast-acting)
MAX_DELAY = 20
MAX_POTENCY = 99
RULE = "poison (BRP 6.10; RQG [unverified])"
ALIVE = (Status.ACTIVE, Status.UNCONSCIOUS, Status.INCAPACITATED)


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
        chance = calc.resistance_chance(pot, c.spec.con)
        overcome = sink.die(100, "resistance", ai, ti) <= chance
        amount = pot if overcome else -(-pot // 2)
        sink.emit("poison", ai, ti, rule=RULE, potency=pot, con=c.spec.con, chance=chance, amount=amount,
                  result="overcome" if overcome else "resisted")
        c.hp -= amount
        c.dirty = True
        c.befuddled_rounds = 0  # damage breaks Befuddle (R2)
        sink.emit("damage", ai, ti, rule=RULE, amount=amount, location="", result="poison")
    s.doses = waiting
