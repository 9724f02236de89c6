"""Who labels each decision a distillation round plays (:mod:`npc_tactics.training.distill`): the seat's agent
wrappers that keep every decision with the group of the teacher that labels it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.evaluation.losing import is_losing

__all__ = ["LOSING", "SEARCH", "Labels", "LosingGate", "Recorder", "SearchLabeller"]

#: the group of states labelled by the search over the student (expert iteration)
SEARCH = "search"
#: the group of the base's states where the NPC is losing (:func:`npc_tactics.evaluation.losing.is_losing`),
#: labelled by the losing teacher
LOSING = "losing"


@dataclass
class Labels:
    """The seat's decisions collected so far: observation, legal mask and the teacher group of each."""

    vectors: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    #: the move a search chose at that decision (its label), or -1 where the group's teacher labels it
    chosen: list[int] = field(default_factory=list)

    def keep(self, observation: Any, mask: np.ndarray, group: str, chosen: int = -1) -> None:
        self.vectors.append(np.asarray(observation.vector, dtype=np.float32).copy())
        self.masks.append(np.array(mask, dtype=bool))
        self.groups.append(group)
        self.chosen.append(chosen)


@dataclass(frozen=True)
class LosingGate:
    """The base's decisions where the actor is losing go to group :data:`LOSING`; ``player`` plays them (the
    losing teacher in round 1, so its way out is what the fight goes on from), or None: the recorder's own agent."""

    leave: frozenset[int]
    player: Any | None


class Recorder:
    """Plays ``inner`` and keeps every decision it answers under ``group`` (under :data:`LOSING` where ``gate``
    says the actor is losing)."""

    def __init__(self, inner: Any, labels: Labels, group: str, gate: LosingGate | None = None) -> None:
        self.inner, self.labels, self.group, self.gate = inner, labels, group, gate
        self.name = getattr(inner, "name", "recorded")

    def act(self, observation: Any, mask: np.ndarray) -> int:
        gate = self.gate
        if gate is not None and is_losing(observation.state, int(observation.decision.actor), mask, gate.leave):
            self.labels.keep(observation, mask, LOSING)
            return int((gate.player or self.inner).act(observation, mask))
        self.labels.keep(observation, mask, self.group)
        return int(self.inner.act(observation, mask))


class SearchLabeller:
    """Asks ``search`` at every decision and keeps its move as the label; plays that move (``expert``, round 1)
    or the student's (``player``, DAgger)."""

    def __init__(self, search: Any, player: Any | None, labels: Labels) -> None:
        self.search, self.player, self.labels = search, player, labels
        self.name = "search"

    def act(self, observation: Any, mask: np.ndarray) -> int:
        # kept before the search: an encoder may hand out one buffer that the play-outs' encodings overwrite
        vector = np.asarray(observation.vector, dtype=np.float32).copy()
        choice = int(self.search.act(observation, mask))
        self.labels.vectors.append(vector)
        self.labels.masks.append(np.array(mask, dtype=bool))
        self.labels.groups.append(SEARCH)
        self.labels.chosen.append(choice)
        return choice if self.player is None else int(self.player.act(observation, mask))
