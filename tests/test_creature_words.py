"""Every creature a GM can add by name has its name and description in French (issue 29: template names from the
catalogues, with a fallback that is a test failure, not English on screen)."""

from __future__ import annotations

import re

import pytest

from npc_tactics.encounters.adapters import adapter
from npc_tactics.errors import ConfigError
from npc_tactics.gm.table.stat_words import CLASSES, template_text
from npc_tactics.gm.words import creatures
from npc_tactics.registry import available_systems, get_system

SYSTEMS = sorted(available_systems())


def _creatures(system: str) -> list[str]:
    """The templates named by the bestiary (class-and-level characters are named by their class words)."""
    out = []
    for name in adapter(get_system(system)).templates():
        m = re.fullmatch(r"([a-z_]+)_(\d{1,2})", name)
        if name in CLASSES or (m is not None and m[1] in CLASSES):
            continue
        out.append(name)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_creature_has_a_french_name_and_description(system: str) -> None:
    french = creatures.creature_words(get_system(system), "fr")
    names = _creatures(system)
    missing = [n for n in names if n not in french or not french[n].description]
    where = creatures.creature_file(get_system(system), "fr")
    assert not missing, f"{system}: no French name or description in {where}: {missing}"
    unknown = sorted(set(french) - set(names))
    assert not unknown, f"{system}: French entries for templates the bestiary lacks: {unknown}"
    said = [french[n].name for n in names]
    assert len(set(said)) == len(said), f"{system}: two creatures share a French name"
    assert all(template_text(get_system(system), n, "fr") == french[n].name for n in names)


def test_english_needs_no_file_and_keeps_the_template_word() -> None:
    assert creatures.creature_words(get_system("ose"), "en") == {}
    assert template_text(get_system("ose"), "black_bear", "en") == "black bear"


def test_a_malformed_bestiary_file_names_the_file_and_the_entry(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bestiary_fr.yaml"
    bad.write_text("goblin:\n  description: sans nom\n", encoding="utf-8")
    monkeypatch.setattr(creatures, "creature_file", lambda system, lang: bad)
    creatures.creature_words.cache_clear()
    try:
        with pytest.raises(ConfigError, match=r"bestiary_fr\.yaml: goblin: expected \{name"):
            creatures.creature_words(get_system("ose"), "fr")
    finally:
        creatures.creature_words.cache_clear()


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_french_bestiary_has_no_english_left(system: str) -> None:
    from tests.gm.test_french_everywhere import english_left

    french = creatures.creature_words(get_system(system), "fr")
    left = [f"{t}: {w.name}: {w.description}" for t, w in french.items()
            if english_left(w.name, set()) or english_left(w.description, set())]
    assert not left, left[:5]


def test_an_attack_form_loses_its_article_as_a_whole_word() -> None:
    """"une ruade" is "ruade" in a French stat line, never "e ruade" ("un" is not a prefix of "une" here)."""
    from npc_tactics.rules.line_words import ARTICLE

    said = {w: ARTICLE.sub("", w) for w in ("une ruade", "les griffes", "l’arc court", "l'épée", "un gourdin",
                                              "the club", "an axe", "sabot", "lance", "sa morsure")}
    assert said == {"une ruade": "ruade", "les griffes": "griffes", "l’arc court": "arc court", "l'épée": "épée",
                    "un gourdin": "gourdin", "the club": "club", "an axe": "axe", "sabot": "sabot",
                    "lance": "lance", "sa morsure": "morsure"}
