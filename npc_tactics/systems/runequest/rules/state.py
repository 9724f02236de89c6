"""The RQG fight state: combatants with per-location wounds, weapons with hit points, the round
schedule.

Immutable stat-block facts live in frozen ``*Spec`` objects shared between clones; only what a fight
changes is copied by ``clone()`` (weapon HP and ammunition, location damage, MP, conditions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.rules.base import Decision, Status, read_only


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    """A weapon or shield of a stat block (§9-§12, weapon tables of the published game)."""

    name: str
    kind: str  #: "melee", "shield", "missile" (bows, slings: S/MR or 1/MR) or "thrown"
    skill: int
    damage: str  #: weapon dice + fixed modifier, e.g. "1d8+1"
    sr: int  #: weapon (reach) SR 0-4; missiles use DEX SR only
    max_hp: int
    hands: int
    #: "light", "medium", "great", "shield", "missile", "natural": the profile's weapon class
    wclass: str
    dtype: str  #: "slash", "impale" or "crush" (special damage by weapon type, A4)
    parry: bool  #: can it parry (natural weapons and missile weapons cannot)
    rate: str = "1"  #: missiles: "1" (1/MR) or "S" (S/MR)
    range_m: int = 0  #: missiles: effective range
    ammo: int = 0  #: missiles: shots carried (thrown: weapons carried)
    size: str = ""  #: shields: "small", "medium" or "large"
    sword: bool = False  #: Truesword applies


@dataclass(slots=True)
class Weapon:
    spec: WeaponSpec
    hp: int
    ammo: int

    def clone(self) -> Weapon:
        return Weapon(self.spec, self.hp, self.ammo)


@dataclass(frozen=True, slots=True)
class LocationSpec:
    name: str
    kind: str  #: "limb", "abdomen", "chest", "head"
    low: int
    high: int
    max_hp: int
    armour: int


@dataclass(slots=True)
class Location:
    spec: LocationSpec
    damage: int = 0  #: accumulated damage (A18)
    useless: bool = False
    severed: bool = False
    armour_broken: bool = False
    first_aided: bool = False

    def clone(self) -> Location:
        return Location(
            self.spec, self.damage, self.useless, self.severed, self.armour_broken, self.first_aided
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One scheduled action of a statement of intent: resolves at strike rank ``sr``."""

    verb: str  #: "attack", "aimed", "knockback", "cast", "first_aid", "ready"
    sr: int
    weapon: int = -1
    target: int = -1
    spell: str = ""
    power: int = 0
    loc: int = -1
    shot: int = 0
    #: the step's SR already pays the 5 SR to ready its weapon (declared with the weapon not ready)
    readied: bool = False
    #: a split attack (skill over 100%): the weapon skill is divided into ``parts`` attacks, this
    #: one being number ``shot`` (split.py)
    parts: int = 1


@dataclass(slots=True)
class Intent:
    """A statement of intent being built (DECLARE + OPTION decisions) and then carried out."""

    #: the main verb: attack, aimed, knockback, close, cast, ready, first_aid, defend, retreat, flee
    verb: str
    weapon: int = -1
    target: int = -1
    spell: str = ""
    power: int = 0
    loc: int = -1
    steps: list[Step] = field(default_factory=list)
    move_to: int = -1  #: combatant to move towards in the movement phase (-1: none)
    move_max: float = 0.0  #: metres allowed for that move
    sr_used: int = 0  #: SR at which the last declared step happens (chains add to it)

    def clone(self) -> Intent:
        return Intent(
            self.verb,
            self.weapon,
            self.target,
            self.spell,
            self.power,
            self.loc,
            list(self.steps),
            self.move_to,
            self.move_max,
            self.sr_used,
        )


@dataclass(frozen=True, slots=True)
class CombatantSpec:
    """Stat-block facts that never change during a fight."""

    template: str
    dex: int
    siz: int
    str_: int
    con: int
    pow_: int
    dex_sr: int
    siz_sr: int
    db: str
    move_m: float  #: metres per melee round (MOV x metres_per_mov, A13)
    dodge: int
    first_aid: int
    spirit_chance: int  #: spirit-magic casting chance (POW x 5)
    rune_chance: int
    spirit: tuple[tuple[str, int], ...]  #: spells known and their points
    rune: tuple[tuple[str, int], ...]
    enc: int
    max_enc: int
    loc_table: str
    #: several attacks a round: a melee attack with one of these weapons (indices) brings each other one in at
    #: its own SR (issue 27; ``several_attacks: true`` = the natural weapons, or a list: the scorpion man's club
    #: and sting)
    several: tuple[int, ...] = ()
    #: venom (``poison``, poison.py): the weapon whose blows through armour poison (-1: none), POT, delay
    poison_weapon: int = -1
    poison_potency: int = 0
    poison_delay: int = 0


@dataclass(slots=True)
class Combatant:
    name: str
    side: int
    spec: CombatantSpec
    status: Status
    hp: int
    max_hp: int
    mp: int
    max_mp: int
    rune_points: int
    pos: float
    weapons: list[Weapon]
    locations: list[Location]
    ready: int  #: bitmask of ready weapons
    template: str = ""
    # per-round and lasting conditions
    parries: int = 0
    dodges: int = 0
    parry_srs: int = 0  #: bitmask of SRs already used by a parry this round (one parry per SR, §11)
    dodge_srs: int = 0
    lose_parry: bool = False
    lose_attack: bool = False
    #: fumble 13-15 "and any Dodge": no dodge up to the end of this round number (0 = none)
    no_dodge_until: int = 0
    prone: bool = False  #: on the ground (§18 leg or abdomen >= L, a knockback fall)
    fleeing: bool = False  #: ran this round and may still be run down (pursuit, option ``flight``)
    engaged_start: bool = False
    disengaged: bool = (
        False  #: retreat or knockback succeeded: out of reach at the end of the round
    )
    instant_death: bool = False
    bleed_per_round: int = 0
    bleed_clock: int = (
        0  #: rounds left before an untreated >= L abdomen/chest/head wound kills; 0 = none
    )
    bladesharp: int = 0
    bladesharp_rounds: int = 0
    protection: int = 0
    protection_rounds: int = 0
    shield_spell: int = 0
    shield_rounds: int = 0
    truesword_rounds: int = 0
    befuddled_rounds: int = 0
    aid_patient: int = -1  #: first-aid task in progress on this combatant index
    aid_rounds: int = 0
    busy_rounds: int = 0  #: rounds still spent on an action longer than 12 SR (§6)
    intent: Intent | None = None
    carried: list[Step] = field(default_factory=list)  #: steps slipping into the next round
    dirty: bool = True  #: wounds or healing since statuses were last settled

    def clone(self) -> Combatant:
        return Combatant(
            self.name,
            self.side,
            self.spec,
            self.status,
            self.hp,
            self.max_hp,
            self.mp,
            self.max_mp,
            self.rune_points,
            self.pos,
            [w.clone() for w in self.weapons],
            [loc.clone() for loc in self.locations],
            self.ready,
            self.template,
            self.parries,
            self.dodges,
            self.parry_srs,
            self.dodge_srs,
            self.lose_parry,
            self.lose_attack,
            self.no_dodge_until,
            self.prone,
            self.fleeing,
            self.engaged_start,
            self.disengaged,
            self.instant_death,
            self.bleed_per_round,
            self.bleed_clock,
            self.bladesharp,
            self.bladesharp_rounds,
            self.protection,
            self.protection_rounds,
            self.shield_spell,
            self.shield_rounds,
            self.truesword_rounds,
            self.befuddled_rounds,
            self.aid_patient,
            self.aid_rounds,
            self.busy_rounds,
            self.intent.clone() if self.intent is not None else None,
            list(self.carried),
            self.dirty,
        )

    @property
    def dex(self) -> int:
        return self.spec.dex

    def is_ready(self, w: int) -> bool:
        return bool(self.ready >> w & 1)

    def usable_hands(self) -> int:
        return sum(
            1
            for loc in self.locations
            if loc.spec.name in ("right_arm", "left_arm") and not loc.useless
        )

    def can_stand(self) -> bool:
        """No useless leg and abdomen below its HP: on its feet, or able to get up (§18 "tombe au
        sol": a useless leg or an abdomen at >= L puts the character on the ground)."""
        for loc in self.locations:
            kind = loc.spec.kind
            if (kind == "limb" and "leg" in loc.spec.name and loc.useless) or (
                kind == "abdomen" and loc.damage >= loc.spec.max_hp
            ):
                return False
        return True

    def spirit_points(self, spell: str) -> int:
        for name, pts in self.spec.spirit:
            if name == spell:
                return pts
        return 0

    def rune_known(self, spell: str) -> int:
        for name, pts in self.spec.rune:
            if name == spell:
                return pts
        return 0


@dataclass(slots=True)
class Incoming:
    """An attack waiting for the defender's REACT answer."""

    attacker: int
    defender: int
    weapon: int
    sr: int
    skill: int
    aimed_loc: int
    missile: bool
    knockback: bool


@dataclass(slots=True)
class RQState:
    combatants: list[Combatant]
    round: int
    max_rounds: int
    phase: str = "declare"  #: "declare", "option", "then", "react", "over"
    declare_queue: list[int] = field(default_factory=list)
    schedule: list[tuple[int, int, int, int, Step]] = field(
        default_factory=list
    )  #: (sr, -dex, idx, seq, step)
    sched_pos: int = 0
    group_end: int = 0
    incoming: Incoming | None = None
    decision: Decision | None = None
    result: Any = None  #: the Outcome once over
    surprised: tuple[int, ...] = ()
    mask_cache: Any = None  #: (decision, read-only mask) of the pending decision
    #: the rules options of this fight, resolved once by the engine (read-only, shared by clones)
    options: Mapping[str, Any] = field(default_factory=lambda: read_only({}))
    #: poison doses waiting: (round at whose end it takes effect, victim, potency, poisoner) (poison.py)
    doses: list[tuple[int, int, int, int]] = field(default_factory=list)

    def clone(self) -> RQState:
        inc = self.incoming
        return RQState(
            [c.clone() for c in self.combatants],
            self.round,
            self.max_rounds,
            self.phase,
            list(self.declare_queue),
            list(self.schedule),
            self.sched_pos,
            self.group_end,
            Incoming(
                inc.attacker,
                inc.defender,
                inc.weapon,
                inc.sr,
                inc.skill,
                inc.aimed_loc,
                inc.missile,
                inc.knockback,
            )
            if inc is not None
            else None,
            self.decision,
            self.result,
            self.surprised,
            self.mask_cache,
            self.options,
            list(self.doses),
        )
