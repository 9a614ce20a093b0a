"""The fitted evaluation's recording kernel (``simbalance fit-eval``, studies/evaluation.py): games
played by the seats' strategies, with every seat's features recorded at cut points spread over each
game, and every seat's final share of the win.

Written once for every game over the resumable steps (core/spec.Resumable) and the game's search
hooks (``features``, ``evaluate``, ``outcome``), like the search itself. Each game calls it through
an entry point that names its steps once (``play_nb.record_positions``, picked by
``players.game_kernel``), which numba caches: called from Python with the game's functions as
arguments it would be compiled again in every process (players/search_nb.py says why). It is
``inline="always"`` for the entry point's cache (players/card_value_nb.py says why).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import MAX_SEATS
from simbalance.players.common_nb import shares


@njit(nogil=True, inline="always")
def record_positions(start, to_move, play_out, outcome, evaluate, features, ctx, state, block, out):
    """Games ``lo .. hi - 1`` of ``seed`` (game ``g`` seats ``lineups[g % len(lineups)]``), each cut
    every ``every`` decisions, the first cut after ``1 + g % every`` (so that the cuts of the games
    together cover every decision of a game), at most ``cap`` cuts a game. Game ``lo + i``'s cut
    ``k`` is row ``i * cap + k`` of ``feats`` (points, seats, features: each seat's ``features``)
    and of ``hand`` (points, seats: the game's hand-written ``evaluate`` there, its baseline);
    ``final[i]``: each seat's share of the win at the end (1, 1/k for a k-way shared win, 0; all 0
    for a game with no winner); ``n_points[i]``: its cuts."""
    # the block's inputs and its outputs come as two tuples: a game's entry point passes them on whole
    lineups, slot_strategy, slot_params, seed, lo, hi, every, cap = block
    feats, hand, final, n_points = out
    players = final.shape[1]
    n_lineups = lineups.shape[0]
    n_params = slot_params.shape[1]
    sid = np.zeros(players, np.int64)
    prm = np.zeros((players, n_params), np.float64)
    rew = np.zeros(MAX_SEATS, np.float64)
    for i in range(hi - lo):
        game = lo + i
        for s in range(players):
            slot = lineups[game % n_lineups, s]
            sid[s] = slot_strategy[slot]
            for j in range(n_params):
                prm[s, j] = slot_params[slot, j]
        start(ctx, state, seed, game)
        k = 0
        step = 1 + game % every
        while to_move(ctx, state) >= 0:
            play_out(ctx, state, sid, prm, np.int64(step))
            if to_move(ctx, state) < 0:
                break
            at = i * cap + k
            for s in range(players):
                features(ctx, state, s, feats[at, s])
            evaluate(ctx, state, rew)
            for s in range(players):
                hand[at, s] = rew[s]
            k += 1
            step = every if k < cap else -1  # -1: on to the end
        n_points[i] = k
        shares(outcome(ctx, state), rew, players)
        for s in range(players):
            final[i, s] = rew[s]
