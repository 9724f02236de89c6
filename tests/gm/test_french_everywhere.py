"""No English left in what suggest says in French, on every example situation of every system: a stoplist of
English words that French never uses, looked for in every line of the answer (names of combatants and files
aside, which are the GM's own)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: English words no French sentence of the tools contains (short words French shares, e.g. "a", "on", are out)
ENGLISH = frozenset(
    "the and of with to is are not given at its his her an by for from this that than was were be it or yes "
    "attack parry dodge hold move close away shoot cast spell enemy ally win wins fled dead lost draw policy "
    "trust rules assumed card rule here when if then always otherwise encounter training steps rollouts "
    "unhurt wounds rolled left full".split()
)


def english_left(line: str, names: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """The words of :data:`ENGLISH` in ``line`` (lower-cased), the GM's own ``names`` (lower-cased words) aside.
    Shared with the tracker's test (tests/gm/test_tracker_french.py). Words are whole words, accented letters
    included ("forêts" is not "for"); an identifier with an underscore (a scenario's or template's id, such as
    ``dodge_duel`` in a distilled policy's trust line: what the GM types to name it) is a name, not English."""
    prose = re.sub(r"\b\w+_\w+\b", " ", line)
    return ({w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][a-zà-ÿ']+", prose)} - names) & ENGLISH


SITUATIONS = sorted(p for p in EXAMPLES.glob("*.yaml") if p.name.split("_")[0] in ("ose", "runequest", "mrq",
                                                                                    "dicepool"))


@pytest.mark.parametrize("situation", SITUATIONS, ids=lambda p: p.stem)
def test_suggest_in_french_has_no_english_left(situation: Path) -> None:
    from npc_tactics.gm.advice.suggest import shipped_bundle, suggest

    system = situation.name.split("_")[0]
    result = suggest(shipped_bundle(system), situation, odds=4, workers=1, lang="fr")
    names = {c.lower() for c in re.findall(r"[A-Za-z][\w']+", " ".join(
        [result.actor, result.situation_text.split(":")[0]]))}
    for line in result.format().splitlines():
        assert not english_left(line, names), f"English left in: {line.strip()}"
