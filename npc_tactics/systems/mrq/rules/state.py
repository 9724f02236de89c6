"""MRQ fight state: frozen stat blocks (shared between clones) and small mutable per-fight records.

``MRQState.clone()`` copies only the mutable parts (location HP, counters, distances, the exchange in
progress); weapons and profiles are frozen and shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.rules.base import Decision, Outcome, Status
from npc_tactics.systems.mrq.rules.tables import HIT_LOCATION_D20

# item states
READY, DROPPED, BROKEN, STUCK = 0, 1, 2, 3
ITEM_STATE_NAMES = ("ready", "dropped", "broken", "stuck")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon, shield, natural weapon or unarmed style (weapons.yaml).

    ``dice`` are the weapon's own damage dice ``(count, sides)`` and ``bonus`` its constant (great axe 2d6+2):
    the Deflection Points of a parry are this roll (§9, A9). ``ap`` is a shield's fixed DP (§9) and, for any
    item, the armour it opposes to *Damage weapon* is its maximum damage (``max_damage``), shields included.
    """

    name: str
    damage: str
    dice: tuple[tuple[int, int], ...]
    bonus: int
    kind: str  #: one_handed | two_handed | shield | natural | unarmed | missile
    reach: int  #: index into tables.REACH_NAMES
    hp: int
    ap: int = 0
    thrusting: bool = False
    entangling: bool = False
    disarm_bonus: bool = False  #: two-handed sword: +20% on Disarm tests (§4.2)
    set_vs_charge: bool = False  #: spear-like: uses the charger's damage modifier when receiving (§14)
    range: int = 0  #: missile weapons: effective range in metres; up to double range at half skill (§11)
    thrown: bool = False  #: thrown (javelin) rather than fired (bow): adds the damage modifier, one arm

    @property
    def max_damage(self) -> int:
        return self.bonus + sum(n * s for n, s in self.dice)

    @property
    def item_ap(self) -> int:
        """Armour the item opposes to *Damage weapon*: "elle utilise sa valeur maximale de points de dégâts en
        guise de Points d'Armure" (§4.2), shields included (a target shield 1d6 opposes 6, not its 6 AP of
        Deflection; a kite shield 6, not 8)."""
        return self.max_damage

    @property
    def disarmable(self) -> bool:
        return self.kind in ("one_handed", "two_handed", "missile")


@dataclass(frozen=True, slots=True)
class Profile:
    """A stat block from the bestiary, resolved (skills, locations, armour, weapons)."""

    template: str
    style: str  #: weapon_and_shield | two_handed | two_weapons | one_handed | unarmed | natural
    skill: int  #: the combat style skill (§7), used to attack and defend (§8)
    weapon: Weapon
    offhand: Weapon | None  #: shield (weapon_and_shield) or second weapon (two_weapons)
    unarmed: Weapon
    unarmed_skill: int
    acrobatics: int  #: Athletics for quadrupeds (§11)
    athletics: int
    resilience: int  #: Endurance and Resilience are one skill (A15)
    brute_force: int
    riding: int
    dex: int
    int_: int
    siz: int
    dm: str  #: damage modifier expression, "" for +0
    mount_dm: str
    mounted: bool
    body: str
    loc_max: tuple[int, ...]
    armour: tuple[int, ...]
    cas: int  #: Combat Actions per round (§1)
    intelligent: bool
    formidable: bool  #: Formidable Natural Weapons: natural weapons deflect (§9)
    weapon_loc: int  #: location of a natural weapon (bite: head), for natural fumbles and Damage weapon
    missile: Weapon | None = None  #: a bow or javelins carried besides the melee style (§6.3, §11)
    missile_skill: int = 0  #: its own weapon skill (MRQ1 missile weapon skill)
    ammo: int = 0  #: arrows or javelins at the start of the fight
    move: int = 4  #: metres per Combat Action spent moving ([PUB] MRQ1 human Movement 4 m, unverified)
    skill_cap: int = 999  #: swimming or climbing: weapon skills cannot exceed Athletics (§16)
    mount_siz: int = 0  #: a rider adds it against Knockback with a Riding test (§13)
    natural: tuple[int, ...] = (0,) * 7  #: natural armour (hide, scales) under any worn armour (§4.2 Bypass)
    mount_template: str = ""  #: the bestiary template of the rider's mount, a combatant of its own (§13)
    #: d20 face → location slot (index 0 unused): the humanoid bands unless the stat block gives its own (§17)
    hit_table: tuple[int, ...] = HIT_LOCATION_D20
    #: Reactions a round before a shield's free one; -1: as many as Combat Actions (A18), a stat block may say more
    reactions: int = -1
    #: several attacks a round (§1, A18): the further natural weapons of ``other_weapons`` a creature strikes
    #: with in turn, one per attack Combat Action after its main weapon, with their own skills and locations
    other_attacks: tuple[Weapon, ...] = ()
    other_skills: tuple[int, ...] = ()
    other_locs: tuple[int, ...] = ()

    @property
    def base_reactions(self) -> int:
        """Reactions a round without the shield's (A18: one per Combat Action unless the stat block says)."""
        return self.cas if self.reactions < 0 else self.reactions


@dataclass(slots=True)
class MRQCombatant:
    """One combatant's mutable state; ``prof`` is its shared frozen stat block."""

    name: str
    side: int
    template: str
    prof: Profile
    status: Status
    hp: int
    max_hp: int
    loc_hp: list[int]
    armour: tuple[int, ...]
    weapon_state: int = READY
    weapon_hp: int = 0
    off_state: int = READY
    off_hp: int = 0
    useless: int = 0  #: bit mask of locations made useless by a Serious Wound or maimed (§17)
    numb_loc: int = -1  #: natural fumble "numb limb" (§6.2)
    numb_wait: int = 0
    prone: bool = False
    prone_cas: int = 0  #: fumble trip: prone for this many own CAs, then stands (§6, A14)
    lost_ca: int = 0  #: Combat Actions still to lose (carries over rounds, A14)
    ca_done: int = 0
    cas: int = 0  #: Combat Actions this round, including a two-weapon free attack
    free_attack: bool = False  #: the last CA of the round is the two-weapon free attack (§7)
    reactions: int = 0
    sr: int = 0
    entangled_by: int = -1
    entangled_loc: int = -1
    impaled: int = 0  #: weapons left in this combatant's wounds (−20% each, §4.2)
    stuck_in: int = -1  #: combatant index where this combatant's weapon is stuck (impale)
    stuck_loc: int = -1  #: the location it is stuck in
    missile_state: int = READY
    missile_hp: int = 0
    ammo: int = 0  #: missiles left
    embedded: tuple[tuple[int, Weapon], ...] = ()  #: (location, missile) left in this combatant's wounds
    mount: int = -1  #: a rider: index of the mount it sits on (-1: on foot or dismounted; mounts.py)
    rider: int = -1  #: a mount: index of its rider (kept after a fall: it marks the combatant as a mount)
    strike: int = 0  #: several attacks: 0 strikes with the main weapon, k with ``prof.other_attacks[k - 1]``
    attacks: int = 0  #: several attacks: attack Combat Actions begun this round

    def clone(self) -> MRQCombatant:
        c = MRQCombatant.__new__(MRQCombatant)
        for name in _COMBATANT_SLOTS:
            object.__setattr__(c, name, getattr(self, name))
        c.loc_hp = self.loc_hp[:]
        return c


_COMBATANT_SLOTS = tuple(MRQCombatant.__dataclass_fields__)


@dataclass(slots=True)
class Exchange:
    """An attack being resolved (§2 procedure): who, how, the rolls, and the effects picked so far."""

    attacker: int
    defender: int
    mode: str = "normal"  #: normal | precise | double_precise | charge | free_strike | riposte | missile
    halvings: int = 0  #: attacker skill halvings (precise = 1, double precise = 2)
    dm: str | None = None  #: damage modifier override (charge, spear receiving a charge)
    defence: str = "none"  #: defend | precise | evade | none
    def_halvings: int = 0
    att_skill: int = 0
    def_skill: int = 0
    att_roll: int = 0
    def_roll: int = 0
    att_level: int = 0
    def_level: int = 1
    winner: int = -1  #: 0 attacker, 1 defender, -1 nobody
    margin: int = 0
    effects_left: int = 0
    effects: list[str] = field(default_factory=list)
    location: int = -1  #: chosen (Choose location / Deflect the blow) or rolled
    phase: str = "react"  #: react | effects | impale | done
    damage_roll: int = 0
    wounded: bool = False
    manoeuvre: int = -1  #: Acrobatics manoeuvre (A13): the distance the defender moves to if it wins (-1: none)
    disengage: bool = False  #: the manoeuvre is a full disengagement (apart from every enemy)
    dp: int = 0  #: Deflection Points applied
    guard: int = -1  #: a rider defending its attacked mount with its own skill (§13, mounts.py)

    def clone(self) -> Exchange:
        e = Exchange.__new__(Exchange)
        for name in _EXCHANGE_SLOTS:
            object.__setattr__(e, name, getattr(self, name))
        e.effects = self.effects[:]
        return e


_EXCHANGE_SLOTS = tuple(Exchange.__dataclass_fields__)


@dataclass(slots=True)
class MRQState:
    """The whole fight. ``dist`` is a flat n×n matrix of engagement distances (tables.APART/LONG/CLOSE);
    ``gap`` the metres between two opponents who are apart (0 once engaged), for missiles and approach."""

    combatants: list[MRQCombatant]
    round: int
    max_rounds: int
    options: Mapping[str, Any]  #: the rules options of this fight, resolved once (read-only, shared)
    dist: list[int]
    gap: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    cycle: int = 0
    pos: int = 0
    exchange: Exchange | None = None
    queue: list[tuple[int, int, str, str | None]] = field(default_factory=list)  #: (att, def, mode, dm)
    decision: Decision | None = None
    result: Outcome | None = None
    sides: tuple[tuple[int, ...], ...] = ()  #: combatant indices per side (target slot order)
    mask_cache: tuple[Decision, Any] | None = None  #: (decision, read-only mask) the rules computed for an EFFECT

    @property
    def n(self) -> int:
        return len(self.combatants)

    def distance(self, a: int, b: int) -> int:
        return self.dist[a * len(self.combatants) + b]

    def set_distance(self, a: int, b: int, d: int) -> None:
        """Set the engagement distance; the pair is then within a step of each other (gap 0). A rider and
        the mount it sits on share their place: setting one sets the other (§13, mounts.py)."""
        n = len(self.combatants)
        for x in self.together(a):
            for y in self.together(b):
                self.dist[x * n + y] = d
                self.dist[y * n + x] = d
                self.gap[x * n + y] = 0
                self.gap[y * n + x] = 0

    def metres(self, a: int, b: int) -> int:
        return self.gap[a * len(self.combatants) + b]

    def set_metres(self, a: int, b: int, m: int) -> None:
        n = len(self.combatants)
        for x in self.together(a):
            for y in self.together(b):
                self.gap[x * n + y] = m
                self.gap[y * n + x] = m

    def together(self, i: int) -> tuple[int, ...]:
        """``i`` and, if it is a rider on its mount or a mount under its rider, the other one."""
        c = self.combatants[i]
        if c.mount >= 0:
            return (i, c.mount)
        if c.rider >= 0 and self.combatants[c.rider].mount == i:
            return (i, c.rider)
        return (i,)

    def clone(self) -> MRQState:
        return MRQState(
            combatants=[c.clone() for c in self.combatants],
            round=self.round,
            max_rounds=self.max_rounds,
            options=self.options,
            dist=self.dist[:],
            gap=self.gap[:],
            order=self.order[:],
            cycle=self.cycle,
            pos=self.pos,
            exchange=self.exchange.clone() if self.exchange is not None else None,
            queue=self.queue[:],
            decision=self.decision,
            result=self.result,
            sides=self.sides,
            mask_cache=self.mask_cache,
        )
