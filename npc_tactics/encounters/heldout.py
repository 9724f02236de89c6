"""Held-out encounter sets: fights drawn once with fixed seeds below the training range and written out in full.

``systems/<system>/content/encounters/heldout/<distribution>.yaml`` holds each fight as its scenario mapping plus its
wounds and spent resources (and ``warmup``, the opening decisions a mid-fight start plays, when not 0), so
the set stays the same fights even when the generator changes; a test checks that the file still equals a
fresh draw of its seeds (a generator change shows up as a deliberate rewrite,
``python -m npc_tactics.encounters.heldout SYSTEM --write``). Training never draws these seeds
(:data:`~npc_tactics.encounters.generator.TRAIN_SEED_BASE`).

Validation fights (:func:`draw_validation`) come from the same distribution at seeds after the held-out ones
(:data:`VALIDATION_FIRST_SEED`), also below the training range: choosing between candidate policies on them
(``benchmarks/generalist_select.py``) leaves the held-out figure of the one chosen unbiased. They are drawn,
not shipped: a generator change moves them, which only matters to a choice being made.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from npc_tactics.configs import load_yaml
from npc_tactics.configs import validate as V
from npc_tactics.encounters.generator import (
    TRAIN_SEED_BASE,
    Encounter,
    Generator,
    encounter_from_dict,
    without_scenarios,
)
from npc_tactics.encounters.spec import encounter_dir, load_encounter
from npc_tactics.errors import ConfigError
from npc_tactics.plugin import System

#: the shipped held-out sets: this many fights, seeds FIRST_SEED, FIRST_SEED + 1, ...
SIZE = 100
FIRST_SEED = 1_000_000
#: validation fights: seeds VALIDATION_FIRST_SEED, ... (never held out, never trained on)
VALIDATION_FIRST_SEED = 1_100_000


def heldout_path(system: str | System, distribution: str = "generalist") -> Path:
    return encounter_dir(system) / "heldout" / f"{distribution}.yaml"


def draw_heldout(system: str | System, distribution: str = "generalist", size: int = SIZE,
                 first_seed: int = FIRST_SEED) -> list[Encounter]:
    gen = Generator(without_scenarios(load_encounter(distribution, system)))
    return [gen.draw(first_seed + k) for k in range(size)]


def draw_validation(system: str | System, distribution: str = "generalist", size: int = SIZE) -> list[Encounter]:
    """``size`` validation fights of ``distribution``: disjoint from the held-out set and from training."""
    if not 1 <= size <= TRAIN_SEED_BASE - VALIDATION_FIRST_SEED:
        raise ValueError(f"validation size: expected 1..{TRAIN_SEED_BASE - VALIDATION_FIRST_SEED}, got {size}")
    return draw_heldout(system, distribution, size, VALIDATION_FIRST_SEED)


def load_heldout(system: str | System, distribution: str = "generalist") -> list[Encounter]:
    """The shipped held-out fights of ``system`` (validated; every seed below the training range)."""
    path = heldout_path(system, distribution)
    file = str(path)
    d = V.mapping(load_yaml(path), file, "", ("system", "distribution", "seeds", "encounters"))
    items = V.sequence(d.get("encounters"), file, "encounters", 1, 100_000, "encounters")
    out = []
    for k, raw in enumerate(items):
        p = V.join("encounters", k)
        raw = V.mapping(raw, file, p, ("seed", "scenario", "wounds", "spent", "warmup"), ("seed", "scenario"))
        seed = V.integer(raw["seed"], file, V.join(p, "seed"), 0, TRAIN_SEED_BASE - 1)
        out.append(encounter_from_dict(system, {**raw, "seed": seed}, f"{file}#{seed}", p))
    if not out:
        raise ConfigError(file, "encounters", "expected at least one encounter")
    return out


def write_heldout(system: str, distribution: str = "generalist", size: int = SIZE) -> Path:
    encounters = draw_heldout(system, distribution, size)
    data: dict[str, Any] = {
        "system": system,
        "distribution": distribution,
        "seeds": f"{FIRST_SEED}..{FIRST_SEED + size - 1} (held out: training draws seeds >= {TRAIN_SEED_BASE})",
        "encounters": [e.to_dict() for e in encounters],
    }
    path = heldout_path(system, distribution)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = ("# Held-out fights: never drawn in training. Written by "
            f"`python -m npc_tactics.encounters.heldout {system} --write`; do not edit by hand.\n"
            + yaml.safe_dump(data, sort_keys=False, width=120, default_flow_style=None))
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)
    return path


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Write a system's held-out encounter set")
    ap.add_argument("system")
    ap.add_argument("--distribution", default="generalist")
    ap.add_argument("--size", type=int, default=SIZE)
    ap.add_argument("--write", action="store_true", help="write the file (otherwise print a summary)")
    args = ap.parse_args(argv)
    if args.write:
        print(write_heldout(args.system, args.distribution, args.size))
        return
    for e in draw_heldout(args.system, args.distribution, args.size):
        print(e.seed, e.mapping["description"], f"wounds={len(e.wounds)} spent={len(e.spent)}"
              + (f" warmup={e.warmup}" if e.warmup else ""))


if __name__ == "__main__":
    main()
