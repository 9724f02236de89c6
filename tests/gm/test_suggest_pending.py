"""A situation names the pending decision in its system's terms: every shipped example reaches the decision
it describes (one per decision kind per system), and a wrong entry is refused naming the file and field."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.registry import get_system
from npc_tactics.rules.base import DecisionKind

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: example -> (system, decision kind, acting NPC, a context value the rules must have derived)
CASES: dict[str, tuple[str, DecisionKind, str, dict[str, Any]]] = {
    "ose_declare.yaml": ("ose", DecisionKind.DECLARE, "Snikkit", {"phase": "declare"}),
    "ose_situation.yaml": ("ose", DecisionKind.ACT, "Snikkit", {"phase": "move"}),
    "ose_missile.yaml": ("ose", DecisionKind.ACT, "Snikkit", {"phase": "missile"}),
    "ose_melee.yaml": ("ose", DecisionKind.ACT, "Snikkit", {"phase": "melee"}),
    "runequest_situation.yaml": ("runequest", DecisionKind.DECLARE, "Fox", {"step": 0}),
    "runequest_react.yaml": ("runequest", DecisionKind.REACT, "Fox", {"weapon": "troll_maul", "sr": 7}),
    "runequest_aimed.yaml": ("runequest", DecisionKind.OPTION, "Fox", {"phase": "option"}),
    "runequest_spell.yaml": ("runequest", DecisionKind.OPTION, "Fox", {"phase": "option"}),
    "mrq_situation.yaml": ("mrq", DecisionKind.ACT, "Guard", {}),
    "mrq_react.yaml": ("mrq", DecisionKind.REACT, "Guard", {"weapon": "great_axe", "missile": False}),
    # Guard 12 against 80 (success), Axeman 71 against 55 (failure): the attacker wins by one level (§3)
    "mrq_effects.yaml": ("mrq", DecisionKind.EFFECT, "Guard", {"role": "attacker", "margin": 1, "remaining": 1}),
    "mrq_impale.yaml": ("mrq", DecisionKind.OPTION, "Spearman", {"impale": 1, "location": "right_leg"}),
    "dicepool_situation.yaml": ("dicepool", DecisionKind.ACT, "Kesh", {}),
    "dicepool_split.yaml": ("dicepool", DecisionKind.SPLIT, "Kesh", {"target": 1}),
    "dicepool_aim.yaml": ("dicepool", DecisionKind.OPTION, "Guard A", {"target": 2}),
}


def _load(system: str, source: Any) -> tuple[Any, Any]:
    info = get_system(system)
    engine = info.load("engine")({})
    state = info.load("content").load_situation(engine, source, RngRoller(np.random.default_rng(0)), notes=[])
    return engine, state


@pytest.mark.parametrize("example", sorted(CASES))
def test_each_example_reaches_its_decision(example: str) -> None:
    system, kind, acting, context = CASES[example]
    engine, state = _load(system, EXAMPLES / example)
    decision = engine.pending(state)
    assert decision.kind == kind and state.combatants[decision.actor].name == acting
    for key, value in context.items():
        assert decision.context[key] == value, (key, decision.context)
    assert engine.legal_mask(state, decision).sum() >= 2, "a decision with one legal move is no question"


def test_every_decision_kind_of_every_system_has_an_example() -> None:
    for name in ("ose", "runequest", "mrq", "dicepool"):
        kinds = set(get_system(name).load("engine").spec.decision_kinds)
        shown = {k for s, k, _, _ in CASES.values() if s == name}
        assert kinds <= shown, (name, kinds - shown)


def _bad(example: str, edit: Any) -> str:
    data = yaml.safe_load((EXAMPLES / example).read_text())
    edit(data)
    with pytest.raises(ConfigError) as err:
        _load(CASES[example][0], data)
    return str(err.value)


@pytest.mark.parametrize(("example", "edit", "field", "words"), [
    ("runequest_react.yaml", lambda d: d["pending"]["incoming"].update(attacker="Nobody"),
     "pending.incoming.attacker", "Nobody"),
    ("runequest_react.yaml", lambda d: d["pending"]["incoming"].update(weapon="axe"), "pending.incoming.weapon",
     "troll_maul"),
    ("runequest_react.yaml", lambda d: d["pending"]["incoming"].update(sr=13), "pending.incoming.sr", "13"),
    ("runequest_react.yaml", lambda d: d["pending"]["incoming"].update(attacker="Hare"),
     "pending.incoming.attacker", "side"),
    ("runequest_react.yaml", lambda d: d["pending"].update(spell={"name": "bladesharp"}), "pending",
     "exactly one"),
    ("runequest_react.yaml", lambda d: d["pending"].update(bogus=1) or d["pending"].pop("incoming"),
     "pending.bogus", "unknown key"),
    ("mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[12]), "pending.effects", "more dice"),
    ("mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[12, 71, 5]), "pending.effects",
     "not used"),
    # Guard 90 against 80 (failure), Axeman 20 against 55 (success): the defender wins, not the Guard
    ("mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[90, 20]), "pending.effects", "Axeman"),
    ("mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[12, 171]), "pending.effects.rolls[1]",
     "171"),
    ("mrq_react.yaml", lambda d: d["pending"]["incoming"].update(attacker="Guard"), "pending.incoming.attacker",
     "deciding"),
    ("mrq_react.yaml", lambda d: d["sides"][0]["combatants"][0].update(reactions=0), "pending.incoming",
     "does not arise"),
    ("dicepool_split.yaml", lambda d: d["pending"]["split"].update(target="Kesh"), "pending.split.target",
     "not an enemy"),
    ("dicepool_split.yaml", lambda d: d["pending"]["split"].pop("target"), "pending.split", "target"),
    ("dicepool_aim.yaml", lambda d: d["pending"]["aim"].update(target="Bandit Z"), "pending.aim.target",
     "Bandit Z"),
])
def test_a_wrong_pending_entry_names_the_field(example: str, edit: Any, field: str, words: str) -> None:
    message = _bad(example, edit)
    assert f"<situation>: {field}" in message or f": {field}:" in message, message
    assert words in message, message


def test_errors_name_the_file(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "dicepool_split.yaml").read_text())
    data["pending"]["split"]["target"] = "Nobody"
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as err:
        _load("dicepool", path)
    assert err.value.file == str(path) and err.value.field == "pending.split.target"


def test_the_incoming_blow_resolves_with_the_answer() -> None:
    """Gorak's maul (skill 50) at SR 7, Fox dodges: the attack and the dodge are rolled (forced: 52, a miss;
    96, a failed dodge), then the fight goes on from round 4's statement of intent (the rest of round 3 is
    not known)."""
    from npc_tactics.dice import ScriptedRoller

    engine, state = _load("runequest", EXAMPLES / "runequest_react.yaml")
    after, events = engine.step(state, engine.catalogue.index("dodge"), ScriptedRoller([52, 96],
                                                                                       then=RngRoller(np.random.default_rng(1))))
    attack = next(e for e in events if e.kind == "attack")
    assert (attack.data["weapon"], attack.data["sr"], attack.data["skill"]) == ("troll_maul", 7, 50)
    assert (attack.data["defence"], attack.data["result"]) == ("dodge", "miss")
    decision = engine.pending(after)
    assert decision.kind == DecisionKind.DECLARE and decision.round == 4


def test_a_pending_entry_of_another_system_is_unknown() -> None:
    message = _bad("ose_melee.yaml", lambda d: d.update(pending={"split": {"target": "Brannoc"}}))
    assert "pending" in message and "unknown key" in message


def test_every_pending_kind_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "suggest.md").read_text(encoding="utf-8")
    for system in ("runequest", "mrq", "dicepool"):
        kinds = importlib.import_module(f"npc_tactics.systems.{system}.rules.pending").KINDS
        for name in kinds:
            assert f"{{{name}:" in text, (system, name)
    for example in CASES:
        assert f"`{example}`" in text, example
