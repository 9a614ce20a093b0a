"""Bit tricks for the kernels that also run as plain Python (NUMBA_DISABLE_JIT=1, the bench's
baseline): jitted, each is one instruction (LLVM cttz / ctpop); as Python, int arithmetic."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload

WORD = 0xFFFFFFFFFFFFFFFF


def lowest_bit(x):
    """The index of the lowest set bit of ``x`` (x != 0)."""
    x = int(x) & WORD
    return (x & -x).bit_length() - 1


def popcount(x):
    """The number of set bits of ``x`` (as 64 bits)."""
    return (int(x) & WORD).bit_count()


@overload(lowest_bit)
def _lowest_bit_jitted(x):
    def impl(x):
        return np.int64(trailing_zeros(x))

    return impl


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@overload(popcount)
def _popcount_jitted(x):
    def impl(x):
        return _ctpop(x)

    return impl
