"""The mount as a combatant (mrq-opposed.md §13, issue 10 MRQ point 6 "defending the mount").

Source, §13: "Il peut dépenser une Réaction pour utiliser sa propre compétence d'arme ou d'Equitation à la
place de la compétence de leur monture, en vue de défendre celle-ci contre des attaques."

Model (the smallest faithful one; docs/mrq.md §13):

- a rider's mount is a combatant of the rider's side, built from its bestiary template (``mount.template``:
  its own location HP, armour and skill); it shares the rider's place (``MRQState.together``) and takes no
  Combat Actions of its own (the rider steers it; its weight is already in the charge and the trample);
- anyone who could strike the rider can attack the mount (it fills an enemy slot: no new action);
- when the mount is attacked, its rider decides (the REACT decision is the rider's): ``defend`` /
  ``precise_defence`` spend one of the rider's Reactions and oppose the better of its weapon style skill and
  its Riding (halved for a precise defence) instead of the mount's skill; ``no_reaction`` leaves the mount to
  itself: it defends with its own skill while it has a Reaction left ([HOUSE]: an animal always defends),
  else the blow is undefended. Everything else is the mount's: its Deflection Points (none for a horse), its
  armour, its locations. A mount winning the exchange never ripostes (it does not attack on its own);
- a mount out of the fight throws its rider: the rider is on foot from then on (no +20%, no mount damage
  modifier, no trample, walking speed) and prone ([HOUSE]: the source gives no falling damage; none is
  rolled); a rider out of the fight leaves its mount riderless: it bolts (status FLED). Mounts never count
  for the end of the fight.
"""

from __future__ import annotations

from dataclasses import replace

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.state import MRQCombatant, MRQState
from npc_tactics.systems.mrq.rules.tables import MOVE_BY_BODY

R = "mrq-opposed.md §13"


def is_mount(c: MRQCombatant) -> bool:
    return c.rider >= 0


def ridden(state: MRQState, i: int) -> bool:
    """``i`` is a mount with its rider still on it."""
    c = state.combatants[i]
    return c.rider >= 0 and state.combatants[c.rider].mount == i


def controller(state: MRQState, i: int) -> int:
    """Who decides for combatant ``i``: the rider for a ridden mount, else ``i`` itself."""
    c = state.combatants[i]
    return c.rider if c.rider >= 0 and state.combatants[c.rider].mount == i else i


def guard_skill(c: MRQCombatant) -> int:
    """The rider's skill to defend its mount: the better of its weapon style (with its penalties) and Riding."""
    return max(F.defence_skill(c), max(0, c.prof.riding - F.penalty(c)))


def update(state: MRQState, sink: EventSink) -> None:
    """Throw the rider of a fallen mount; a riderless mount bolts. Called between exchanges."""
    cs = state.combatants
    for i, c in enumerate(cs):
        if c.mount < 0:
            continue
        m = cs[c.mount]
        if m.status != Status.ACTIVE:
            dismount(state, sink, i)
        elif c.status != Status.ACTIVE:
            mi, c.mount = c.mount, -1
            m.status = Status.FLED
            sink.emit("mount_bolts", mi, i, rule=R, result="fled")


def dismount(state: MRQState, sink: EventSink, i: int) -> None:
    """The rider ``i`` is thrown: on foot and prone; its profile loses everything the mount gave it."""
    c = state.combatants[i]
    m = c.mount
    c.mount = -1
    p = c.prof
    c.prof = replace(p, mounted=False, mount_dm="", mount_siz=0, move=MOVE_BY_BODY[p.body])
    if c.status == Status.ACTIVE:
        c.prone = True
    sink.emit("dismounted", i, m, rule=R, result="prone" if c.prone else "out")
