"""Seat compensation's deals (docs/rules/<game>.md, "Seat compensation"): who gets each card of a
deal when seats are dealt different numbers of cards.

A game reads its ``compensation.cards.K`` keys with core.config.seat_compensation, turns them into
each seat's number of cards here, once, in its ``prepare``, and its deal function reads the order
from an array: with every value 0 the order is the printed round (card k to seat (first + k) % P),
so the games are the same as without compensation.
"""

from __future__ import annotations

import numpy as np


def deal_order(counts: list[int], first: int = 0) -> np.ndarray:
    """The seat of each card of a deal in which seat s gets ``counts[s]`` cards: round the table from
    seat ``first``, a seat left out once it has its cards (equal counts: the printed round robin)."""
    players = len(counts)
    left = list(counts)
    order = []
    seat = first % players
    while sum(left) > 0:
        if left[seat] > 0:
            order.append(seat)
            left[seat] -= 1
        seat = (seat + 1) % players
    return np.array(order, dtype=np.int64)


def spread(counts: list[int], extra: list[int], total: int, first: int = 0) -> list[int]:
    """Each seat's cards when a whole deck of ``total`` is dealt: ``counts`` (the printed deal) plus
    ``extra`` (the compensation), the difference to ``total`` given to (taken from) the seats without
    compensation one card at a time round the table from ``first`` (every seat when all have some)."""
    players = len(counts)
    out = [c + e for c, e in zip(counts, extra, strict=True)]
    free = [s for s in range(players) if extra[s] == 0] or list(range(players))
    ring = sorted(free, key=lambda s: (s - first) % players)
    diff = total - sum(out)
    i = 0
    while diff != 0:
        seat = ring[i % len(ring)]
        step = 1 if diff > 0 else -1
        out[seat] += step
        diff -= step
        i += 1
    return out
