"""The fake system's stat blocks: a template is a name and its hit points (every fighter hits and hurts alike)."""

from __future__ import annotations

__all__ = ["TEMPLATES", "template_names"]

#: template -> (hit points, description)
TEMPLATES: dict[str, tuple[int, str]] = {
    "goblin": (4, "small and quick to fall"),
    "orc": (8, "a sturdy brawler"),
    "elf": (8, "as tough as an orc"),
    "dwarf": (9, "the toughest of the four"),
}


def template_names() -> list[str]:
    return sorted(TEMPLATES)
