"""Bit tricks for the kernels that also run as plain Python (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload


def lowest_bit(x):
    """The index of the lowest set bit of ``x`` (x != 0): one instruction when jitted."""
    x = int(x) & 0xFFFFFFFFFFFFFFFF
    return (x & -x).bit_length() - 1


@overload(lowest_bit)
def _lowest_bit_jitted(x):
    def impl(x):
        return np.int64(trailing_zeros(x))

    return impl
