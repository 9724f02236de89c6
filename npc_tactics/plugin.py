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
``situation_fields``      :class:`~npc_tactics.rules.situation_       its loader, its web form, the docs table
                          fields.SituationFields` (the keys a
                          situation adds to a scenario)
``events``                :class:`~npc_tactics.rules.events.          narration, replay, tactics, a test
                          EventCatalogue` (kinds and fields)
``words``                 :class:`~npc_tactics.gm.words.hooks.SystemWords`  gm words (moves, events, summaries)
``form``                  ``FORM``, ``templates()``                   the web page
``encounter``             :class:`~npc_tactics.encounters.adapters.   the encounter builder, wear
                          Adapter`
``tactics``               :class:`~npc_tactics.evaluation.tactics.    tactics report, tactic profiles
                          hooks.Tactics`
``card``                  :class:`~npc_tactics.policy_io.card_hooks.  tactics cards
                          CardHooks`
``unusual``               :class:`~npc_tactics.gm.advice.unusual.     the out-of-training warning (suggest,
                          UnusualWords`                               the tracker)
``tracker_order``         ``order(state)``: the order the rules give  the tracker (``gm.table.fight_view``)
                          this round, read off the engine state
========================  ==========================================  ==========================================
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from npc_tactics.errors import UserError

if TYPE_CHECKING:  # types only: the layers contract ignores these imports (exclude_type_checking_imports)
    from npc_tactics.encoders.base import Encoder
    from npc_tactics.encounters.adapters import Adapter
    from npc_tactics.evaluation.tactics.hooks import Tactics
    from npc_tactics.gm.advice.unusual import UnusualWords
    from npc_tactics.gm.words.hooks import SystemWords
    from npc_tactics.policy_io.card_hooks import CardHooks
    from npc_tactics.rules.base import Engine, SystemSpec
    from npc_tactics.rules.events import EventCatalogue
    from npc_tactics.rules.situation_fields import SituationFields

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
    situation_fields: str = ""
    words: str = ""
    form: str = ""
    encounter: str = ""
    tactics: str = ""
    card: str = ""
    unusual: str = ""
    tracker_order: str = ""
    #: the system's package (``__name__`` of its ``__init__``) and the folder of its YAML content in it
    package: str = ""
    content_folder: str = "content"
    #: files of other programs it reads (``npc-tactics import FORMAT FILE``): (format, ``module:function``, what it
    #: reads); the function takes the file's path and returns the import's result (see :mod:`npc_tactics.cli.importer`);
    #: the module may offer ``read_data(data, where)`` for JSON already parsed (the tracker's dropped file)
    importers: tuple[tuple[str, str, str], ...] = ()

    # -- resolving one part -------------------------------------------------------------------------
    def load(self, part: str) -> Any:
        """The object (or module) named by the import string of ``part``; UserError if not provided."""
        target = getattr(self, part)
        if not target:
            raise UserError(f"the {self.name} system provides no {part}")
        module, _, attr = target.partition(":")
        mod = importlib.import_module(module)
        return getattr(mod, attr) if attr else mod

    def content_dir(self) -> Path:
        """The folder of the system's shipped content (scenarios, bestiary, encounters, probes)."""
        spec = importlib.util.find_spec(self.package) if self.package else None
        if spec is None or spec.origin is None:
            raise UserError(f"the {self.name} system names no package for its content")
        return Path(spec.origin).parent / self.content_folder

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

    def event_catalogue(self) -> EventCatalogue:
        """The event kinds the engine emits and their fields (``systems/<name>/events.py``)."""
        return self._typed("events", "npc_tactics.rules.events:EventCatalogue")

    def situation_declaration(self) -> SituationFields | None:
        """The keys its situations add to a scenario, declared once (``systems/<name>/rules/situation_fields.py``),
        or None for a system that declares none."""
        return self._optional("situation_fields", "npc_tactics.rules.situation_fields:SituationFields")

    def system_words(self) -> SystemWords:
        """Moves, events and combatants in a GM's words (``systems/<name>/words.py``)."""
        return self._typed("words", "npc_tactics.gm.words.hooks:SystemWords")

    def form_module(self) -> ModuleType | None:
        """The web page's situation form (``FORM``, ``templates()``), or None for a system with no page."""
        return self._optional("form", ModuleType)

    def encounter_adapter(self) -> Adapter | None:
        """What the encounter builder composes for this system, or None."""
        return self._optional("encounter", "npc_tactics.encounters.adapters:Adapter")

    def tactics_hooks(self) -> Tactics | None:
        """The named tactics, tactic-profile counters and verbs of the tactics report, or None."""
        return self._optional("tactics", "npc_tactics.evaluation.tactics.hooks:Tactics")

    def card_hooks(self) -> CardHooks | None:
        """The tactics card's features, verbs and morale note, or None (the card then uses the shared ones)."""
        return self._optional("card", "npc_tactics.policy_io.card_hooks:CardHooks")

    def unusual_words(self) -> UnusualWords | None:
        """The phrases of its observation fields for the out-of-training warning, or None (shared ones only)."""
        return self._optional("unusual", "npc_tactics.gm.advice.unusual:UnusualWords")

    def order_function(self) -> Callable[[Any], dict[str, Any]] | None:
        """``order(state)``: the order its rules give this round, read off the engine state (the tracker's order
        list), or None (the system gives none)."""
        if not self.provides("tracker_order"):
            return None
        found = self.load("tracker_order")
        if not callable(found):
            raise TypeError(f"system {self.name}: tracker_order = {self.tracker_order!r} is not a function")
        order: Callable[[Any], dict[str, Any]] = found
        return order
