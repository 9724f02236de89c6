"""A tactics card: a bundle's policy distilled into at most seven if-then rules a game master can play by.

``card.json`` (beside ``policy.onnx`` in the bundle) holds the rules as a decision list over GM-visible
features (:mod:`npc_tactics.policy_io.card_features`): the first rule whose conditions all hold gives the move;
when that move is not allowed now, the rule's own alternatives, then the card's per-decision-kind fallback
list, are tried in order. A rule may also say "play by the book" (action :data:`BY_THE_BOOK`): the move is
then the system's by-the-book agent's (:class:`~npc_tactics.agents.card.CardAgent` asks it), so a card can be
a few exceptions to the straightforward play a GM already knows. The same file carries the measurements printed
on the card (fidelity, paired win rates, kept gain, the depth sweep). ``card.md`` is its rendering in one
language (:mod:`npc_tactics.policy_io.card_render`). Loading needs neither scikit-learn nor torch.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from npc_tactics.configs.files import MAX_JSON_BYTES, read_json
from npc_tactics.errors import ConfigError, UnknownNameError, UserError
from npc_tactics.plugin import System
from npc_tactics.policy_io.card_features import Feature, FieldView, features_for

__all__ = ["BY_THE_BOOK", "CARD_FORMAT", "CARD_JSON", "CARD_MD", "Card", "CardError", "CardRule", "Condition"]

CARD_FORMAT: Final = "npc-tactics-card/1"
CARD_JSON: Final = "card.json"
CARD_MD: Final = "card.md"
#: a rule's action meaning "the by-the-book agent's move here" (its ``action_name`` is "by-the-book")
BY_THE_BOOK: Final = -1


class CardError(UserError):
    """A card that cannot be used: unreadable, another format, or made for another policy."""


@dataclass(frozen=True)
class Condition:
    """``feature <= value`` (``op`` "le") or ``feature > value`` (``op`` "gt"), in the feature's GM units."""

    feature: str
    op: str
    value: float

    def holds(self, x: float) -> bool:
        return x <= self.value if self.op == "le" else x > self.value

    def to_dict(self) -> dict[str, Any]:
        return {"feature": self.feature, "op": self.op, "value": self.value}


@dataclass
class CardRule:
    """One if-then rule for decisions of ``kind`` (a decision kind's lower-case name): ``conditions`` (empty for
    the kind's last, "otherwise", rule), the move, the network's mean probability of that move where the rule
    fires, and ``fires``, the share of the NPC's decisions on which it is the rule that applies (measured on states
    the network visits)."""

    index: int
    kind: str
    conditions: list[Condition]
    action: int
    action_name: str
    alternatives: list[int]
    probability: float
    fires: float
    card: Card | None = field(default=None, repr=False, compare=False)

    def text(self, lang: str = "en", move: str | None = None) -> str:
        """The rule as a GM reads it, e.g. "If own hit points ≤ 40%: withdraw"; ``move`` replaces the card's
        wording of the move (e.g. named by creature in one fight)."""
        from npc_tactics.policy_io.card_render import rule_text

        if self.card is None:
            raise ValueError("a CardRule renders only as part of its Card")
        return rule_text(self.card, self, lang, move)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind, "conditions": [c.to_dict() for c in self.conditions], "action": self.action,
            "action_name": self.action_name, "alternatives": self.alternatives,
            "probability": round(self.probability, 6), "fires": round(self.fires, 6)}
        if self.card is not None:
            out["text"] = {lang: self.text(lang) for lang in ("en", "fr")}
        return out


@dataclass
class Card:
    """A distilled card. ``meta`` holds everything that is printed but not needed to play (measurements,
    provenance, the opening, morale figures); ``fallback`` maps a decision kind's name to actions in order."""

    system: str
    scenario: str
    side: int
    onnx_sha256: str
    field_names: list[str]
    actions: list[str]
    rules: list[CardRule]
    fallback: dict[str, list[int]]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for r in self.rules:
            r.card = self
        self.features: dict[str, Feature] = {f.name: f for f in features_for(self.plugin, self.field_names)}
        missing = {c.feature for r in self.rules for c in r.conditions} - set(self.features)
        if missing:
            raise CardError(f"the card tests features {sorted(missing)} that {self.system} does not define")
        self._view = FieldView(self.field_names)

    @property
    def plugin(self) -> System:
        """The system the card was made for: the one place its recorded name is resolved (ValueError for an
        unknown one)."""
        from npc_tactics.registry import get_system

        try:
            return get_system(self.system)
        except UnknownNameError as exc:
            raise ValueError(str(exc)) from None

    # --- playing -----------------------------------------------------------------------------------------
    def feature_values(self, vector: np.ndarray) -> dict[str, float]:
        """The GM features the rules test, computed from one observation vector."""
        self._view.vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        used = {c.feature for r in self.rules for c in r.conditions}
        return {name: self.features[name].compute(self._view) for name in used}

    def first_rule(self, vector: np.ndarray, kind: str) -> CardRule | None:
        """The first rule of ``kind`` whose conditions all hold (the kind's last rule has none, so one applies);
        None for a kind the card has no rule for (its decisions were always forced when it was made)."""
        rules = [r for r in self.rules if r.kind == kind]
        if not rules:
            return None
        values = self.feature_values(vector)
        for rule in rules:
            if all(c.holds(values[c.feature]) for c in rule.conditions):
                return rule
        return rules[-1]

    def choose(self, vector: np.ndarray, mask: np.ndarray, kind: str) -> tuple[int, CardRule | None]:
        """The card's move for this decision: the rule's move, else its alternatives, else the fallback list of
        the decision kind, else the first legal action; and the rule that applied. A "by the book" rule gives
        :data:`BY_THE_BOOK`: the caller plays the by-the-book agent's move."""
        rule = self.first_rule(vector, kind)
        if rule is not None and rule.action == BY_THE_BOOK:
            return BY_THE_BOOK, rule
        legal = np.asarray(mask, dtype=bool)
        preferred = [rule.action, *rule.alternatives] if rule is not None else []
        for a in [*preferred, *self.fallback.get(kind, [])]:
            if 0 <= a < len(legal) and legal[a]:
                return a, rule
        return int(np.flatnonzero(legal)[0]), rule

    def rule_for(self, system: System, engine: Any, state: Any, decision: Any) -> CardRule | None:
        """The rule that fires for ``decision`` in ``state`` (None for another system or another side's
        decision): what gm-suggest prints next to the ranking."""
        if system.name != self.system or decision is None or int(decision.side) != self.side:
            return None
        encoder = system.load("encoder")(engine)
        return self.first_rule(encoder.encode(state, decision), decision.kind.name.lower())

    def play_for(self, system: System, engine: Any, state: Any, decision: Any) -> tuple[CardRule, int] | None:
        """The rule that fires for ``decision`` and the move the card plays there (:meth:`choose`: the rule's
        move, else its alternatives, else the fallback; :data:`BY_THE_BOOK` for a "by the book" rule), or None
        (see :meth:`rule_for`)."""
        if system.name != self.system or decision is None or int(decision.side) != self.side:
            return None
        encoder = system.load("encoder")(engine)
        kind = decision.kind.name.lower()
        move, rule = self.choose(encoder.encode(state, decision), engine.legal_mask(state, decision), kind)
        return (rule, move) if rule is not None else None

    # --- files -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": CARD_FORMAT, "system": self.system, "scenario": self.scenario, "side": self.side,
                "onnx_sha256": self.onnx_sha256, "field_names": self.field_names, "actions": self.actions,
                "rules": [r.to_dict() for r in self.rules], "fallback": self.fallback, **self.meta}

    @classmethod
    def from_dict(cls, raw: dict[str, Any], where: str = CARD_JSON) -> Card:
        if not isinstance(raw, dict) or raw.get("format") != CARD_FORMAT:
            got = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
            raise CardError(f"{where}: format {got!r} is not {CARD_FORMAT!r}")
        try:
            rules = [CardRule(i, str(r["kind"]), [Condition(str(c["feature"]), str(c["op"]), float(c["value"]))
                                  for c in r["conditions"]],
                              int(r["action"]), str(r["action_name"]), [int(a) for a in r["alternatives"]],
                              float(r["probability"]), float(r["fires"]))
                     for i, r in enumerate(raw["rules"])]
            last = {r.kind: r for r in rules}
            if not rules or any(r.conditions for r in last.values()):
                raise ValueError("each decision kind's last rule must have no condition (its 'otherwise' rule)")
            if any(c.op not in ("le", "gt") for r in rules for c in r.conditions):
                raise ValueError("a condition's op must be 'le' or 'gt'")
            n = len(raw["actions"])
            if any(not (0 <= r.action < n or r.action == BY_THE_BOOK) or any(not 0 <= a < n for a in r.alternatives)
                   for r in rules):
                raise ValueError(f"a rule's action must be 0..{n - 1} or {BY_THE_BOOK} (by the book)")
            keys = ("format", "system", "scenario", "side", "onnx_sha256", "field_names", "actions", "rules",
                    "fallback")
            return cls(str(raw["system"]), str(raw["scenario"]), int(raw["side"]), str(raw["onnx_sha256"]),
                       [str(n) for n in raw["field_names"]], [str(a) for a in raw["actions"]], rules,
                       {str(k): [int(a) for a in v] for k, v in raw["fallback"].items()},
                       {k: v for k, v in raw.items() if k not in keys})
        except (KeyError, TypeError, ValueError) as exc:
            raise CardError(f"{where}: malformed card ({type(exc).__name__}: {exc})") from None

    @classmethod
    def load(cls, bundle_dir: str | Path, *, onnx_sha256: str | None = None) -> Card | None:
        """The card of the bundle in ``bundle_dir``, or None when it has none. A card made for another
        ``policy.onnx`` (sha256 from the bundle's schema unless given) is refused: its rules describe another
        policy."""
        folder = Path(bundle_dir)
        path = folder / CARD_JSON
        if not path.exists() and not path.is_symlink():  # a FIFO or device is not "no card": the reader refuses it
            return None
        try:  # regular file, size capped before reading, depth bounded, no NaN (npc_tactics.configs.files)
            raw = read_json(path, MAX_JSON_BYTES, "tactics card")
        except ConfigError as exc:
            raise CardError(str(exc)) from None
        card = cls.from_dict(raw, str(path))
        if onnx_sha256 is None and (folder / "schema.json").is_file():
            try:
                onnx_sha256 = str(read_json(folder / "schema.json", MAX_JSON_BYTES, "bundle schema")["onnx"]["sha256"])
            except (ConfigError, KeyError, TypeError):
                onnx_sha256 = None
        if onnx_sha256 is not None and onnx_sha256 != card.onnx_sha256:
            raise CardError(f"{path}: made for another policy.onnx (sha256 {card.onnx_sha256[:12]}..., the bundle "
                            f"has {onnx_sha256[:12]}...); run `npc-tactics card {folder} --rebuild`")
        return card

    def save(self, bundle_dir: str | Path, lang: str = "en") -> tuple[Path, Path]:
        """Write ``card.json`` and ``card.md`` (in ``lang``) into the bundle, each atomically."""
        from npc_tactics.policy_io.card_render import render_markdown

        folder = Path(bundle_dir)
        js = (json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        md = render_markdown(self, lang).encode("utf-8")
        return _write_atomic(folder / CARD_JSON, js), _write_atomic(folder / CARD_MD, md)


def _write_atomic(path: Path, data: bytes) -> Path:
    """Write ``path`` through a fsynced sibling temp file; a failure (full disk ...) is a CardError naming it."""
    try:
        _replace_atomic(path, data)
    except OSError as exc:
        raise CardError(f"{path}: cannot be written ({exc.strerror or exc}); the previous file is unchanged") from None
    return path


def _replace_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
