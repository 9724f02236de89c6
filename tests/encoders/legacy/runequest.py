"""RQG observation encoder: the fight seen from the acting combatant, every value in [-1, 1]
(docs/runequest.md).

The REACT context (who attacks, with what weapon class, at which SR, missile or aimed) is in the
context fields and in each combatant's ``attacking_me`` flag; other combatants' statements of intent
are hidden.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.dice import parse
from npc_tactics.rules.base import Decision, DecisionKind, Status
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import split_damage
from npc_tactics.systems.runequest.rules.resolve import DODGE, PARRY, defence_chance
from npc_tactics.systems.runequest.rules.state import Combatant, RQState
from tests.encoders.legacy.base import Encoder

WCLASSES = ("light", "medium", "great", "shield", "missile", "natural")
SPELL_NAMES = tuple(T.SPELLS)


def _max_damage(c: Combatant, w: int) -> int:
    dice, mod, dmax = split_damage(c.weapons[w].spec.damage)
    return dmax + mod + (parse(c.spec.db).maximum if c.spec.db else 0)


class RuneQuestEncoder(Encoder):
    """Context: round, decision step, own SR budget, the incoming blow (REACT), the spell being
    powered (OPTION). Per combatant: standing, HP/MP/Rune points, position, engagement, SR, skills,
    defences left this round, fumble penalties, ready weapons, armour, wounds, spells in effect, and
    whether it
    is the one attacking the actor right now."""

    CONTEXT_FIELDS = (
        ("round", "round / max_rounds"),
        ("rounds_left", "(max_rounds - round) / max_rounds"),
        ("declare_first", "1 at the statement of intent (first step)"),
        (
            "declare_then",
            "1 at the step after a spell (strike, fire, second spell or nothing more)",
        ),
        ("option_aim", "1 when choosing the location of an aimed blow"),
        ("option_power", "1 when choosing how many points to put in a spell"),
        (
            "engaged",
            "1 if the actor started the round engaged (attack and defend, or defend and cast)",
        ),
        ("sr_used", "SR of the actor's last declared step / 12 (then and power steps)"),
        ("incoming_sr", "REACT: strike rank of the incoming blow / 12"),
        ("incoming_skill", "REACT: the attacker's chance / 100 (after aim and range)"),
        ("incoming_max_damage", "REACT: the attacking weapon's maximum damage with db / 30"),
        ("incoming_missile", "REACT: 1 for a missile (only a shield parries, no dodge)"),
        ("incoming_aimed", "REACT: 1 for an aimed blow"),
        ("incoming_knockback", "REACT: 1 for a knockback attempt"),
        *((f"incoming_{w}", f"REACT: 1 if the attacking weapon's class is {w}") for w in WCLASSES),
        (
            "parry_chance",
            "REACT: the actor's best current parry chance / 100 (with the successive -20%)",
        ),
        ("dodge_chance", "REACT: the actor's current dodge chance / 100"),
        *(
            (f"spell_{s}", f"OPTION power: 1 if the spell being powered is {s}")
            for s in SPELL_NAMES
        ),
    )
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("active", "1 if still fighting"),
        ("unconscious", "1 if unconscious"),
        ("incapacitated", "1 if conscious but out of the fight"),
        ("dead", "1 if dead"),
        ("fled", "1 if fled"),
        ("hp", "total HP / max HP"),
        ("max_hp", "max HP / 30"),
        ("mp", "magic points / 20"),
        ("rune_points", "Rune points / 5"),
        (
            "offset",
            "signed distance from the actor / 30 m (+ = towards the enemies' starting side)",
        ),
        ("distance", "distance from the actor / 30 m"),
        ("in_reach", "1 if within 2 m of the actor (melee reach)"),
        ("engaged", "1 if engaged at the start of the round"),
        ("dex_sr", "DEX SR / 5"),
        ("melee_sr", "DEX SR + SIZ SR + best ready melee weapon SR / 12"),
        ("attack_skill", "best ready weapon skill / 100"),
        ("parry_skill", "best current parry chance / 100"),
        ("dodge", "current dodge chance / 100"),
        ("parries_used", "parries made this round / 4"),
        ("dodges_used", "dodges made this round / 4"),
        ("lose_parry", "1 if a fumble costs its next parry"),
        ("lose_attack", "1 if a fumble costs its next attack"),
        ("lose_dodge", "1 if a fumble (13-15) stops its dodges this round and the next"),
        ("prone", "1 if on the ground (useless leg, abdomen at >= its HP, knocked down)"),
        ("max_damage", "maximum damage of its best ready weapon with db / 30"),
        ("great_weapon", "1 if a great (two-handed) weapon is ready"),
        ("shield_ready", "1 if a shield is ready"),
        ("missile_ready", "1 if it holds a missile weapon with ammunition"),
        ("armour", "mean armour per location / 10"),
        ("worst_wound", "largest location damage / its HP / 3"),
        ("useless_limbs", "useless or severed limbs / 2"),
        ("bleeding", "1 if bleeding"),
        ("bladesharp", "Bladesharp points / 4"),
        ("protection", "Protection points + 2 x Shield points / 8"),
        ("truesword", "1 if Truesword is on"),
        ("befuddled", "1 if befuddled"),
        ("busy", "1 if committed to an action slipping from an earlier round"),
        ("attacking_me", "REACT: 1 if this combatant's blow is the incoming one"),
    )

    def context(self, state: Any, decision: Decision) -> list[float]:
        st: RQState = state
        c = st.combatants[decision.actor]
        mr = st.max_rounds or 1
        kind = decision.kind
        it = c.intent
        out = [
            st.round / mr,
            (mr - st.round) / mr,
            1.0 if kind == DecisionKind.DECLARE and st.phase == "declare" else 0.0,
            1.0 if st.phase == "then" else 0.0,
            1.0 if kind == DecisionKind.OPTION and it is not None and it.verb == "aimed" else 0.0,
            1.0 if kind == DecisionKind.OPTION and it is not None and it.verb != "aimed" else 0.0,
            1.0 if c.engaged_start else 0.0,
            (it.sr_used / 12.0) if it is not None else 0.0,
        ]
        inc = st.incoming
        if kind == DecisionKind.REACT and inc is not None:
            a = st.combatants[inc.attacker]
            wclass = a.weapons[inc.weapon].spec.wclass
            parry = max(
                (
                    defence_chance(c, PARRY, w)
                    for w, wp in enumerate(c.weapons)
                    if c.ready >> w & 1 and wp.spec.parry and wp.hp > 0
                ),
                default=0,
            )
            out += [
                inc.sr / 12.0,
                inc.skill / 100.0,
                _max_damage(a, inc.weapon) / 30.0,
                float(inc.missile),
                1.0 if inc.aimed_loc >= 0 else 0.0,
                float(inc.knockback),
            ]
            out += [1.0 if wclass == w else 0.0 for w in WCLASSES]
            out += [parry / 100.0, defence_chance(c, DODGE, -1) / 100.0]
        else:
            out += [0.0] * (6 + len(WCLASSES) + 2)
        spell = it.spell if kind == DecisionKind.OPTION and it is not None else ""
        out += [1.0 if spell == s else 0.0 for s in SPELL_NAMES]
        return out

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        st: RQState = state
        me = st.combatants[decision.actor]
        c = st.combatants[index]
        status = c.status
        off = (c.pos - me.pos) if me.side == 0 else (me.pos - c.pos)
        d = abs(c.pos - me.pos)
        best_sr, best_skill, best_parry, best_dmg = 12, 0, 0, 0
        great = shield = missile = 0.0
        for w, wp in enumerate(c.weapons):
            if not c.ready >> w & 1 or (wp.hp <= 0 and wp.spec.max_hp > 0):
                continue
            spec = wp.spec
            if spec.kind in ("missile", "thrown"):
                if wp.ammo > 0:
                    missile = 1.0
            else:
                best_sr = min(best_sr, c.spec.dex_sr + c.spec.siz_sr + spec.sr)
            best_skill = max(best_skill, spec.skill)
            best_dmg = max(best_dmg, _max_damage(c, w))
            if spec.parry:
                best_parry = max(best_parry, defence_chance(c, PARRY, w))
            if spec.kind == "shield":
                shield = 1.0
            if spec.wclass == "great":
                great = 1.0
        locs = c.locations
        worst = max((loc.damage / loc.spec.max_hp for loc in locs), default=0.0)
        inc = st.incoming
        return [
            1.0,
            1.0 if status == Status.ACTIVE else 0.0,
            1.0 if status == Status.UNCONSCIOUS else 0.0,
            1.0 if status == Status.INCAPACITATED else 0.0,
            1.0 if status == Status.DEAD else 0.0,
            1.0 if status == Status.FLED else 0.0,
            c.hp / c.max_hp if c.max_hp else 0.0,
            c.max_hp / 30.0,
            c.mp / 20.0,
            c.rune_points / 5.0,
            off / 30.0,
            d / 30.0,
            1.0 if d <= T.MELEE_REACH_M and index != decision.actor else 0.0,
            float(c.engaged_start),
            c.spec.dex_sr / 5.0,
            best_sr / 12.0,
            best_skill / 100.0,
            best_parry / 100.0,
            defence_chance(c, DODGE, -1) / 100.0 if c.spec.dodge else 0.0,
            c.parries / 4.0,
            c.dodges / 4.0,
            float(c.lose_parry),
            float(c.lose_attack),
            1.0 if c.no_dodge_until >= st.round else 0.0,
            float(c.prone),
            best_dmg / 30.0,
            great,
            shield,
            missile,
            sum(loc.spec.armour for loc in locs) / (10.0 * len(locs)),
            worst / 3.0,
            sum(1 for loc in locs if loc.useless) / 2.0,
            1.0 if c.bleed_clock or c.bleed_per_round else 0.0,
            c.bladesharp / 4.0 if c.bladesharp_rounds else 0.0,
            (c.protection + 2 * c.shield_spell) / 8.0,
            1.0 if c.truesword_rounds else 0.0,
            1.0 if c.befuddled_rounds else 0.0,
            1.0 if c.busy_rounds or c.carried else 0.0,
            1.0
            if inc is not None and decision.kind == DecisionKind.REACT and inc.attacker == index
            else 0.0,
        ]
