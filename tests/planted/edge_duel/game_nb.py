"""Edge duel's kernel: one draw per game (the package's docstring has the rules)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.kernel import begin_game
from simbalance.core.records import END_WIN
from simbalance.core.rng import uniform

ALPHA, BETA, GAMMA = 0, 1, 2


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, edges):
    rng = np.zeros(1, np.uint64)
    seat_sid = np.zeros(2, np.int64)
    seat_prm = np.zeros((2, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        game = first_game + i
        begin_game(rng, seed, game, out, i, lineups, slot_strategy, slot_params, 2, seat_sid, 0, seat_prm)
        first_wins = uniform(rng) < 0.5 + edges[seat_sid[0], seat_sid[1]]
        out[i].length = 1
        out[i].end = END_WIN
        out[i].winner = 0 if first_wins else 1
        out[i].winners = 1 if first_wins else 2
