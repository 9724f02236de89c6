"""Success-counting d6 pools and initiative action ranks (dice-pool.md §2, §3).

A die showing 4 or 5 is one success; a 6 is one success and one die re-rolled (chained by default, D3).
Initiative successes S give ⌈S/5⌉ action slots at global ranks S and every multiple of 5 below S (D1).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.dicepool.rules.tables import (
    MAX_REROLL_CHAIN,
    RANKS_PER_TA,
    REROLL_FACE,
    SUCCESS_MIN,
)

_EXPR = tuple(f"{n}d6" for n in range(200))


def roll_pool(
    sink: EventSink,
    dice: int,
    why: str,
    actor: int | None = None,
    target: int | None = None,
    chain: bool = True,
) -> int:
    """Roll ``dice`` d6 and count successes; every 6 adds a re-rolled die (dice-pool.md §2, vector 16).

    With ``chain`` false only the first roll's sixes are re-rolled (D3 option ``reroll_chain``).
    """
    successes = 0
    n = dice
    passes = 0
    while n > 0 and passes < MAX_REROLL_CHAIN:
        faces = sink.roll(
            _EXPR[n] if n < 200 else f"{n}d6",
            why if passes == 0 else why + "_reroll",
            actor,
            target,
        ).faces
        sixes = 0
        for face in faces:
            if face >= SUCCESS_MIN:
                successes += 1
                if face == REROLL_FACE:
                    sixes += 1
        passes += 1
        n = sixes if (chain or passes == 1) else 0
    return successes


def action_ranks(successes: int, zero_acts_last: bool = False) -> list[int]:
    """Global action ranks of a combatant with ``successes``: S, then each multiple of 5 below S (D1, §3.2).

    11 → [11, 10, 5]; 10 → [10, 5]; 4 → [4]; 0 → [] (D2; option: [0], acting after everyone).
    """
    if successes <= 0:
        return [0] if zero_acts_last else []
    top = RANKS_PER_TA * ((successes - 1) // RANKS_PER_TA)
    return [successes, *range(top, 0, -RANKS_PER_TA)]


def action_turns(max_successes: int) -> int:
    """Number of Action Turns in the game turn: ⌈S_max / 5⌉, at least one (§3.2)."""
    return max(1, -(-max_successes // RANKS_PER_TA))


def ta_and_local_rank(rank: int, n_ta: int) -> tuple[int, int]:
    """(T.A. number 1..N in time order, local rank 5..1) of global ``rank`` (§3.2; rank 0 → last T.A., 0)."""
    if rank <= 0:
        return n_ta, 0
    k = n_ta - (-(-rank // RANKS_PER_TA)) + 1
    return k, rank - RANKS_PER_TA * (n_ta - k)


#: Most re-rolls of one tie (§3.1 sets no bound). Dice rolled by the engine never get there (1 in 6^50); a roller
#: giving one face forever (a person typing the same face on purpose, a test's constant dice) would loop without it.
#: Past it, the combatants still tied keep their order (by index).
MAX_TIE_REROLLS = 50


def tie_break(members: list[int], sink: EventSink, rank: int) -> list[int]:
    """Order combatants tied on ``rank`` and COORDINATION: one die each, highest first, re-roll equals (§3.1).

    Every group of equal faces rolls again, highest face first and depth first, in a loop (a long run of ties
    cannot reach Python's recursion limit), at most :data:`MAX_TIE_REROLLS` times. A roller with an
    ``announce_tie(members, rank, rerolls, face)`` method (a person typing the dice) is told before each round of
    dice who is tied and, from the second round on, that it re-rolls a tie on ``face``; the dice and the events
    are the same with or without it.
    """
    told = getattr(sink.roller, "announce_tie", None)
    out: list[int] = []
    todo: list[tuple[list[int], int, int]] = [(members, 0, 0)]  # (group, re-rolls so far, face it tied on)
    while todo:
        group, rerolls, tied_on = todo.pop()
        if len(group) == 1 or rerolls > MAX_TIE_REROLLS:
            out.extend(group)
            continue
        if told is not None:
            told(list(group), rank, rerolls, tied_on)
        faces = [sink.die(6, "tie_break", m) for m in group]
        groups = [([group[k] for k in range(len(group)) if faces[k] == face], rerolls + 1, face)
                  for face in sorted(set(faces), reverse=True)]
        todo.extend(reversed(groups))  # popped highest face first
    return out


def order_slots(
    entries: list[tuple[int, int]], coordination: list[int], sink: EventSink
) -> list[tuple[int, int]]:
    """Sort ``(rank, combatant)`` slots: descending rank, then COORDINATION, then a die roll (§3.1)."""
    entries.sort(key=lambda e: (-e[0], -coordination[e[1]], e[1]))
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(entries):
        rank, first = entries[i]
        j = i + 1
        while (
            j < len(entries)
            and entries[j][0] == rank
            and coordination[entries[j][1]] == coordination[first]
        ):
            j += 1
        if j - i == 1:
            out.append(entries[i])
        else:
            out.extend((rank, c) for c in tie_break([c for _, c in entries[i:j]], sink, rank))
        i = j
    return out


@lru_cache(maxsize=4)
def die_distribution(chain: bool = True, terms: int = 40) -> tuple[Fraction, ...]:
    """Exact P(one die yields k successes), k = 0..terms-1 (chained re-rolls are geometric, §2)."""
    half, third, sixth = Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)
    if not chain:
        return (half, third + sixth * half, sixth * half) + (Fraction(0),) * (terms - 3)
    probs = [half]
    for k in range(1, terms):
        probs.append(sixth**k * half + sixth ** (k - 1) * third)
    return tuple(probs)


def hit_probability(dice: int, needed: int, bonus: int = 0, chain: bool = True) -> Fraction:
    """Exact P(successes + bonus ≥ needed) for a pool of ``dice`` d6 (exact-value tests, analysis)."""
    need = needed - bonus
    if need <= 0:
        return Fraction(1)
    per_die = die_distribution(chain)[:need]
    below = [Fraction(1)] + [Fraction(0)] * (need - 1)  # P(sum = s) for s < need
    for _ in range(dice):
        nxt = [Fraction(0)] * need
        for s, p in enumerate(below):
            if p:
                for k, q in enumerate(per_die[: need - s]):
                    nxt[s + k] += p * q
        below = nxt
    return 1 - sum(below, Fraction(0))


def situation_ranks(
    order: list[int],
    coordination: list[int],
    names: list[str],
    absent_active: list[int],
    zero_acts_last: bool = False,
) -> tuple[list[int], int]:
    """Global ranks for the rest of a game turn given as an order of combatants (situations), and the
    number of Action Turns it spans; ``ValueError`` when §3 cannot produce that order.

    §3 gives a combatant one slot per Action Turn, in every Action Turn from its first to the last one. So
    a combatant with n slots left holds the last n T.A.s: the T.A.s are the sets {c : n_c > i}, read from
    the end of ``order``. Inside a T.A. slots run by rank, ties by COORDINATION (then a die): a strict rise in
    COORDINATION needs a lower rank, and whoever already acted in an earlier T.A. sits at rank 5 (§3.2).
    """
    counts: dict[int, int] = {}
    for c in order:
        counts[c] = counts.get(c, 0) + 1
    n_ta = max(counts.values())
    blocks: list[list[int]] = []
    end = len(order)
    for i in range(n_ta):  # i = 0: the last T.A.
        members = {c for c, n in counts.items() if n > i}
        block = order[end - len(members) : end]
        if set(block) != members or len(block) != len(members):
            raise ValueError(
                "no initiative roll gives this order: §3 gives each combatant one slot per Action Turn, "
                "in every Action Turn from its first one to the last (a combatant acting twice more needs "
                "everyone acting before it to act again too)"
            )
        blocks.insert(0, block)
        end -= len(members)
    if n_ta > 1 and absent_active and zero_acts_last:
        raise ValueError(
            "with zero_successes_act_last every active combatant acts in the last Action Turn; "
            "list each of them in the order"
        )
    ranks: list[int] = []
    previous: set[int] = set()
    for j, block in enumerate(blocks):
        group = 0
        for k, c in enumerate(block):
            if k and coordination[c] > coordination[block[k - 1]]:
                group += 1
            if c in previous and group:
                raise ValueError(
                    f"{names[c]} acted in the previous Action Turn, so it acts at rank 5 of this one, "
                    "before anyone with a lower COORDINATION (§3.1 tie-break)"
                )
            ranks.append(RANKS_PER_TA * (n_ta - 1 - j) + RANKS_PER_TA - group)
        last_rank_ok = group < RANKS_PER_TA or (zero_acts_last and j == n_ta - 1 and group == RANKS_PER_TA)
        if not last_rank_ok:
            raise ValueError(
                "too many rises in COORDINATION inside one Action Turn: each needs a lower rank (5 ranks)"
            )
        previous = set(block)
    return ranks, n_ta


@lru_cache(maxsize=4)
def hit_table(max_dice: int, max_need: int, chain: bool = True) -> tuple[tuple[float, ...], ...]:
    """``table[n][k]`` = P(n dice yield ≥ k successes) as floats, for n ≤ max_dice, k ≤ max_need.

    The same numbers as :func:`hit_probability` (a test compares every entry), built in one float pass and
    only on first use: the encoder needs it, importing the encoder must not pay for it (issue 8 §5).
    """
    per_die = [float(p) for p in die_distribution(chain, max_need + 1)]
    dist = [1.0] + [0.0] * max_need  # P(sum = s), s ≤ max_need; the tail beyond is folded into max_need
    table = []
    for _ in range(max_dice + 1):
        tail = 1.0
        row = []
        for k in range(max_need + 1):
            row.append(max(0.0, min(1.0, tail)))
            tail -= dist[k]
        table.append(tuple(row))
        nxt = [0.0] * (max_need + 1)
        for s, p in enumerate(dist):
            if p:
                for k in range(max_need + 1 - s):
                    nxt[s + k] += p * per_die[k]
        dist = nxt
    return tuple(table)
