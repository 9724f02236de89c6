"""The OSE fight state: combatants on a 1.5 m battle line, the round and where the round loop stands.

A :class:`Profile` holds what never changes during a fight (the stat block after derivation) and is shared
between clones; :class:`Combatant` holds what changes. ``OSEState.clone()`` copies only the mutable parts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.rules.base import Decision, Status

# Declarations (ose-bx.md §2, §13.1)
DECL_NONE = 0
DECL_WITHDRAW = 1
DECL_RETREAT = 2
DECL_CAST = 3
DECL_NAMES = ("none", "withdraw", "retreat", "cast")

# Where the round loop stands (ose-bx.md §1)
STAGE_DECLARE = 0
STAGE_GROUP = 1  #: a side (or an initiative group) resolving steps 3.1–3.5
STAGE_SLOW = 2  #: slow weapons, at the very end of the round (§3)
STAGE_OVER = 3

PHASE_MORALE = 0
PHASE_MOVE = 1
PHASE_MISSILE = 2
PHASE_SPELL = 3
PHASE_MELEE = 4
PHASE_NAMES = ("morale", "move", "missile", "spell", "melee", "slow")


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack of a monster's routine (``2 × claw (1d3 + paralysis)`` is two strikes), each its own roll."""

    form: str  #: claw, bite, touch, weapon, or a weapon of weapons.yaml
    damage: str  #: the standard rule's damage; "" when the attack only carries effects (a wight's touch)
    damage_var: str  #: damage under the variable weapon damage option (a "weapon" strike: the weapon's die)
    effects: tuple[str, ...] = ()  #: paralysis, poison, energy drain, petrification, disease (rules/effects.py)


@dataclass(frozen=True, slots=True)
class Breath:
    """A breath weapon (OSE dragons, hellhound, gorgon): an area along the battle line (rules/breath.py)."""

    kind: str  #: fire, cold, acid, gas, lightning (a damage kind) or petrification (no damage: save or stone)
    damage: str  #: "hp" (the breather's current hit points), a dice expression, or "" (no damage)
    shape: str  #: cone or line (from the breather toward its target) or cloud (around the target)
    length: int  #: squares: how far a cone or line reaches, or a cloud's extent
    save: int  #: the saving throw (tables.SAVE_CATEGORIES index): half damage, or no effect
    uses: int  #: breaths a day (-1: no limit given)
    chance: int  #: after the first breath, it breathes again on 1d6 <= chance instead of its routine


@dataclass(frozen=True, slots=True)
class Swallow:
    """Swallowing whole (OSE purple worm, giant toad, caecilia; rules/holds.py): which strike swallows, on what
    roll, whom, and what the victim suffers and fights back with inside."""

    form: str  #: the strike that swallows (bite); "" its only melee attack
    roll: int  #: a natural attack roll at least this swallows (20; caecilia 19)
    margin: int  #: or a total at least this far above the number needed (purple worm 4; 0: none)
    damage: str  #: dice of damage each round inside, until the swallower dies
    size: str  #: who fits: "man" (man-sized or smaller) or "small" (halflings, monsters of 1 HD or less)
    weapon: str  #: what the victim can fight with from inside, at -4: "edged" or "dagger"


@dataclass(frozen=True, slots=True)
class Profile:
    """A combatant's derived stat block (read-only during a fight)."""

    template: str
    kind: str  #: "monster" or "character"
    cls: str  #: character class, or "monster"
    level: int  #: class level, or Hit Dice for monsters
    hd: int  #: Hit Dice counted by Sleep / Hold Person (sub-1 HD counts as 1)
    hd_plus: int
    ac: int  #: descending AC including shield and DEX
    shield: int  #: AC bonus of the shield (0 if none), ignored against a retreating combatant
    thac0: int
    str_mod: int
    dex_missile: int
    init_mod: int  #: DEX initiative modifier (characters) or the referee's monster modifier
    melee_weapon: str
    melee_damage: (
        str  #: standard rule: 1d6 for characters, the stat block's damage for monsters (§10)
    )
    melee_damage_var: (
        str  #: variable weapon damage option: the weapon's die (+ the monster's bonus)
    )
    melee_slow: bool
    missile_weapon: str | None
    missile_damage: str
    missile_damage_var: str
    missile_ranges: tuple[int, int, int]  #: short / medium / long upper bounds in squares
    missile_slow: bool
    move: int  #: encounter movement in squares per round
    morale: int  #: ML 2–12, 0 = no morale checks (player characters)
    save_spells: int  #: saving throw target vs spells
    humanoid: bool
    undead: bool
    immune: frozenset[
        str
    ]  #: attack kinds / effects it ignores: "melee", "missile", "sleep", "hold", ...
    daylight_mod: int = 0  #: to-hit modifier in full daylight (goblins: −1)
    surprise_on: int = 2  #: enemies facing it are surprised on 1d6 ≤ this (OSE: 2; bugbear 3)
    throws: bool = False  #: its missile is its thrown melee weapon: none left (ammo 0) = no melee attack
    brace: bool = False  #: its melee weapon can be set against a charge (spear, polearm)
    #: the whole melee routine when it is more than one plain attack (``()``: the one attack above)
    routine: tuple[Strike, ...] = ()
    saves: tuple[int, ...] = ()  #: death, wands, paralysis, breath, spells (``()``: save_spells for all)
    hit_by: str = ""  #: "silver" or "magic": only such weapons harm it (wight, werewolf ...); "" any
    weapon_magic: int = 0  #: its melee weapon's enchantment, +N to hit and damage (OSE magic weapons)
    weapon_silver: bool = False  #: its melee weapon is silver
    halved: frozenset[str] = frozenset()  #: damage kinds it takes half from (fire, cold ...)
    regenerate: int = 0  #: hit points regained each round once regenerating (troll: 3)
    regenerate_after: int = 0  #: rounds after it is first damaged before regeneration starts
    regenerate_not: frozenset[str] = frozenset()  #: damage kinds it cannot regenerate (fire, acid)
    revives: str = ""  #: dice of rounds after which a killed regenerator fights again ("" never)
    paralysis_spares: frozenset[str] = frozenset()  #: classes (elf) or "large" its paralysis does not affect
    fly: int = 0  #: flying movement in squares per round (0: it does not fly)
    breath: Breath | None = None
    gaze: str = ""  #: the effect of its gaze on the enemy it attacks (petrification, paralysis, charm)
    gaze_save: int = 2  #: the saving throw against the gaze (tables.SAVE_CATEGORIES index)
    effect_saves: tuple[tuple[str, int], ...] = ()  #: (effect, save index) where its text names another save
    backstab: tuple[int, int] = (0, 1)  #: thief: (to-hit bonus, damage multiplier) against an unaware enemy
    alignment: str = ""  #: Lawful, Neutral, Chaotic (the stat line's AL; "" not given): Protection from Evil
    constrict: str = ""  #: dice a constriction squeezes for, at once and each round after ("": the strike's damage)
    swallow: Swallow | None = None  #: it swallows victims whole (rules/holds.py)


@dataclass(slots=True)
class Combatant:
    """One fighter. ``pos`` is its square on the battle line; ``hp`` never exceeds ``max_hp``."""

    name: str
    side: int
    template: str
    prof: Profile
    status: Status
    hp: int
    max_hp: int
    pos: int
    ammo: int  #: missiles left (-1 = unlimited)
    spells: list[int]  #: memorised copies per spell id (tables.SPELL_NAMES order)
    cover: int = 0  #: cover level of its square: 0 none, 1–4 partial, 5 full
    morale_passes: int = 0
    group: int = 0  #: index of its initiative group this round
    declared: int = DECL_NONE
    casting: int = -1  #: spell id declared this round, -1 none
    cast_target: int = -1
    attacked: bool = False  #: already attacked this round (one attack per round)
    moved: bool = False
    retreating: bool = False  #: declared a retreat: +2 to be hit, no shield, no attack (§5.2)
    dying: bool = (
        False  #: reduced to 0 HP during a simultaneous phase: dies at the phase's end (§3 tie)
    )
    #: lasting effects on it, name -> rounds left (-1: until the fight ends): spells (rules/conditions.py)
    conditions: dict[str, int] = dataclasses.field(default_factory=dict)
    regen_from: int = 0  #: the round at whose end regeneration starts (0: not damaged yet)
    burnt: int = 0  #: damage of kinds it cannot regenerate (Profile.regenerate_not)
    revive_in: int = -1  #: rounds until a killed regenerator fights again (-1: not reviving)
    breaths: int = 0  #: breath weapon uses so far
    attached: int = -1  #: the combatant it has latched onto, draining blood (-1: none; rules/effects.py)
    held_by: int = -1  #: the creature holding, coiled round or (with ``inside``) having swallowed it (rules/holds.py)
    inside: bool = False  #: swallowed whole by ``held_by`` (status incapacitated until freed)

    def clone(self) -> Combatant:
        return Combatant(
            self.name,
            self.side,
            self.template,
            self.prof,
            self.status,
            self.hp,
            self.max_hp,
            self.pos,
            self.ammo,
            self.spells.copy(),
            self.cover,
            self.morale_passes,
            self.group,
            self.declared,
            self.casting,
            self.cast_target,
            self.attacked,
            self.moved,
            self.retreating,
            self.dying,
            self.conditions.copy() if self.conditions else {},
            self.regen_from,
            self.burnt,
            self.revive_in,
            self.breaths,
            self.attached,
            self.held_by,
            self.inside,
        )

    @property
    def active(self) -> bool:
        return self.status == Status.ACTIVE


@dataclass(frozen=True, slots=True)
class Field:
    """The battlefield: line length (squares, 0 = unbounded), escape distance (squares), cover by square."""

    length: int
    escape: int
    cover: tuple[tuple[int, int], ...] = ()  #: (square, level) pairs
    daylight: bool = False  #: full daylight (goblins −1 to hit)

    def cover_at(self, square: int) -> int:
        for sq, level in self.cover:
            if sq == square:
                return level
        return 0


@dataclass(slots=True)
class OSEState:
    """The whole fight. ``decision``/``legal`` cache the pending decision and its legal actions."""

    combatants: list[Combatant]
    round: int
    max_rounds: int
    field: Field
    options: Mapping[str, Any]  #: the rules options of this fight, resolved once (read-only, shared by clones)
    scenario: str = ""
    stage: int = STAGE_DECLARE
    phase: int = PHASE_MORALE
    groups: list[list[int]] = dataclasses.field(
        default_factory=list
    )  #: initiative order: combatant indices per group
    group_idx: int = 0
    queue: list[int] = dataclasses.field(default_factory=list)
    qpos: int = 0
    initiative: list[int] = dataclasses.field(
        default_factory=list
    )  #: this round's roll per side (or per combatant)
    morale_due: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    first_death: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    half_out: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    active: list[int] = dataclasses.field(
        default_factory=lambda: [0, 0]
    )  #: ACTIVE combatants per side (kept in sync)
    enemies: tuple[
        tuple[int, ...], ...
    ] = ()  #: per combatant: enemy indices in slot order (shared)
    allies: tuple[
        tuple[int, ...], ...
    ] = ()  #: per combatant: ally indices other than itself (shared)
    simul: bool = False  #: the current step resolves several sides at once (initiative tie, §3)
    decision: Decision | None = None
    legal: tuple[int, ...] = ()
    result: tuple[int, ...] | None = None  #: SideResult per side once over
    winner: int | None = None
    reason: str = ""
    morale_mod: tuple[int, int] = (0, 0)  #: the referee's situational ML modifier per side (−2..+2, §4)
    surprised: tuple[bool, bool] = (False, False)  #: sides that lose round 1 to surprise

    def recount(self) -> None:
        """Recompute ``active`` after statuses were set directly (situations)."""
        self.active = [
            sum(1 for c in self.combatants if c.side == s and c.status == Status.ACTIVE)
            for s in (0, 1)
        ]

    def clone(self) -> OSEState:
        return OSEState(
            [c.clone() for c in self.combatants],
            self.round,
            self.max_rounds,
            self.field,
            self.options,
            self.scenario,
            self.stage,
            self.phase,
            [g.copy() for g in self.groups],
            self.group_idx,
            self.queue.copy(),
            self.qpos,
            self.initiative.copy(),
            self.morale_due.copy(),
            self.first_death.copy(),
            self.half_out.copy(),
            self.active.copy(),
            self.enemies,
            self.allies,
            self.simul,
            self.decision,
            self.legal,
            self.result,
            self.winner,
            self.reason,
            self.morale_mod,
            self.surprised,
        )
