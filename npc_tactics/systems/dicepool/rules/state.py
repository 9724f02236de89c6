"""Dataclasses of a dice-pool fight: immutable equipment, mutable fighters, the fight state (dice-pool.md).

``clone()`` copies only the mutable parts (lists of location HP, ammunition, the slot queue); equipment and
skill tables are frozen and shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.rules.base import Outcome, Status, read_only

# decision phases of the fight state
PHASE_ACT = 0
PHASE_SPLIT = 1
PHASE_OPTION = 2
PHASE_DONE = 3


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon stat line (systems/dicepool/content/equipment.yaml).

    ``damage`` is a dice expression ("1d6") or a constant ("2": the base damage of a spell-charged weapon,
    D12); ``ranges`` the upper bounds in metres of the short, medium and long bands (ranged only, D10).
    """

    name: str
    kind: str  # "melee" | "ranged"
    skill: str
    damage: str
    ranges: tuple[int, int, int] = (0, 0, 0)
    electric: bool = False
    huge: bool = False
    thrown: bool = False
    reload: bool = False
    ammo: int = -1  # -1: unlimited (charges are not tracked)
    natural: bool = False  # a bite, claw or hoof: part of the body, so no shot can knock it away (D8)

    @property
    def ranged(self) -> bool:
        return self.kind == "ranged"

    @property
    def max_range(self) -> int:
        return 2 * self.ranges[2]


@dataclass(frozen=True, slots=True)
class Armour:
    """A piece of armour: the locations it covers, whether it is metal (conducts electricity, D15) and the
    armour points it takes off non-electric damage at those locations (D14, house data: the source has none)."""

    name: str
    covers: tuple[int, ...]
    metal: bool = False
    points: int = 0


@dataclass(slots=True)
class Fighter:
    """One combatant. ``hp``/``max_hp`` are the sums of positive location HP (the generic HP measure)."""

    name: str
    side: int
    template: str
    status: Status
    hp: int
    max_hp: int
    initiative: int
    coordination: int
    strength: int
    defense: int
    speed: int
    skills: Mapping[str, int]
    weapons: tuple[Weapon, ...]
    armour: tuple[Armour, ...]
    metal: tuple[bool, ...]  # per location: covered by metal armour
    loc_max: tuple[int, ...]
    loc_hp: list[int]
    serious: list[bool]
    ammo: list[int]
    loaded: list[bool]
    readied: int = -1  # index into weapons, -1: empty hands (brawl)
    position: float = 0.0
    posture: int = 0  # index into tables.POSTURES
    concealment: int = 0  # index into tables.CONCEALMENT
    cover_available: int = 0  # best concealment available where the fighter stands
    moving: bool = False
    mount_speed: int = 0
    mounted: bool = False
    defense_dice: int = 0  # dice moved to DEFENSE, until the fighter's next slot (D5)
    aim_target: int = -1  # combatant aimed at by a spent slot (D7)
    successes: int = 0  # initiative successes this game turn
    protection: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)  # armour points per location (D14)
    facing: int = 0  # +1 / -1: direction faced on the line (0: unset, every blow is frontal) (D6)
    cover_spot: float = 0.0  # where the cover of ``spot_cover`` stands (H1: cover belongs to a place)
    spot_cover: int = 0  # concealment level available at ``cover_spot``
    #: what its body calls the seven slots (content/sheet_labels.yaml ``body_plans``): words for the GM only, no
    #: rule or observation reads it (a foreleg is fought as an arm, D17)
    body_plan: str = "humanoid"

    def clone(self) -> Fighter:
        return Fighter(
            self.name,
            self.side,
            self.template,
            self.status,
            self.hp,
            self.max_hp,
            self.initiative,
            self.coordination,
            self.strength,
            self.defense,
            self.speed,
            dict(self.skills),  # a plain dict (fast lookups in the hot path), so each clone has its own
            self.weapons,
            self.armour,
            self.metal,
            self.loc_max,
            self.loc_hp[:],
            self.serious[:],
            self.ammo[:],
            self.loaded[:],
            self.readied,
            self.position,
            self.posture,
            self.concealment,
            self.cover_available,
            self.moving,
            self.mount_speed,
            self.mounted,
            self.defense_dice,
            self.aim_target,
            self.successes,
            self.protection,
            self.facing,
            self.cover_spot,
            self.spot_cover,
            self.body_plan,
        )

    @property
    def weapon(self) -> Weapon | None:
        """The readied weapon, or None for empty hands."""
        return self.weapons[self.readied] if self.readied >= 0 else None

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)


@dataclass(slots=True)
class DicePoolState:
    """The fight: fighters, game turn (``round``), this turn's slot queue and the pending decision."""

    combatants: list[Fighter]
    round: int = 0
    max_rounds: int = 20
    escape_distance: float = 40.0
    rules: Any = None  # the effective rules options (engine.Rules), shared and frozen
    queue: list[tuple[int, int]] = field(default_factory=list)  # (global rank, combatant) in order
    slot: int = 0  # index of the current slot in queue
    n_ta: int = 1  # Action Turns this game turn
    phase: int = PHASE_ACT
    target: int = -1  # target of the strike/shot awaiting its SPLIT/OPTION decision
    result: Outcome | None = None
    cache: Any = None  # (decision, read-only mask) of the current decision; rebuilt lazily
    #: the rules options of this fight, resolved once (read-only, shared); ``rules`` is the same as a dataclass
    options: Mapping[str, Any] = field(default_factory=lambda: read_only({}))

    def clone(self) -> DicePoolState:
        return DicePoolState(
            [c.clone() for c in self.combatants],
            self.round,
            self.max_rounds,
            self.escape_distance,
            self.rules,
            self.queue[:],
            self.slot,
            self.n_ta,
            self.phase,
            self.target,
            self.result,
            self.cache,
            self.options,
        )

    @property
    def actor(self) -> int:
        """The combatant whose slot it is (-1 when the fight is over)."""
        if self.phase == PHASE_DONE or self.slot >= len(self.queue):
            return -1
        return self.queue[self.slot][1]

    @property
    def rank(self) -> int:
        """Global action rank of the current slot."""
        return self.queue[self.slot][0] if self.slot < len(self.queue) else 0
