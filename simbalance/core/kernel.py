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

from simbalance.core.rng import seed_game

MAX_BLOCKS = 256


@njit(cache=True)
def n_blocks(n_games):
    """How many blocks a chunk of ``n_games`` is split into."""
    return max(1, min(n_games, MAX_BLOCKS))


@njit(cache=True, inline="always")
def block_bounds(n_games, blocks, b):
    """First and one-past-last game (chunk-relative) of block ``b``."""
    return (b * n_games) // blocks, ((b + 1) * n_games) // blocks


@njit(cache=True, inline="always")
def begin_game(state, seed, game, out, i, lineups, slot_strategy, slot_params, players, seat_sid, sid_at,
               seat_params):
    """What every kernel does first for game ``game`` (recorded in ``out[i]``): key the random
    stream ``state`` to ``(seed, game)``, record the game index and each seat's strategy slot from
    the run's lineups, and give each seat its strategy id (``seat_sid[sid_at + s]``) and parameters
    (``seat_params[s]``)."""
    seed_game(state, seed, game)
    out[i].game = game
    lineup = lineups[game % lineups.shape[0]]
    for s in range(players):
        out[i].strategy[s] = lineup[s]
        seat_sid[sid_at + s] = slot_strategy[lineup[s]]
        # Element by element: a slice copy may allocate a temporary (numba cannot rule out that the
        # two overlap), and a game loop compiled with _nrt=False could then not call begin_game.
        for k in range(slot_params.shape[1]):
            seat_params[s, k] = slot_params[lineup[s], k]
