"""The OSE stat line: worked examples read field by field, every shipped bestiary entry round-trips
(parse -> print -> parse) and agrees with its structured fields, and a single-attack line gives the same
Profile as the hand-written entry."""

from __future__ import annotations

import dataclasses

import pytest

from npc_tactics.systems.ose.rules import bestiary_files as B
from npc_tactics.systems.ose.rules.statline import Attack, parse_stat_line
from npc_tactics.systems.ose.rules.statline_print import format_stat_line
from npc_tactics.systems.ose.rules.templates import make_template, raw_templates, template_from_raw

GHOUL = ("AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), THAC0 18 [+1], "
         "MV 90' (30'), SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25")
#: The OSE SRD "Goblin" page as pasted: long labels, one per line, curly quotes and en dashes.
SRD_GOBLIN = """Armour Class 6 [13]
Hit Dice 1–1 (3hp)
Attacks 1 × weapon (1d6 or by weapon)
THAC0 19 [0]
Movement 60’ (20’)
Saving Throws D14 W15 P16 B17 S18 (NH)
Morale 7 (9 with king)
Alignment Chaotic
XP 5 (bodyguard: 20, king: 35)
Number Appearing 2d4 (6d10)
Treasure Type R (C)"""
SHIPPED = sorted(name for name, (_f, raw) in raw_templates().items() if "stat_line" in raw)


def test_the_published_ghoul_reads_field_by_field() -> None:
    s = parse_stat_line(GHOUL)
    assert (s.ac, s.hd, s.hd_plus, s.half_hd, s.asterisks, s.hp) == (6, 2, 0, False, 1, 9)
    assert s.attacks == (Attack(2, "claw", "1d3", ("paralysis",)), Attack(1, "bite", "1d3", ("paralysis",)))
    assert (s.thac0, s.movement, s.base_movement, s.fly) == (18, (("", 90),), 90, None)
    assert (s.saves, s.save_as, s.morale, s.alignment, s.xp) == ((12, 13, 14, 15, 16), "2", 9, "Chaotic", 25)
    assert format_stat_line(s) == GHOUL  # already canonical


def test_the_srd_page_layout_reads_like_the_one_line_form() -> None:
    s = parse_stat_line(SRD_GOBLIN)
    assert (s.ac, s.hd, s.hd_plus, s.hp, s.morale, s.morale_note) == (6, 1, -1, 3, 7, "9 with king")
    assert s.attacks == (Attack(1, "weapon", "1d6", weapon_bonus=0),)
    assert (s.xp, s.xp_note, s.number_appearing, s.treasure) == (5, "bodyguard: 20, king: 35", "2d4 (6d10)", "R (C)")
    assert parse_stat_line(format_stat_line(s)) == s


@pytest.mark.parametrize(("line", "field", "value"), [
    ("AC 6, HD 1, Att 1 x bite (1d4), MV 90', ML 8", "ac", 6),  # descending only, x for ×
    ("AC [13], HD 1, Att 1 × bite (1d4), MV 90', ML 8", "ac", 6),  # ascending only
    ("AC -2 [21], HD 1, Att 1 × bite (1d4), MV 90', ML 8", "ac", -2),
    ("AC 6, HD 1/2, Att 1 × bite (1d4), MV 90', ML 8", "half_hd", True),
    ("AC 6, HD ½ (2hp), Att 1 × bite (1d4), MV 90', ML 8", "hp", 2),
    ("AC 6, HD 1-1, Att 1 × bite (1d4), MV 90', ML 8", "hd_plus", -1),
    ("AC 6, HD 4+1, Att 1 × bite (1d4), MV 90', ML 8", "thac0", 15),  # THAC0 from the table by HD
    ("AC 6, HD 3**, Att 1 × bite (1d4), MV 90', ML 8", "asterisks", 2),
    ("AC 6, HD 3, Att 1 × bite (1d4), MV 90', ML 8", "saves", (12, 13, 14, 15, 16)),  # SV by HD: (3)
    ("AC 6, HD 1-1, Att 1 × bite (1d4), MV 90', ML 8", "save_as", "NH"),  # under 1 HD: normal human
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 120’ (40’) / 360’ (120’) flying, ML 8", "movement",
     (("", 120), ("flying", 360))),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 60' (20') / 180' (60') swimming, ML 8", "swim", 180),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 30' (10') / 180' (60') flying, ML 8", "fly", 180),
    ("AC 6, HD 1, Att 1 × weapon (1d8), MV 90', ML 8", "attacks", (Attack(1, "weapon", "1d8"),)),
    ("AC 6, HD 1, Att 1 × two-handed sword (1d10), MV 90', ML 8", "attacks", (Attack(1, "two handed sword", "1d10"),)),
    ("AC 6, HD 1, Att 1 × weapon (2d4 or by weapon + 1), MV 90', ML 8", "attacks",
     (Attack(1, "weapon", "2d4", weapon_bonus=1),)),
    ("AC 6, HD 1, Att 1 × weapon (1d4 or by weapon – 1), MV 90', ML 8", "attacks",
     (Attack(1, "weapon", "1d4", weapon_bonus=-1),)),
    ("AC 6, HD 1, Att 1 × touch (energy drain), MV 90', ML 8", "attacks",
     (Attack(1, "touch", None, ("energy drain",)),)),
    ("AC 6, HD 1, Att 1 × bite (1d4 + ~rot grubs), MV 90', ML 8", "attacks",
     (Attack(1, "bite", "1d4", (), ("rot grubs",)),)),
    ("AC 6, HD 1, Att 2 × claws (1D4 + 1), MV 90', ML 8", "attacks", (Attack(2, "claw", "1d4+1"),)),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 90', ML 6 (8 with chieftain)", "morale_note", "8 with chieftain"),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 90', ML 8, SV D10 W11 P12 B13 S14", "save_as", None),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 90', ML 8, SV F4", "saves", (10, 11, 12, 13, 14)),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 90', ML 8, AL lawful or neutral", "alignment", "Lawful or Neutral"),
    ("AC 6, HD 1, Att 1 × bite (1d4), MV 90', ML 8, XP 1,000", "xp", 1000),
    ("AC 6; HD 1; Att 1 × bite (1d4); MV 90'; ML 8", "hd", 1),  # semicolons
])
def test_worked_examples(line: str, field: str, value: object) -> None:
    s = parse_stat_line(line)
    assert getattr(s, field) == value
    assert parse_stat_line(format_stat_line(s)) == s


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_stat_line_round_trips_and_is_canonical(name: str) -> None:
    line = raw_templates()[name][1]["stat_line"]
    stats = parse_stat_line(line)
    assert format_stat_line(stats) == line
    assert parse_stat_line(format_stat_line(stats)) == stats


def test_every_shipped_monster_has_a_stat_line() -> None:
    monsters = [n for n, (_f, raw) in raw_templates().items() if "class" not in raw]
    assert len(monsters) >= 60 and sorted(monsters) == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_the_stat_line_alone_gives_the_shipped_profile(name: str) -> None:
    """What the line cannot say (the carried weapon, humanoid, undead, immunities, daylight, surprise, the
    missile) comes from the entry; everything else from the line; the Profile is the shipped one."""
    file, raw = raw_templates()[name]
    numbers = ("ac", "hd", "damage", "weapon_bonus", "movement", "morale", "save_as", "thac0")
    rest = {k: v for k, v in raw.items() if k not in numbers}
    rebuilt = template_from_raw(name, B.expand(rest, file, name), file)
    assert rebuilt == make_template(name)


def test_a_field_that_disagrees_with_the_stat_line_names_the_entry_and_field() -> None:
    file, raw = raw_templates()["gnoll"]
    with pytest.raises(Exception, match=r"gnoll\.ac: 6 disagrees with the stat line \(5\)"):
        B.expand({**raw, "ac": 6}, file, "gnoll")
    with pytest.raises(Exception, match=r"gnoll\.save_as: 'F4' disagrees with the stat line's saves"):
        B.expand({**raw, "save_as": "F4"}, file, "gnoll")


def test_a_stat_line_monster_plays_like_the_shipped_one() -> None:
    """A user entry written only as the gnoll's stat line (plus its axe and being humanoid) is the gnoll."""
    gnoll = make_template("gnoll")
    line = raw_templates()["gnoll"][1]["stat_line"]
    mine = template_from_raw("gnoll", B.expand({"stat_line": line, "weapon": "battle_axe", "humanoid": True},
                                               "mine.yaml", "gnoll"), "mine.yaml")
    assert mine == gnoll
    assert dataclasses.replace(mine.profile) == gnoll.profile
