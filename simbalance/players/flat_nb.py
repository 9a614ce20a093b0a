"""``flat``: one-step lookahead, the yardstick the tree search must beat.

For each legal option, ``k`` play-outs (``playouts``; with ``per_decision``, ``playouts`` split
evenly among the options), each from a fresh determinization of what the searching
seat cannot see. Play-out ``r`` of every option starts from the same determinization and the same
re-keyed game stream (common random numbers): the options are compared on the same deals, and each
option's results are kept as differences to the option the rollout strategy itself would take
("its own"). The option with the best mean is taken when it beats its own by more than
``confidence`` standard errors of the paired difference (0: whenever it is better); otherwise its
own (ties among the best: its own if among them, else uniform from the search's stream).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64, wins_tie
from simbalance.players.common_nb import (
    P_BUDGET,
    P_FLAT_CONFIDENCE,
    P_FLAT_DEPTH,
    P_FLAT_PER_DECISION,
    clearly_better,
    copy_state,
    finish,
    preferred,
    with_option,
)


@njit(cache=True, forceinline=True)
def flat(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, policy, ctx, state, seat,
         prm, scratch):
    """The option ``seat`` (to move in ``state``) takes after ``prm[P_BUDGET]`` play-outs per option
    (with ``prm[P_FLAT_PER_DECISION]``: per decision, split evenly among the options, at least one
    each: the budget of ``mcts`` with as many iterations, for the ladder's yardstick)."""
    work, _, _, options, rew, roll_sid, roll_prm, rng, sub, opt = scratch
    players = roll_sid.shape[0]
    n = legal_options(ctx, state, options)
    if n <= 1:
        return options[0]
    playouts = max(1, np.int64(prm[P_BUDGET]))
    depth = np.int64(prm[P_FLAT_DEPTH])
    pref = preferred(policy, determinize, ctx, state, seat, work, roll_sid, roll_prm, rng)
    n = with_option(options, n, pref)
    if prm[P_FLAT_PER_DECISION] != 0:
        playouts = max(1, playouts // n)
    own = -1
    for j in range(n):
        opt[0, j] = 0.0
        opt[1, j] = 0.0
        if options[j] == pref:
            own = j
    for _ in range(playouts):
        key = next_u64(rng)
        for j in range(n):
            sub[0] = key
            copy_state(work, state)
            determinize(ctx, work, seat, sub)
            apply_option(ctx, work, options[j])
            finish(to_move, play_out, outcome, evaluate, ctx, work, roll_sid, roll_prm, depth, rew, players)
            opt[2, j] = rew[seat]
        base = opt[2, own] if own >= 0 else 0.0
        for j in range(n):
            d = opt[2, j] - base
            opt[0, j] += d
            opt[1, j] += d * d
    top = opt[0, 0]
    for j in range(1, n):
        top = max(top, opt[0, j])
    best = -1
    ties = 0
    for j in range(n):
        if opt[0, j] == top:
            if j == own:
                return pref
            ties += 1
            if wins_tie(rng, ties):
                best = j
    if own < 0:
        return options[best]
    mean = opt[0, best] / playouts
    var = opt[1, best] / playouts - mean * mean
    # The paired difference against its own option: its variance is the differences' own.
    if clearly_better(mean, var, playouts, 0.0, 0.0, playouts, prm[P_FLAT_CONFIDENCE]):
        return options[best]
    return pref
