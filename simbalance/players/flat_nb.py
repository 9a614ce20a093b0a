"""``flat``: one-step lookahead, the yardstick the tree search must beat.

For each legal option, ``k`` play-outs (``playouts``; with ``per_decision``, ``playouts`` split
evenly among the options), each from a fresh determinization of what the searching
seat cannot see. Play-out ``r`` of every option starts from the same determinization and the same
re-keyed game stream (common random numbers): the options are compared on the same deals, and each
option's results are kept as differences to the option the rollout strategy itself would take
("its own"). The option with the best mean is taken when it beats its own by more than
``confidence`` standard errors of the paired difference (its variance shrunk toward 1/2 by one
pseudo-deal: ``common_nb.paired_choice``; 0: whenever it is better); otherwise its own (ties among the best: its own if among them, else uniform from the search's stream).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64
from simbalance.players import common_nb


@njit(cache=True, forceinline=True)
def flat(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
         copy_position, ctx, state, seat, prm, scratch):
    """The option ``seat`` (to move in ``state``) takes after ``prm[P_BUDGET]`` play-outs per option
    (with ``prm[P_FLAT_PER_DECISION]``: per decision, split evenly among the options, at least one
    each: the budget of ``mcts`` with as many iterations, for the ladder's yardstick)."""
    work, _, _, options, rew, roll_sid, roll_prm, rng, sub, opt, _, fit, deal = scratch
    players = roll_sid.shape[0]
    n = legal_options(ctx, state, options)
    if n <= 1:
        return options[0]
    playouts = max(1, np.int64(prm[common_nb.P_BUDGET]))
    depth = np.int64(prm[common_nb.P_FLAT_DEPTH])
    pref = common_nb.preferred(policy, determinize, copy_position, ctx, state, seat, work, roll_sid, roll_prm, rng)
    n = common_nb.with_option(options, n, pref)
    if prm[common_nb.P_FLAT_PER_DECISION] != 0:
        playouts = max(1, playouts // n)
    own = -1
    for j in range(n):
        opt[common_nb.O_SUM, j] = 0.0
        opt[common_nb.O_SUM2, j] = 0.0
        opt[common_nb.O_ALIVE, j] = 1.0
        opt[common_nb.O_DEALS, j] = 0.0
        if options[j] == pref:
            own = j
    for _ in range(playouts):
        sub[0] = next_u64(rng)
        copy_position(ctx, deal, state)
        determinize(ctx, deal, seat, sub)  # one deal for every option
        for j in range(n):
            copy_position(ctx, work, deal)
            apply_option(ctx, work, options[j])
            common_nb.finish(to_move, play_out, outcome, evaluate, features, ctx, work, roll_sid, roll_prm, depth, rew,
                             players, fit)
            opt[common_nb.O_RESULT, j] = rew[seat]
        common_nb.add_deal(opt, n, own)
    return common_nb.paired_choice(opt, options, n, own, pref, rng, prm[common_nb.P_FLAT_CONFIDENCE])
