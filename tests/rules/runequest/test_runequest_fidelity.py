"""Issue 10, RuneQuest points 1-12: one forced-dice test (or more) per point, citing the rule.

Source lines are quoted from runequest-glorantha.fr.txt (the seed text); [PUB] marks a published RQG
rule checked with the search tool (see docs/runequest.md, "Rules version history").
"""

from __future__ import annotations

from rq_helpers import fight, kinds, play

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.content import make_combatant
from npc_tactics.systems.runequest.rules.damage import settle
from npc_tactics.systems.runequest.rules.engine import DEFAULT_OPTIONS
from npc_tactics.systems.runequest.rules.resolve import fumble

WARRIOR = {"template": "orlanthi_warrior"}  # DEX 12 SIZ 14: SR 3+2; broadsword 70 (SR 2), db 1D4
BROO = {"template": "broo"}  # DEX 10 SIZ 13: short spear 50 at SR 7, small shield 40, db 1D4
SKIRMISHER = {"template": "orlanthi_skirmisher"}  # DEX 16: shortsword 70 at SR 6, no db
WOLF = {"template": "wolf"}  # MOV 10: faster than a human's 8


def _legal(eng, s) -> set[str]:  # type: ignore[no-untyped-def]
    s.mask_cache = None
    return {eng.catalogue.name(i) for i in eng.legal_mask(s).nonzero()[0]}


def _hurt(s, idx: int, loc: str, dmg: int) -> None:  # type: ignore[no-untyped-def]
    c = s.combatants[idx]
    li = next(i for i, x in enumerate(c.locations) if x.spec.name == loc)
    c.locations[li].damage += dmg
    c.hp -= dmg
    c.dirty = True
    settle(s, EventSink(ScriptedRoller([]), s.round, False))


# ----- 1. a useless leg or an abdomen at >= L puts the character on the ground ---------------------
def test_1_useless_leg_falls_and_cannot_move() -> None:
    """"Membres : Ils deviennent inutiles ... En général, le personnage tombe au sol." (L250): at
    leg damage >= L the character falls; on the ground it cannot charge, close, withdraw or flee."""
    eng, s = fight([WARRIOR], [BROO], distance=8)
    assert {"close:enemy_0", "attack:0:enemy_0", "flee", "retreat"} <= _legal(eng, s)
    _hurt(s, 0, "left_leg", 5)  # leg HP 5 (14 total HP)
    assert s.combatants[0].prone and s.combatants[0].status == Status.ACTIVE
    legal = _legal(eng, s)
    assert not {"close:enemy_0", "attack:0:enemy_0", "flee", "retreat"} & legal
    assert "defend" in legal
    play(eng, s, [], "defend", "defend")
    assert s.combatants[0].pos == 0  # did not move


def test_1_abdomen_falls_but_fights_in_reach() -> None:
    """"Abdomen : Le personnage tombe au sol mais peut continuer à se battre" (L251)."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    _hurt(s, 0, "abdomen", 5)
    assert s.combatants[0].prone
    legal = _legal(eng, s)
    assert "attack:0:enemy_0" in legal and "flee" not in legal and "retreat" not in legal


def test_1_knocked_down_gets_up_next_round() -> None:
    """A12: a failed DEX x 5 roll after a knockback puts the target on the ground (it loses its next
    attack getting up); with sound legs it stands at the next round."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    ev, _ = play(eng, s, [10, 7, 6, 3, 70], "knockback:enemy_0", "defend", "no_defence")
    assert kinds(ev, "knockback")[0].data["fell"]
    (up,) = kinds(ev, "stand_up")  # at the start of round 2
    assert up.actor == 1 and up.round == 2
    assert not s.combatants[1].prone and s.combatants[1].lose_attack


# ----- 2. a dropped weapon takes 5 SR to recover ---------------------------------------------------
def test_2_dropped_weapon_costs_5_sr() -> None:
    """"19–20 Perd son arme et/ou son bouclier, 5RA pour les récupérer" (L154): the warrior fumbles
    its parry at SR 6 and drops its broadsword; its own blow, declared at SR 7, lands at SR 12."""
    eng, s = fight([SKIRMISHER], [WARRIOR], distance=1)
    dice = [50, 100, 3, 10, 20]  # hit, parry 00 fumbles; 1D6+1 to the abdomen (absorbed); d20 20
    ev, roller = play(eng, s, dice, "attack:0:enemy_0", "attack:0:enemy_0", "parry:0")
    assert roller.remaining == 0
    assert kinds(ev, "fumble")[0].data["effect"] == "drop_weapon"
    assert kinds(ev, "recover_weapon")[0].data["sr"] == 12
    ev, _ = play(eng, s, [96, 50], "dodge")
    (att,) = kinds(ev, "attack")
    assert att.actor == 1 and att.data["sr"] == 12


# ----- 3. engaged: attack and defend, or defend and cast; no First Aid -----------------------------
def test_3_no_first_aid_while_engaged() -> None:
    """"un aventurier qui commence un round en étant physiquement engagé en mêlée peut soit :
    Attaquer et se défendre normalement. Se défendre normalement et lancer des sorts." (L117-120)."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    _hurt(s, 0, "right_arm", 2)
    assert "first_aid:self" not in _legal(eng, s)
    eng, s = fight([WARRIOR], [BROO], distance=10)
    _hurt(s, 0, "right_arm", 2)
    assert "first_aid:self" in _legal(eng, s)


# ----- 5. most spirit spells need a free hand ------------------------------------------------------
def test_5_spirit_magic_needs_a_free_hand() -> None:
    """"La plupart des sorts de magie spirituelle nécessitent d'avoir au moins une main libre"
    (L78); Bladesharp is cast on the weapon in hand (L79); Rune magic needs no hand (L78)."""
    eng, s = fight([WARRIOR], [BROO], distance=30)  # broadsword and shield: no hand free
    _hurt(s, 0, "abdomen", 2)
    legal = _legal(eng, s)
    assert "cast:heal:self" not in legal
    assert {"cast:bladesharp:self", "cast:shield:self"} <= legal
    eng, s = fight([{**WARRIOR, "ready": ["broadsword"]}], [BROO], distance=30)
    _hurt(s, 0, "abdomen", 2)
    assert "cast:heal:self" in _legal(eng, s)


# ----- 6. aimed blow: halve, then add Bladesharp ---------------------------------------------------
def test_6_aimed_blow_halves_before_bladesharp() -> None:
    """[PUB] RQG aimed blows: "The attack skill is halved, then any other modifiers are applied."
    Broadsword 70 with Bladesharp 2 (+10): 35 + 10 = 45, not (70 + 10) / 2 = 40."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    s.combatants[0].bladesharp, s.combatants[0].bladesharp_rounds = 2, 5
    ev, roller = play(eng, s, [90], "aimed:0:enemy_0", "aim:3", "defend", "no_defence")
    assert roller.remaining == 0
    assert kinds(ev, "aimed_blow")[0].data["skill"] == 45
    assert kinds(ev, "attack")[0].data["skill"] == 45


# ----- 7. thrown weapons add half the damage bonus -------------------------------------------------
def test_7_thrown_weapon_half_damage_bonus() -> None:
    """[PUB] RQG: thrown weapons add half the damage bonus: the warrior's 1D4 becomes 1D2."""
    assert calc.half_db("1d4") == "1d2" and calc.half_db("2d6") == "1d6"
    assert calc.half_db("-1d4") == "-1d2" and calc.half_db("") == ""
    eng, s = fight([WARRIOR], [BROO], distance=10)
    ev, roller = play(eng, s, [30, 6, 2, 10], "attack:2:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0
    assert roller.asked == [100, 10, 2, 20]  # attack, javelin 1D10, half db 1D2, location


# ----- 8. flight: free blows with Bladesharp, none from the befuddled or fumbled; pursuit ----------
def test_8_free_blow_counts_bladesharp() -> None:
    """"une attaque ne pouvant être ni parée ni esquivée" (L200) is a normal attack: Bladesharp
    adds its +5% per point (50 + 10 = 60)."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    s.combatants[1].bladesharp, s.combatants[1].bladesharp_rounds = 2, 5
    ev, _ = play(eng, s, [90], "flee", "defend")
    (att,) = kinds(ev, "attack")
    assert att.data["free"] and att.data["skill"] == 60


def test_8_no_free_blow_from_befuddled_or_fumbled_foes() -> None:
    for key, value in (("befuddled_rounds", 3), ("lose_attack", True)):
        eng, s = fight([WARRIOR], [BROO], distance=1)
        setattr(s.combatants[1], key, value)
        ev, roller = play(eng, s, [], "flee", "defend")
        assert not kinds(ev, "attack") and roller.used == 0, key
        assert s.combatants[0].status == Status.FLED
        assert not s.combatants[1].lose_attack  # the lost attack was this one


def test_8_a_faster_foe_runs_the_fleer_down() -> None:
    """A25 (house reading of the published chase rules): a wolf (MOV 10) catches a fleeing human
    (MOV 8): the human stays in the fight with the wolf at its side; ``flight: escape`` keeps v0."""
    eng, s = fight([WARRIOR], [WOLF], distance=1)
    ev, roller = play(eng, s, [90], "flee", "defend")
    assert roller.remaining == 0
    assert kinds(ev, "flee")[0].data["result"] == "run_down"
    w, wolf = s.combatants
    assert w.status == Status.ACTIVE and abs(w.pos - wolf.pos) <= T.MELEE_REACH_M
    eng, s = fight([WARRIOR], [WOLF], distance=1, options={"flight": "escape"})
    play(eng, s, [90], "flee", "defend")
    assert s.combatants[0].status == Status.FLED


# ----- 9. a fumble's lost parry and "any Dodge" ----------------------------------------------------
def test_9_lost_parry_is_spent_by_a_parry_not_a_dodge() -> None:
    """"01–04 Perd sa prochaine parade." (L149): dodging keeps the loss pending; the next parry is
    the lost one (no roll, the blow lands as unparried). ``lost_parry: next_blow`` keeps v0."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    w = s.combatants[0]
    w.lose_parry = True
    ev, roller = play(eng, s, [90, 50], "defend", "attack:0:enemy_0", "dodge")
    assert roller.remaining == 0 and w.lose_parry
    ev, roller = play(eng, s, [90], "defend", "attack:0:enemy_0", "parry:1")
    assert roller.remaining == 0 and not w.lose_parry
    assert kinds(ev, "parry_lost") and kinds(ev, "attack")[0].data["defence"] == "none"
    eng, s = fight([WARRIOR], [BROO], distance=1, options={"lost_parry": "next_blow"})
    s.combatants[0].lose_parry = True
    play(eng, s, [90, 50], "defend", "attack:0:enemy_0", "dodge")
    assert not s.combatants[0].lose_parry


def test_9_any_dodge_is_every_dodge_this_round_and_next() -> None:
    """"13–15 Perd sa prochaine attaque, sa prochaine parade et toute Esquive." (L152)."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    fumble(s, 0, 0, EventSink(ScriptedRoller([14]), 1, False))
    assert s.combatants[0].no_dodge_until == 2
    for rnd in (1, 2, 3):
        play(eng, s, [], "defend", "attack:0:enemy_0")
        assert ("dodge" in _legal(eng, s)) is (rnd == 3), rnd
        play(eng, s, [90], "no_defence")


# ----- 10. skills 6-7 special 01-02; a Dodge at or below 0% cannot be tried ------------------------
def test_10_special_band_of_skills_6_and_7() -> None:
    """[PUB] RQG success table (fvtt-system-rqg): skills 6-7 special on 01-02."""
    assert [calc.thresholds(k)[1] for k in (5, 6, 7, 8)] == [1, 2, 2, 2]
    assert calc.success_level(2, 6) == T.SPECIAL and calc.success_level(2, 7) == T.SPECIAL


def test_10_dodge_at_or_below_zero_is_not_offered() -> None:
    """Dodge 5 with 9 ENC = -4% (§13): no roll of 01-05 saves a skill the character does not have."""
    eng, s = fight([BROO], [{**WARRIOR, "skills": {"dodge": 5}}], distance=1)
    play(eng, s, [], "attack:0:enemy_0", "defend")
    assert "dodge" not in _legal(eng, s) and "parry:1" in _legal(eng, s)


# ----- 11. skills over 100% ------------------------------------------------------------------------
def test_11_skill_over_100_lowers_the_opposing_skill() -> None:
    """[PUB] RQG p. 201: "If the adventurer has a skill above 100% and that skill is opposed by another
    skill lower than the adventurer's skill, the opposing skill is reduced by the amount that the
    adventurer's skill is above 100%." Broadsword 120 vs a small-shield parry of 40 -> 20."""
    assert calc.over_100(147, 137) == (147, 90) and calc.over_100(120, 130) == (90, 130)
    assert calc.over_100(90, 60) == (90, 60)
    eng, s = fight([{**WARRIOR, "skills": {"broadsword": 120}}], [BROO], distance=1)
    # power:1: one attack at the whole skill (a split is offered over 100%, test_runequest_split)
    ev, roller = play(eng, s, [97, 90], "attack:0:enemy_0", "power:1", "defend", "parry:1")
    assert roller.remaining == 0
    assert kinds(ev, "defence")[0].data["chance"] == 20


# ----- 12. Befuddle breaks when attacked; the great troll at published size ------------------------
def test_12_befuddle_breaks_when_attacked_even_if_missed() -> None:
    """[PUB] RQG Befuddle: the spell is broken if the target is attacked."""
    eng, s = fight([WARRIOR], [BROO], distance=1)
    s.combatants[1].befuddled_rounds = 5
    ev, roller = play(eng, s, [90], "attack:0:enemy_0", "defend", "no_defence")
    assert roller.remaining == 0 and not kinds(ev, "damage")
    assert s.combatants[1].befuddled_rounds == 0 and kinds(ev, "befuddle_broken")


def test_12_great_troll_has_published_size_hit_points() -> None:
    """Averages of the classic great-troll rolls (SIZ 4D6+12 = 26, CON 3D6+6 = 17): 21 HP, 2D6 db."""
    c = make_combatant("great_troll", {}, 1, 0.0, DEFAULT_OPTIONS)
    assert c.max_hp == 21 and c.spec.db == "2d6" and c.spec.siz == 26


def test_5_the_hand_a_thrown_javelin_frees_casts_the_spell() -> None:
    """§4 hand switch: javelin and shield ready, no hand free at the declaration; once the javelin
    is thrown a hand is free, so the "then" step offers Heal (a free-hand spirit spell)."""
    eng, s = fight([{**WARRIOR, "ready": ["javelin", "medium_shield"]}], [BROO], distance=10)
    _hurt(s, 0, "abdomen", 2)
    assert "cast:heal:self" not in _legal(eng, s)
    play(eng, s, [], "attack:2:enemy_0")
    assert "cast:heal:self" in _legal(eng, s)


def test_8_a_faster_foe_too_far_behind_does_not_catch() -> None:
    """A25: the wolf (30 m a round) cannot reach a fleer who ends 24 + 40 m away from it."""
    eng, s = fight([WARRIOR], [WOLF], distance=40)
    play(eng, s, [], "flee", "defend")
    assert s.combatants[0].status == Status.FLED
