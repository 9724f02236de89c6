"""Held-out evaluation of the shipped generalist policies (issue 13, "Evaluation on fights it never saw").

Per system, on the shipped held-out set (systems/<system>/content/encounters/heldout/generalist.yaml, 100 fights never
drawn in training) with ``--repeats`` dice seeds each (default 10: 1,000 paired fights per pairing):

* the shipped bundle on side 0 against by-the-book, aggressive and cautious on side 1: win rate with its
  Wilson 95% interval, flee-and-survive rate among the fights it did not win, mean rounds;
* by-the-book on side 0 on the same fights and seeds (the baseline the policy has to beat);
* on every shipped scenario: the bundle and by-the-book on side 0 against by-the-book (``--scenario-fights``
  each), the target being "at least as well as by-the-book";
* with ``--single SYSTEM=RUN_OR_BUNDLE``: a single-scenario policy on its own scenario, same figures.

Targets (issue 13): held-out win rate vs by-the-book >= 60% with the interval above 50%; on each shipped
scenario at least by-the-book's own win rate. The report says which are met.

    python benchmarks/generalist_report.py --systems ose runequest mrq dicepool --out reports/generalist
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from npc_tactics.agents.resolve import AgentFactory, agent_factory
from npc_tactics.encounters.heldout import heldout_path, load_heldout
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.generalist import Figures, encounter_bootstrap, figures, play_encounters
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.registry import get_system

OPPONENTS = ("by-the-book", "aggressive", "cautious")


def _bundle_factory(path: Path) -> AgentFactory:
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    agent = load_bundle_agent(path)
    return lambda engine, rng: agent


def _policy_factory(system: str, spec: str) -> AgentFactory:
    path = Path(spec)
    if (path / "schema.json").is_file():
        return _bundle_factory(path)
    return agent_factory(system, spec)


def _scenario_of(spec: str) -> str | None:
    path = Path(spec)
    if (path / "schema.json").is_file():
        return str(json.loads((path / "schema.json").read_text())["scenario"])
    from npc_tactics.runs import RunDir

    return RunDir(path).config().scenario


def _row(f: Figures) -> str:
    lo, hi = f.win_ci
    flo, fhi = f.flee_ci
    return (f"| {f.agent} | {f.opponent} | {f.fights} | {f.win_rate:.1%} [{lo:.1%}, {hi:.1%}] | "
            f"{f.flee_rate:.1%} [{flo:.1%}, {fhi:.1%}] of {f.not_won} | {f.rounds:.1f} |")


HEADER = ("| side 0 | side 1 | fights | win rate [95% Wilson] | fled alive when not winning | mean rounds |\n"
          "|---|---|---|---|---|---|")


#: the held-out creature set's distribution, where a system has one (issue 28)
CREATURES = "creatures_heldout"


def _creature_rows(system: str, policy: AgentFactory, repeats: int,
                   seed: int) -> tuple[list[Figures], dict[str, float], int] | None:
    """The shipped bundle and by-the-book against by-the-book on the held-out creatures' fights, and the
    encounter-resampled paired difference; None for a system without that set."""
    if not heldout_path(system, CREATURES).is_file():
        return None
    fights = load_heldout(system, CREATURES)
    book = agent_factory(system, "by-the-book")
    out: list[Figures] = []
    wins: dict[str, list[bool]] = {}
    for label, agent in (("shipped", policy), ("by-the-book", book)):
        recs = play_encounters(get_system(system), fights, agent, book, repeats, seed=seed)
        out.append(figures(label, "by-the-book", recs))
        wins[label] = [r.results[0] == "win" for r in recs]
    return out, encounter_bootstrap(wins["shipped"], repeats, wins["by-the-book"], seed=seed), len(fights)


def system_report(system: str, bundle: Path, repeats: int, scenario_fights: int, single: str | None,
                  seed: int) -> tuple[str, dict[str, Any]]:
    t0 = time.perf_counter()
    policy = _bundle_factory(bundle)
    heldout = load_heldout(system)
    rows: list[Figures] = []
    wins: dict[str, list[bool]] = {}
    for opp in OPPONENTS:
        opponent = agent_factory(system, opp)
        for label, agent in (("shipped", policy), ("by-the-book", agent_factory(system, "by-the-book"))):
            recs = play_encounters(get_system(system), heldout, agent, opponent, repeats, seed=seed)
            rows.append(figures(label, opp, recs))
            if opp == "by-the-book":
                wins[label] = [r.results[0] == "win" for r in recs]
    vs_book = rows[0]
    met_heldout = vs_book.win_rate >= 0.60 and vs_book.win_ci[0] > 0.50
    boot = encounter_bootstrap(wins["shipped"], repeats, wins["by-the-book"], seed=seed)
    scen_rows: list[tuple[str, Figures, Figures]] = []
    book = agent_factory(system, "by-the-book")
    for name, _ in get_system(system).load("content").list_scenarios():
        sc = Arena.build(system, name).scenario
        plugin = get_system(system)
        mine = figures("shipped", "by-the-book", play_encounters(plugin, [sc], policy, book, scenario_fights,
                                                                 seed=seed))
        base = figures("by-the-book", "by-the-book", play_encounters(plugin, [sc], book, book, scenario_fights,
                                                                     seed=seed))
        scen_rows.append((name, mine, base))
    creatures = _creature_rows(system, policy, repeats, seed)
    single_rows: list[Figures] = []
    if single:
        sname = _scenario_of(single) or get_system(system).default_scenario
        sc = Arena.build(system, sname).scenario
        sp = _policy_factory(system, single)
        for opp in OPPONENTS:
            single_rows.append(figures(f"single ({sname})", opp, play_encounters(
                get_system(system), [sc], sp, agent_factory(system, opp), scenario_fights, seed=seed)))
    lines = [f"## {system}", "", f"Bundle: `{bundle}`; held-out set: {len(heldout)} fights x {repeats} seeds.", "",
             "### Held-out fights", "", HEADER, *(_row(f) for f in rows), "",
             f"Target (win rate vs by-the-book >= 60%, interval above 50%): **{'met' if met_heldout else 'not met'}** "
             f"({vs_book.win_rate:.1%} [{vs_book.win_ci[0]:.1%}, {vs_book.win_ci[1]:.1%}]; by-the-book itself on "
             f"side 0: {rows[1].win_rate:.1%}).", "",
             f"Resampling whole encounters (the {len(heldout)} fights, not the dice; "
             f"`npc_tactics.evaluation.generalist.encounter_bootstrap`): win rate vs by-the-book "
             f"[{boot['low']:.1%}, {boot['high']:.1%}]; shipped minus by-the-book on side 0 {boot['diff']:+.1%} "
             f"[{boot['diff_low']:+.1%}, {boot['diff_high']:+.1%}].", "",
             "### Shipped scenarios (side 1: by-the-book)", "",
             "| scenario | shipped win rate [95%] | by-the-book win rate [95%] | at least as well |",
             "|---|---|---|---|"]
    met_scen = []
    for name, mine, base in scen_rows:
        ok = mine.win_rate >= base.win_rate or mine.win_ci[1] >= base.win_rate
        met_scen.append(ok)
        lines.append(f"| {name} | {mine.win_rate:.1%} [{mine.win_ci[0]:.1%}, {mine.win_ci[1]:.1%}] | "
                     f"{base.win_rate:.1%} [{base.win_ci[0]:.1%}, {base.win_ci[1]:.1%}] | "
                     f"{'yes' if mine.win_rate >= base.win_rate else ('within CI' if ok else 'no')} |")
    if creatures is not None:
        c_rows, c_boot, n_fights = creatures
        lines += ["", "### Held-out creatures (side 1: by-the-book)", "",
                  f"{n_fights} fights x {repeats} seeds of `{CREATURES}`: monsters no training distribution draws "
                  "(tests/encounters/test_heldout_creatures.py).", "", HEADER, *(_row(f) for f in c_rows), "",
                  f"Resampling whole encounters: shipped minus by-the-book {c_boot['diff']:+.1%} "
                  f"[{c_boot['diff_low']:+.1%}, {c_boot['diff_high']:+.1%}]."]
    if single_rows:
        lines += ["", "### Best single-scenario policy on its own scenario", "", HEADER,
                  *(_row(f) for f in single_rows)]
    lines += ["", f"({time.perf_counter() - t0:.0f} s)", ""]
    data = {"system": system, "bundle": str(bundle), "heldout": [f.to_dict() for f in rows],
            "heldout_target_met": met_heldout, "encounter_bootstrap": {k: round(v, 4) for k, v in boot.items()},
            "scenarios": [{"scenario": n, "shipped": m.to_dict(), "by_the_book": b.to_dict()} for n, m, b in scen_rows],
            "scenario_target_met": all(met_scen), "single": [f.to_dict() for f in single_rows],
            "creatures": None if creatures is None else {
                "rows": [f.to_dict() for f in creatures[0]],
                "encounter_bootstrap": {k: round(v, 4) for k, v in creatures[1].items()}}}
    return "\n".join(lines), data


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", nargs="+", default=["ose", "runequest", "mrq", "dicepool"])
    ap.add_argument("--bundle", action="append", default=[], metavar="SYSTEM=DIR",
                    help="evaluate this bundle instead of the shipped one")
    ap.add_argument("--single", action="append", default=[], metavar="SYSTEM=RUN_OR_BUNDLE",
                    help="a single-scenario policy to report on its own scenario")
    ap.add_argument("--repeats", type=int, default=10, help="dice seeds per held-out fight (100 fights each)")
    ap.add_argument("--scenario-fights", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("reports/generalist"))
    args = ap.parse_args(argv)
    if args.repeats < 1 or args.scenario_fights < 1:
        ap.error(f"--repeats and --scenario-fights: expected at least 1, got {args.repeats} and "
                 f"{args.scenario_fights}")
    from npc_tactics.registry import SYSTEMS

    unknown = [s for s in args.systems if s not in SYSTEMS]
    if unknown:
        ap.error(f"--systems: unknown system {unknown[0]!r}; valid systems: {', '.join(sorted(SYSTEMS))}")
    bad = [b for b in args.bundle + args.single if "=" not in b]
    if bad:
        ap.error(f"{bad[0]!r}: expected SYSTEM=DIR")
    bundles = dict(b.split("=", 1) for b in args.bundle)
    singles = dict(b.split("=", 1) for b in args.single)
    texts, datas = ["# Generalist policies on held-out fights", ""], []
    for system in args.systems:
        bundle = Path(bundles[system]) if system in bundles else shipped_bundle(system)
        text, data = system_report(system, bundle, args.repeats, args.scenario_fights, singles.get(system),
                                   args.seed)
        print(text, flush=True)
        texts.append(text)
        datas.append(data)
    _write(args.out / "report.md", "\n".join(texts))
    _write(args.out / "report.json", json.dumps(datas, indent=1))
    print(f"wrote {args.out / 'report.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
