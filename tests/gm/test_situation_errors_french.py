"""A situation or a saved fight refused in French (issue 29): the errors of each system's situation loader (hit
points, wounds, mounts, morale), of a ``pending:`` entry (the shared replay and each system's kinds) and of the
tracker's fight, saved fight and actor import are :class:`~npc_tactics.i18n.Said` sentences. Their English
(``str``, what the CLI prints and the tests match) is what it always was; their French (what ``POST /suggest`` and
the tracker show through ``said_in(exc.message, "fr")``) has no English sentence left, only the GM's own values and
the names a GM writes (keys, templates, moves). And no message of these modules is a plain string any more.

The French is read from the repo's compiled catalogue (``make catalogues``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from npc_tactics import i18n
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said, said_in
from npc_tactics.registry import get_system
from tests.gm.test_french_everywhere import english_left
from tests.test_validation_errors_fr import catalogue, quoted, sentences, words  # the same readings of a Said

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: The modules whose refusals are all Said sentences (the files this test scans).
SOURCES = (
    "npc_tactics/systems/runequest/rules/situation.py",
    "npc_tactics/systems/runequest/rules/pending.py",
    "npc_tactics/systems/mrq/rules/situation.py",
    "npc_tactics/systems/mrq/rules/pending.py",
    "npc_tactics/systems/ose/rules/situation.py",
    "npc_tactics/rules/pending.py",
    "npc_tactics/gm/table/tracker.py",
    "npc_tactics/gm/table/fight_file.py",
    "npc_tactics/gm/table/fight_import.py",
)
#: English words of these messages that suggest's stoplist lacks
MORE_ENGLISH = frozenset("expected unknown valid give got key which more than less only none".split())
#: what a saved fight holds at least (two sides named); each case adds its mistake
SAVED = {"format": "npc-tactics fight", "version": 1, "system": "ose", "sides": [{"name": "a"}, {"name": "b"}]}


@pytest.fixture(autouse=True)
def french_catalogue() -> Iterator[None]:
    """The repo's compiled catalogue, read afresh (no translations cached by an earlier test)."""
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


# ----- the situations -----------------------------------------------------------------------------------------
def load(system: str, source: Any) -> Any:
    """``source`` loaded as ``system``'s situation, as suggest loads it."""
    info = get_system(system)
    engine = info.load("engine")({})
    return info.load("content").load_situation(engine, source, RngRoller(np.random.default_rng(0)), notes=[])


def example(name: str, edit: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """A shipped example situation with ``edit`` made to it."""
    data = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
    edit(data)
    return dict(data)


def rq(snik: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": "mid-fight", "round": 3, "acting": "Snik", "sides": [
        {"name": "a", "combatants": [{"template": "trollkin", "name": "Snik", **(snik or {})}]},
        {"name": "b", "combatants": [{"template": "humakti_swordsman", "position": 1.5}]}]}


def mrq(guard: dict[str, Any]) -> dict[str, Any]:
    return {"round": 2, "acting": "Guard", "distance": "long", "sides": [
        {"name": "npc", "combatants": [{"template": "sword_and_shield", "name": "Guard", **guard}]},
        {"name": "pc", "combatants": [{"template": "great_axe", "name": "Axeman", "reactions": 1}]}]}


def ose(goblin: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"acting": "Snikkit", "sides": [
        {"combatants": [{"template": "goblin_archer", "name": "Snikkit", "position": 0, **goblin},
                        {"template": "goblin", "name": "Grak", "position": 0, "hp": 3, "max_hp": 3}]},
        {"combatants": [{"template": "fighter_1", "name": "Brannoc", "position": 1.5, "hp": 5, "max_hp": 9}]}],
        **top}


def _checked_morale() -> dict[str, Any]:
    data = ose({"morale_passed": 2})
    data["sides"][0]["morale_checked"] = ["first_death"]
    return data


def _bad_impale_die(d: dict[str, Any]) -> None:
    d["pending"]["impale"]["rolls"][2] = 99  # the third die the rules roll is a d20: 99 cannot come up


def _tracker(call: str) -> Callable[[], Any]:
    from npc_tactics.gm.table.fight_file import fight_from_dict
    from npc_tactics.gm.table.fight_import import import_data
    from npc_tactics.gm.table.tracker import Fight, SideSpec, Step

    def typed_face() -> None:
        fight = Fight("ose", dice="manual")
        fight.add(0, "goblin")
        fight.add(1, "fighter_2")
        fight.replay([Step(None, [99])])

    calls: dict[str, Callable[[], Any]] = {
        "dice": lambda: Fight("ose", dice="loaded"),
        "sides": lambda: Fight("ose", sides=[SideSpec(f"side {k}") for k in range(3)]),
        "move": lambda: Fight("ose").action_index("fly_away"),
        "typed face": typed_face,
        "saved key": lambda: fight_from_dict({**SAVED, "colour": 1}),
        "saved seed": lambda: fight_from_dict({**SAVED, "seed": -1}),
        "saved step": lambda: fight_from_dict({**SAVED, "steps": [3]}),
        "saved opening": lambda: fight_from_dict({**SAVED, "steps": [{"action": "hold"}]}),
        "saved bundle": lambda: fight_from_dict({**SAVED, "bundle": "mine"}),
        "import format": lambda: import_data("foundry-ose", get_system("runequest"), {}),
        "import size": lambda: import_data("foundry-ose", get_system("ose"), {"x": "x" * (1024 * 1024)}),
    }
    return calls[call]


def _situation(system: str, source: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: load(system, source())


#: (what goes wrong, the English error as the CLI prints it, a piece of its French, words the GM writes that the
#: French keeps: keys, values, identifiers)
CASES: list[tuple[str, Callable[[], Any], str, str, str]] = [
    # RuneQuest: its situation loader and its pending kinds
    ("rq hp above max", _situation("runequest", lambda: rq({"hp": 99})),
     "<situation>: sides[0].combatants[0].hp: 99 is more than its maximum 8 HP (§17: healing never raises HP above "
     "it); to make it bigger give max_hp or its CON/SIZ (characteristics)",
     "99 dépasse son maximum de 8 PV (§17 : les soins", "characteristics"),
    ("rq hp above wounds", _situation("runequest", lambda: rq({"hp": 7, "wounds": {"left_leg": 3}})),
     "<situation>: sides[0].combatants[0].hp: 7 is more than the 5 its wounds leave (max 8); lower hp or the wounds",
     "7 dépasse les 5 que lui laissent ses blessures (max 8) ; baissez hp", "hp"),
    ("rq hp 0", _situation("runequest", lambda: rq({"hp": 0})),
     "<situation>: sides[0].combatants[0].hp: 0: a character at 0 HP or less dies at the end of the round (§19), so "
     "at a statement of intent it is dead; give status: dead or more hp",
     "il est donc mort lors d'une déclaration d'intention ; donnez status: dead", "status dead hp"),
    ("rq mp", _situation("runequest", lambda: rq({"mp": 20})),
     "<situation>: sides[0].combatants[0].mp: 20 is more than its POW (8)", "20 dépasse son POU (8)", ""),
    ("rq active", _situation("runequest", lambda: rq({"wounds": {"head": 3}, "status": "active"})),
     "<situation>: sides[0].combatants[0].status: 'active' contradicts its hp and wounds, which make it unconscious "
     "(§17-§18); fix the status or the wounds",
     "'active' contredit ses hp et ses blessures, d'après lesquels il est sans connaissance", "active status hp"),
    ("rq same name", _situation("runequest", lambda: {**rq(), "sides": [
        {"name": "a", "combatants": [{"template": "trollkin", "name": "Snik"}]},
        {"name": "b", "combatants": [{"template": "trollkin", "name": "Snik", "position": 1.5}]}]}),
     "<situation>: sides: two combatants are named 'Snik'; give each a unique name",
     "deux combattants s'appellent 'Snik' ; donnez à chacun un nom différent", ""),
    ("rq attacker of the same side", _situation("runequest", lambda: example(
        "runequest_react.yaml", lambda d: d["pending"]["incoming"].update(attacker="Hare"))),
     "<situation>: pending.incoming.attacker: Hare is on Fox's side", "Hare est dans le camp de Fox", ""),
    ("rq no such spell", _situation("runequest", lambda: example(
        "runequest_spell.yaml", lambda d: d["pending"]["spell"].update(name="nosuch"))),
     "<situation>: pending.spell.name: no spell 'nosuch' can be cast on that target",
     "aucun sort 'nosuch' ne peut être lancé sur cette cible", ""),
    # the shared pending machinery (npc_tactics/rules/pending.py), through each system
    ("two pending entries", _situation("runequest", lambda: example(
        "runequest_react.yaml", lambda d: d["pending"].update(spell={"name": "bladesharp"}))),
     "<situation>: pending: expected exactly one of aimed_blow, incoming, spell, got 2",
     "attendu : exactement un de aimed_blow, incoming, spell, reçu 2", "aimed_blow incoming spell"),
    ("too few rolls", _situation("mrq", lambda: example(
        "mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[12]))),
     "<situation>: pending.effects: the rules roll more dice than the 1 given (give the rolls made, in order)",
     "les règles lancent plus de dés que les 1 donnés (donnez les jets faits, dans l'ordre)", ""),
    ("rolls left over", _situation("mrq", lambda: example(
        "mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[12, 71, 5]))),
     "<situation>: pending.effects: 1 roll(s) given but not used by the rules (they used 2)",
     "1 jet(s) donné(s) mais non utilisé(s) par les règles (elles en ont utilisé 2)", ""),
    ("another's decision", _situation("mrq", lambda: example(
        "mrq_effects.yaml", lambda d: d["pending"]["effects"].update(rolls=[90, 20]))),
     "<situation>: pending.effects: the rules reach Axeman's effect decision, not a effect decision of Guard",
     "les règles arrivent à la décision d'effet spécial de Axeman, pas à une décision d'effet spécial de Guard",
     ""),
    ("a forced face off the die", _situation("mrq", lambda: example("mrq_impale.yaml", _bad_impale_die)),
     "<situation>: pending.impale: scripted roll #3 is 99, impossible on a d20",
     "le jet donné n° 3 vaut 99, impossible sur un d20", ""),
    ("not an enemy", _situation("dicepool", lambda: example(
        "dicepool_split.yaml", lambda d: d["pending"]["split"].update(target="Kesh"))),
     "<situation>: pending.split.target: Kesh is not an enemy of Kesh", "Kesh n'est pas un ennemi de Kesh", ""),
    # MRQ: its situation loader and its pending kinds
    ("mrq major wound", _situation("mrq", lambda: mrq({"locations": {"chest": -8}})),
     "<situation>: sides[0].combatants[0].status: not active: chest is at a Major Wound, which takes it out of the "
     "fight (§17)", "pas active : chest en est à une blessure majeure", "active"),
    ("mrq useless limb", _situation("mrq", lambda: mrq({"useless": ["left_arm"]})),
     "<situation>: sides[0].combatants[0].useless[0]: a limb at 0 HP or below (a limb is useless only while its HP "
     "are not above 0, §17)", "un membre à 0 PV ou moins (un membre n'est inutilisable", ""),
    ("mrq no mount", _situation("mrq", lambda: mrq({"mount": {"status": "dead"}})),
     "<situation>: sides[0].combatants[0].mount: Guard rides no mount (its template has none)",
     "Guard n'a pas de monture (son modèle n'en a pas)", ""),
    ("mrq attacker deciding", _situation("mrq", lambda: example(
        "mrq_react.yaml", lambda d: d["pending"]["incoming"].update(attacker="Guard"))),
     "<situation>: pending.incoming.attacker: Guard is the one deciding; name who attacks it",
     "c'est Guard qui décide ; nommez qui l'attaque", ""),
    ("mrq unknown effect", _situation("mrq", lambda: example(
        "mrq_effects.yaml", lambda d: d["pending"]["effects"].update(chosen=["fly"]))),
     "<situation>: pending.effects.chosen[0]: unknown special effect 'fly'", "effet spécial inconnu 'fly'", ""),
    # OSE: its situation loader
    ("ose hp above max_hp", _situation("ose", lambda: ose({"hp": 10, "max_hp": 3})),
     "<situation>: sides[0].combatants[0].hp: expected at most max_hp (3), got 10",
     "attendu : au plus max_hp (3), reçu 10", ""),
    ("ose hp below 1", _situation("ose", lambda: ose({"hp": -5})),
     "<situation>: sides[0].combatants[0].hp: expected at least 1, got -5 (0 HP or less is dead: write status: dead)",
     "attendu : au moins 1, reçu -5 (à 0 PV ou moins, il est mort : écrivez status: dead)", "status dead"),
    ("ose dead with hp", _situation("ose", lambda: ose({"hp": 2, "status": "dead"}, acting="Grak")),
     "<situation>: sides[0].combatants[0].hp: expected 0 or less for a dead combatant (0 HP or less is dead), got 2",
     "attendu : 0 ou moins pour un combattant mort", ""),
    ("ose hp in words", _situation("ose", lambda: ose({"hp": "lots"})),
     "<situation>: sides[0].combatants[0].hp: expected the current hit points as a whole number, got 'lots'",
     "attendu : les points de vie actuels en nombre entier, reçu 'lots'", ""),
    ("ose hp above the template", _situation("ose", lambda: ose({"hp": 99})),
     "<situation>: sides[0].combatants[0].hp: expected at most 7, the most a goblin_archer can have (1d8-1); give "
     "max_hp for a tougher one", "le maximum possible pour un goblin_archer (1d8-1) ; donnez max_hp", ""),
    ("ose no regeneration", _situation("ose", lambda: ose({"burnt": 1})),
     "<situation>: sides[0].combatants[0].burnt: Snikkit does not regenerate (its template has no regenerate)",
     "Snikkit ne se régénère pas (son modèle n'a pas de regenerate)", "regenerate"),
    ("ose morale passed", _situation("ose", _checked_morale),
     "<situation>: sides[0].combatants[0].morale_passed: expected at most 1, the checks listed in morale_checked, "
     "got 2", "attendu : au plus 1, le nombre de tests listés dans morale_checked, reçu 2", ""),
    ("ose scenario", _situation("ose", lambda: ose({}, scenario=3)),
     "<situation>: scenario: <situation>: scenario: expected a string, got 3",
     "<situation> : scenario : attendu : un texte, reçu 3", "situation scenario"),
    # the tracker: a fight, a saved fight, an actor file
    ("tracker dice mode", _tracker("dice"), "fight: dice: unknown dice mode 'loaded'; valid modes: auto, manual, pcs",
     "mode de dés inconnu 'loaded' ; modes valides : auto, manual, pcs", "auto manual pcs"),
    ("tracker sides", _tracker("sides"), "fight: sides: ose fights have 2 sides, got 3",
     "les combats ose ont 2 camps, reçu 3", "ose"),
    ("tracker move", _tracker("move"), "fight: action: unknown move 'fly_away' in ose",
     "action inconnue 'fly_away' dans ose", "ose"),
    ("tracker typed face", _tracker("typed face"),
     "fight: steps[0].typed: typed face #1 is 99, impossible on a d8",
     "la face tapée n° 1 vaut 99, impossible sur un d8", ""),
    ("saved fight key", _tracker("saved key"),
     "fight: colour: unknown key; valid keys: format, version, system, sides, options, seed, dice, distance, bundle, "
     "combatants, steps, pending", "clé inconnue ; clés valides : format, version",
     "format version system sides options seed dice distance bundle combatants steps pending"),
    ("saved fight seed", _tracker("saved seed"), "fight: seed: expected a whole number from 0 to 2147483647, got '-1'",
     "attendu : un entier de 0 à 2147483647, reçu '-1'", ""),
    ("saved fight step", _tracker("saved step"), "fight: steps[0]: expected a mapping {action, typed, by}, got '3'",
     "attendu : une table {action, typed, by}, reçu '3'", "action typed by"),
    ("saved fight opening", _tracker("saved opening"),
     "fight: steps[0].action: the first step is the opening: its action is null",
     "la première étape est l'ouverture : son action est null", "null"),
    ("saved fight bundle", _tracker("saved bundle"), "fight: bundle: no bundle 'mine' here",
     "aucun paquet 'mine' ici", ""),
    ("import format", _tracker("import format"),
     "file: format: unknown format 'foundry-ose' for a runequest fight (formats: none)",
     "format inconnu 'foundry-ose' pour un combat runequest (formats : aucun)", "runequest"),
    ("import size", _tracker("import size"), "file: data: the file is 1048585 bytes; at most 1048576 are read",
     "le fichier fait 1048585 octets ; au plus 1048576 sont lus", ""),
]


def english_words(text: str, names: set[str]) -> set[str]:
    """The English words of ``text`` (suggest's stoplist and :data:`MORE_ENGLISH`), ``names`` aside."""
    found = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][a-zà-ÿ']+", text)} - names
    return english_left(text, names) | (found & MORE_ENGLISH)


def refusal(trigger: Callable[[], Any]) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        trigger()
    return info.value


@pytest.mark.parametrize(("what", "trigger", "english", "french", "kept"), CASES, ids=[c[0] for c in CASES])
def test_a_refused_situation_or_fight_is_said_in_french(what: str, trigger: Callable[[], Any], english: str,
                                                         french: str, kept: str) -> None:
    exc = refusal(trigger)
    assert str(exc) == english  # the English the CLI prints, byte for byte what it was
    message = exc.message
    assert isinstance(message, Said), f"{what}: the message is a plain str: {message}"
    said = said_in(message, "fr")
    assert said != str(message) and french in said, said
    missing = [s.msgid for s in sentences(message) if s.msgid not in catalogue()]
    assert not missing, f"not in the French catalogue: {missing}"
    names = quoted(message) | words(kept)
    assert english_words(str(message), names), "the check below sees no English even in the English message"
    assert not english_words(said, names), f"English left in: {said}"
    assert said_in(message, "en") == str(message)


def test_a_saved_fight_replayed_past_its_end_is_said_in_french() -> None:
    """The replay's refusals (a step with no action after the opening, a move the rules do not allow there)."""
    from npc_tactics.gm.table.tracker import Fight, Step

    fight = Fight("ose", dice="auto")
    fight.add(0, "goblin")
    fight.add(1, "fighter_2")
    exc = refusal(lambda: fight.replay([Step(None, []), Step(None, [])]))
    assert str(exc) == "fight: steps[1].action: only the first step (the opening) has no action"
    assert said_in(exc.message, "fr") == "seule la première étape (l'ouverture) n'a pas d'action"
    exc = refusal(lambda: fight.replay([Step(None, [])], Step(10**6, [])))
    assert str(exc) == "fight: pending.action: not a legal move at the end of the steps"
    assert said_in(exc.message, "fr") == "pas une action permise à la fin des étapes"


def _config_errors(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ConfigError":
            yield node


def _plain(node: ast.expr) -> bool:
    """A message written as a plain string: an f-string, a string literal, or either on one side of a
    conditional expression."""
    if isinstance(node, ast.IfExp):
        return _plain(node.body) or _plain(node.orelse)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


@pytest.mark.parametrize("source", SOURCES)
def test_no_refusal_of_these_modules_is_a_plain_string(source: str) -> None:
    tree = ast.parse((ROOT / source).read_text(encoding="utf-8"))
    calls = list(_config_errors(tree))
    assert calls, f"{source} raises no ConfigError any more: drop it from SOURCES"
    plain = [node.lineno for node in calls if len(node.args) >= 3 and _plain(node.args[2])]
    assert not plain, f"{source}: ConfigError with a plain-string message (not a Said) at lines {plain}"


def test_the_scan_finds_a_plain_message() -> None:
    tree = ast.parse('raise ConfigError(f, "hp", f"{hp} is too many")\nraise ConfigError(f, "x", "bad" if a else '
                     'Said("good"))\nraise ConfigError(f, "y", Said("fine {n}", n=1))')
    assert [node.lineno for node in _config_errors(tree) if _plain(node.args[2])] == [1, 2]
