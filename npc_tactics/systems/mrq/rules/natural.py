"""Natural attacks (bite, claw, gore ...): the reach and body part a creature strikes with, read from the attack's
name, so a stat block may give one without a weapons entry and a fumble or a Damage weapon hurts the right limb."""

from __future__ import annotations

__all__ = ["NATURAL", "natural_kind", "natural_location"]

#: natural attacks a stat block may give without a weapons entry: their reach (A23, [HOUSE]) and body part
NATURAL = {"bite": ("short", "head"), "claw": ("short", "arm"), "gore": ("medium", "head"),
           "butt": ("short", "head"), "head_butt": ("short", "head"), "kick": ("medium", "leg"),
           "hoof": ("medium", "leg"), "trample": ("short", "leg"), "tail": ("medium", "vital"),
           "sting": ("medium", "vital"), "tusk": ("short", "head"), "tentacle": ("medium", "arm"),
           "constrict": ("touch", "vital"), "crush": ("touch", "vital"), "slam": ("short", "arm"),
           "talon": ("short", "leg"), "beak": ("short", "head"), "punch": ("touch", "arm"), "fist": ("touch", "arm")}


def natural_kind(name: str) -> tuple[str, str] | None:
    """(reach, body part) of a natural attack named ``name`` (``wolf_bite`` counts as a bite)."""
    for word, found in NATURAL.items():
        if name == word or name.endswith("_" + word) or name.startswith(word + "_"):
            return found
    return None


def natural_location(name: str, body: str) -> str | None:
    """The location a natural weapon strikes from (natural fumbles, Damage weapon): bite = head ..."""
    found = natural_kind(name)
    if found is None:
        return None
    part = found[1]
    quad = body == "quadruped"
    return {"head": "head", "arm": "right_front_leg" if quad else "right_arm",
            "leg": "right_front_leg" if quad else "right_leg", "vital": "hindquarters" if quad else "abdomen"}[part]
