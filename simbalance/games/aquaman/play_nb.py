"""The aquaman game loop: a turn of five phases, a game of turns, the kernel and ``trace_game``.

The replay (replay.py) plays a game with ``trace_game``, the kernel's own per-game code
(``play_one``) with an event log; the kernel passes None, so numba compiles every
``if log is not None`` away and the simulated games do not pay for the replay.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.kernel import begin_game, block_bounds, n_blocks
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN
from simbalance.games.aquaman.rules_nb import (
    activate,
    can_mission,
    land,
    play_mission,
    rest,
    roll,
    setup_game,
)
from simbalance.games.aquaman.state_nb import (
    AQUAMAN,
    C_DICE,
    C_REFILLS,
    C_TURN,
    COMPANION,
    EV_INVALID,
    EV_MOVE,
    EV_ROLL,
    EV_TIMEOUT,
    EV_TURN,
    EV_WIN,
    FOE,
    LOCATION,
    PLOT,
    POWER,
    R_MISSIONS_PER_TURN,
    R_MISSIONS_TO_WIN,
    R_PLAYERS,
    R_POWER_MIN,
    R_TURN_CAP,
    SEA_CREATURE,
    ST_FIGHTS,
    ST_FOE_HITS,
    ST_STOLEN,
    ST_TAKEN,
    ST_USE,
    ST_WON,
    STRANGENESS,
    V_HAND_N,
    V_MISSIONS,
    V_POS,
    Game,
    log_step,
    new_state,
)
from simbalance.games.aquaman.strategies_nb import choose_mission, choose_power, choose_swim
from simbalance.games.aquaman.validate_nb import INVALID, state_is_valid


@njit(cache=True)
def play_turn(G, S, seat, strat, par, log=None):
    """One turn of ``seat``'s five phases. Returns True when the seat has won."""
    sid = strat[seat]
    p = par[seat]
    # 1. power
    plot = -1
    if S.seat[seat, V_HAND_N] >= G.rules[R_POWER_MIN]:
        i = choose_power(G, S, seat, sid, p)
        if i >= 0:
            plot = activate(G, S, seat, sid, p, i, log)
    # 2. swim (a Plot target replaces the roll)
    start = S.seat[seat, V_POS]
    if plot >= 0:
        S.seat[seat, V_POS] = plot
    else:
        roll(G, S)
        if log is not None:
            log_step(log, S, EV_ROLL, seat, S.ctr[C_DICE], S.ctr[C_DICE + 1], S.ctr[C_DICE + 2])
        S.seat[seat, V_POS] = choose_swim(G, S, seat, sid, p, log)
    if log is not None:
        log_step(log, S, EV_MOVE, seat, start, S.seat[seat, V_POS], 1 if plot >= 0 else 0)
    # 3. action
    land(G, S, seat, strat, par, log)
    # 4. mission
    for _ in range(G.rules[R_MISSIONS_PER_TURN]):
        if not can_mission(G, S, seat) or not choose_mission(G, S, seat, sid, p):
            break
        play_mission(G, S, seat, sid, p, log)
        if S.seat[seat, V_MISSIONS] >= G.rules[R_MISSIONS_TO_WIN]:
            return True
    # 5. rest
    rest(G, S, seat, sid, p, log)
    return False


@njit(cache=True)
def play_game(G, S, strat, par, validate=False, log=None):
    """Play from a set-up position until a win or the turn cap. Returns the winner, -1 at the cap,
    or INVALID when ``validate`` found a broken invariant after a turn."""
    players = G.rules[R_PLAYERS]
    cap = G.rules[R_TURN_CAP]
    seat = 0
    if validate and not state_is_valid(G, S):
        return INVALID
    while S.ctr[C_TURN] < cap:
        S.ctr[C_TURN] += 1
        if log is not None:
            log_step(log, S, EV_TURN, S.ctr[C_TURN], seat, 0, 0)
        if play_turn(G, S, seat, strat, par, log):
            if log is not None:
                log_step(log, S, EV_WIN, seat, S.ctr[C_TURN], 0, 0)
            return seat
        if validate and not state_is_valid(G, S):
            if log is not None:
                log_step(log, S, EV_INVALID, S.ctr[C_TURN], 0, 0, 0)
            return INVALID
        seat = (seat + 1) % players
    if log is not None:
        log_step(log, S, EV_TIMEOUT, S.ctr[C_TURN], 0, 0, 0)
    return -1


@njit(cache=True)
def write_record(G, S, out, i, winner):
    players = G.rules[R_PLAYERS]
    out[i].length = S.ctr[C_TURN]
    out[i].refills = S.ctr[C_REFILLS]
    if winner >= 0:
        out[i].end = END_WIN
        out[i].winner = winner
        out[i].winners = np.uint8(1) << np.uint8(winner)
    elif winner == INVALID:
        out[i].end = END_INVALID
        out[i].winner = -1
        out[i].winners = 0
    else:
        out[i].end = END_TIMEOUT
        out[i].winner = -1
        out[i].winners = 0
    for s in range(players):
        out[i].missions[s] = S.seat[s, V_MISSIONS]
        out[i].hand_end[s] = S.seat[s, V_HAND_N]
        out[i].fights[s] = S.seat[s, ST_FIGHTS]
        out[i].fights_won[s] = S.seat[s, ST_WON]
        out[i].stolen[s] = S.seat[s, ST_STOLEN]
        out[i].taken[s] = S.seat[s, ST_TAKEN]
        out[i].foe_hits[s] = S.seat[s, ST_FOE_HITS]
        out[i].use_aquaman[s] = S.seat[s, ST_USE + AQUAMAN]
        out[i].use_companion[s] = S.seat[s, ST_USE + COMPANION]
        out[i].use_sea_creature[s] = S.seat[s, ST_USE + SEA_CREATURE]
        out[i].use_plot[s] = S.seat[s, ST_USE + PLOT]
        out[i].use_foe[s] = S.seat[s, ST_USE + FOE]
        out[i].use_power[s] = S.seat[s, ST_USE + POWER]
        out[i].use_strangeness[s] = S.seat[s, ST_USE + STRANGENESS]
        out[i].use_location[s] = S.seat[s, ST_USE + LOCATION]


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj, validate):
    G = Game(rules, card, move_to, adj)
    players = rules[R_PLAYERS]
    n = out.shape[0]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        S = new_state(rules, card.shape[1])
        strat = np.zeros(players, np.int64)
        par = np.zeros((players, slot_params.shape[1]), np.float64)
        for i in range(lo, hi):
            play_one(G, S, out, i, first_game + i, seed, lineups, slot_strategy, slot_params, strat, par, validate,
                     None)


@njit(cache=True, inline="always")
def play_one(G, S, out, i, game, seed, lineups, slot_strategy, slot_params, strat, par, validate, log):
    """Game ``game`` of the run into ``out[i]``: the body of the kernel (``log`` None) and of the
    replay (``trace_game``, with a log)."""
    begin_game(S.rng, seed, game, out, i, lineups, slot_strategy, slot_params, G.rules[R_PLAYERS], strat, 0, par)
    setup_game(G, S, log)
    winner = play_game(G, S, strat, par, validate, log)
    write_record(G, S, out, i, winner)


@njit(cache=True)
def trace_game(out, game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj, validate, log,
               log_n):
    """Game ``game`` of a run again, exactly as the kernel plays it, into ``out[0]`` with every event
    in ``log`` (``core.replay.trace_with_log`` sizes it; kinds ``EV_*`` in state_nb)."""
    G = Game(rules, card, move_to, adj)
    S = new_state(rules, card.shape[1])
    strat = np.zeros(rules[R_PLAYERS], np.int64)
    par = np.zeros((rules[R_PLAYERS], slot_params.shape[1]), np.float64)
    log_n[0] = 0  # a second try (with a larger log) counts from zero again
    play_one(G, S, out, 0, game, seed, lineups, slot_strategy, slot_params, strat, par, validate, (log, log_n))
