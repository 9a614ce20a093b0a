"""Counter-based randomness for the engines.

Every game owns its own stream, keyed by ``(seed, game index)``: the same seed gives the same games
whatever the thread count, the chunk size or the machine. Never use ``np.random`` inside a kernel;
its per-thread streams are not reproducible.

The stream is SplitMix64 (Steele, Lea, Flood 2014): the state is a counter advanced by a constant
and each output is a strong mix of it. The state lives in a one-element ``uint64`` array so the
jitted helpers can advance it in place.

All constants are ``np.uint64``: mixing a Python int into uint64 arithmetic makes numba promote to
float64, which silently destroys the bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
GAME_SALT = np.uint64(0xD1B54A32D192ED03)
MASK32 = np.uint64(0xFFFFFFFF)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)
S11 = np.uint64(11)
TWO_POW_M53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of one 64-bit word."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def seed_game(state, seed, game):
    """Key ``state`` (uint64[1]) to game ``game`` of run ``seed``."""
    state[0] = mix64(mix64(np.uint64(seed) ^ GAME_SALT) + np.uint64(game) * GOLDEN)


@njit(cache=True, inline="always")
def next_u64(state):
    state[0] += GOLDEN
    return mix64(state[0])


@njit(cache=True, inline="always")
def randint(state, n):
    """Uniform integer in ``[0, n)`` for ``0 < n < 2**32``, without bias (Lemire 2019)."""
    bound = np.uint64(n)
    m = (next_u64(state) >> S32) * bound
    low = m & MASK32
    if low < bound:
        threshold = ((MASK32 + np.uint64(1)) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> S32) * bound
            low = m & MASK32
    return np.int64(m >> S32)


@njit(cache=True, inline="always")
def wins_tie(state, ties):
    """Reservoir sampling of equally valued options: the ``ties``-th option found equal to the best
    replaces it with probability 1/ties, so every tied option is kept with the same chance whatever
    the scan order (a player who keeps the first of equals favours the lowest seat or card)."""
    return randint(state, ties) == 0


@njit(cache=True, inline="always")
def fair_best(state, v, best, ties):
    """One step of a scan for the highest value, ties broken by ``wins_tie``: returns (take this
    candidate?, the best value so far, how many candidates share it). A value above ``best`` is a
    new best; one equal to it is the ``ties``-th and is taken with probability 1/ties. Start with
    ``best`` below every value and ``ties`` 0; a draw is made only on a tie."""
    if v > best:
        return True, v, 1
    if v == best:
        ties += 1
        return wins_tie(state, ties), best, ties
    return False, best, ties


@njit(cache=True, inline="always")
def uniform(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> S11) * TWO_POW_M53


@njit(cache=True, inline="always")
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of the first ``n`` items of ``arr`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit(cache=True, inline="always")
def shuffled_range(state, out, n):
    """``out[:n]``: a uniformly random order of ``0 .. n-1`` (a freshly shuffled deck of card ids)."""
    for c in range(n):
        out[c] = c
    shuffle(state, out, n)


@njit(cache=True)
def _draw_u64(seed, game, count):
    """Test helper: the first ``count`` words of one game's stream."""
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = next_u64(state)
    return out


@njit(cache=True)
def _draw_randint(seed, game, n, count):
    """Test helper: ``count`` draws of ``randint(n)`` from one game's stream."""
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = randint(state, n)
    return out


@njit(cache=True)
def _draw_shuffle(seed, game, n):
    """Test helper: one shuffle of ``0..n-1`` from one game's stream."""
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    out = np.arange(n)
    shuffle(state, out, n)
    return out


def derive_seed(seed: int, purpose: str, index: int = 0) -> int:
    """The seed of one part of a study (a sweep's fresh re-check, a tuning generation, ...): a
    SplitMix64 mix of the run's seed, a hash of ``purpose`` and ``index``, so every part draws its
    own games, independent of every other part and of the run's own seed, yet reproducible."""
    import hashlib

    salt = int.from_bytes(hashlib.sha256(purpose.encode()).digest()[:8], "little")
    mask = (1 << 64) - 1
    z = (int(seed) ^ salt) & mask
    z = (z + (int(index) + 1) * int(GOLDEN)) & mask
    z = ((z ^ (z >> 30)) * int(MIX1)) & mask
    z = ((z ^ (z >> 27)) * int(MIX2)) & mask
    return z ^ (z >> 31)
