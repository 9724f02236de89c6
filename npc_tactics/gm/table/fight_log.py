"""The fight's log as a text file a GM keeps with the session's notes (issue 29: "export the fight log"), in
either language: what the page shows under "Fight log" (round headings, each move and who chose it, each event
and typed die), headed by the system, the sides with who played them and their combatants, the seed and the
dice. Plain text, not JSON: the saved fight (``GET /fights/{id}/save``) is the file that loads back; this one is
for reading."""

from __future__ import annotations

from npc_tactics.gm.table.fight_view import CONTROL_WORDS, log_lines
from npc_tactics.gm.table.tracker import Fight
from npc_tactics.i18n import N_, translator
from npc_tactics.locale_format import colon as colon_of

__all__ = ["DICE_WORDS", "log_filename", "log_text"]

#: How the dice were rolled, as the page's set-up says it.
DICE_WORDS: dict[str, str] = {"auto": N_("rolled by the engine"), "manual": N_("typed by the GM"),
                              "pcs": N_("typed for the PCs only")}


def log_text(fight: Fight, lang: str) -> str:
    """The log of ``fight`` so far as text in ``lang`` (see the module docstring)."""
    _ = translator(lang, "web")
    colon = colon_of(lang)
    head = [f"{_('Fight log')}{colon}{fight.plugin.title}"]
    for k, side in enumerate(fight.sides):
        names = ", ".join(str(m.entry["name"]) for m in fight.members if m.side == k)
        head.append(f"{side.name} ({_(CONTROL_WORDS[side.control])}){colon}{names}")
    head.append(f"{_('Seed')}{colon}{fight.seed} · {_('Dice')}{colon}{_(DICE_WORDS[fight.dice])}")
    body: list[str] = []
    for line in log_lines(fight, lang):
        if line["kind"] == "round":
            body.extend(["", line["text"]])
        elif line["kind"] in ("event", "dice"):
            body.append("  " + line["text"])
        else:
            body.append(line["text"])
    return "\n".join([*head, *body]).rstrip() + "\n"


def log_filename(fight: Fight, lang: str) -> str:
    """``fight-ose-round-3-fr.txt``: the system, how far the fight went, the language."""
    round_no = int(getattr(fight.state, "round", 0)) if fight.state is not None else 0
    return f"fight-{fight.system}-round-{round_no}-{lang}.txt"
