"""Two-step trap: state, rules, strategies, what the search may know, and the kernels bound to them
(a planted test game; the package's docstring has the rules; planted_nb has what the planted games
share).

The state is ``(rng, info, points, attacks)``: the game's stream, where the game stands (``info``:
planted_nb's head, then STAGE and REFUTE), the points, and each seat's attacks (the record's: how
often it fell for the trap)."""

from __future__ import annotations

import numpy as np
import planted_nb
from numba import njit
from planted_nb import (
    END,
    FEATURE_SIGNS,  # noqa: F401 (the search's hooks: Search.of_game reads them here)
    FEATURES,  # noqa: F401
    N_HEAD,
    ROUND,
    RUNNING,
    S_INFO,
    S_POINTS,
    S_RNG,
    TO_MOVE,
    WINNERS,
    context,  # noqa: F401 (a resumable step: Resumable.of_game reads it here)
    evaluate,
    features,
    outcome,
    to_move,
)

from simbalance.core.records import END_WIN
from simbalance.core.rng import next_u64, randint, seed_game
from simbalance.players.common_nb import fully_observed as observe
from simbalance.players.common_nb import new_search, search_capacity
from simbalance.players.search_nb import search

RANDOM = 0
ROUNDS, REPLIES, N_RULES = 0, 1, 2
S_ATTACKS = 3
STAGE, REFUTE, N_INFO = N_HEAD, N_HEAD + 1, N_HEAD + 2
SAFE, ATTACK = 0, 1  # the leader's options; a reply's option is its number
MAX_OPTIONS = 16


def max_options(ctx) -> int:
    return MAX_OPTIONS


@njit(cache=True)
def new_state(ctx):
    return (np.zeros(1, np.uint64), np.zeros(N_INFO, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64))


@njit(cache=True)
def clone(state):
    rng, info, points, attacks = state
    return rng.copy(), info.copy(), points.copy(), attacks.copy()


@njit(cache=True)
def check(ctx, state):
    """0: the points are as many as the rounds played."""
    info, points = state[S_INFO], state[S_POINTS]
    return 0 if points[0] + points[1] == info[ROUND] else 1


@njit(cache=True)
def new_round(ctx, state):
    rules = ctx[1]
    info = state[S_INFO]
    if info[ROUND] >= rules[ROUNDS]:
        points = state[S_POINTS]
        winners = 3 if points[0] == points[1] else (1 if points[0] > points[1] else 2)
        info[END], info[WINNERS], info[TO_MOVE] = END_WIN, winners, -1
        return
    info[TO_MOVE] = info[ROUND] % 2
    info[STAGE] = 0
    info[REFUTE] = randint(state[S_RNG], rules[REPLIES])


@njit(cache=True)
def start(ctx, state, seed, game):
    seed_game(state[S_RNG], seed, game)
    info = state[S_INFO]
    info[:] = 0
    info[END] = RUNNING
    state[S_POINTS][:] = 0
    state[S_ATTACKS][:] = 0
    new_round(ctx, state)


@njit(cache=True)
def legal_options(ctx, state, options):
    info = state[S_INFO]
    if info[TO_MOVE] < 0:
        return 0
    n = 2 if info[STAGE] == 0 else ctx[1][REPLIES]
    for k in range(n):
        options[k] = k
    return n


@njit(cache=True)
def apply_option(ctx, state, option):
    info, points = state[S_INFO], state[S_POINTS]
    leader = info[ROUND] % 2
    if info[STAGE] == 0 and option == ATTACK:
        state[S_ATTACKS][leader] += 1
        info[STAGE] = 1
        info[TO_MOVE] = 1 - leader
        return
    if info[STAGE] == 0:  # safe: a fair coin
        points[leader if randint(state[S_RNG], 2) == 1 else 1 - leader] += 1
    else:  # the reply to an attack
        points[1 - leader if option == info[REFUTE] else leader] += 1
    info[ROUND] += 1
    new_round(ctx, state)


@njit(cache=True)
def choose(ctx, state, seat, sid, params):
    info = state[S_INFO]
    return randint(state[S_RNG], 2 if info[STAGE] == 0 else ctx[1][REPLIES])


@njit(cache=True)
def write_record(ctx, state, out, i):
    planted_nb.write_record(ctx, state, out, i)
    for s in range(2):
        out[i].attacks[s] = state[S_ATTACKS][s]


# ---- what the search may know ----------------------------------------------------------------

@njit(cache=True)
def determinize(ctx, state, seat, rng):
    """Nothing is hidden but the future: the game's stream re-keyed."""
    state[S_RNG][0] = next_u64(rng)


@njit(cache=True)
def policy(ctx, state, sid, params):
    return choose(ctx, state, state[S_INFO][TO_MOVE], sid, params)


# ---- planted_nb's play-out and kernels, bound to this game's steps ---------------------------

@njit(cache=True)
def play_out(ctx, state, seat_sid, seat_prm, max_decisions):
    return planted_nb.play_out(choose, apply_option, ctx, state, seat_sid, seat_prm, max_decisions)


@njit(cache=True)
def search_option(ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch):
    return search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                  observe, ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch)


@njit(cache=True)
def new_search_scratch(ctx, slot_strategy, slot_params, weights):
    return new_search(ctx, new_state, MAX_OPTIONS, ctx[0], slot_params.shape[1],
                      search_capacity(slot_strategy, slot_params), weights)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, players, rules, validate):
    planted_nb.play_block(start, play_out, search_option, legal_options, apply_option, write_record, new_state, out, lo,
                          hi, first_game, seed, lineups, slot_strategy, slot_params, (players, rules, validate), None)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, players, rules, validate,
                  weights):
    ctx = (players, rules, validate)
    planted_nb.play_block(start, play_out, search_option, legal_options, apply_option, write_record, new_state, out, lo,
                          hi, first_game, seed, lineups, slot_strategy, slot_params, ctx,
                          new_search_scratch(ctx, slot_strategy, slot_params, weights))
