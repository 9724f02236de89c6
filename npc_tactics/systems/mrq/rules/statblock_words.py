"""The words of a pasted MRQ stat block: labels, skill and trait names, weapon names, and how the weapon table
becomes the engine's weapon, off-hand, unarmed and missile slots."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from npc_tactics.i18n import Said
from npc_tactics.systems.mrq.rules.bestiary import load_weapons
from npc_tactics.systems.mrq.rules.natural import NATURAL, natural_kind, natural_location  # noqa: F401  (re-exported)
from npc_tactics.systems.mrq.rules.state import Weapon
from npc_tactics.systems.mrq.rules.tables import REACH_NAMES

SPELLINGS = {"–": "-", "—": "-", "−": "-", "‐": "-", "\u00a0": " ", "\t": " ", "\r": "\n", "％": "%"}
#: line labels, longest first so that "strike rank" is not read as something shorter
LABELS = tuple(sorted((
    "combat actions", "reactions", "strike rank", "damage modifier", "movement", "d20", "1d20", "hit location",
    "hit locations",
    "weapons", "type", "dice",
    "skills", "traits", "mount", "natural armour", "style", "kind", "faction", "player character", "description",
), key=len, reverse=True))
SKILLS = {"acrobatics": "acrobatics", "athletics": "athletics", "resilience": "resilience",
          "endurance": "resilience", "brute_force": "brute_force", "riding": "riding", "unarmed": "unarmed_skill"}
TRAITS = {"formidable_natural_weapons": "formidable_natural_weapons", "unintelligent": "unintelligent"}
STYLES = {"weapon_and_shield": "weapon_and_shield", "sword_and_shield": "weapon_and_shield",
          "two_handed": "two_handed", "two_weapons": "two_weapons", "one_handed": "one_handed",
          "unarmed": "unarmed", "natural": "natural", "natural_weapons": "natural"}
#: other names of shipped weapons as books print them
ALIASES = {"greataxe": "great_axe", "long_spear": "longspear", "short_spear": "shortspear", "spear": "shortspear",
           "short_sword": "shortsword", "short_bow": "shortbow", "bow": "shortbow", "great_sword": "greatsword",
           "target": "target_shield", "kite": "kite_shield", "tower": "tower_shield", "fist": "fists",
           "unarmed": "fists", "sword": "broadsword", "javelins": "javelin", "kick": "horse_kick"}


def weapon_name(token: str) -> str:
    return ALIASES.get(token, token)


def weapon_fields(w: Weapon) -> dict[str, Any]:
    """A Weapon back as its weapons.yaml fields (defaults left out)."""
    d = asdict(w)
    out: dict[str, Any] = {"damage": w.damage, "kind": w.kind, "reach": REACH_NAMES[w.reach], "hp": w.hp}
    for k in ("ap", "range"):
        if d[k]:
            out[k] = d[k]
    for k in ("thrusting", "entangling", "disarm_bonus", "set_vs_charge", "thrown"):
        if d[k]:
            out[k] = True
    return out


def _resolve(row: dict[str, Any], err: Any) -> tuple[str, dict[str, Any] | None, str]:
    """(weapon name, own weapon fields or None for the shipped one as is, kind)."""
    shipped = load_weapons()
    name = weapon_name(row["name"])
    if name in shipped:
        w = shipped[name]
        own = weapon_fields(w)
        if row["damage"] != w.damage or (row["hp"] is not None and row["hp"] != w.hp):
            own["damage"] = row["damage"]
            if row["hp"] is not None:
                own["hp"] = row["hp"]
            return name, own, w.kind
        return name, None, w.kind
    nat = natural_kind(name)
    if nat is None:
        raise err(row["line"], row["token"], Said("unknown weapon; known: {known}, or a natural attack ({natural}); "
                                                  "other weapons go in a YAML weapons: mapping",
                                                  known=", ".join(sorted(shipped)), natural=", ".join(sorted(NATURAL))))
    return name, {"damage": row["damage"], "kind": "natural", "reach": nat[0], "hp": row["hp"] or 0}, "natural"


def weapons_to_fields(out: dict[str, Any], last: int, err: Any) -> None:
    """Turn the parsed weapon rows into ``weapon``, ``skill``, ``offhand``, ``unarmed``, ``missile`` ... fields."""
    rows = out.pop("_weapons", [])
    if not rows:
        raise err(last, "Weapons", Said("no weapon table; give at least one row such as 'Bite 50% 1D8'"))
    own: dict[str, dict[str, Any]] = {}
    main: dict[str, Any] | None = None
    for row in rows:
        name, fields, kind = _resolve(row, err)
        if fields is not None:
            own[name] = fields
        if kind == "missile":
            if "missile" in out:
                raise err(row["line"], row["token"], Said("one missile weapon is played; give the main one"))
            if not row["ammo"]:
                raise err(row["line"], row["token"], Said("a missile weapon needs its ammunition, e.g. 'Short bow "
                                                          "70% 1D8 x12'"))
            out.update(missile=name, missile_skill=row["skill"], ammo=row["ammo"])
        elif kind == "shield" or (main is not None and kind in ("one_handed",) and "offhand" not in out
                                  and main["kind"] == "one_handed"):
            if "offhand" in out:
                raise err(row["line"], row["token"], Said("one off-hand item is played (a shield or a second "
                                                          "weapon)"))
            out["offhand"] = name
        elif kind == "unarmed" and main is not None:
            out.update(unarmed=name, unarmed_skill=row["skill"])
        elif main is None:
            main = {"name": name, "kind": kind, "row": row}
            out.update(weapon=name, skill=row["skill"])
        else:
            out.setdefault("other_weapons", []).append({"name": name, "skill": row["skill"], "damage": row["damage"]})
    if main is None:
        raise err(rows[0]["line"], rows[0]["token"], Said("no melee weapon; the engine needs one to strike with"))
    if own:
        out["weapons"] = own
    if main["kind"] in ("natural", "unarmed") and "unarmed" not in out:
        out["unarmed"] = main["name"]
    loc = natural_location(main["name"], out.get("body", "humanoid")) if main["kind"] == "natural" else None
    default = "head" if out.get("body") == "quadruped" else "right_arm"
    if loc is not None and loc != default:
        out["weapon_location"] = loc
    if "style" not in out:
        off = out.get("offhand")
        off_kind = (own[off]["kind"] if off in own else load_weapons()[off].kind) if off else ""
        out["style"] = ("natural" if main["kind"] == "natural" else "unarmed" if main["kind"] == "unarmed"
                        else "weapon_and_shield" if off_kind == "shield" else "two_weapons" if off
                        else "two_handed" if main["kind"] == "two_handed" else "one_handed")
