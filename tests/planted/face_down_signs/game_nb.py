"""Face-down signs: state, rules, strategies, resumable steps, search hooks and kernels in one
module (a planted test game: small on purpose; the package's docstring has the rules).

The state is ``(rng, info, signs, points)``: the game's stream, where the game stands (``info``),
this round's signs (-1: not played yet) and the points."""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID, END_WIN
from simbalance.core.rng import next_u64, randint, seed_game, uniform
from simbalance.players.common_nb import is_legal, is_search, new_search, search_capacity
from simbalance.players.search_nb import search

RANDOM, LEAN = 0, 1
P_FAVOURITE, P_LEAN = 0, 1
ROUNDS, N_RULES = 0, 1
S_RNG, S_INFO, S_SIGNS, S_POINTS = range(4)
TO_MOVE, ROUND, PLAYED, END, WINNERS, N_INFO = range(6)
RUNNING = -1
HIDDEN = -1  # what another seat sees of a sign put face down
SIGNS = 3  # 0 rock, 1 paper, 2 scissors: sign s + 1 (mod 3) beats sign s


def context(players, rules, validate) -> tuple:
    return (np.int64(players), rules, np.bool_(validate))


def max_options(ctx) -> int:
    return SIGNS


@njit(cache=True)
def new_state(ctx):
    players = ctx[0]
    return (np.zeros(1, np.uint64), np.zeros(N_INFO, np.int64), np.full(players, -1, np.int64),
            np.zeros(players, np.int64))


@njit(cache=True)
def clone(state):
    rng, info, signs, points = state
    return rng.copy(), info.copy(), signs.copy(), points.copy()


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
def to_move(ctx, state):
    return state[S_INFO][TO_MOVE]


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
        info[END], info[WINNERS], info[TO_MOVE] = END_INVALID, 0, -1
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


@njit(cache=True)
def play_out(ctx, state, seat_sid, seat_prm, max_decisions):
    info = state[S_INFO]
    made = 0
    while info[TO_MOVE] >= 0 and made != max_decisions:
        seat = info[TO_MOVE]
        if is_search(seat_sid[seat]):
            break
        apply_option(ctx, state, choose(ctx, state, seat, seat_sid[seat], seat_prm[seat]))
        made += 1
    return made


@njit(cache=True)
def write_record(ctx, state, out, i):
    info, points = state[S_INFO], state[S_POINTS]
    winners = info[WINNERS]
    out[i].length = info[ROUND]
    out[i].end = info[END]
    out[i].winners = winners
    out[i].winner = -1
    for s in range(ctx[0]):
        out[i].points[s] = points[s]
        if winners == 1 << s:
            out[i].winner = s


# ---- the search's hooks -----------------------------------------------------------------------

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
def outcome(ctx, state):
    return state[S_INFO][WINNERS] if state[S_INFO][END] == END_WIN else np.int64(0)


@njit(cache=True)
def evaluate(ctx, state, rew):
    """Each seat's share: e to the points, normalised."""
    points = state[S_POINTS]
    total = 0.0
    for s in range(ctx[0]):
        rew[s] = np.exp(np.float64(points[s] - points.max()))
        total += rew[s]
    for s in range(ctx[0]):
        rew[s] /= total


FEATURES = ("points",)
FEATURE_SIGNS = (1,)


@njit(cache=True)
def features(ctx, state, seat, out):
    out[0] = state[S_POINTS][seat]


@njit(cache=True)
def policy(ctx, state, sid, params):
    return choose(ctx, state, state[S_INFO][TO_MOVE], sid, params)


# ---- kernels ------------------------------------------------------------------------------------

@njit(cache=True)
def search_option(ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch):
    return search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                  observe, ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch)


@njit(cache=True)
def new_search_scratch(ctx, slot_strategy, slot_params, weights):
    return new_search(ctx, new_state, SIGNS, ctx[0], slot_params.shape[1], search_capacity(slot_strategy, slot_params),
                      weights)


@njit(cache=True)
def play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, search_scratch):
    players = ctx[0]
    state = new_state(ctx)
    seat_sid = np.zeros(players, np.int64)
    seat_prm = np.zeros((players, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        game = first_game + i
        begin_game(state[S_RNG], seed, game, out, i, lineups, slot_strategy, slot_params, players, seat_sid, 0,
                   seat_prm)
        start(ctx, state, seed, game)
        play_out(ctx, state, seat_sid, seat_prm, np.int64(-1))
        decision = 0
        while state[S_INFO][TO_MOVE] >= 0:
            if search_scratch is None:
                info = state[S_INFO]
                info[END], info[WINNERS], info[TO_MOVE] = END_INVALID, 0, -1
                break
            option = search_option(ctx, state, seat_sid, seat_prm, seed, game, np.int64(decision), search_scratch)
            decision += 1
            if ctx[2] and not is_legal(legal_options, ctx, state, search_scratch[3], option):
                info = state[S_INFO]
                info[END], info[WINNERS], info[TO_MOVE] = END_INVALID, 0, -1
                break
            apply_option(ctx, state, option)
            play_out(ctx, state, seat_sid, seat_prm, np.int64(-1))
        write_record(ctx, state, out, i)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, players, rules, validate):
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, (players, rules, validate), None)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, players, rules, validate,
                  weights):
    ctx = (players, rules, validate)
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx,
               new_search_scratch(ctx, slot_strategy, slot_params, weights))
