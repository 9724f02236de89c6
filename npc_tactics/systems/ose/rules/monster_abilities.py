"""The monster-ability fields of a template (rules/effects.py, docs/ose-monsters.md): the attack routine as
strikes, special defences, regeneration, flight; and the vocabularies of the bestiary's tags."""

from __future__ import annotations

from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules import statline as SL
from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.state import Breath, Strike, Swallow

__all__ = ["DAMAGE_KINDS", "GAZE_SAVES", "HIT_BY", "KINDS", "abilities", "alignment"]

#: creature kinds (``kind:``) of the bestiary, for the encounter builder (docs/ose-bestiary.md)
KINDS = ("human", "demihuman", "humanoid", "giant", "undead", "animal", "giant_animal", "monstrosity", "dragon",
         "construct", "ooze", "lycanthrope", "enchanted", "plant", "insect")
DAMAGE_KINDS = ("fire", "cold", "lightning", "acid", "gas", "poison")
HIT_BY = ("silver", "magic")
BREATH_KINDS = ("fire", "cold", "acid", "gas", "lightning", "petrification")
#: width and height are kept for the GM (the battle line has no width)
BREATH_KEYS = ("kind", "damage", "shape", "length", "width", "height", "save", "uses", "chance")
GAZE_EFFECTS = ("petrification", "paralysis", "charm")
GAZE_SAVES = {"petrification": "paralysis", "paralysis": "paralysis", "charm": "spells"}
SWALLOW_KEYS = ("form", "roll", "margin", "damage", "size", "weapon")


def abilities(r: dict[str, Any], weapon: dict[str, Any], bonus: int | None, file: str, path: str) -> dict[str, Any]:
    """The monster-ability fields of a Profile (rules/effects.py) from a template's raw fields."""
    def kinds(key: str, allowed: tuple[str, ...]) -> frozenset[str]:
        kp = V.join(path, key)
        return frozenset(V.choice(x, file, V.join(kp, i), allowed, key.replace("_", " "))
                         for i, x in enumerate(V.sequence(r.get(key, []), file, kp, what=key.replace("_", " "))))

    out: dict[str, Any] = {
        "halved": kinds("halved", DAMAGE_KINDS),
        "regenerate": V.integer(r.get("regenerate", 0), file, V.join(path, "regenerate"), 0, 100),
        "regenerate_after": V.integer(r.get("regenerate_after", 0), file, V.join(path, "regenerate_after"), 0, 30),
        "regenerate_not": kinds("regenerate_not", DAMAGE_KINDS),
        "paralysis_spares": kinds("paralysis_spares", (*C.classes(), "large")),
        "fly": T.feet_to_squares(V.integer(r.get("fly", 0), file, V.join(path, "fly"), 0, 1000)
                                 // T.ENCOUNTER_FRACTION),
    }
    if "alignment" in r:
        out["alignment"] = alignment(r["alignment"], file, V.join(path, "alignment"))
    if "hit_by" in r:
        out["hit_by"] = V.choice(r["hit_by"], file, V.join(path, "hit_by"), HIT_BY, "weapon kind")
    if "revives" in r:
        out["revives"] = V.dice(r["revives"], file, V.join(path, "revives"))
    if "breath" in r:
        out["breath"] = _breath(r["breath"], file, V.join(path, "breath"))
    if "gaze" in r:
        gp = V.join(path, "gaze")
        g = V.mapping(r["gaze"], file, gp, ("effect", "save"), required=("effect",))
        out["gaze"] = V.choice(g["effect"], file, V.join(gp, "effect"), GAZE_EFFECTS, "gaze effect")
        out["gaze_save"] = _save(g.get("save", GAZE_SAVES[out["gaze"]]), file, V.join(gp, "save"))
    if "effect_saves" in r:
        ep = V.join(path, "effect_saves")
        effects = tuple(sorted(W.MODELLED_EFFECTS))
        out["effect_saves"] = tuple(
            (V.choice(k, file, V.join(ep, str(k)), effects, "effect"), _save(v, file, V.join(ep, str(k))))
            for k, v in V.mapping(r["effect_saves"], file, ep).items())
    if "routine" in r:
        out["routine"] = _routine(r["routine"], weapon, bonus, file, V.join(path, "routine"))
    if "constrict" in r:
        out["constrict"] = V.dice(r["constrict"], file, V.join(path, "constrict"))
    marked = next((x for x in out.get("routine", ()) if "swallow" in x.effects), None)
    if "swallow" in r or marked is not None:
        out["swallow"] = _swallow(r.get("swallow", {}), marked, r, file, V.join(path, "swallow"))
    for key in ("kind",):
        if key in r:
            V.choice(r[key], file, V.join(path, key), KINDS, "creature kind")
    return out


def alignment(value: Any, file: str, path: str) -> str:
    """Lawful, Neutral or Chaotic (any case); "Any" and combinations such as "Lawful or Neutral" are kept as written."""
    text = V.string(value, file, path, non_empty=True)
    return text.strip().capitalize() if text.strip().lower() in ("lawful", "neutral", "chaotic") else text.strip()


def _save(value: Any, file: str, path: str) -> int:
    return T.SAVE_CATEGORIES.index(V.choice(value, file, path, T.SAVE_CATEGORIES, "saving throw"))


def _swallow(raw: Any, marked: Strike | None, r: dict[str, Any], file: str, path: str) -> Swallow:
    """``{form: bite, roll: 20, margin: 4, damage: 3d6, size: man, weapon: edged}`` (rules/holds.py); a strike
    written ``+ swallow`` in the stat line gives the form and, by default, its damage a round inside."""
    w = V.mapping(raw, file, path, SWALLOW_KEYS)
    form = marked.form if marked is not None else ""
    if "form" in w:
        form = V.choice(w["form"], file, V.join(path, "form"), W.NATURAL_FORMS, "attack form")
    default = marked.damage if marked is not None and marked.damage else str(r.get("damage", "1d6"))
    damage = V.dice(w.get("damage", default), file, V.join(path, "damage"))
    return Swallow(form, V.integer(w.get("roll", 20), file, V.join(path, "roll"), 2, 20),
                   V.integer(w.get("margin", 0), file, V.join(path, "margin"), 0, 20), str(damage),
                   V.choice(w.get("size", "man"), file, V.join(path, "size"), ("man", "small"), "size"),
                   V.choice(w.get("weapon", "edged"), file, V.join(path, "weapon"), ("edged", "dagger"), "weapon"))


def _breath(raw: Any, file: str, path: str) -> Breath:
    """``{kind: fire, damage: hp, shape: cone, length: 90, width: 30, save: breath, uses: 3, chance: 3}`` (feet)."""
    b = V.mapping(raw, file, path, BREATH_KEYS, required=("kind", "shape", "length"))
    kind = V.choice(b["kind"], file, V.join(path, "kind"), BREATH_KINDS, "breath kind")
    damage = b.get("damage", "hp" if kind != "petrification" else "none")
    if damage == "none":
        damage = ""
    elif damage != "hp":
        damage = V.dice(damage, file, V.join(path, "damage"))
    shape = V.choice(b["shape"], file, V.join(path, "shape"), ("cone", "line", "cloud"), "breath shape")
    length = T.feet_to_squares(V.integer(b["length"], file, V.join(path, "length"), 5, 1000))
    return Breath(kind, str(damage), shape, max(1, length), _save(b.get("save", "breath"), file, V.join(path, "save")),
                  V.integer(b.get("uses", -1), file, V.join(path, "uses"), -1, 100),
                  V.integer(b.get("chance", 3), file, V.join(path, "chance"), 0, 6))


def _routine(text: Any, weapon: dict[str, Any], bonus: int | None, file: str, path: str) -> tuple[Strike, ...]:
    """The strikes of an attack routine in stat line notation, each attack of a ``count ×`` its own strike."""
    try:
        attacks = SL.read_field("Att", V.string(text, file, path, non_empty=True))
    except SL.StatLineError as exc:
        raise ConfigError(file, path, exc.message) from None
    out: list[Strike] = []
    for a in attacks:
        damage = SL.canonical_dice(a.damage) if a.damage else ""
        var = damage
        if a.form == "weapon" or a.form in SL.weapon_forms():
            if a.weapon_bonus is not None:  # "or by weapon ±N": the weapon's die under variable weapon damage
                var = str(weapon["damage"]) + (f"{a.weapon_bonus:+d}" if a.weapon_bonus else "")
        form = SL.weapon_forms().get(a.form, a.form)
        if a.form == "gaze":  # a gaze is no attack roll: the gaze field (bestiary_files.attack_fields)
            continue
        effects = tuple(e for e in a.effects if e in W.MODELLED_EFFECTS)
        out.extend(Strike(form, damage, var, effects) for _ in range(a.count))
    return tuple(out)
