"""What both search players share: parameter positions, the search's own random stream, the
preallocated scratch, copying a state, the play-out and its result.

The scratch (``new_search``) is allocated once per block of games and reused at every decision: no
allocation in the game loop. It is a tuple

``(work, ti, tf, options, rew, roll_sid, roll_prm, rng, sub, opt, guess, fit, deal)``:

- ``work``: a game state, the determinization an iteration plays in;
- ``ti`` int64[capacity, N_TI], ``tf`` float64[capacity, N_TF]: the tree's nodes (T_*, F_*);
- ``options`` int64[max options]: a decision's options;
- ``rew`` float64[MAX_SEATS]: a play-out's result per seat;
- ``roll_sid``, ``roll_prm``: the seats' strategies in the play-outs (a search seat plays its
  rollout strategy);
- ``rng``, ``sub`` uint64[1]: the search's stream, and a sub-stream (flat's common random numbers);
- ``opt`` float64[N_OPT, max options]: per option at the root, when the options are compared on
  the same deals (flat, and mcts's sequential halving): the sums of the differences of its results
  to the rollout strategy's option, of their squares, one deal's result, whether the option is
  still in the running, and its number of deals (O_*);
- ``guess``: a second game state, where a tree node asks the strategy of the seat to move what it
  would play (a game's ``policy`` may change the state it reads);
- ``fit`` float64[2, features]: the fitted evaluation (docs/strategies.md, "The fitted
  evaluation"): row ``FIT_W`` its weights, row ``FIT_F`` one seat's features as ``fitted_shares``
  computes them; no columns when a cut play-out is scored by the game's hand-written ``evaluate``;
- ``deal``: a third game state, one deal of the root's options compared on the same deals (flat,
  mcts's halving): determinized once, then copied into ``work`` for each option, where each option
  used to determinize ``work`` again from the same key (the same state: the same games, one
  determinization a deal instead of one an option).
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit
from numba.extending import overload

from simbalance.core.bits import popcount
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import GOLDEN, mix64, seed_game, wins_tie
from simbalance.players import FLAT, MCTS, SEARCH_MAX_ID

# ---- parameter positions (simbalance.players.SEARCH_PARAMS) -------------------------------------
P_BUDGET = 0  # mcts: iterations per decision; flat: play-outs per option (or per decision: P_FLAT_PER_DECISION)
P_UCT = 1  # mcts: the UCT exploration constant
P_MCTS_DEPTH = 2  # mcts: decisions a play-out plays before the evaluation scores it (0: to the end)
P_MCTS_CONFIDENCE = 3  # mcts: standard errors by which an option must beat the rollout strategy's own
P_MCTS_HALVING = 4  # mcts: 1: sequential halving at the root, on the same deals for every option; 0: UCT there too
P_MCTS_WIDENING = 5  # mcts: a node of v visits has at most ceil(widening * sqrt(v)) children (0: all before a revisit)
P_MCTS_ROLLOUT = 6  # mcts: the rollout strategy's id, its parameters after it
P_FLAT_DEPTH = 1
P_FLAT_CONFIDENCE = 2
P_FLAT_PER_DECISION = 3  # flat: 1 when ``playouts`` is the decision's whole budget, split among the options
P_FLAT_ROLLOUT = 4

# ---- tree nodes ---------------------------------------------------------------------------------
T_PARENT = 0
T_CHILD = 1  # first child (-1: none)
T_NEXT = 2  # next sibling (-1: none)
T_OPTION = 3  # the option code that leads here from the parent
T_MOVER = 4  # the seat that chose it (its reward is backed up here)
T_CHANCE = 5  # 1: a move hidden from the searching seat, drawn by its mover's strategy; T_OPTION is then what the
#              searching seat observes of it (``observe``), not the move (ismcts_nb: "Hidden moves")
N_TI = 6
F_VISITS = 0
F_AVAIL = 1  # how often the option was legal when its parent was visited (ISMCTS availability)
F_REWARD = 2  # summed results of the mover
F_REWARD2 = 3  # ... and their squares
N_TF = 4

# ---- the root's options compared on the same deals (opt's rows) ------------------------------
O_SUM = 0  # sum of the differences of its results to the rollout strategy's option
O_SUM2 = 1  # ... and of their squares
O_RESULT = 2  # its result on the current deal
O_ALIVE = 3  # 1: still in the running
O_DEALS = 4  # deals it was played on
N_OPT = 5

# ---- the fitted evaluation (scratch's ``fit`` rows) -------------------------------------------
FIT_W = 0  # the conditional logit's weights: one per feature of the game's search_nb.FEATURES, one per feature for "no winner", its intercept
FIT_F = 1  # one seat's features (search_nb.features writes them here)

# The search's stream: derive_seed(seed, "search") (core/rng), computed in the kernel.
SEARCH_SALT = np.uint64(int.from_bytes(hashlib.sha256(b"search").digest()[:8], "little"))


@njit(cache=True, inline="always")
def is_search(sid):
    return sid <= SEARCH_MAX_ID


@njit(cache=True, inline="always")
def search_seed(seed):
    """``core.rng.derive_seed(seed, "search")``, in the kernel."""
    return mix64((np.uint64(seed) ^ SEARCH_SALT) + GOLDEN)


@njit(cache=True, inline="always")
def seed_search(rng, seed, game, decision):
    """Key the search's stream to search decision ``decision`` of game ``game`` of run ``seed``:
    never the game's own stream, so the game is the same whatever the budget."""
    seed_game(rng, search_seed(seed), game)
    rng[0] = mix64(rng[0] + np.uint64(decision + 1) * GOLDEN)


def copy_state(dst, src):
    """Copy every array of the game state ``src`` into ``dst`` (same layout): a clone without the
    allocation. Plain Python below; jitted, one element loop per array (the overload)."""
    for d, s in zip(dst, src, strict=True):
        d[...] = s


@overload(copy_state)
def _copy_state_jitted(dst, src):
    lines = []
    for i, arr in enumerate(src):
        if arr.ndim == 1:
            lines.append(f"    d = dst[{i}]\n    s = src[{i}]\n    for j in range(s.shape[0]):\n        d[j] = s[j]\n")
        elif arr.ndim == 2:
            lines.append(f"    d = dst[{i}]\n    s = src[{i}]\n    for j in range(s.shape[0]):\n"
                         f"        for k in range(s.shape[1]):\n            d[j, k] = s[j, k]\n")
        else:
            lines.append(f"    dst[{i}][...] = src[{i}]\n")
    namespace: dict = {}
    exec("def impl(dst, src):\n" + "".join(lines) + "    return None\n", namespace)  # noqa: S102
    return namespace["impl"]


@njit(cache=True, inline="always")
def copy_position(ctx, dst, src):
    """The search's ``copy_position`` hook as ``search_nb.search`` takes it for every game that
    calls it: every array of the state whole (``copy_state``). A game whose state holds space no
    position uses (fixed maxima above the run's deck, scratch written before it is read) copies less
    in its own and calls ``search_nb.search_with_copy`` (captain-future's search_nb.copy_position):
    the search copies a state two or three times an iteration."""
    copy_state(dst, src)


@njit(cache=True)
def search_capacity(slot_strategy, slot_params):
    """Tree nodes a block needs: one per iteration and the root, for the largest mcts budget among
    the run's slots (1 when no slot searches); new_search adds one per option for the root's children."""
    cap = 1
    for k in range(slot_strategy.shape[0]):
        if slot_strategy[k] == MCTS:
            cap = max(cap, int(slot_params[k, P_BUDGET]) + 2)
    return cap


@njit(cache=True, forceinline=True)
def new_search(ctx, new_state, n_options, players, n_params, capacity, weights):
    """The scratch of one block (module doc); ``weights``: the fitted evaluation's (empty: none),
    copied, so that each block writes its features in its own row."""
    work = new_state(ctx)
    ti = np.zeros((capacity + n_options + 1, N_TI), np.int64)
    tf = np.zeros((capacity + n_options + 1, N_TF), np.float64)
    options = np.zeros(n_options, np.int64)
    rew = np.zeros(MAX_SEATS, np.float64)
    roll_sid = np.zeros(players, np.int64)
    roll_prm = np.zeros((players, n_params), np.float64)
    rng = np.zeros(1, np.uint64)
    sub = np.zeros(1, np.uint64)
    opt = np.zeros((N_OPT, n_options), np.float64)
    guess = new_state(ctx)
    fit = np.zeros((2, weights.shape[0]), np.float64)
    for k in range(weights.shape[0]):
        fit[FIT_W, k] = weights[k]
    deal = new_state(ctx)
    return work, ti, tf, options, rew, roll_sid, roll_prm, rng, sub, opt, guess, fit, deal


@njit(cache=True, forceinline=True)
def rollout_seats(seat_sid, seat_prm, roll_sid, roll_prm):
    """The play-outs' strategies: a search seat plays its rollout strategy (id and parameters from
    its own row), every other seat its own."""
    n_params = seat_prm.shape[1]
    for s in range(seat_sid.shape[0]):
        sid = seat_sid[s]
        if sid == MCTS or sid == FLAT:
            at = P_MCTS_ROLLOUT if sid == MCTS else P_FLAT_ROLLOUT
            roll_sid[s] = np.int64(seat_prm[s, at])
            for k in range(n_params):
                roll_prm[s, k] = seat_prm[s, at + 1 + k] if at + 1 + k < n_params else 0.0
        else:
            roll_sid[s] = sid
            for k in range(n_params):
                roll_prm[s, k] = seat_prm[s, k]


@njit(cache=True, inline="always")
def shares(winners, rew, players):
    """A result as every seat's share of the win: 1 for a win, 1/k for a k-way shared win, 0
    otherwise (the units of the reports' win rates)."""
    k = popcount(np.uint64(winners))
    for s in range(players):
        rew[s] = 1.0 / k if k > 0 and (winners >> s) & 1 else 0.0


@njit(cache=True, inline="always")
def fitted_shares(features, ctx, state, fit, rew, players):
    """The fitted evaluation: a conditional logit shared by the seats for who wins, times the chance
    that anyone wins. Seat s's share is (1 - q) exp(u_s) / sum_q' exp(u_q'), u_s = w . f_s, and
    q = 1 / (1 + exp(-u_0)), u_0 = b + v . (the seats' mean f), the chance that the game ends with
    no winner (a stalemate, a timeout: every seat's result 0, as such a play-out's end): a position
    headed for a stall is worth less to every seat. ``fit[FIT_W]`` holds ``[w (K), v (K), b]``
    (analysis/fit_eval.kernel_weights; b = -inf: no stall foreseen, the shares sum to 1); ``f_s`` is
    the game's ``features(ctx, state, s, out)``, written into ``fit[FIT_F]``. The largest utility
    is taken off before exp, so that no share overflows."""
    w = fit[FIT_W]
    f = fit[FIT_F]
    k_n = (w.shape[0] - 1) // 2
    u0 = w[2 * k_n]
    top = -np.inf
    for s in range(players):
        features(ctx, state, s, f)
        u = 0.0
        for k in range(k_n):
            u += w[k] * f[k]
            u0 += w[k_n + k] * f[k] / players
        rew[s] = u
        top = max(top, u)
    total = 0.0
    for s in range(players):
        rew[s] = np.exp(rew[s] - top)
        total += rew[s]
    anyone = 1.0 / (1.0 + np.exp(u0)) if u0 > -np.inf else 1.0  # 1 - q, without overflow at either end
    for s in range(players):
        rew[s] = rew[s] / total * anyone


@njit(cache=True, inline="always")
def finish(to_move, play_out, outcome, evaluate, features, ctx, work, roll_sid, roll_prm, depth, rew, players, fit):
    """Play ``work`` out with the play-out strategies (``depth`` > 0: at most that many decisions,
    then the evaluation estimates each seat's share: the fitted one when ``fit`` has weights, else
    the game's hand-written ``evaluate``) and write every seat's result into ``rew``."""
    if to_move(ctx, work) >= 0:
        play_out(ctx, work, roll_sid, roll_prm, np.int64(depth if depth > 0 else -1))
    if to_move(ctx, work) < 0:
        shares(outcome(ctx, work), rew, players)
    elif fit.shape[1] > 0:
        fitted_shares(features, ctx, work, fit, rew, players)
    else:
        evaluate(ctx, work, rew)


@njit(cache=True, inline="always")
def preferred(policy, determinize, copy_position, ctx, state, seat, work, roll_sid, roll_prm, rng):
    """The option the seat's rollout strategy would take here (in a determinization, so that its
    own ties draw from the search's stream, never the game's): a search keeps it unless it finds an
    option strictly better, instead of a coin flip among options its play-outs could not tell apart."""
    copy_position(ctx, work, state)
    determinize(ctx, work, seat, rng)
    return policy(ctx, work, roll_sid[seat], roll_prm[seat])


@njit(cache=True, inline="always")
def clearly_better(mean, var, n, mean_ref, var_ref, n_ref, confidence):
    """Does an option with results of mean ``mean`` and variance ``var`` over ``n`` play-outs beat
    the reference option by more than ``confidence`` standard errors of the difference?"""
    se = np.sqrt(max(var, 0.0) / n + max(var_ref, 0.0) / n_ref)
    return mean - mean_ref > confidence * se


@njit(cache=True, inline="always")
def fully_observed(ctx, state, option, seat):
    """The default ``observe`` hook: every seat sees every move as it is made (the option itself).
    A game whose moves can be hidden from other seats (a sign put face down) defines its own in
    search_nb.py (docs/strategies.md, "Hidden moves")."""
    return option


@njit(cache=True, inline="always")
def is_legal(legal_options, ctx, state, options, option):
    """Is ``option`` one of the pending decision's legal options? A game checks its search's answer
    with it under ``--validate`` (an option the rules do not list ends the game as invalid)."""
    n = legal_options(ctx, state, options)
    for k in range(n):
        if options[k] == option:
            return True
    return False


@njit(cache=True, inline="always")
def with_option(options, n, option):
    """``options[:n]`` with ``option`` added at the end when it is not among them; returns the new
    count. A game whose search weighs fewer options than the rules allow (captain-future's
    search_options) may leave out its rollout strategy's own choice: the search adds it at the root,
    so that it can keep it."""
    for j in range(n):
        if options[j] == option:
            return n
    options[n] = option
    return n + 1


@njit(cache=True, inline="always")
def add_deal(opt, n, own):
    """The options in the running were played on one more deal (their results in ``opt[O_RESULT]``):
    add each one's difference to the rollout strategy's option (``own``; -1: not among them, 0)."""
    base = opt[O_RESULT, own] if own >= 0 else 0.0
    for j in range(n):
        if opt[O_ALIVE, j] != 0.0:
            d = opt[O_RESULT, j] - base
            opt[O_SUM, j] += d
            opt[O_SUM2, j] += d * d
            opt[O_DEALS, j] += 1.0


# The prior of the paired test (``paired_choice``): a search's result for a seat is a share of the
# win in [0, 1], of variance at most 1/4 (a fair coin's, the Bernoulli bound), so the difference of
# two options' results on a deal has variance at most 1/2 when they are independent (the deal's
# pairing only makes it smaller). The variance of an option's differences to its own is estimated
# as if PRIOR_DEALS deal of variance PRIOR_VARIANCE had been seen before the real ones: with one or
# two deals the sample variance is often 0 (or nearly), and a test on it lets one lucky deal replace
# the rollout strategy's choice; as the deals grow, the prior fades into the plain paired test.
PRIOR_DEALS = 1.0
PRIOR_VARIANCE = 0.5
# Fewer deals than this never replace the rollout strategy's choice (when ``confidence`` > 0): on one
# to three deals a standard error means little (Student's t at 1 to 3 degrees of freedom has tails
# many times the normal's), and a play-out's evaluation may favour an option on every deal alike
# (lady-actions-escape's cut play-outs: a Dr. Evil makes the others draw at once), which no variance
# shows. A budget that small then plays as its rollout strategy, never worse: lady-actions-escape,
# mcts at 4 iterations (two deals for the finalists) against three blocker won 18.6% of its seats
# with the prior alone (400 games, CI 14.8-23.2%).
MIN_DEALS = 4.0


@njit(cache=True, inline="always")
def paired_variance(sum1, sum2, deals):
    """The variance of an option's paired differences (sums ``sum1``, ``sum2`` of them and of their
    squares over ``deals`` deals), shrunk toward the bound of two independent shares (PRIOR_VARIANCE)
    by PRIOR_DEALS pseudo-deal."""
    mean = sum1 / deals
    sample = max(sum2 / deals - mean * mean, 0.0)
    return (deals * sample + PRIOR_DEALS * PRIOR_VARIANCE) / (deals + PRIOR_DEALS)


@njit(cache=True, inline="always")
def paired_choice(opt, options, n, own, pref, rng, confidence):
    """Among the options in the running (compared on the same deals), the one with the best mean
    difference to the rollout strategy's own option ``pref`` (at ``own``; ties: its own if among
    them, else uniform from the search's stream); it is taken when its mean difference beats 0 by
    more than ``confidence`` standard errors, otherwise its own.

    With ``confidence`` > 0, an option played on fewer than MIN_DEALS (4) deals never replaces its
    own: a budget that small plays as its rollout strategy. From there, the standard error is
    sqrt(v / deals), v the differences' variance shrunk toward 1/2 by one pseudo-deal
    (``paired_variance``): with few deals the paired variance is often 0 (or nearly), and a lucky
    deal or two would otherwise replace its own. At ``confidence`` 2, an option must beat its own by
    0.32 of a game on average over 4 deals of identical differences; at 20 deals of variance 0.03
    the standard error is 1.3 times the plain test's.
    """
    # Every option in the running was played on every deal so far: their sums compare as their means.
    top = -np.inf
    for j in range(n):
        if opt[O_ALIVE, j] != 0.0:
            top = max(top, opt[O_SUM, j])
    best = -1
    ties = 0
    for j in range(n):
        if opt[O_ALIVE, j] != 0.0 and opt[O_SUM, j] == top:
            if j == own:
                return pref
            ties += 1
            if wins_tie(rng, ties):
                best = j
    if own < 0:
        return options[best]
    deals = opt[O_DEALS, best]
    if confidence > 0.0 and deals < MIN_DEALS:
        return pref
    mean = opt[O_SUM, best] / deals
    # The paired difference against its own option: its variance is the differences' own.
    if mean > confidence * np.sqrt(paired_variance(opt[O_SUM, best], opt[O_SUM2, best], deals) / deals):
        return options[best]
    return pref
