"""``mcts``: information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012), generic
over the games, on one tree of what the searching seat observes (another seat's hidden move a chance
node: "Hidden moves" below), with sequential halving at the root (Karnin, Koren and Somekh 2013, as
in Gumbel MuZero) and progressive widening below it.

Every iteration copies the real state into the scratch's ``work`` and lets the game ``determinize``
it for the searching seat (every card the seat cannot see shuffled among the places it cannot see,
the game's own stream re-keyed). The root's options always hold the rollout strategy's own choice
("its own", asked once, before the iterations), also where the game's option list leaves it out
(common_nb.with_option).

**The root** (``halving`` = 1, the default) compares its options as ``flat`` does, on the same
deals (common random numbers: one determinization and one re-keyed game stream per deal, for every
option in the running), but spends the budget where it matters: in ``ceil(log2(options))`` rounds,
each option in the running is played on ``budget / (options in the running * rounds)`` deals (at
least one), then the better half (by the mean difference to its own option) stays in the running;
its own option always stays, so that every comparison with it is paired. The move is the best of
the last round, when it beats its own by more than ``confidence`` standard errors of the paired
difference (its variance shrunk toward 1/2 by one pseudo-deal: ``common_nb.paired_choice``);
otherwise its own. With ``halving`` = 0 the root is a tree node like the others (UCT),
and the move is the most visited option, unless its own was expanded and the most visited does not
beat it by ``confidence`` standard errors (0: it only has to be more visited).

**Below the root**, the tree: at each node the options legal in this determinization are counted
as available; the child with the best UCT value

    mean reward of its mover + c * sqrt(ln(availability) / visits)

is taken (ties uniform, from the search's stream), and a node grows a new child (one per iteration,
then the play-out) while it has fewer than ``ceil(widening * sqrt(visits))`` children (progressive
widening; ``widening`` = 0: every legal option before any is revisited). The first child a node
grows is the option the strategy of the seat to move would take there (its rollout strategy for a
search seat, its own strategy for the others), the next ones uniform among the rest: with a small
budget the tree plays what the play-outs would play, and a seat's alternatives are tried only as
the visits grow. The play-out then runs to the end with the rollout strategies (or ``depth``
decisions, scored by the game's ``evaluate``), and every node on the path adds its mover's share of
the win. Options are the game's own codes, so a node stands for "this option, after these options"
whatever the hidden cards were.

**Hidden moves** (the game's ``observe(ctx, state, option, seat)``: what ``seat`` sees of the
option the seat to move takes; common_nb.fully_observed, the default, says every seat sees every
move). The tree is built on what the searching seat observes, as in multiple-observer ISMCTS
(Cowling, Powley and Whitehouse 2012): a decision of another seat is a *chance node* for it when

- the searching seat cannot tell that seat's options apart (one of them observed as other than
  itself): the tree does not branch on a move it could not see; or
- a move on the path from the root was hidden from that seat (the searching seat's face-down sign,
  say): branching there would let the tree's model of that seat answer a move it never saw.

At a chance node the move is drawn as a play-out draws it (the mover's strategy, its rollout
strategy for a search seat, from the determinization's stream) and the iteration goes on to the
child that stands for what the searching seat observes of it (``T_CHANCE``), grown like any other
(one new node per iteration). A game whose moves are all seen (every built-in game) never meets a
chance node: the tree is the one above, move for move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import fair_best, next_u64, randint, wins_tie
from simbalance.players.common_nb import (
    F_AVAIL,
    F_REWARD,
    F_REWARD2,
    F_VISITS,
    O_ALIVE,
    O_DEALS,
    O_RESULT,
    O_SUM,
    O_SUM2,
    P_BUDGET,
    P_MCTS_CONFIDENCE,
    P_MCTS_DEPTH,
    P_MCTS_HALVING,
    P_MCTS_WIDENING,
    P_UCT,
    T_CHANCE,
    T_CHILD,
    T_MOVER,
    T_NEXT,
    T_OPTION,
    T_PARENT,
    add_deal,
    clearly_better,
    finish,
    paired_choice,
    preferred,
    with_option,
)


@njit(cache=True, inline="always")
def _new_node(ti, tf, node, parent, option, mover):
    """Node ``node``: ``option``, chosen by ``mover``, as the newest child of ``parent`` (-1: the root)."""
    ti[node, T_PARENT] = parent
    ti[node, T_CHILD] = -1
    ti[node, T_NEXT] = -1
    ti[node, T_OPTION] = option
    ti[node, T_MOVER] = mover
    ti[node, T_CHANCE] = 0
    tf[node, F_VISITS] = 0.0
    tf[node, F_AVAIL] = 0.0
    tf[node, F_REWARD] = 0.0
    tf[node, F_REWARD2] = 0.0
    if parent >= 0:
        ti[node, T_NEXT] = ti[parent, T_CHILD]
        ti[parent, T_CHILD] = node


@njit(cache=True, inline="always")
def _children_allowed(visits, widening):
    """How many children a node of ``visits`` visits may have (progressive widening; 0: all)."""
    if widening <= 0.0:
        return np.int64(1) << 40
    return max(np.int64(1), np.int64(np.ceil(widening * np.sqrt(visits))))


@njit(cache=True, forceinline=True)
def _grow(policy, copy_position, ctx, work, guess, options, k, mover, roll_sid, roll_prm, rng):
    """The option a node grows next, among ``options[:k]`` (the legal options without a child yet):
    the one the mover's strategy would take, if it is among them, else uniform."""
    if k > 1:
        copy_position(ctx, guess, work)
        wanted = policy(ctx, guess, roll_sid[mover], roll_prm[mover])
        for j in range(k):
            if options[j] == wanted:
                return wanted
        return options[randint(rng, k)]
    return options[0]


@njit(cache=True, inline="always")
def blind_to(observe, ctx, work, option, mover, players, blind):
    """``blind`` (a bit per seat: a move on the path was hidden from it) with every seat but the
    mover that does not see ``option``, the mover's move in ``work`` (before it is applied)."""
    for q in range(players):
        if q != mover and observe(ctx, work, option, q) != option:
            blind |= np.int64(1) << q
    return blind


@njit(cache=True, inline="always")
def _unseen(observe, ctx, work, options, n, seat):
    """Does ``seat`` fail to tell the pending decision's options ``options[:n]`` apart (one of them
    observed as other than itself)?"""
    for j in range(n):
        if observe(ctx, work, options[j], seat) != options[j]:
            return True
    return False


@njit(cache=True, inline="always")
def _chance_child(ti, node, label, mover):
    """``node``'s chance child for what the searching seat observes (``label``) of ``mover``'s move; -1: none yet."""
    child = ti[node, T_CHILD]
    while child >= 0:
        if ti[child, T_CHANCE] == 1 and ti[child, T_OPTION] == label and ti[child, T_MOVER] == mover:
            return child
        child = ti[child, T_NEXT]
    return -1


@njit(cache=True, forceinline=True)
def _descend(to_move, legal_options, apply_option, policy, observe, copy_position, ctx, work, guess, ti, tf, options,
             roll_sid, roll_prm, rng, node, n_nodes, pref, c, widening, seat, blind):
    """From ``node`` (the options down to it already applied to ``work``; ``blind``: the seats a move
    on the way was hidden from) down the tree by UCT, until a node grows a child (applied too) or
    the game ends; returns (the last node, the nodes in use). At the root (node 0, UCT root only)
    the rollout strategy's own option ``pref`` is always among the options, and every option grows
    a child before any is revisited. Another seat's decision that ``seat`` cannot see, or taken
    after a move hidden from its mover, is a chance node (module doc, "Hidden moves")."""
    capacity = ti.shape[0]
    players = roll_sid.shape[0]
    while True:
        mover = to_move(ctx, work)
        if mover < 0:
            break
        n = legal_options(ctx, work, options)
        at_root = node == 0
        if at_root:
            n = with_option(options, n, pref)
        if mover != seat and ((blind >> mover) & 1 or _unseen(observe, ctx, work, options, n, seat)):
            option = policy(ctx, work, roll_sid[mover], roll_prm[mover])  # as a play-out draws it
            label = observe(ctx, work, option, seat)
            blind = blind_to(observe, ctx, work, option, mover, players, blind)
            apply_option(ctx, work, option)
            child = _chance_child(ti, node, label, mover)
            if child >= 0:
                node = child
                continue
            if n_nodes < capacity:
                _new_node(ti, tf, n_nodes, node, label, mover)
                ti[n_nodes, T_CHANCE] = 1
                tf[n_nodes, F_AVAIL] = 1.0
                node = n_nodes
                n_nodes += 1
            break
        # The children legal here: available once more; their options move to the end of
        # options[:n], so that options[:k] are the legal options without a child yet.
        k = n
        best = -1
        best_value = -np.inf
        ties = 0
        children = 0
        child = ti[node, T_CHILD]
        while child >= 0:
            if ti[child, T_CHANCE] == 1:  # stands for a hidden move, not for one of these options
                child = ti[child, T_NEXT]
                continue
            children += 1
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
                take, best_value, ties = fair_best(rng, value, best_value, ties)
                if take:
                    best = child
            child = ti[child, T_NEXT]
        room = at_root or best < 0 or children < _children_allowed(tf[node, F_VISITS], widening)
        if k > 0 and room and n_nodes < capacity:
            option = _grow(policy, copy_position, ctx, work, guess, options, k, mover, roll_sid, roll_prm, rng)
            _new_node(ti, tf, n_nodes, node, option, mover)
            tf[n_nodes, F_AVAIL] = 1.0
            node = n_nodes
            n_nodes += 1
            blind = blind_to(observe, ctx, work, option, mover, players, blind)
            apply_option(ctx, work, option)
            break
        if best < 0:  # the tree is full and no child is legal here: play out from here
            break
        blind = blind_to(observe, ctx, work, ti[best, T_OPTION], mover, players, blind)
        apply_option(ctx, work, ti[best, T_OPTION])
        node = best
    return node, n_nodes


@njit(cache=True, inline="always")
def _back_up(ti, tf, node, rew):
    """Every node from ``node`` up adds its mover's share of the play-out's win; the root a visit."""
    while node > 0:
        tf[node, F_VISITS] += 1.0
        r = rew[ti[node, T_MOVER]]
        tf[node, F_REWARD] += r
        tf[node, F_REWARD2] += r * r
        node = ti[node, T_PARENT]
    tf[0, F_VISITS] += 1.0


@njit(cache=True, forceinline=True)
def mcts(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy, observe,
         copy_position, ctx, state, seat, prm, scratch):
    """The option ``seat`` (to move in ``state``) takes after about ``prm[P_BUDGET]`` iterations."""
    work, ti, tf, options, rew, roll_sid, roll_prm, rng, sub, opt, guess, fit, deal = scratch
    players = roll_sid.shape[0]
    n_root = legal_options(ctx, state, options)
    if n_root <= 1:
        return options[0]
    pref = preferred(policy, determinize, copy_position, ctx, state, seat, work, roll_sid, roll_prm, rng)
    budget = max(1, np.int64(prm[P_BUDGET]))
    c = prm[P_UCT]
    depth = np.int64(prm[P_MCTS_DEPTH])
    widening = prm[P_MCTS_WIDENING]
    _new_node(ti, tf, 0, -1, -1, -1)
    if prm[P_MCTS_HALVING] == 0.0:
        n_nodes = 1
        for _ in range(budget):
            copy_position(ctx, work, state)
            determinize(ctx, work, seat, rng)
            node, n_nodes = _descend(to_move, legal_options, apply_option, policy, observe, copy_position, ctx, work,
                                     guess, ti, tf,
                                     options, roll_sid, roll_prm, rng, 0, n_nodes, pref, c, widening, seat,
                                     np.int64(0))
            finish(to_move, play_out, outcome, evaluate, features, ctx, work, roll_sid, roll_prm, depth, rew, players,
                   fit)
            _back_up(ti, tf, node, rew)
        return _most_visited(ti, tf, pref, rng, prm[P_MCTS_CONFIDENCE])

    # Sequential halving on the same deals. Root option j is node 1 + j (its code kept there:
    # the descents reuse ``options``).
    n_root = with_option(options, n_root, pref)
    if n_root > budget:
        n_root = _sample_options(options, n_root, pref, max(np.int64(2), budget), rng)
    own = -1
    for j in range(n_root):
        _new_node(ti, tf, 1 + j, 0, options[j], seat)
        opt[O_SUM, j] = 0.0
        opt[O_SUM2, j] = 0.0
        opt[O_ALIVE, j] = 1.0
        opt[O_DEALS, j] = 0.0
        if options[j] == pref:
            own = j
    n_nodes = 1 + n_root
    rounds = np.int64(np.ceil(np.log2(n_root)))
    running = n_root
    for r in range(rounds):
        deals = max(np.int64(1), budget // (running * rounds))
        for _ in range(deals):
            sub[0] = next_u64(rng)
            copy_position(ctx, deal, state)
            determinize(ctx, deal, seat, sub)  # one deal for every option in the running
            for j in range(n_root):
                if opt[O_ALIVE, j] == 0.0:
                    continue
                copy_position(ctx, work, deal)
                blind = blind_to(observe, ctx, work, ti[1 + j, T_OPTION], seat, players, np.int64(0))
                apply_option(ctx, work, ti[1 + j, T_OPTION])
                tf[1 + j, F_AVAIL] += 1.0
                node, n_nodes = _descend(to_move, legal_options, apply_option, policy, observe, copy_position, ctx,
                                         work, guess, ti, tf, options, roll_sid, roll_prm, rng, 1 + j, n_nodes, pref, c, widening, seat,
                                         blind)
                finish(to_move, play_out, outcome, evaluate, features, ctx, work, roll_sid, roll_prm, depth, rew, players,
                   fit)
                _back_up(ti, tf, node, rew)
                opt[O_RESULT, j] = rew[seat]
            add_deal(opt, n_root, own)
        if r < rounds - 1:
            running = _keep_better_half(opt, n_root, running, own, rng)
    for j in range(n_root):
        options[j] = ti[1 + j, T_OPTION]
    return paired_choice(opt, options, n_root, own, pref, rng, prm[P_MCTS_CONFIDENCE])


@njit(cache=True, inline="always")
def _sample_options(options, n, pref, m, rng):
    """A budget smaller than the options: the rollout strategy's own option ``pref`` and ``m - 1``
    others drawn uniformly (from the search's stream) in ``options[:m]``; returns ``m``."""
    for j in range(n):
        if options[j] == pref:
            options[j] = options[0]
            options[0] = pref
            break
    for j in range(1, m):  # a partial Fisher-Yates shuffle of options[1:n]
        pick = j + randint(rng, n - j)
        code = options[pick]
        options[pick] = options[j]
        options[j] = code
    return m


@njit(cache=True, inline="always")
def _keep_better_half(opt, n, running, own, rng):
    """Of the ``running`` options in the running, the ``ceil(running / 2)`` with the best sums of
    differences stay (ties uniform, from the search's stream), and the rollout strategy's own
    (``own``) with them; returns how many stay."""
    keep = (running + 1) // 2
    for _ in range(keep):  # mark the best option not yet kept (2), ``keep`` times
        top = -np.inf
        for j in range(n):
            if opt[O_ALIVE, j] == 1.0:
                top = max(top, opt[O_SUM, j])
        pick = -1
        ties = 0
        for j in range(n):
            if opt[O_ALIVE, j] == 1.0 and opt[O_SUM, j] == top:
                ties += 1
                if wins_tie(rng, ties):
                    pick = j
        opt[O_ALIVE, pick] = 2.0
    left = 0
    for j in range(n):
        stays = opt[O_ALIVE, j] == 2.0 or j == own
        opt[O_ALIVE, j] = 1.0 if stays else 0.0
        left += 1 if stays else 0
    return left


@njit(cache=True, inline="always")
def _most_visited(ti, tf, pref, rng, confidence):
    """The UCT root's move: the most visited option (every root option is legal in the real state:
    the determinizations keep what the seat sees, its own options included; ties: the rollout
    strategy's own choice ``pref`` if it is among them, else uniform), unless ``pref`` was expanded
    and the most visited does not beat it by ``confidence`` standard errors."""
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
                      confidence):
        return ti[best, T_OPTION]
    return pref
