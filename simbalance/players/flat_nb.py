"""``flat``: one-step lookahead, the yardstick the tree search must beat.

For each legal option, ``k`` play-outs, each from a fresh determinization of what the searching
seat cannot see; the option with the highest mean share of the win is taken (ties uniform, from the
search's stream). Play-out ``r`` of every option starts from the same determinization and the same
re-keyed game stream (common random numbers): the options are compared on the same deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64, wins_tie
from simbalance.players.common_nb import P_BUDGET, P_FLAT_DEPTH, copy_state, finish


@njit(cache=True, forceinline=True)
def flat(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, ctx, state, seat, prm,
         scratch):
    """The option ``seat`` (to move in ``state``) takes after ``prm[P_BUDGET]`` play-outs per option."""
    work, _, _, options, rew, roll_sid, roll_prm, rng, sub, opt_sum = scratch
    players = roll_sid.shape[0]
    n = legal_options(ctx, state, options)
    if n <= 1:
        return options[0]
    playouts = max(1, np.int64(prm[P_BUDGET]))
    depth = np.int64(prm[P_FLAT_DEPTH])
    for j in range(n):
        opt_sum[j] = 0.0
    for _ in range(playouts):
        key = next_u64(rng)
        for j in range(n):
            sub[0] = key
            copy_state(work, state)
            determinize(ctx, work, seat, sub)
            apply_option(ctx, work, options[j])
            finish(to_move, play_out, outcome, evaluate, ctx, work, roll_sid, roll_prm, depth, rew, players)
            opt_sum[j] += rew[seat]
    best = 0
    ties = 1
    for j in range(1, n):
        if opt_sum[j] > opt_sum[best]:
            best = j
            ties = 1
        elif opt_sum[j] == opt_sum[best]:
            ties += 1
            if wins_tie(rng, ties):
                best = j
    return options[best]
