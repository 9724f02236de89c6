"""Every bound on a number a user types or writes in a config, declared once: seeds, fights, sizes.

Seeds: a seed is an integer ``0 <= seed <= SEED_MAX`` (2**31 - 1). Why that bound: training seeds numpy's legacy
global generator and torch through SB3's ``set_random_seed``, and ``np.random.seed`` accepts only
``0 <= seed < 2**32``; derived seeds add an offset to the user's seed (``seed + k`` for the k-th
environment, fight or evaluation episode, k below 2**31), so keeping the user's seed below 2**31
keeps every derived seed in range. ``np.random.default_rng`` and ``SeedSequence`` accept any
non-negative integer, so nothing else narrows it.
"""

from __future__ import annotations

from npc_tactics.errors import UserError, shown

__all__ = [
    "DEFAULT_THINK",
    "MAX_AGENTS",
    "MAX_DICE_TERMS",
    "MAX_DICE_TOTAL",
    "MAX_EVAL_EPISODES",
    "MAX_FIGHTS",
    "MAX_LAYERS",
    "MAX_REWARD",
    "MAX_ROLLOUT",
    "MAX_THINK",
    "MAX_TIMESTEPS",
    "MAX_WIDTH",
    "MAX_WORKERS",
    "SEED_MAX",
    "SERVE_QUEUE",
    "SERVE_TIME_LIMIT_S",
    "SERVE_WAIT_S",
    "check_seed",
    "check_workers",
]

#: Seconds ``suggest`` searches by default before answering (the answer stays under 2 s on a 2-core machine).
DEFAULT_THINK = 0.8
#: The longest search one answer may ask for (seconds).
MAX_THINK = 600.0

SEED_MAX = 2**31 - 1
#: Most fights one ``simulate`` or one pairing of ``evaluate`` plays (an OSE duel takes about 0.5 ms).
MAX_FIGHTS = 1_000_000
#: Most agents in one tournament (k agents play k x (k - 1) pairings).
MAX_AGENTS = 32
#: Training sizes: a typo must not ask for 160 GB of weights or a year of evaluation.
MAX_LAYERS = 8
MAX_WIDTH = 4096
MAX_ROLLOUT = 262_144  #: n_steps x n_envs: transitions held in memory per update
MAX_TIMESTEPS = 1_000_000_000
MAX_EVAL_EPISODES = 100_000
#: Most hit points (or damage) a dice expression or fixed amount of a file may give: a situation's cap on HP,
#: so a scenario's rolled HP can be told as a situation too. Each term's count and sides stay within it too.
MAX_DICE_TOTAL = 1000
#: Most dice terms in one expression (``1d8+1d4-1`` has two).
MAX_DICE_TERMS = 10
#: Most local worker processes of one command (a typo must not fork ten thousand processes).
MAX_WORKERS = 256
#: Largest reward weight (either sign): beyond it the value loss overflows float32 and training dies in NaN.
MAX_REWARD = 1000.0
#: The GM service: heavy requests (rollouts) that may wait behind the running one, how long one waits for its
#: turn and how long its rollouts may run (2,000 rollouts per move of a 17-move RuneQuest decision: ~20 s here).
SERVE_QUEUE = 4
SERVE_WAIT_S = 30.0
SERVE_TIME_LIMIT_S = 120.0


def check_seed(value: object, what: str = "--seed") -> int:
    """``value`` if it is a valid seed, else a one-line :class:`UserError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{what}: expected an integer seed, got {shown(value)}")
    if not 0 <= value <= SEED_MAX:
        raise UserError(f"{what}: expected a seed from 0 to {SEED_MAX} (2**31 - 1), got {shown(value)}")
    return value


def check_workers(value: int | None, what: str = "--workers") -> int | None:
    """``value`` (None: the default, one per core) if it is 1 to :data:`MAX_WORKERS`, else the one message every
    command gives: ``--workers: expected 1 to 256, got N``."""
    if value is not None and not 1 <= value <= MAX_WORKERS:
        raise UserError(f"{what}: expected 1 to {MAX_WORKERS}, got {value}")
    return value
