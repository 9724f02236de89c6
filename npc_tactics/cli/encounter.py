"""``npc-tactics odds`` and ``npc-tactics build-encounter``: the typer functions and what they print.

Registered in ``npc_tactics/cli/main.py`` (``app.command("odds")(odds_command)``); what they print is
:mod:`.encounter_text`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated

import typer

from npc_tactics.cli.bestiary import BestiaryOption
from npc_tactics.errors import UserError
from npc_tactics.gm.encounter.builder import DEFAULT_BUDGET, MAX_BUDGET
from npc_tactics.gm.encounter.odds import DEFAULT_FIGHTS, MAX_FIGHTS, template_names
from npc_tactics.gm.encounter.template_words import TemplateWords
from npc_tactics.gm.words.encounter_text import check_lang_option, format_build, format_odds
from npc_tactics.limits import SEED_MAX, check_seed
from npc_tactics.plugin import System

__all__ = ["build_encounter_command", "odds_command", "template_words"]


def check_distance(value: float | None) -> float | None:
    """Metres between the front ranks: finite, 0 to 1,000 (a bow's long range is a few hundred metres)."""
    if value is not None and not (math.isfinite(value) and 0 <= value <= 1000):
        raise typer.BadParameter(f"expected metres from 0 to 1000, got {value}")
    return value


def check_seed_option(value: int) -> int:
    """The one range check of seeds (npc_tactics.limits), as a usage error of the option."""
    try:
        return check_seed(value, "seed")
    except UserError as exc:  # reworded as click's bad parameter (exit 2, names the option)
        raise typer.BadParameter(str(exc).removeprefix("seed: ")) from None


def template_words(plugin: System, lang: str) -> TemplateWords:
    """The templates of ``plugin`` as a GM names them in ``lang`` (ids, names in ``lang`` and in English), as the
    web page's ``POST /odds`` reads them."""
    from npc_tactics.gm.table.stat_words import template_text

    return TemplateWords.of(plugin, template_names(plugin), lang, template_text)


SystemOpt = Annotated[str, typer.Option("--system", metavar="SYSTEM", help="System name, see `npc-tactics systems`.")]
#: How a GM names a template in a GROUP (npc_tactics.gm.encounter.spec.parse_group), said once for every option.
NamesHelp = ("A template is its id or its name in --lang or in English, any case ('goblin_archer', 'archer "
             "gobelin', 'Goblin archer'); its count comes after it as xN ('archer gobelin x2'), so a bare "
             "number belongs to the name ('guerrier 2' is fighter_2).")
PartyOpt = Annotated[str | None, typer.Option(metavar="GROUP", help="The party: templates with counts, "
                                              "'fighter_2, cleric_2' or 'fighter_1 x2'. " + NamesHelp)]
PolicyHelp = "by-the-book (default), another scripted agent, a bundle folder or a trained run folder."
PartyPolicy = Annotated[str, typer.Option(metavar="AGENT", help="Who plays the party: " + PolicyHelp)]
FoePolicy = Annotated[str, typer.Option(metavar="AGENT", help="Who plays the foes: " + PolicyHelp)]
SeedOpt = Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"Seed of the per-fight seeds (0 to {SEED_MAX}).")]
WorkersOpt = Annotated[int | None, typer.Option(metavar="N", min=1, max=256, help="Processes (default: one per "
                                                "core); the figures do not depend on it.")]
LangOpt = Annotated[str, typer.Option(metavar="en|fr", help="Language of what the GM reads.")]
DistanceOpt = Annotated[float | None, typer.Option(
    metavar="METRES", callback=check_distance,
    help="Metres between the front ranks (default: the system's, docs/encounters.md).")]
AddressOpt = Annotated[str | None, typer.Option(
    metavar="local|auto|ray://HOST:PORT", help="Play the fights on Ray workers (docs/scale.md): local, this "
    "machine's cluster (auto) or a remote head; --workers is then the number of Ray workers.")]
JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object instead of text.")]


def odds_command(
    system: SystemOpt,
    party: PartyOpt = None,
    foes: Annotated[str | None, typer.Option(metavar="GROUP", help="The foes: templates with counts, "
                                             "'goblin x4, goblin_archer x2' ('gobelin x4' with --lang fr), "
                                             "named as in --party.")] = None,
    situation: Annotated[Path | None, typer.Option(metavar="FILE", help="A situation YAML (a fight under way, "
                                                   "side 0 the foes) instead of --party and --foes.")] = None,
    party_policy: PartyPolicy = "by-the-book",
    foe_policy: FoePolicy = "by-the-book",
    fights: Annotated[int, typer.Option(metavar="N", min=1, max=MAX_FIGHTS,
                                        help=f"Fights to play (1 to {MAX_FIGHTS:,}).")] = DEFAULT_FIGHTS,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    distance: DistanceOpt = None,
    lang: LangOpt = "en",
    as_json: JsonOpt = False,
    address: AddressOpt = None,
    bestiary: BestiaryOption = None,
) -> None:
    """The odds of an encounter before it is played: party win, foe rout, at least one PC death and the
    expected rounds, with 95% intervals, from whole fights on per-fight seeds."""
    from npc_tactics.cluster import ray_executor_for
    from npc_tactics.gm.encounter.odds import odds_of
    from npc_tactics.registry import get_system

    check_lang_option(lang)
    plugin = get_system(system)
    words = template_words(plugin, lang) if situation is None else None
    executor = ray_executor_for(address, workers)
    result = odds_of(plugin, party=party, foes=foes, situation=situation, party_policy=party_policy,
                     foe_policy=foe_policy, fights=fights, seed=seed, workers=workers, distance=distance,
                     executor=executor, words=words)
    typer.echo(json.dumps(result, indent=2, sort_keys=True) if as_json else format_odds(result, lang, _shown(words)))


def build_encounter_command(
    system: SystemOpt,
    party: Annotated[str, typer.Option(metavar="GROUP", help="The party: templates with counts, "
                                       "'fighter_2, cleric_2'. " + NamesHelp)],
    target: Annotated[str, typer.Option(metavar="TARGET", help="What the GM wants, e.g. "
                                        "'win=0.7,pc_death<0.1,rounds=4-8' (keys: win, rout, pc_death, rounds; "
                                        "= < > and ranges A-B; rates as 0.7 or 70%).")],
    budget: Annotated[int, typer.Option(metavar="FIGHTS", min=100, max=MAX_BUDGET,
                                        help="Fights the search may play in all.")] = DEFAULT_BUDGET,
    top: Annotated[int, typer.Option(metavar="N", min=1, max=20, help="Proposals to refine and show.")] = 5,
    pool: Annotated[str | None, typer.Option(metavar="NAMES", help="Foe templates to draw from, "
                                             "'goblin, orc, hobgoblin' (default: every template), by id or by "
                                             "name as in --party.")] = None,
    max_foes: Annotated[int | None, typer.Option(metavar="N", help="Most foes in a group (default 6).")] = None,
    faction: Annotated[str | None, typer.Option(metavar="NAME", help="Draw the foes from this one faction of the "
                                                "bestiary (its 'faction' tag, e.g. goblinoids).")] = None,
    mixed: Annotated[bool, typer.Option("--mixed", metavar="", help="Let a group mix two factions (default: the "
                                        "templates of a group share a faction; docs/odds.md).")] = False,
    party_policy: PartyPolicy = "by-the-book",
    foe_policy: FoePolicy = "by-the-book",
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    distance: DistanceOpt = None,
    lang: LangOpt = "en",
    as_json: JsonOpt = False,
    bestiary: BestiaryOption = None,
) -> None:
    """Search the bestiary for foe groups whose measured odds against the party meet a target; proposals best
    first (distance to target: docs/odds.md), each with its odds and 95% intervals. A group's templates share
    a faction unless --mixed."""
    from npc_tactics.gm.encounter.builder import build_encounter
    from npc_tactics.gm.encounter.spec import parse_target
    from npc_tactics.registry import get_system

    check_lang_option(lang)
    wanted = parse_target(target)
    plugin = get_system(system)
    words = template_words(plugin, lang)
    result = build_encounter(plugin, party, wanted, pool=pool, budget=budget, top=top,
                             party_policy=party_policy, foe_policy=foe_policy, seed=seed, workers=workers,
                             max_foes=max_foes, distance_m=distance, faction=faction, mixed=mixed, words=words)
    typer.echo(json.dumps(result, indent=2, sort_keys=True) if as_json else format_build(result, lang, _shown(words)))


def _shown(words: TemplateWords | None) -> dict[str, str] | None:
    """Template id -> its name in the GM's language, for the text answers (English keeps the ids, which the JSON
    and the commands take as they are)."""
    return dict(words.labels) if words is not None and words.lang != "en" else None
