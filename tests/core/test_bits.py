import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit, popcount


@njit
def _jitted(x):
    return lowest_bit(x)


def test_lowest_bit_jitted_and_plain_agree():
    for x in [1, 2, 3, 12, 1 << 40, (1 << 63) | (1 << 5)]:
        want = (x & -x).bit_length() - 1
        assert lowest_bit(np.uint64(x)) == want
        assert _jitted(np.uint64(x)) == want
    assert lowest_bit(np.uint64(1 << 63)) == 63
    assert _jitted(np.uint64(1 << 63)) == 63
    assert _jitted(np.int64(-8)) == 3


@njit
def _jitted_popcount(x):
    return popcount(x)


def test_popcount_jitted_and_plain_agree():
    for x in [0, 1, 3, 0xFF, (1 << 63) | 5, 0xFFFFFFFFFFFFFFFF]:
        want = bin(x).count("1")
        assert popcount(np.uint64(x)) == want
        assert _jitted_popcount(np.uint64(x)) == want
