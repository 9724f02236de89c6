"""The words an OSE stat line may use, as data: field labels, attack forms, attack effects, movement modes and
alignments (read by :mod:`.statline`).

Why a vocabulary: a typo in a pasted stat line (``1 × bit``) must be an error naming the word, not a
monster that silently attacks with something unknown. Forms, effects and modes the engine does not play
yet are listed too, so the error can say "not modelled yet" instead of "unknown".
"""

from __future__ import annotations

#: Field labels as printed (short, ``AC``) and as the OSE SRD spells them out (``Armour Class``), lower case ->
#: the short label. ``THACO`` (letter O) is a common misprint.
LABELS: dict[str, str] = {
    "ac": "AC", "armour class": "AC", "armor class": "AC",
    "hd": "HD", "hit dice": "HD",
    "att": "Att", "attacks": "Att",
    "thac0": "THAC0", "thaco": "THAC0",
    "mv": "MV", "movement": "MV",
    "sv": "SV", "saving throws": "SV", "saves": "SV", "save as": "SV",
    "ml": "ML", "morale": "ML",
    "al": "AL", "alignment": "AL",
    "xp": "XP",
    "na": "NA", "no. appearing": "NA", "number appearing": "NA",
    "tt": "TT", "treasure type": "TT",
}
#: Printed order of the fields (the OSE books' order; NA and TT, which the books print after XP, last).
FIELD_ORDER: tuple[str, ...] = ("AC", "HD", "Att", "THAC0", "MV", "SV", "ML", "AL", "XP", "NA", "TT")
#: Fields a stat line must give; THAC0 and SV default to the OSE tables by Hit Dice.
REQUIRED: tuple[str, ...] = ("AC", "HD", "Att", "MV", "ML")
#: Fields kept as free text (a comma inside them does not start a new field).
TEXT_FIELDS: tuple[str, ...] = ("NA", "TT")
EXAMPLES: dict[str, str] = {
    "AC": "AC 6 [13]", "HD": "HD 2* (9hp)", "Att": "Att 1 × claw (1d3)", "THAC0": "THAC0 18 [+1]",
    "MV": "MV 90' (30')", "SV": "SV D12 W13 P14 B15 S16 (2)", "ML": "ML 9", "AL": "AL Chaotic",
    "XP": "XP 25", "NA": "NA 1d6 (2d8)", "TT": "TT B",
}

#: Attack forms of natural weapons (a claw, a bite ...) and ``weapon`` (whatever it carries): one melee attack.
#: The weapons of ``weapons.yaml`` are forms too (``1 × club (1d10)``), read by :mod:`.statline`.
NATURAL_FORMS: tuple[str, ...] = (
    "beak", "bite", "butt", "claw", "constrict", "crush", "fist", "gore", "hoof", "horn", "hug", "kick",
    "peck", "pincer", "pseudopod", "punch", "ram", "slam", "squeeze", "sting", "strike", "sucker", "tail", "talon",
    "tentacle", "touch", "trample", "tusk", "weapon", "whip", "wing",
)
#: Attack forms with no attack roll: the creature's target saves against the effect (rules/breath.py).
SAVE_FORMS: tuple[str, ...] = ("gaze", "song")
#: Attack forms the engine does not play yet (no attack roll against AC, an area, a save ...).
SPECIAL_FORMS: tuple[str, ...] = (
    "breath", "charm", "engulf", "hold", "spell", "spit", "spray", "swallow", "web",
)
#: Plural or variant spellings -> the form.
FORM_ALIASES: dict[str, str] = {
    "hooves": "hoof", "claws": "claw", "bites": "bite", "fists": "fist", "tentacles": "tentacle",
    "stings": "sting", "suckers": "sucker", "horns": "horn", "pincers": "pincer", "talons": "talon", "wings": "wing",
    "weapons": "weapon", "tusks": "tusk", "spells": "spell", "gazes": "gaze", "breath weapon": "breath",
}

#: Effects an attack may carry after its damage (``1d3 + paralysis``) -> their spellings. Those the engine does
#: not model (:data:`MODELLED_EFFECTS`) are an error unless marked as flavour, ``~paralysis``.
EFFECTS: dict[str, tuple[str, ...]] = {
    "paralysis": ("paralysis", "paralyse", "paralyze", "paralysation", "paralyzation"),
    "poison": ("poison", "poisoned", "deadly poison"),
    "energy drain": ("energy drain", "level drain", "drain", "1 level energy drain"),
    "petrification": ("petrification", "petrify", "petrifaction", "turn to stone"),
    "disease": ("disease", "rot", "mummy rot"),
    "blood drain": ("blood drain", "blood sucking"),
    "swallow": ("swallow", "swallow whole"),
    "hold": ("hold", "grab", "grapple"),
    "constriction": ("constriction", "constrict", "crush"),
    "acid": ("acid",),
    "fire": ("fire", "burn", "burning"),
    "cold": ("cold", "frost"),
    "lightning": ("lightning", "shock"),
    "charm": ("charm",),
    "fear": ("fear",),
    "sleep": ("sleep",),
    "blindness": ("blindness", "blind"),
    "lycanthropy": ("lycanthropy",),
    "special": ("special", "see below"),
}
#: Effects the engine plays (rules/effects.py); any other is an error unless marked ~ (then only the damage counts).
MODELLED_EFFECTS: frozenset[str] = frozenset({"paralysis", "poison", "energy drain", "petrification", "disease",
                                              "blood drain", "charm", "constriction", "hold", "swallow"})
#: The flavour marker: ``~word`` keeps the word in the stat line and tells the engine to ignore it.
FLAVOUR = "~"

#: Movement modes after a rate (``360' (120') flying``) -> their spellings; no mode = on foot.
MOVEMENT_MODES: dict[str, tuple[str, ...]] = {
    "flying": ("flying", "fly", "flight"),
    "swimming": ("swimming", "swim"),
    "burrowing": ("burrowing", "burrow"),
    "climbing": ("climbing", "climb"),
    "in webs": ("in webs", "webs", "in web"),
}
ALIGNMENTS: tuple[str, ...] = ("Lawful", "Neutral", "Chaotic", "Any")


def lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``{spelling: canonical}`` of a ``{canonical: spellings}`` table."""
    return {s: name for name, spellings in table.items() for s in [name, *spellings]}
