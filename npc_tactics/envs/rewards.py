"""Reward terms shared by the Gymnasium and PettingZoo environments.

Terminal terms pay the side's :class:`~npc_tactics.rules.base.SideResult`; shaping terms are optional and off by
default. Damage terms are per hit point, scaled by the total max HP of the side that took it, so a whole
side's worth of damage is worth ``damage_dealt`` (or ``damage_taken``) in total. ``survival`` and ``escaped``
pay, at the end, the fraction of the side still active or fled alive: surviving by fleeing is a goal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Event, SideResult, Status


@dataclass(frozen=True, slots=True)
class RewardConfig:
    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    fled: float = 0.0
    damage_dealt: float = 0.0
    damage_taken: float = 0.0
    survival: float = 0.0
    escaped: float = 0.0

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | RewardConfig | None, file: str = "<reward>") -> RewardConfig:
        """Validate a mapping of reward terms: unknown names and non-numbers are ConfigErrors."""
        if data is None:
            return cls()
        if isinstance(data, RewardConfig):
            return data
        if not isinstance(data, Mapping):
            raise ConfigError(file, "reward", f"expected a mapping of reward terms, got {data!r}")
        names = {f.name for f in fields(cls)}
        values: dict[str, float] = {}
        for key, value in data.items():
            if key not in names:
                raise ConfigError(file, f"reward.{key}", f"unknown reward term; valid terms: {sorted(names)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(file, f"reward.{key}", f"expected a number, got {value!r}")
            values[key] = float(value)
        return cls(**values)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    def terminal(self, result: SideResult) -> float:
        return {SideResult.WIN: self.win, SideResult.LOSS: self.loss, SideResult.DRAW: self.draw,
                SideResult.FLED: self.fled}[result]


class RewardTracker:
    """Turns event streams into per-side rewards for one fight."""

    def __init__(self, config: RewardConfig, combatants: list[Any], n_sides: int = 2) -> None:
        self.config = config
        self.sides = [c.side for c in combatants]
        self.side_hp = [float(sum(c.max_hp for c in combatants if c.side == s) or 1) for s in range(n_sides)]
        self.shaping = config.damage_dealt != 0.0 or config.damage_taken != 0.0

    def from_events(self, events: list[Event], side: int) -> float:
        """Damage shaping for ``side`` from the events of one step."""
        if not self.shaping:
            return 0.0
        total = 0.0
        for e in events:
            if e.kind != "damage" or e.target is None:
                continue
            amount = float(e.data.get("amount", 0))
            target_side = self.sides[e.target]
            if target_side == side:
                total -= self.config.damage_taken * amount / self.side_hp[side]
            else:
                total += self.config.damage_dealt * amount / self.side_hp[target_side]
        return total

    def final(self, result: SideResult, combatants: list[Any], side: int) -> float:
        """Terminal reward of ``side``: its result plus the survival and escape terms."""
        members = [c for c in combatants if c.side == side]
        n = max(len(members), 1)
        alive = sum(1 for c in members if c.status == Status.ACTIVE) / n
        fled = sum(1 for c in members if c.status == Status.FLED) / n
        return self.config.terminal(result) + self.config.survival * alive + self.config.escaped * fled
