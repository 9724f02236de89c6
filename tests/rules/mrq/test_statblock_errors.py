"""A corpus of malformed MRQ stat blocks: each gives one line naming the file, the entry, the line and the token."""

from __future__ import annotations

import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.bestiary import build_profile, load_weapons
from npc_tactics.systems.mrq.rules.statblock_files import expand

CHARS = "STR 12  CON 12  SIZ 12  INT 11  POW 10  DEX 13"
LOCS = """D20 Hit Location AP/HP
1-3 Right Leg 2/5
4-6 Left Leg 2/5
7-9 Abdomen 2/6
10-12 Chest 2/7
13-15 Right Arm 2/4
16-18 Left Arm 2/4
19-20 Head 2/5"""
WEAP = "Weapons\nBroadsword 60% 1D8"


def block(chars: str = CHARS, locs: str = LOCS, weap: str = WEAP, extra: str = "") -> str:
    return "\n".join(x for x in ("Guard", chars, locs, weap, extra) if x)


CORPUS = [
    (block(chars="STR 12 CON 12 SIZ 12 INT 11 POW 10"), "line 2", "DEX"),
    (block(chars="STR 12 CON 12 SIZ 12 INT 11 POW 10 DEX X3"), "line 2", "DEX X3"),
    (block(chars="STR 3D CON 12 SIZ 12 INT 11 POW 10 DEX 13"), "line 2", "D"),
    (block(chars="STR 12 CON 12 SIZ 12 INT 11 POW 10 DEX 13 LUCK 4"), "line 2", "LUCK"),
    (block(chars="STR 0 CON 12 SIZ 12 INT 11 POW 10 DEX 13"), "characteristics.str", "0"),
    (block(chars="STR 250 CON 12 SIZ 12 INT 11 POW 10 DEX 13"), "characteristics.str", "250"),
    (block(extra="Combat Actions two"), "line 13", "two"),
    (block(extra="Combat Actions 9"), "combat_actions", "9"),
    (block(extra="Strike Rank +40"), "line 13", "+40"),
    (block(extra="Strike Rank fast"), "line 13", "fast"),
    (block(extra="Damage Modifier +1X4"), "line 13", "+1X4"),
    (block(extra="Movement far"), "line 13", "far"),
    (block(locs=LOCS.replace("1-3 Right Leg 2/5", "1-3 Right Leg 2")), "line 4", "Right Leg 2"),
    (block(locs=LOCS.replace("Right Leg", "Tail")), "line 4", "tail"),
    (block(locs=LOCS.replace("19-20 Head 2/5\n", "").rsplit("\n", 1)[0]), "line 9", "seven locations"),
    (block(locs=LOCS.replace("4-6 Left Leg", "5-6 Left Leg")), "line 5", "without gaps"),
    (block(locs=LOCS.replace("19-20 Head 2/5", "19-21 Head 2/5")), "line 10", "without gaps"),
    (block(locs=LOCS.replace("Head 2/5", "Head 2/0")), "line 10", "at least 1"),
    (block(weap="Weapons\nBroadsword 60 1D8"), "line 12", "Broadsword 60 1D8"),
    (block(weap="Weapons\nBroadsword 60% 1Q8"), "line 12", "Broadsword 60% 1Q8"),
    (block(weap="Weapons\nLightsaber 60% 2D8"), "line 12", "Lightsaber"),
    (block(weap=""), "line 10", "Weapons"),
    (block(weap="Weapons\nShortbow 60% 1D8"), "line 12", "ammunition"),
    (block(weap="Weapons\nShortbow 60% 1D8 x6\nSling 40% 1D8 x6"), "line 13", "one missile weapon"),
    (block(weap="Weapons\nTarget shield 60% 1D6"), "line 12", "no melee weapon"),
    (block(weap="Weapons\nBroadsword 60% 1D8\nBuckler 60% 1D4\nTarget shield 60% 1D6"), "line 14", "one off-hand"),
    (block(extra="Skills: Swimming 40%"), "line 13", "Swimming 40%"),
    (block(extra="Skills: Athletics lots"), "line 13", "Athletics lots"),
    (block(extra="Traits: Breathes Fire"), "line 13", "Breathes Fire"),
    (block(extra="Style berserk"), "line 13", "berserk"),
    (block(extra="Mount a horse"), "line 13", "a horse"),
    (block(extra="Mount unicorn (STR 30, SIZ 30)"), "mount.template", "unicorn"),
    (block(extra="Player character maybe"), "line 13", "maybe"),
    (block(extra="Natural Armour thick"), "line 13", "thick"),
    (block(extra="Kind dragon"), "kind", "dragon"),
    (block(extra="Blorp 12"), "line 13", "Blorp"),
    (block(extra="Style weapon and shield"), "offhand", "weapon_and_shield needs an offhand"),
    ("x" * 9000, "line 1", "at most"),
]
#: odd digits a pasted PDF may carry (superscript, Arabic-Indic, full-width): refused at their token, never read
#: as a number (int() crashes on the first and silently reads the others)
ODD_DIGITS = ("\u00b2", "\u0663", "\uff13")
for _d in ODD_DIGITS:
    CORPUS += [
        (block(chars=CHARS.replace("STR 12", f"STR 1{_d}")), "line 2", f"'{_d}': expected characteristics"),
        (block(extra=f"Skills: Athletics 4{_d}%"), "line 13", f"'Athletics 4{_d}%': expected a skill"),
        (block(weap=f"Weapons\nBroadsword 6{_d}% 1D8"), "line 12", f"'Broadsword 6{_d}% 1D8': expected a weapon row"),
        (block(weap=f"Weapons\nBroadsword 60% 1D{_d}"), "line 12", f"'Broadsword 60% 1D{_d}': expected a weapon row"),
        (block(locs=LOCS.replace("Head 2/5", f"Head 2/{_d}")), "line 10", f"'19-20 Head 2/{_d}': expected a hit"),
        (block(extra=f"Combat Actions {_d}"), "line 13", f"'{_d}': expected a number of Combat Actions"),
        (block(extra=f"Damage Modifier +1D{_d}"), "line 13", f"'+1D{_d}': expected a damage modifier"),
        (block(extra=f"Mount warhorse (STR 2{_d}, SIZ 26)"), "line 13", f"'warhorse (STR 2{_d}, SIZ 26)'"),
    ]


@pytest.mark.parametrize(("text", "where", "token"), CORPUS)
def test_malformed_stat_blocks_give_one_line_naming_the_line_and_token(text: str, where: str, token: str) -> None:
    assert len(CORPUS) >= 30
    with pytest.raises(ConfigError) as exc:
        raw = expand(text, "my.yaml", "guard")
        build_profile("guard", raw, "my.yaml", "guard", load_weapons())
        from npc_tactics.systems.mrq.rules.bestiary import check_templates, shipped_templates

        check_templates({"guard": ("my.yaml", raw)}, {**shipped_templates(), "guard": ("my.yaml", raw)}, "")
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith("my.yaml: guard")
    assert where in msg and token.lower() in msg.lower(), msg


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_yaml_hit_location_face_with_odd_digits_is_refused_at_its_field(digit: str) -> None:
    from npc_tactics.systems.mrq.rules.bestiary import hit_locations

    faces = {"right_leg": "1-3", "left_leg": "4-6", "abdomen": "7-9", "chest": "10-12", "right_arm": "13-15",
             "left_arm": "16-18", "head": f"19-2{digit}"}
    with pytest.raises(ConfigError) as exc:
        hit_locations(faces, "my.yaml", "guard.hit_locations", "humanoid")
    assert str(exc.value) == (f"my.yaml: guard.hit_locations.head: expected d20 faces such as 1-3 or 19, "
                              f"got '19-2{digit}'")
