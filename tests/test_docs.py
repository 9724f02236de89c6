"""Each system's docs page stays in step with its code: every action of the catalogue is documented, the
observation table is the one generated from the encoder's declarations, the situation keys' table the one generated
from the system's situation declaration, and every rules option is named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from npc_tactics.encoders.docs import (
    BEGIN,
    END,
    SITUATION_BEGIN,
    SITUATION_END,
    layout_markdown,
    replace_block,
    update_page,
)
from npc_tactics.registry import get_system
from tests.conftest import system_names

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _documented(name: str, text: str) -> bool:
    """``name`` appears as code, or compressed: ``verb:enemy_0..5`` for slot families, ``verb:<option>`` for
    option families."""
    if f"`{name}`" in text or f"`{name.split(':')[0]}:<" in text:
        return True
    compressed = re.sub(r"(enemy|ally)_\d+$", r"\1_0..", name)
    return compressed != name and f"`{compressed}" in text


@pytest.mark.parametrize("system", system_names())
def test_docs_page_lists_actions_fields_and_options(system: str) -> None:
    info = get_system(system)
    engine = info.load("engine")()
    encoder = info.load("encoder")(engine)
    text = (DOCS / f"{system}.md").read_text(encoding="utf-8")
    missing_actions = [name for name in engine.catalogue.names if not _documented(name, text)]
    assert not missing_actions, f"docs/{system}.md lacks actions {missing_actions[:10]}"
    assert replace_block(text, layout_markdown(encoder), f"docs/{system}.md") == text, (
        f"docs/{system}.md: the observation table differs from the {system} encoder's declarations; "
        "regenerate it with `python -m npc_tactics.encoders.docs`")
    assert update_page(system, text, f"docs/{system}.md") == text, (
        f"docs/{system}.md: the situation keys' table differs from the {system} situation declaration; "
        "regenerate it with `python -m npc_tactics.encoders.docs`")
    missing_options = [name for name in engine.spec.default_options if name not in text]
    assert not missing_options, f"docs/{system}.md lacks rules options {missing_options}"


def test_a_stale_observation_table_is_caught() -> None:
    """The check above can fail: a page whose table misses one field differs from the generated one."""
    encoder = get_system("ose").load("encoder")(get_system("ose").load("engine")())
    block = layout_markdown(encoder)
    page = f"# page\n\n{BEGIN}\n{block}\n{END}\n"
    assert replace_block(page, block, "page") == page
    stale = page.replace("| `context.round` |", "| `context.rnd` |")
    assert replace_block(stale, block, "page") != stale
    with pytest.raises(ValueError, match="no generated-block markers"):
        replace_block("# page without markers", block, "page")


def test_a_stale_situation_table_is_caught() -> None:
    """A page whose situation table lacks a declared key differs from the generated one."""
    fields = get_system("ose").situation_declaration()
    assert fields is not None
    block = fields.markdown()
    page = f"# page\n\n{SITUATION_BEGIN}\n{block}\n{SITUATION_END}\n"
    assert replace_block(page, block, "page", SITUATION_BEGIN, SITUATION_END) == page
    stale = "\n".join(line for line in page.splitlines() if "`morale_passed`" not in line) + "\n"
    assert replace_block(stale, block, "page", SITUATION_BEGIN, SITUATION_END) != stale
