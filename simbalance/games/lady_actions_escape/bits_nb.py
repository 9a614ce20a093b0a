"""Bit tricks for hands kept as uint64 masks over card ids (decks of at most 64 cards)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit

ONE = np.uint64(1)


@njit(cache=True, inline="always")
def bit(card):
    return ONE << np.uint64(card)


@njit(cache=True, inline="always")
def has(mask, card):
    return (mask >> np.uint64(card)) & ONE != np.uint64(0)


@njit(cache=True, inline="always")
def nth_card(mask, r):
    """The card id of the ``r``-th set bit of ``mask`` (0 = lowest)."""
    for _ in range(r):
        mask &= mask - ONE
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def lowest_card(mask):
    return lowest_bit(mask)
