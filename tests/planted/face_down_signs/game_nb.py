"""Face-down signs: state, rules, strategies, what the search may know, and the kernels bound to
them (a planted test game: small on purpose; the package's docstring has the rules; planted_nb has
what the planted games share).

The state is ``(rng, info, points, signs)``: the game's stream, where the game stands (``info``:
planted_nb's head, then PLAYED), the points and this round's signs (-1: not played yet)."""

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
    end_invalid,
    evaluate,
    features,
    outcome,
    to_move,
    write_record,
)

from simbalance.core.records import END_WIN
from simbalance.core.rng import next_u64, randint, seed_game, uniform
from simbalance.players.common_nb import new_search, search_capacity
from simbalance.players.search_nb import search

RANDOM, LEAN = 0, 1
P_FAVOURITE, P_LEAN = 0, 1
ROUNDS, N_RULES = 0, 1
S_SIGNS = 3
PLAYED, N_INFO = N_HEAD, N_HEAD + 1
HIDDEN = -1  # what another seat sees of a sign put face down
SIGNS = 3  # 0 rock, 1 paper, 2 scissors: sign s + 1 (mod 3) beats sign s


def max_options(ctx) -> int:
    return SIGNS


@njit(cache=True)
def new_state(ctx):
    players = ctx[0]
    return (np.zeros(1, np.uint64), np.zeros(N_INFO, np.int64), np.zeros(players, np.int64),
            np.full(players, -1, np.int64))


@njit(cache=True)
def clone(state):
    rng, info, points, signs = state
    return rng.copy(), info.copy(), points.copy(), signs.copy()


@njit(cache=True)
def check(ctx, state):
    """0 when every invariant holds: the signs played this round are as many as PLAYED, each a sign."""
    info, signs = state[S_INFO], state[S_SIGNS]
    played = 0
    for s in range(ctx[0]):
        if signs[s] >= SIGNS or signs[s] < -1:
            return 1
        played += signs[s] >= 0
    return 0 if played == info[PLAYED] else 2


@njit(cache=True)
def start(ctx, state, seed, game):
    seed_game(state[S_RNG], seed, game)
    info = state[S_INFO]
    info[:] = 0
    info[END] = RUNNING
    state[S_SIGNS][:] = -1
    state[S_POINTS][:] = 0


@njit(cache=True)
def legal_options(ctx, state, options):
    if state[S_INFO][TO_MOVE] < 0:
        return 0
    for k in range(SIGNS):
        options[k] = k
    return SIGNS


@njit(cache=True)
def apply_option(ctx, state, option):
    """The seat to move puts ``option`` face down; the last sign of a round shows them all and scores."""
    players, rules, validate = ctx
    info, signs, points = state[S_INFO], state[S_SIGNS], state[S_POINTS]
    signs[info[TO_MOVE]] = option
    info[PLAYED] += 1
    if validate and check(ctx, state) != 0:
        end_invalid(state)
        return
    if info[PLAYED] < players:
        info[TO_MOVE] = (info[TO_MOVE] + 1) % players
        return
    for a in range(players):
        for b in range(players):
            if (signs[a] - signs[b]) % SIGNS == 1:
                points[a] += 1
    signs[:] = -1
    info[PLAYED] = 0
    info[ROUND] += 1
    if info[ROUND] < rules[ROUNDS]:
        info[TO_MOVE] = info[ROUND] % players
        return
    most = points.max()
    winners = 0
    for s in range(players):
        if points[s] == most:
            winners |= 1 << s
    info[END], info[WINNERS], info[TO_MOVE] = END_WIN, winners, -1


@njit(cache=True)
def choose(ctx, state, seat, sid, params):
    rng = state[S_RNG]
    if sid == LEAN and uniform(rng) < params[P_LEAN]:
        return np.int64(params[P_FAVOURITE])
    return randint(rng, SIGNS)


# ---- what the search may know ----------------------------------------------------------------

@njit(cache=True)
def determinize(ctx, state, seat, rng):
    """The signs the others put face down this round, drawn again (each uniformly: the seat knows
    nothing of them); the game's stream re-keyed."""
    signs = state[S_SIGNS]
    for s in range(ctx[0]):
        if s != seat and signs[s] >= 0:
            signs[s] = randint(rng, SIGNS)
    state[S_RNG][0] = next_u64(rng)


@njit(cache=True)
def observe(ctx, state, option, seat):
    """A sign is put face down: only its own seat sees which."""
    return option if seat == state[S_INFO][TO_MOVE] else np.int64(HIDDEN)


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
    return new_search(ctx, new_state, SIGNS, ctx[0], slot_params.shape[1], search_capacity(slot_strategy, slot_params),
                      weights)


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
