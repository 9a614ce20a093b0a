"""Helpers shared by every engine kernel.

Each engine's kernel has the same outer shape: split the chunk into blocks, give each block its own
scratch arrays (allocated once, reused for every game of the block), and ``prange`` over blocks.
Allocating per game would dominate short games; per block it costs nothing.

The block count is a constant, not the thread count: asking numba for its thread count inside a
kernel makes the kernel uncachable. 256 blocks keep threads evenly loaded on machines up to a few
dozen cores even when game lengths are uneven.
"""

from __future__ import annotations

from numba import njit

MAX_BLOCKS = 256


@njit(cache=True)
def n_blocks(n_games):
    """How many blocks a chunk of ``n_games`` is split into."""
    return max(1, min(n_games, MAX_BLOCKS))


@njit(cache=True, inline="always")
def block_bounds(n_games, blocks, b):
    """First and one-past-last game (chunk-relative) of block ``b``."""
    return (b * n_games) // blocks, ((b + 1) * n_games) // blocks
