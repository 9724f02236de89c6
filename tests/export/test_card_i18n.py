"""The card's French catalogue: every marked string is translated, and the committed .mo holds the .po."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

from npc_tactics.i18n import LOCALE_DIR, translator

ROOT = Path(__file__).resolve().parents[2]
#: the shared card modules, then each system's card hooks (``systems/<name>/card.py``)
SOURCES = ["npc_tactics/policy_io/card_features.py", "npc_tactics/policy_io/card_render.py",
           "npc_tactics/export/card.py",
           *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "npc_tactics" / "systems").glob("*/card.py"))]
PO = LOCALE_DIR / "fr" / "LC_MESSAGES" / "card.po"
MO = PO.with_suffix(".mo")
_CALL = re.compile(r"""(?<![A-Za-z0-9_])N?_\(((?:\s*"(?:[^"\\]|\\.)*"\s*)+|\s*'[^']*'\s*)\)""")
#: ``ngettext("singular", "plural", n)``, each msgid of adjacent literals
_PLURAL = re.compile(r"""(?<![A-Za-z0-9_])ngettext\(((?:\s*"(?:[^"\\]|\\.)*"\s*)+),((?:\s*"(?:[^"\\]|\\.)*"\s*)+),""")


def marked_strings() -> set[str]:
    """Every ``_("...")`` and ``N_("...")`` literal (adjacent literals joined) in the card's sources."""
    found = set()
    for rel in SOURCES:
        for m in _CALL.finditer((ROOT / rel).read_text(encoding="utf-8")):
            parts = re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', m.group(1))
            found.add("".join(ast.literal_eval(p) for p in parts))
    return found


def _joined(literals: str) -> str:
    return "".join(ast.literal_eval(p) for p in re.findall(r'"(?:[^"\\]|\\.)*"', literals))


def plural_strings() -> set[tuple[str, str]]:
    """Every ``ngettext("...", "...", n)`` pair (a count's sentence: "{rules} rule" / "{rules} rules")."""
    found = set()
    for rel in SOURCES:
        for m in _PLURAL.finditer((ROOT / rel).read_text(encoding="utf-8")):
            found.add((_joined(m.group(1)), _joined(m.group(2))))
    return found


def read_po(path: Path) -> dict[str | tuple[str, int], str]:
    """msgid -> msgstr of a simple .po file (no contexts, which the card does not use); a plural entry gives
    (msgid, i) -> its form i, as gettext's compiled catalogue holds it."""
    entries: dict[str | tuple[str, int], str] = {}
    fields: dict[str, str] = {}
    field = None

    def close() -> None:
        key = fields.get("msgid")
        if key is None:
            return
        if "msgid_plural" in fields:
            for name, text in fields.items():
                if name.startswith("msgstr["):
                    entries[(key, int(name[7:-1]))] = text
        else:
            entries[key] = fields.get("msgstr", "")

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        word = line.split(" ", 1)[0]
        if word in ("msgid", "msgid_plural", "msgstr") or word.startswith("msgstr["):
            if word == "msgid":
                close()
                fields = {}
            field, rest = line.split(" ", 1)
            fields[field] = ast.literal_eval(rest)
        elif line.startswith('"') and field:
            fields[field] += ast.literal_eval(line)
    close()
    entries.pop("", None)  # the header
    return entries


def test_every_marked_string_has_a_french_translation() -> None:
    po = read_po(PO)
    missing = sorted(s for s in marked_strings() if not po.get(s))
    assert not missing, f"untranslated in {PO.name}: {missing[:5]}"
    assert len(marked_strings()) > 200


def test_every_count_has_its_two_french_forms() -> None:
    """French takes the singular for 0 and 1 ("1 règle", "2 règles"): each ngettext pair has both forms."""
    po = read_po(PO)
    pairs = plural_strings()
    assert len(pairs) >= 4
    missing = sorted(one for one, _many in pairs if not (po.get((one, 0)) and po.get((one, 1))))
    assert not missing, f"counts without their two French forms in {PO.name}: {missing[:5]}"


def test_the_committed_mo_holds_exactly_the_po() -> None:
    with MO.open("rb") as fh:
        catalog = dict(gettext.GNUTranslations(fh)._catalog)  # type: ignore[attr-defined]
    catalog.pop("", None)
    assert catalog == read_po(PO), "card.po changed without recompiling: msgfmt -o card.mo card.po"


@pytest.mark.parametrize("text", ["Before combat", "Otherwise: {move}", "the enemy"])
def test_translator_gives_french_for_the_card_domain_and_english_otherwise(text: str) -> None:
    assert translator("fr", "card")(text) != text
    assert translator("en", "card")(text) == text


def test_a_dice_pool_aim_move_names_its_target_not_an_empty_location() -> None:
    """The dice pool's `aim:enemy_k` spends a slot aiming at an enemy (D7); the shared `aim` verb is RuneQuest's
    aim at hit location N, which left the dice-pool card saying "aim at location " with nothing after it."""
    from types import SimpleNamespace

    from npc_tactics.policy_io.card_render import action_phrase
    from npc_tactics.registry import get_system

    card = SimpleNamespace(plugin=get_system("dicepool"), actions=["aim:enemy_1", "aim_at:head"],
                           meta={"enemy_count": 3})
    assert action_phrase(card, 0) == "take aim at enemy 2"
    assert action_phrase(card, 0, "fr") == "viser l'ennemi 2"
    assert action_phrase(card, 1) == "aim at: head"
    rq = SimpleNamespace(plugin=get_system("runequest"), actions=["aim:3"], meta={})
    assert action_phrase(rq, 0) == "aim at location 4"
