"""The typed plugin a rules system exports: :class:`System`, one object per system with a typed hook per job.

A system package (``npc_tactics/systems/<name>/``) defines ``SYSTEM = System(...)`` in its ``__init__``; the
registry (:mod:`npc_tactics.registry`) lists the packages, nothing else. Hooks are import strings resolved on
first use, so listing systems imports nothing but these small objects, and no shared module imports a
system's code statically (the layers contract keeps ``systems`` above every shared layer). Each accessor
imports its part, checks its type and returns it typed; a part the system does not provide is ``""`` and its
accessor raises :class:`~npc_tactics.errors.UserError` (``optional`` accessors return ``None``).

The hooks and the shared code that calls them:

========================  ==========================================  ==========================================
hook                      what the system provides                    called by
========================  ==========================================  ==========================================
``engine``                an :class:`~npc_tactics.rules.base.Engine`  everything that plays a fight
``encoder``               an :class:`~npc_tactics.encoders.base.      envs, policies, export
                          Encoder` subclass
``agents``                ``AGENTS: dict[str, AgentEntry]``           opponents, baselines
``content``               ``list_scenarios``, ``load_scenario``,      CLI, envs, gm
                          ``load_situation``
``events``                :class:`~npc_tactics.rules.events.          narration, replay, tactics, a test
                          EventCatalogue` (kinds and fields)
``words``                 :class:`~npc_tactics.gm.words.hooks.Words`  gm words (moves, events, summaries)
``form``                  ``FORM``, ``templates()``                   the web page
``encounter``             :class:`~npc_tactics.encounters.adapters.   the encounter builder, wear
                          Adapter`
``tactics``               :class:`~npc_tactics.evaluation.tactics.    tactics report, tactic profiles
                          hooks.Tactics`
``card``                  :class:`~npc_tactics.policy_io.card_hooks.  tactics cards
                          CardHooks`
========================  ==========================================  ==========================================
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from npc_tactics.errors import UserError

if TYPE_CHECKING:  # types only: the layers contract ignores these imports (exclude_type_checking_imports)
    from npc_tactics.encoders.base import Encoder
    from npc_tactics.rules.base import Engine, SystemSpec

__all__ = ["System"]

T = TypeVar("T")


@dataclass(frozen=True)
class System:
    """One rules system: its names, and where each of its parts lives (``module:attr`` or ``module``)."""

    name: str
    title: str
    gym_id: str
    default_scenario: str
    engine: str
    encoder: str
    agents: str
    content: str
    events: str = ""
    words: str = ""
    form: str = ""
    encounter: str = ""
    tactics: str = ""
    card: str = ""
    # transitional (issue 25): the parts ``words`` and ``tactics`` gather; removed once nothing reads them
    naming: str = ""
    narrate: str = ""
    summary: str = ""
    decision_facts: str = ""

    # -- resolving one part -------------------------------------------------------------------------
    def load(self, part: str) -> Any:
        """The object (or module) named by the import string of ``part``; UserError if not provided."""
        target = getattr(self, part)
        if not target:
            raise UserError(f"the {self.name} system provides no {part}")
        module, _, attr = target.partition(":")
        mod = importlib.import_module(module)
        return getattr(mod, attr) if attr else mod

    def provides(self, part: str) -> bool:
        return bool(getattr(self, part))

    def _typed(self, part: str, kind: type[T] | str) -> T:
        """The part, checked to be a ``kind`` (a class, or the ``module:Class`` of a hook type defined in a
        layer above this one, imported only now)."""
        cls: type[Any]
        if isinstance(kind, str):
            module, _, attr = kind.partition(":")
            cls = getattr(importlib.import_module(module), attr)
        else:
            cls = kind
        obj = self.load(part)
        if not isinstance(obj, cls):
            raise TypeError(f"system {self.name}: {part} = {getattr(self, part)!r} is a {type(obj).__name__}, "
                            f"expected a {cls.__name__}")
        checked: T = obj
        return checked

    def _optional(self, part: str, kind: type[T] | str) -> T | None:
        return self._typed(part, kind) if self.provides(part) else None

    # -- the typed hooks ------------------------------------------------------------------------------
    def engine_class(self) -> type[Engine[Any]]:
        cls = self.load("engine")
        if not isinstance(cls, type):
            raise TypeError(f"system {self.name}: engine {self.engine!r} is not a class")
        return cls

    def make_engine(self, options: dict[str, Any] | None = None) -> Engine[Any]:
        return self.engine_class()(options)

    def spec(self) -> SystemSpec:
        """The system's options and knobs (the engine class's ``spec``)."""
        spec: SystemSpec = self.engine_class().spec
        return spec

    def encoder_class(self) -> type[Encoder[Any, Any, Any]]:
        cls = self.load("encoder")
        if not isinstance(cls, type):
            raise TypeError(f"system {self.name}: encoder {self.encoder!r} is not a class")
        return cls

    def content_module(self) -> ModuleType:
        return self._typed("content", ModuleType)

    def agents_module(self) -> ModuleType:
        return self._typed("agents", ModuleType)
