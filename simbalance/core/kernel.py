"""Helpers shared by every engine kernel.

Each engine's kernel has the same shape: ``kernel(out, lo, hi, first_game, seed, lineups,
slot_strategy, slot_params, *prepared)`` plays the games ``lo .. hi - 1`` of a chunk into
``out[lo:hi]`` on scratch arrays it allocates once (reused for every game of the block: allocating
per game would dominate short games). It is compiled ``nogil=True``, and the runner plays a
chunk's blocks on a pool of threads (core/runner.py): no ``parallel=True``, whose pass cost 2 to
10 s of every cold compile.
"""

from __future__ import annotations

from numba import njit

from simbalance.core.rng import seed_game


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
