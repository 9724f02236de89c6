"""The character sheet as pasted text, in English or French, read into the bestiary's fields and printed back.

The source text has no printed sheet; its fields are the scores it names (INITIATIVE L5, COORDINATION L14,
DÉFENSE L24, FORCE L25), skill pools (bagarre L22, Mécartefact léger L44), weapons with their damage and
range bands (L37, L46-53), armour (cotte de mailles, casque en fer L68) and HP per hit location (L68,
L74-81). One line each (labels: content/sheet_labels.yaml)::

    Haru'Rak'Zall
    INITIATIVE 8, COORDINATION 5, FORCE 2, DÉFENSE 3
    Compétences : bagarre 5, épée 6, mécartefact léger 7
    Armes : crache-foudre léger, épée, morsure (bagarre 1D6, naturelle)
    Armure : cotte de mailles, cuir bouilli (torse, bassin, 2 points)
    Localisations : Tête 4, Torse 10, Bassin 7, Bras gauche 6, Bras droit 6, Jambe gauche 7, Jambe droite 7

The first line may be the name; ``Body plan: quadruped`` renames the locations (rules/sheet_labels.py). A
weapon or armour not in equipment.yaml is written inline: ``NAME (skill dice[, s/m/l m][, flags])`` or
``NAME (locations..., N points[, metal])``. ``|`` also ends a line (a one-line YAML string); an indented
line, or one after a trailing comma, continues the line before (a wrapped line of a book). A mistake is a
:class:`SheetError` naming the line and the token, its ``message`` a :class:`~npc_tactics.i18n.Said` sentence
(English as a str, said in the GM's language where it is shown, the sheet's labels in French as the sheet has them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from npc_tactics.i18n import Said
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.actions import MAX_WEAPONS
from npc_tactics.systems.dicepool.rules.bestiary import (
    DEFAULT_PLAN,
    HUMAN_LOCATIONS,
    INT_FIELDS,
    MAX_ARMOUR,
    MAX_LOCATION_HP,
    REQUIRED_STATS,
    load_equipment,
)
from npc_tactics.systems.dicepool.rules.sheet_labels import LANGS, labels, norm, slug, words

__all__ = ["MAX_SHEET_CHARS", "SheetError", "canonical", "format_sheet", "parse_sheet"]

MAX_SHEET_CHARS = 4000
_ITEM = re.compile(r"^(.*?)\s*[:=]?\s*([+-]?[0-9]+)$")
_DICE = re.compile(r"^([0-9]{0,3}[dD][0-9]{1,3}(?:\s*[+-]\s*[0-9]{1,3})?|[0-9]{1,3})$")
_RANGES = re.compile(r"^([0-9]+)\s*/\s*([0-9]+)\s*/\s*([0-9]+)\s*m?$")
_NO_ITEMS = {"none", "aucune", "aucun", "-", "—"}


def _at(line: int, token: str | None, detail: str) -> str:
    """``line N: 'token': detail`` (line 0 or no token left out) as one :class:`~npc_tactics.i18n.Said` sentence."""
    if token is None:
        return Said("line {line}: {what}", line=line, what=detail) if line else detail
    if line:
        return Said("line {line}: {token}: {what}", line=line, token=repr(token), what=detail)
    return Said("{token}: {what}", token=repr(token), what=detail)


class SheetError(ValueError):
    """A mistake in a pasted sheet: ``line 3: 'Forse 2': unknown attribute ...`` (line 0: the sheet as a whole);
    ``message`` is that line as a :class:`~npc_tactics.i18n.Said` (``str(exc)`` its English)."""

    def __init__(self, line: int, token: str | None, detail: str) -> None:
        self.line, self.token, self.detail = line, token, detail
        self.message: str = _at(line, token, detail)
        super().__init__(str(self.message))


def _split(text: str, line: int) -> list[str]:
    """Items separated by ',' or ';' outside parentheses."""
    items, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise SheetError(line, text.strip(), Said("a ')' without its '('"))
        if ch in ",;" and depth == 0:
            items.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if depth:
        raise SheetError(line, text.strip(), Said("a '(' without its ')'"))
    items.append(cur.strip())
    return [i for i in items if i]


def _int(token: str, value: str, line: int, lo: int, hi: int, what: str) -> int:
    n = int(value)
    if not lo <= n <= hi:
        raise SheetError(line, token, Said("{what} out of range: expected {low}..{high}", what=what, low=lo, high=hi))
    return n


def _attributes(text: str, line: int, out: dict[str, Any], where: dict[str, int]) -> None:
    L = labels()
    bounds = {k: (lo, hi) for k, lo, hi, _ in INT_FIELDS}
    for item in _split(text, line):
        m = _ITEM.match(item)
        key = L.attributes.find.get(norm(m[1])) if m else None
        if m is None or key is None:
            names = ", ".join(f"{p[0]} / {p[1]}" for p in L.attributes.printed.values())
            raise SheetError(line, item, Said("unknown attribute; expected LABEL NUMBER with one of {names}",
                                              names=names))
        if key in out:
            raise SheetError(line, item, Said("{label} given twice (also line {other})",
                                              label=L.attributes.words_of([key]), other=where[key]))
        out[key] = _int(item, m[2], line, *bounds[key], what=L.attributes.words_of([key]))
        where[key] = line


def _skills(text: str, line: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in _split(text, line):
        m = _ITEM.match(item)
        if m is None or not m[1]:
            raise SheetError(line, item, Said("expected a skill and its pool, e.g. 'bagarre 5' or 'sword 6'"))
        key = labels().skills.find.get(norm(m[1])) or slug(m[1])
        if not key:
            raise SheetError(line, item, Said("a skill name is letters or digits"))
        if key in out:
            raise SheetError(line, item, Said("skill {skill} given twice", skill=repr(key)))
        out[key] = _int(item, m[2], line, 0, T.MAX_POOL, Said("a pool of dice ({skill})",
                                                             skill=labels().skills.words_of([key], en=key)))
    return out


def _inline(item: str, line: int) -> tuple[str, str] | None:
    m = re.match(r"^([^()]*?)\s*\((.*)\)$", item)
    if m is None:
        return None
    name = m[1].strip()
    if not name:
        raise SheetError(line, item, Said("an inline item needs a name before its '('"))
    return name, m[2]


def _weapon(item: str, line: int) -> str | dict[str, Any]:
    L = labels()
    found = L.weapons.find.get(norm(item))
    if found is not None and found in load_equipment()[0]:
        return found
    inline = _inline(item, line)
    if inline is None:
        raise SheetError(line, item, Said("unknown weapon; expected a shipped weapon (e.g. sword, épée, crache-foudre "
                                          "léger) or NAME (skill dice[, short/medium/long m][, flags])"))
    name, spec = inline
    tokens = _split(spec, line)
    if not tokens:
        raise SheetError(line, item, Said("expected (skill dice, ...) inside the parentheses"))
    m = re.match(r"^(.+?)\s+(\S+(?:\s*[+-]\s*[0-9]+)?)$", tokens[0])
    if m is None or not _DICE.match(m[2]):
        raise SheetError(line, tokens[0], Said("expected the weapon's skill and damage, e.g. 'bagarre 1D6' or "
                                               "'bow 1d6+1'"))
    w: dict[str, Any] = {"name": name, "kind": "melee",
                         "skill": L.skills.find.get(norm(m[1])) or slug(m[1]),
                         "damage": re.sub(r"\s+", "", m[2]).lower()}
    for tok in tokens[1:]:
        r = _RANGES.match(tok)
        flag = L.flags.find.get(norm(tok))
        am = re.match(r"^([^0-9]+?)\s*(-?[0-9]+)$", tok)
        if r:
            bands = [int(x) for x in r.groups()]
            if not 0 < bands[0] < bands[1] < bands[2] <= 5000:
                raise SheetError(line, tok, Said("range bands must increase: short < medium < long, 1..5000 m"))
            w["kind"], w["ranges"] = "ranged", bands
        elif flag in ("electric", "huge", "thrown", "reload", "natural"):
            w[flag] = True
        elif am and L.flags.find.get(norm(am[1])) == "ammo":
            w["ammo"] = _int(tok, am[2], line, -1, 1000, Said("ammunition"))
        else:
            raise SheetError(line, tok, Said("expected short/medium/long ranges (10/20/40 m), ammo N or a flag: "
                                             "electric, huge, thrown, reload, natural"))
    if w["kind"] == "melee" and any(k in w for k in ("thrown", "reload", "ammo")):
        raise SheetError(line, item, Said("thrown, reload and ammo need range bands (short/medium/long m)"))
    return w


def _location(tok: str, plan: str, line: int) -> str:
    L = labels()
    found = L.plan_locations[plan].find.get(norm(tok)) or L.plan_locations[DEFAULT_PLAN].find.get(norm(tok))
    if found is None:
        raise SheetError(line, tok, Said("unknown location of a {plan} body; expected one of {names}",
                                         plan=L.plans.words_of([plan], en=plan),
                                         names=L.plan_locations[plan].words_of(list(T.LOCATIONS))))
    return found


def _armour(item: str, plan: str, line: int) -> str | dict[str, Any]:
    L = labels()
    found = L.armour.find.get(norm(item))
    if found is not None and found in load_equipment()[1]:
        return found
    inline = _inline(item, line)
    if inline is None:
        raise SheetError(line, item, Said("unknown armour; expected a shipped piece (e.g. chain mail, cotte de "
                                          "mailles) or NAME (locations..., N points[, metal])"))
    a: dict[str, Any] = {"name": inline[0], "covers": [], "points": 0}
    for tok in _split(inline[1], line):
        pm = re.match(r"^([0-9]+)\s*([^0-9]+)$", tok) or re.match(r"^([^0-9]+?)\s*([0-9]+)$", tok)
        if L.flags.find.get(norm(tok)) == "metal":
            a["metal"] = True
        elif pm and "points" in (L.flags.find.get(norm(pm[2])), L.flags.find.get(norm(pm[1]))):
            points = pm[1] if pm[1].isascii() and pm[1].isdigit() else pm[2]
            a["points"] = _int(tok, points, line, 0, 20, Said("armour points"))
        else:
            loc = _location(tok, plan, line)
            if loc in a["covers"]:
                raise SheetError(line, tok, Said("location given twice"))
            a["covers"].append(loc)
    if not a["covers"]:
        raise SheetError(line, item, Said("an armour piece covers at least one location"))
    return a


def _locations(text: str, plan: str, line: int) -> dict[str, int]:
    if norm(text) in ("human", "humain", "humaine"):
        return dict(HUMAN_LOCATIONS)
    out: dict[str, int] = {}
    for item in _split(text, line):
        m = _ITEM.match(item)
        if m is None:
            raise SheetError(line, item, Said("expected a location and its HP, e.g. 'Tête 4' or 'head 4'"))
        loc = _location(m[1], plan, line)
        if loc in out:
            raise SheetError(line, item, Said("location given twice"))
        out[loc] = _int(item, m[2], line, 1, MAX_LOCATION_HP, Said("location HP"))
    missing = [s for s in T.LOCATIONS if s not in out]
    if missing:
        raise SheetError(line, text.strip()[:60], Said("missing HP for {locations} (every location of the 2d6 table, "
                                                       "L74-81)",
                                                       locations=labels().plan_locations[plan].words_of(missing)))
    return {s: out[s] for s in T.LOCATIONS}


def _sections(text: str) -> tuple[str | None, dict[str, tuple[int, str]], dict[str, Any], dict[str, int]]:
    L = labels()
    name: str | None = None
    sections: dict[str, tuple[int, str]] = {}
    attrs: dict[str, Any] = {}
    where: dict[str, int] = {}
    numbered: list[tuple[int, str]] = []
    for n, row in enumerate(text.splitlines(), 1):
        for k, piece in enumerate(row.split("|")):
            # a wrapped line (indented, or after a trailing comma) continues the one before: its line number
            if k == 0 and numbered and numbered[-1][1] and (piece[:1].isspace() or numbered[-1][1][-1] in ",;"):
                if piece.strip():
                    numbered[-1] = (numbered[-1][0], f"{numbered[-1][1]} {piece.strip()}")
                continue
            numbered.append((n, piece.strip()))
    content = 0
    for n, row in numbered:
        if not row or row.startswith("#"):
            continue
        content += 1
        head, sep, rest = row.partition(":")
        key = L.lines.find.get(norm(head)) if sep else None
        if key is not None:
            if key in sections:
                raise SheetError(n, head.strip(), Said("given twice (also line {other})", other=sections[key][0]))
            sections[key] = (n, rest.strip())
            continue
        first = (_split(row, n) or [row])[0]
        m = _ITEM.match(first)
        if m and L.attributes.find.get(norm(m[1])) is not None:
            _attributes(row, n, attrs, where)
        elif content == 1 and name is None and "name" not in sections:
            name = row
        else:
            raise SheetError(n, first, Said("unknown line; expected attributes (Initiative 8, ...) or a label: "
                                            "Skills, Weapons, Armour, Locations, Body plan (Compétences, Armes, "
                                            "Armure, Localisations, Morphologie)"))
    if "name" in sections:
        name = sections.pop("name")[1] or None
    return name, sections, attrs, where


def parse_sheet(text: str) -> tuple[str | None, dict[str, Any]]:
    """``(name or None, fields)``: the fields as the bestiary writes them (see :func:`canonical`)."""
    if not isinstance(text, str) or not text.strip():
        raise SheetError(0, None, Said("expected the sheet's text (Initiative 8, Coordination 5, ...)"))
    if len(text) > MAX_SHEET_CHARS:
        raise SheetError(0, None, Said("a sheet is at most {most} characters, got {n}", most=MAX_SHEET_CHARS,
                                       n=len(text)))
    L = labels()
    name, sections, fields, _ = _sections(text)
    plan = DEFAULT_PLAN
    if "body_plan" in sections:
        n, value = sections["body_plan"]
        found = L.plans.find.get(norm(value))
        if found is None:
            plans = list(L.plans.printed)
            raise SheetError(n, value, Said("unknown body plan; expected one of {plans}",
                                            plans=L.plans.words_of(plans, en=", ".join(plans))))
        plan = found
        if plan != DEFAULT_PLAN:
            fields["body_plan"] = plan
    if "skills" in sections:
        fields["skills"] = _skills(sections["skills"][1], sections["skills"][0])
    for key, read, most in (("weapons", _weapon, MAX_WEAPONS), ("armour", None, MAX_ARMOUR)):
        if key not in sections:
            continue
        n, value = sections[key]
        items = [] if norm(value) in _NO_ITEMS else _split(value, n)
        if len(items) > most:
            raise SheetError(n, value[:60], Said("at most {most} weapons, got {n}", most=most, n=len(items))
                             if key == "weapons" else Said("at most {most} armour, got {n}", most=most, n=len(items)))
        fields[key] = [read(i, n) if read else _armour(i, plan, n) for i in items]
    if "locations" in sections:
        fields["locations"] = _locations(sections["locations"][1], plan, sections["locations"][0])
    missing = [k for k in REQUIRED_STATS if k not in fields]
    if missing:
        pairs = [(L.attributes if k in L.attributes.printed else L.lines).printed[k] for k in missing]
        raise SheetError(0, None, Said("missing {fields}", fields=words(", ".join(f"{en} ({fr})" for en, fr in pairs),
                                                                        ", ".join(f"{fr} ({en})" for en, fr in pairs))))
    return name, fields


def _item_text(item: Any, lang: str, plan: str) -> str:
    L = labels()
    if isinstance(item, str):
        return L.weapons.label(item, lang) if item in L.weapons.printed else L.armour.label(item, lang)
    if "covers" in item:
        parts = [L.plan_locations[plan].label(c, lang) for c in item["covers"]]
        if item.get("points"):
            parts.append(f"{item['points']} {L.flags.label('points', lang)}")
        if item.get("metal"):
            parts.append(L.flags.label("metal", lang))
        return f"{item['name']} ({', '.join(parts)})"
    parts = [f"{L.skills.label(item['skill'], lang)} {item['damage']}"]
    if item.get("ranges"):
        parts.append("/".join(str(r) for r in item["ranges"]) + " m")
    parts += [L.flags.label(f, lang) for f in ("electric", "huge", "thrown", "reload", "natural") if item.get(f)]
    if item.get("ammo", -1) != -1:
        parts.append(f"{L.flags.label('ammo', lang)} {item['ammo']}")
    return f"{item['name']} ({', '.join(parts)})"


def format_sheet(fields: Mapping[str, Any], name: str | None = None, lang: str = "en") -> str:
    """The sheet's text of ``fields`` (what :func:`parse_sheet` reads back to the same :func:`canonical`)."""
    if lang not in LANGS:
        raise ValueError(f"lang is one of {LANGS}, got {lang!r}")
    L = labels()
    c = canonical(fields)
    plan = c["body_plan"]
    i = LANGS.index(lang)
    colon = " : " if lang == "fr" else ": "
    keys = [k for k, _, _, default in INT_FIELDS if k in REQUIRED_STATS or c[k] != default]
    lines = [name] if name else []
    lines.append(", ".join(f"{L.attributes.printed[k][i]} {c[k]}" for k in keys))
    lines.append(L.lines.printed["skills"][i] + colon + ", ".join(
        f"{L.skills.label(s, lang)} {n}" for s, n in c["skills"].items()))
    for key in ("weapons", "armour"):
        if c[key]:
            lines.append(L.lines.printed[key][i] + colon + ", ".join(_item_text(x, lang, plan) for x in c[key]))
    if plan != DEFAULT_PLAN:
        lines.append(L.lines.printed["body_plan"][i] + colon + L.plans.label(plan, lang))
    lines.append(L.lines.printed["locations"][i] + colon + ", ".join(
        f"{L.plan_locations[plan].label(s, lang)} {c['locations'][s]}" for s in T.LOCATIONS))
    return "\n".join(lines)


def canonical(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The stat fields with every default filled in (speed, mount speed, no weapons, no armour, humanoid body)
    and inline items with their defaults, so that two ways of writing one creature compare equal."""
    out: dict[str, Any] = {k: fields.get(k, d) for k, _, _, d in INT_FIELDS}
    out["skills"] = dict(fields.get("skills", {}))
    out["weapons"] = [w if isinstance(w, str) else {
        "ammo": -1, "electric": False, "huge": False, "thrown": False, "reload": False, "natural": False,
        **{k: (list(v) if k == "ranges" else v) for k, v in w.items()
           if k != "description" and not (k == "ranges" and w.get("kind") == "melee")}}
        for w in fields.get("weapons", [])]
    out["armour"] = [a if isinstance(a, str) else {"metal": False, "points": 0, **{
        k: (list(v) if k == "covers" else v) for k, v in a.items() if k != "description"}}
        for a in fields.get("armour", [])]
    locs = HUMAN_LOCATIONS if fields.get("locations") == "human" else fields.get("locations")
    out["locations"] = dict(locs) if isinstance(locs, Mapping) else locs
    out["body_plan"] = fields.get("body_plan", DEFAULT_PLAN)
    return out
