"""The declared encoders give the same observation values as the encoders they replaced (frozen copy in
``tests/encoders/legacy``), bit for bit, field by field, on 200 visited states per system.

The only layout change is deliberate: the decision-kind one-hot now runs over the system's own
``spec.decision_kinds`` (the old one ran over all six kinds, the unused ones always 0), so fields are matched by
name, not by offset. Renamed fields are listed in ``RENAMED`` with the reason.
"""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.registry import get_system
from tests.conftest import system_names
from tests.encoders.legacy import dicepool, mrq, ose, runequest
from tests.encoders.states import visited

LEGACY = {"ose": ose.OSEEncoder, "runequest": runequest.RuneQuestEncoder, "mrq": mrq.MRQEncoder,
          "dicepool": dicepool.DicePoolEncoder}

#: new name -> old offset, for fields whose name changed. RuneQuest: the old layout named two context fields
#: ``context.incoming_missile`` (offset 17, "1 for a missile" and offset 24, "the weapon class is missile");
#: the class one-hot entry is now ``context.incoming_class_missile`` and, for symmetry, so are the other
#: classes.
RENAMED: dict[str, dict[str, int]] = {"runequest": {
    f"context.incoming_class_{w}": 20 + i
    for i, w in enumerate(("light", "medium", "great", "shield", "missile", "natural"))}}

#: fields added since the frozen copy (their own tests check them), by the per-combatant name after the slot:
#: OSE issue 26, what tells monsters apart (Hit Dice, attack routine and effects, defences, regeneration, flight)
ADDED: dict[str, frozenset[str]] = {"ose": frozenset({
    "hit_dice", "strikes", "routine_damage", "paralyses", "poisons", "drains", "petrifies", "unharmable",
    "regenerates", "undead", "person", "flies", "down_reviving", "damage_spells", "control_spells", "healing_spells",
    "protection_spells", "warded", "hindered"})}


def added(system: str, name: str) -> bool:
    return name.rsplit(".", 1)[-1] in ADDED.get(system, frozenset())


def old_offsets(system: str, legacy: object, new: object) -> list[int]:
    """For each new offset (fields added since the copy left out), the offset of the same field in the old one."""
    first: dict[str, int] = {}
    for f in legacy.fields:  # type: ignore[attr-defined]
        first.setdefault(f.name, f.start)
    renamed = RENAMED.get(system, {})
    return [renamed[e.name] if e.name in renamed else first[e.name]
            for e in new.fields if not added(system, e.name)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("system", system_names())
def test_same_values_as_before_field_by_field(system: str) -> None:
    info = get_system(system)
    engine = info.load("engine")()
    new, old = info.load("encoder")(engine), LEGACY[system](engine)
    index = np.array(old_offsets(system, old, new))
    unmapped = sorted(set(range(old.size)) - set(index.tolist()))
    kinds = {k.name.lower() for k in engine.spec.decision_kinds}
    # what the old layout had and the new one drops: only the one-hot entries of kinds this system never has
    assert [old.fields[i].name for i in unmapped] == [
        f"decision.{k}" for k in ("declare", "act", "react", "effect", "split", "option") if k not in kinds]
    kept = np.array([k for k, e in enumerate(new.fields) if not added(system, e.name)])
    assert len(kept) == len(index)
    for n, (state, decision) in enumerate(visited(system, 200)):
        a, b = new.encode(state, decision)[kept], old.encode(state, decision)
        assert not b[unmapped].any()
        same = a.view(np.uint32) == b[index].view(np.uint32)
        if not same.all():
            k = int(np.flatnonzero(~same)[0])
            name = new.fields[int(kept[k])].name
            pytest.fail(f"state {n} ({decision.kind.name}): {name} is {a[k]!r}, was {b[index][k]!r}")
