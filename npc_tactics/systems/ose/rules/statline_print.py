"""The canonical OSE stat line of a :class:`~.statline.MonsterStats`: the books' field order and spelling
(``×``, straight quotes, ``AC 6 [13]``, ``THAC0 18 [+1]``, ``MV 90' (30')``), so that
``parse_stat_line(format_stat_line(s)) == s`` for every ``s`` the parser returns."""

from __future__ import annotations

from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.statline import Attack, MonsterStats
from npc_tactics.systems.ose.rules.statline_words import FLAVOUR

__all__ = ["format_attack", "format_attacks", "format_bonus", "format_stat_line"]


def format_bonus(n: int) -> str:
    """The books' attack bonus: ``[0]``, ``[+1]``, ``[-1]``."""
    return f"{n:+d}" if n else "0"


def format_attack(a: Attack) -> str:
    """``2 × claw (1d3 + paralysis)``, ``1 × weapon (2d4 or by weapon + 1)``, ``1 × gaze (petrification)``."""
    terms = ([a.damage] if a.damage else []) + list(a.effects) + [FLAVOUR + f for f in a.flavour]
    inner = " + ".join(terms)
    if a.weapon_bonus is not None:
        inner += " or by weapon" + (f" {'+' if a.weapon_bonus > 0 else '-'} {abs(a.weapon_bonus)}"
                                    if a.weapon_bonus else "")
    return f"{a.count} × {a.form}" + (f" ({inner})" if inner else "")


def format_attacks(attacks: tuple[Attack, ...]) -> str:
    return ", ".join(format_attack(a) for a in attacks)


def _note(note: str) -> str:
    return f" ({note})" if note else ""


def format_stat_line(s: MonsterStats) -> str:
    """The one-line stat block, fields in the books' order; optional fields only when the line gave them."""
    mv = " / ".join(f"{feet}' ({feet // T.ENCOUNTER_FRACTION}')" + (f" {mode}" if mode else "")
                    for mode, feet in s.movement)
    d, w, p, b, sp = s.saves
    parts = [
        f"AC {s.ac} [{T.ac_to_aac(s.ac)}]",
        f"HD {s.hd_text}{'*' * s.asterisks}" + (f" ({s.hp}hp)" if s.hp is not None else ""),
        f"Att {format_attacks(s.attacks)}",
        f"THAC0 {s.thac0} [{format_bonus(T.thac0_to_bonus(s.thac0))}]",
        f"MV {mv}",
        f"SV D{d} W{w} P{p} B{b} S{sp}" + (f" ({s.save_as})" if s.save_as else ""),
        f"ML {s.morale}{_note(s.morale_note)}",
    ]
    if s.alignment is not None:
        parts.append(f"AL {s.alignment}")
    if s.xp is not None:
        parts.append(f"XP {s.xp:,}{_note(s.xp_note)}")
    if s.number_appearing is not None:
        parts.append(f"NA {s.number_appearing}")
    if s.treasure is not None:
        parts.append(f"TT {s.treasure}")
    return ", ".join(parts)
