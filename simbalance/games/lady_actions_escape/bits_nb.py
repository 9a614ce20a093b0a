"""Bit tricks for hands kept as uint64 masks over card ids (decks of at most 64 cards)."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

ONE = np.uint64(1)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ctpop: one instruction on current CPUs)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


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
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def lowest_card(mask):
    return np.int64(trailing_zeros(mask))
