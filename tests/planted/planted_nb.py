"""What the planted games share (README.md here): the layout's head, the play-out, the search hooks
that read only the points, the record's common fields and the kernels' game loop. A planted game
keeps its rules, its strategies and what it hides; it binds the rest to its own steps in a few
lines (a jitted function takes the game's steps as arguments, as players/search_nb.search does;
those taking steps are inlined, so that no step is passed as a value at run time: numba does not
cache a function that passes a jitted function as a value, and the planted games would compile
again in every test session).

A planted game's state is ``(rng, info, points, ...)``: its stream, where it stands, the points per
seat, then what is its own. ``info`` starts with TO_MOVE (the seat to move, -1 once over), ROUND
(rounds played), END (core.records END_*, RUNNING while it runs) and WINNERS (a bit mask); the
game's own fields follow from N_HEAD."""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID, END_WIN
from simbalance.players.common_nb import is_legal, is_search

S_RNG, S_INFO, S_POINTS = 0, 1, 2
TO_MOVE, ROUND, END, WINNERS, N_HEAD = range(5)
RUNNING = -1


def context(players, rules, validate) -> tuple:
    return (np.int64(players), rules, np.bool_(validate))


@njit(cache=True)
def to_move(ctx, state):
    return state[S_INFO][TO_MOVE]


@njit(cache=True, inline="always")
def play_out(choose, apply_option, ctx, state, seat_sid, seat_prm, max_decisions):
    """The game's ``play_out`` with its ``choose`` and ``apply_option``: the seats' strategies play
    until a search seat is to move, the game ends or ``max_decisions`` are made (-1: no limit)."""
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
    """The fields every planted game records: length, end, winners, the sole winner and the points."""
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
def end_invalid(state):
    """The game ends invalid (a broken invariant, or an option the rules do not list)."""
    info = state[S_INFO]
    info[END], info[WINNERS], info[TO_MOVE] = END_INVALID, 0, -1


@njit(cache=True, inline="always")
def play_block(start, play_out, search_option, legal_options, apply_option, write_record, new_state,
               out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, search_scratch):
    """Games ``lo..hi-1`` of the block with the game's steps: the strategies play out, a search seat
    decides by ``search_option`` (none without ``search_scratch``: the game ends invalid), and under
    validation an option the rules do not list ends it invalid."""
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
                end_invalid(state)
                break
            option = search_option(ctx, state, seat_sid, seat_prm, seed, game, np.int64(decision), search_scratch)
            decision += 1
            if ctx[2] and not is_legal(legal_options, ctx, state, search_scratch[3], option):
                end_invalid(state)
                break
            apply_option(ctx, state, option)
            play_out(ctx, state, seat_sid, seat_prm, np.int64(-1))
        write_record(ctx, state, out, i)
