"""The one definition of a valid seed, shared by the CLI, training configs and evaluation.

A seed is an integer ``0 <= seed <= SEED_MAX`` (2**31 - 1). Why that bound: training seeds numpy's legacy
global generator and torch through SB3's ``set_random_seed``, and ``np.random.seed`` accepts only
``0 <= seed < 2**32``; derived seeds add an offset to the user's seed (``seed + k`` for the k-th
environment, fight or evaluation episode, k below 2**31), so keeping the user's seed below 2**31
keeps every derived seed in range. ``np.random.default_rng`` and ``SeedSequence`` accept any
non-negative integer, so nothing else narrows it.
"""

from __future__ import annotations

from npc_tactics.errors import UserError, shown

__all__ = ["SEED_MAX", "check_seed"]

SEED_MAX = 2**31 - 1


def check_seed(value: object, what: str = "--seed") -> int:
    """``value`` if it is a valid seed, else a one-line :class:`UserError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{what}: expected an integer seed, got {shown(value)}")
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{what}: expected a seed from 0 to {SEED_MAX} (2**31 - 1), got {shown(value)}")
    return value
