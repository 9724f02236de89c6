"""Stat lines as template fields, and the referee's own bestiary files.

A stat line (:mod:`.statline`) becomes the monster fields of ``bestiary.yaml`` (ac, hd, damage, movement,
morale, thac0, save_as or saves, weapon, weapon_bonus) here, and only when the engine can play it: one
attack a round, no attack effect unless marked as flavour (``~paralysis``). Otherwise the error says what
is not modelled yet, naming the file, the entry and the token.

A user bestiary is a YAML mapping ``name -> stat line`` or ``name -> {stat_line?, template fields...}``;
the files named by ``NPC_TACTICS_BESTIARY`` (``os.pathsep``-separated; ``--bestiary FILE`` adds to it) are
read once per process through the package's safe reader, and never inside a request that may not name
files (:func:`npc_tactics.configs.files.paths_allowed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.configs.bestiaries import ENV, bestiary_paths, read_bestiary, user_entries
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.ose.rules import statline as S
from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.monster_abilities import GAZE_SAVES
from npc_tactics.systems.ose.rules.statline_fields import at_token
from npc_tactics.systems.ose.rules.statline_print import format_attacks

__all__ = ["ENV", "expand", "normalise_fields", "read_entries", "stat_fields", "user_templates"]

GAZE_FORMS = W.SAVE_FORMS

SYSTEM = "ose"
#: Template fields that may be written in the stat line's notation (``ac: "6 [13]"``), and their label.
NOTATION_FIELDS = {"ac": "AC", "thac0": "THAC0", "hd": "HD", "movement": "MV", "saves": "SV", "attacks": "Att"}
#: the fields an ``attacks:`` value replaces (a template's routine, weapon and damage)
ATTACK_FIELDS = ("weapon", "weapon_bonus", "attack_form", "routine", "damage")


def _error(file: str, where: str, exc: S.StatLineError, field: bool = False) -> ConfigError:
    """A parse error as a ConfigError; ``field``: the path names the field, so drop the stat line's label."""
    return ConfigError(file, where, at_token("", exc.token, exc.detail) if field else exc.message)


def attack_fields(attacks: tuple[S.Attack, ...], file: str, where: str, label: str = "Att") -> dict[str, Any]:
    """damage, weapon and weapon_bonus of the routine's first attack, and ``routine`` (the whole routine in the
    stat line's notation) when it is more than one plain attack; an error for what the engine cannot play
    (``label: 'routine': what``, no label where the path names the field)."""
    routine = format_attacks(attacks)

    def refused(what: str) -> ConfigError:
        return ConfigError(file, where, at_token(label, routine, what))

    gazes = [a for a in attacks if a.form in GAZE_FORMS]
    for g in gazes:
        if g.count != 1 or (g.form == "gaze" and (len(g.effects) != 1 or g.effects[0] not in GAZE_SAVES)):
            raise refused(Said("a gaze is played as '1 × gaze (petrification)', '(paralysis)' or '(charm)', a song "
                               "as '1 × song' (charm)"))
    attacks = tuple(a for a in attacks if a.form not in GAZE_FORMS)
    if not attacks:
        raise refused(Said("a gaze alone: give the creature's attacks too"))
    for a in attacks:
        if a.form in W.SPECIAL_FORMS:
            raise refused(Said("{form} attacks are not modelled yet", form=repr(a.form)))
        if a.form in S.missile_forms():
            raise refused(Said("a missile weapon as the attack is not supported; write 1 × weapon ({damage}) and "
                               "give missile: {weapon}", damage=a.damage or "1d6", weapon=S.weapon_forms()[a.form]))
        for effect in a.effects:
            if effect not in W.MODELLED_EFFECTS:
                raise refused(Said("{effect} is not modelled yet; write {mark}{effect} to play the attack without it",
                                   effect=effect, mark=W.FLAVOUR))
        if a.damage is None and not a.effects and not a.flavour:
            raise refused(Said("{form} does no damage and carries no effect the engine plays", form=repr(a.form)))
    carried = [a for a in attacks if a.form == "weapon" or a.form in S.weapon_forms()]
    if len({a.form for a in carried}) > 1:
        raise refused(Said("attacks with two different weapons are not modelled; the engine gives a combatant one "
                           "melee weapon"))
    a = attacks[0]
    out: dict[str, Any] = {"damage": next((x.damage for x in attacks if x.damage), "0")}
    if a.form in S.weapon_forms():
        out["weapon"] = S.weapon_forms()[a.form]
    elif a.form != "weapon":
        out["attack_form"] = a.form
    if a.weapon_bonus is not None:
        out["weapon_bonus"] = a.weapon_bonus
    if len(attacks) > 1 or a.count > 1 or a.effects or a.damage is None or a.flavour:
        out["routine"] = format_attacks(tuple(x for x in attacks))
    if gazes:  # a song charms whoever hears it: played as a charming gaze on the enemy it attacks
        effect = gazes[0].effects[0] if gazes[0].effects else "charm"
        out["gaze"] = {"effect": effect, "save": GAZE_SAVES[effect]}
    return out


def _save_as(code: str) -> str:
    """The bracket code as a template's ``save_as``: ``2`` -> ``F2`` (OSE's monster rows), ``MU1`` -> ``M1``."""
    c = code.replace("MU", "M")
    return f"F{c}" if c.isascii() and c.isdigit() else c


def stat_fields(stats: S.MonsterStats, file: str, where: str) -> dict[str, Any]:
    """The template fields of a stat line (what ``bestiary.yaml`` writes); thac0 only when it differs from the
    table by Hit Dice, so that a changed ``hd`` still moves it."""
    fields: dict[str, Any] = {
        "ac": stats.ac,
        "hd": "1/2" if stats.half_hd else stats.hd_text,
        "movement": stats.base_movement,
        "morale": stats.morale,
        **attack_fields(stats.attacks, file, where),
    }
    if stats.fly is not None:
        fields["fly"] = stats.fly
    if stats.alignment:
        fields["alignment"] = stats.alignment
    if stats.thac0 != T.monster_thac0(stats.hd, stats.hd_plus):
        fields["thac0"] = stats.thac0
    if stats.save_as is not None and S.saves_of(stats.save_as) == stats.saves:
        fields["save_as"] = _save_as(stats.save_as)
    else:
        fields["saves"] = stats.saves
    return fields


def normalise_fields(raw: Mapping[str, Any], file: str, path: str) -> dict[str, Any]:
    """Monster fields written in the stat line's notation as the numbers the template reads: ``ac: "6 [13]"``
    -> 6, ``movement: "90' (30')"`` -> 90, ``hd: "2* (9hp)"`` -> ``"2"``, ``saves: "D12 W13 P14 B15 S16"`` or
    ``[12, 13, 14, 15, 16]`` or ``F2`` -> five numbers, ``attacks: "1 × claw (1d4)"`` -> damage, weapon and
    weapon_bonus (replacing the template's). Plain numbers pass unchanged."""
    out = dict(raw)
    for key, label in NOTATION_FIELDS.items():
        value = out.get(key)
        if key == "saves" and isinstance(value, list):
            seq = V.sequence(value, file, V.join(path, key), 5, 5, "saves (D W P B S)")
            out[key] = tuple(V.integer(x, file, V.join(path, key, i), 1, 20) for i, x in enumerate(seq))
            continue
        if not isinstance(value, str):
            if key in ("saves", "attacks") and key in out:
                raise ConfigError(file, V.join(path, key), Said("expected a stat line {label} value such as "
                                                                "{example}, got {value}", label=label,
                                                                example=repr(W.EXAMPLES[label].split(" ", 1)[1]),
                                                                value=shown(value)))
            continue
        try:
            read = S.read_field(label, value)
        except S.StatLineError as exc:
            raise _error(file, V.join(path, key), exc, field=True) from None
        if key == "hd":
            hd, plus, half, _stars, _hp = read
            out[key] = "1/2" if half else (f"{hd}{plus:+d}" if plus else str(hd))
        elif key == "movement":
            out[key] = next((feet for mode, feet in read if not mode), read[0][1])
        elif key == "saves":
            out[key] = read[0]
        elif key == "attacks":
            for k in ATTACK_FIELDS:
                if read[0].form != "weapon" or k != "weapon":
                    out.pop(k, None)
            out.update(attack_fields(read, file, V.join(path, key), label=""))
            del out[key]
        else:
            out[key] = read
    return out


def _same(key: str, given: Any, derived: Any) -> bool:
    if key == "hd":
        return bool(S.read_field("HD", str(given))[:3] == S.read_field("HD", str(derived))[:3])
    if key == "damage":
        return isinstance(given, str) and S.canonical_dice(given) == derived
    return bool(given == derived)


def expand(raw: Mapping[str, Any], file: str, name: str) -> dict[str, Any]:
    """``raw`` with the fields its ``stat_line`` gives added; a field given both ways must agree (the shipped
    bestiary writes both: the stat line as printed, the fields the engine reads)."""
    out = dict(raw)
    if "stat_line" not in raw:
        return out
    line = V.string(raw["stat_line"], file, V.join(name, "stat_line"), non_empty=True)
    try:
        stats = S.parse_stat_line(line)
    except S.StatLineError as exc:
        raise _error(file, name, exc) from None
    given = normalise_fields({k: v for k, v in raw.items() if k in NOTATION_FIELDS}, file, name)
    fields = stat_fields(stats, file, name)
    carried = any(a.form == "weapon" or a.form in S.weapon_forms() for a in stats.attacks)
    if "attack_form" in fields and "weapon" in raw and not carried:
        raise ConfigError(file, V.join(name, "weapon"), Said("the stat line's attack is a {form}, which carries no "
                                                             "weapon; write 1 × weapon (...) to carry one",
                                                             form=fields["attack_form"]))
    if "save_as" in raw or "saves" in raw:  # compare the rows, however each side writes them
        key = "saves" if "saves" in raw else "save_as"
        row = given["saves"] if key == "saves" else S.saves_of(str(raw["save_as"]))
        if row != stats.saves:
            raise ConfigError(file, V.join(name, key), Said("{given} disagrees with the stat line's saves ({saves})",
                                                            given=shown(raw[key]), saves=shown(format_saves(stats))))
        fields = {k: v for k, v in fields.items() if k not in ("save_as", "saves")}
    for key, value in fields.items():
        if key not in raw:
            out[key] = value
            continue
        try:
            same = _same(key, given.get(key, raw[key]), value)
        except S.StatLineError:
            same = False
        if not same:
            raise ConfigError(file, V.join(name, key), Said("{given} disagrees with the stat line ({value})",
                                                            given=shown(raw[key]), value=shown(value)))
    return out


def format_saves(stats: S.MonsterStats) -> str:
    d, w, p, b, sp = stats.saves
    return f"D{d} W{w} P{p} B{b} S{sp}" + (f" ({stats.save_as})" if stats.save_as else "")


def read_entries(path: str) -> dict[str, dict[str, Any]]:
    """The entries of one user bestiary file, each as raw template fields (a string is its ``stat_line``).
    A file for another system (``system: runequest``) is an error here: it has no OSE entries."""
    book = read_bestiary(path)
    if not book.belongs_to(SYSTEM, untagged=True):
        raise ConfigError(path, "system", Said("is {system}: this file is not an OSE bestiary",
                                               system=repr(book.system)))
    return {name: _fields_of(entry) for name, entry in book.entries.items()}


def _fields_of(entry: str | dict[str, Any]) -> dict[str, Any]:
    return {"stat_line": entry} if isinstance(entry, str) else dict(entry)


def user_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, raw fields)}`` of every entry of the user bestiaries (files with ``system: ose`` or no
    ``system:``); empty where files may not be read. The mapping is shared (cached): copy before changing it."""
    return _expanded(bestiary_paths()) if user_entries(SYSTEM, untagged=True) else {}


@lru_cache(maxsize=8)
def _expanded(paths: tuple[str, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Keyed by the list of files, as :func:`~npc_tactics.configs.bestiaries.user_entries` is."""
    return {name: (path, expand(_fields_of(entry), path, name))
            for name, (path, entry) in user_entries(SYSTEM, untagged=True).items()}
