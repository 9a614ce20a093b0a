"""``mcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse
2012), generic over the games.

Every iteration copies the real state into the scratch's ``work``, lets the game ``determinize`` it
for the searching seat (every card the seat cannot see shuffled among the places it cannot see, the
game's own stream re-keyed from the search's), and descends the tree from the root: at each node
the options legal in this determinization are counted as available; an option without a child yet
is expanded (uniform among them), else the child with the best UCT value

    mean reward of its mover + c * sqrt(ln(availability) / visits)

is taken (ties uniform, from the search's stream). The root's options always hold the rollout
strategy's own choice ("its own", asked once, before the iterations), also where the game's
option list leaves it out (common_nb.with_option). One node is expanded per iteration; the
play-out then runs to the end with the rollout strategies (or ``depth`` decisions, scored by the
game's ``evaluate``), and every node on the path adds its mover's share of the win. Options are the
game's own codes, so a node stands for "this option, after these options" whatever the hidden
cards were. The move is the root's most visited child (ties: the rollout strategy's own choice if
it is among them, else uniform), unless the rollout strategy's own choice ("its own") was expanded
and the most visited does not beat it by ``confidence`` standard errors (0: it only has to be more
visited): then its own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint, wins_tie
from simbalance.players.common_nb import (
    F_AVAIL,
    F_REWARD,
    F_REWARD2,
    F_VISITS,
    P_BUDGET,
    P_MCTS_CONFIDENCE,
    P_MCTS_DEPTH,
    P_UCT,
    T_CHILD,
    T_MOVER,
    T_NEXT,
    T_OPTION,
    T_PARENT,
    clearly_better,
    copy_state,
    finish,
    preferred,
    with_option,
)


@njit(cache=True, inline="always")
def _new_node(ti, tf, node, parent, option, mover):
    ti[node, T_PARENT] = parent
    ti[node, T_CHILD] = -1
    ti[node, T_NEXT] = -1
    ti[node, T_OPTION] = option
    ti[node, T_MOVER] = mover
    tf[node, F_VISITS] = 0.0
    tf[node, F_AVAIL] = 0.0
    tf[node, F_REWARD] = 0.0
    tf[node, F_REWARD2] = 0.0


@njit(cache=True, forceinline=True)
def mcts(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, policy, ctx, state, seat,
         prm, scratch):
    """The option ``seat`` (to move in ``state``) takes after ``prm[P_BUDGET]`` iterations."""
    work, ti, tf, options, rew, roll_sid, roll_prm, rng, _, _ = scratch
    players = roll_sid.shape[0]
    n_root = legal_options(ctx, state, options)
    if n_root <= 1:
        return options[0]
    pref = preferred(policy, determinize, ctx, state, seat, work, roll_sid, roll_prm, rng)
    iterations = max(1, np.int64(prm[P_BUDGET]))
    c = prm[P_UCT]
    depth = np.int64(prm[P_MCTS_DEPTH])
    capacity = ti.shape[0]
    _new_node(ti, tf, 0, -1, -1, -1)
    n_nodes = 1
    for _ in range(iterations):
        copy_state(work, state)
        determinize(ctx, work, seat, rng)
        node = 0
        while True:
            mover = to_move(ctx, work)
            if mover < 0:
                break
            n = legal_options(ctx, work, options)
            if node == 0:
                n = with_option(options, n, pref)
            # The children legal here: available once more; their options move to the end of
            # options[:n], so that options[:k] are the legal options without a child yet.
            k = n
            best = -1
            best_value = -np.inf
            ties = 0
            child = ti[node, T_CHILD]
            while child >= 0:
                code = ti[child, T_OPTION]
                j = 0
                while j < k and options[j] != code:
                    j += 1
                if j < k:
                    k -= 1
                    options[j] = options[k]
                    options[k] = code
                    tf[child, F_AVAIL] += 1.0
                    visits = tf[child, F_VISITS]
                    value = tf[child, F_REWARD] / visits + c * np.sqrt(np.log(tf[child, F_AVAIL]) / visits)
                    if value > best_value:
                        best_value = value
                        best = child
                        ties = 1
                    elif value == best_value:
                        ties += 1
                        if wins_tie(rng, ties):
                            best = child
                child = ti[child, T_NEXT]
            if k > 0 and n_nodes < capacity:
                option = options[randint(rng, k)]
                new = n_nodes
                n_nodes += 1
                _new_node(ti, tf, new, node, option, mover)
                tf[new, F_AVAIL] = 1.0
                ti[new, T_NEXT] = ti[node, T_CHILD]
                ti[node, T_CHILD] = new
                apply_option(ctx, work, option)
                node = new
                break
            if best < 0:  # the tree is full and no child is legal here: play out from here
                break
            apply_option(ctx, work, ti[best, T_OPTION])
            node = best
        finish(to_move, play_out, outcome, evaluate, ctx, work, roll_sid, roll_prm, depth, rew, players)
        while node > 0:
            tf[node, F_VISITS] += 1.0
            r = rew[ti[node, T_MOVER]]
            tf[node, F_REWARD] += r
            tf[node, F_REWARD2] += r * r
            node = ti[node, T_PARENT]
        tf[0, F_VISITS] += 1.0
    # The most visited option at the root (every root option is legal in the real state: the
    # determinizations keep what the seat sees, its own options included).
    most = 0.0
    child = ti[0, T_CHILD]
    while child >= 0:
        most = max(most, tf[child, F_VISITS])
        child = ti[child, T_NEXT]
    best = -1
    own = -1
    ties = 0
    child = ti[0, T_CHILD]
    while child >= 0:
        if ti[child, T_OPTION] == pref:
            own = child
        if tf[child, F_VISITS] == most:
            ties += 1
            if wins_tie(rng, ties):
                best = child
        child = ti[child, T_NEXT]
    if own < 0 or tf[own, F_VISITS] == most:
        return ti[best, T_OPTION] if own < 0 else pref
    n_b, n_o = tf[best, F_VISITS], tf[own, F_VISITS]
    m_b, m_o = tf[best, F_REWARD] / n_b, tf[own, F_REWARD] / n_o
    if clearly_better(m_b, tf[best, F_REWARD2] / n_b - m_b * m_b, n_b, m_o, tf[own, F_REWARD2] / n_o - m_o * m_o, n_o,
                      prm[P_MCTS_CONFIDENCE]):
        return ti[best, T_OPTION]
    return pref
