"""Two-step trap: state, rules, strategies, resumable steps, search hooks and kernels in one module
(a planted test game; the package's docstring has the rules).

The state is ``(rng, info, points, attacks)``: the game's stream, where the game stands
(``info``), the points, and each seat's attacks (the record's: how often it fell for the trap)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID, END_WIN
from simbalance.core.rng import next_u64, randint, seed_game
from simbalance.players.common_nb import fully_observed as observe
from simbalance.players.common_nb import is_legal, is_search, new_search, search_capacity
from simbalance.players.search_nb import search

RANDOM = 0
ROUNDS, REPLIES, N_RULES = 0, 1, 2
S_RNG, S_INFO, S_POINTS, S_ATTACKS = range(4)
TO_MOVE, ROUND, STAGE, REFUTE, END, WINNERS, N_INFO = range(7)
RUNNING = -1
SAFE, ATTACK = 0, 1  # the leader's options; a reply's option is its number
MAX_OPTIONS = 16


def context(players, rules, validate) -> tuple:
    return (np.int64(players), rules, np.bool_(validate))


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
def to_move(ctx, state):
    return state[S_INFO][TO_MOVE]


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
    for s in range(2):
        out[i].points[s] = points[s]
        out[i].attacks[s] = state[S_ATTACKS][s]
        if winners == 1 << s:
            out[i].winner = s


# ---- the search's hooks -----------------------------------------------------------------------

@njit(cache=True)
def determinize(ctx, state, seat, rng):
    """Nothing is hidden but the future: the game's stream re-keyed."""
    state[S_RNG][0] = next_u64(rng)


@njit(cache=True)
def outcome(ctx, state):
    return state[S_INFO][WINNERS] if state[S_INFO][END] == END_WIN else np.int64(0)


@njit(cache=True)
def evaluate(ctx, state, rew):
    """Each seat's share: e to the points, normalised."""
    points = state[S_POINTS]
    total = 0.0
    for s in range(ctx[0]):
        rew[s] = np.exp(np.float64(points[s] - max(points[0], points[1])))
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
    return new_search(ctx, new_state, MAX_OPTIONS, ctx[0], slot_params.shape[1], search_capacity(slot_strategy, slot_params),
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
