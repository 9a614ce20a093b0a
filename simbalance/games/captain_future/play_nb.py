"""One game of captain-future from the deal to the score, the parallel kernel, and the replay.

``play_game`` takes the shuffled deck and the stone's first place as arguments so tests can script a
game; the kernel draws both from the game's own random stream (``start_game``).

Two optional arguments of ``play_game`` / ``play_turn`` switch extras on; the kernel's ordinary
path passes neither, and numba compiles every ``if work is not None`` / ``if log is not None`` away:
- ``work`` (validate_nb.WORK_SIZE int64): check every invariant (validate_nb.check_invariants) after
  the deal, after every event and action slot and after the refill; a broken one ends the game as
  END_INVALID. The kernel chooses the validating or the plain ``play_game`` once per game.
- ``log``, ``log_n`` (with ``work``): the replay's event log (replay_nb), written by ``trace_game``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.event_log import log_event
from simbalance.core.kernel import begin_game, block_bounds, n_blocks
from simbalance.core.records import END_INVALID, END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.core.rng import randint, shuffle
from simbalance.games.captain_future.layout import (
    ATT,
    BODY_SIZE,
    CNT,
    COST_ABS,
    COST_MAJ,
    COST_PRE,
    DECK,
    END_SEAT,
    EV,
    EVPT,
    EXCH,
    FS_SIZE,
    HAND_N,
    HANDS,
    MK,
    ML,
    MP,
    NB,
    NC,
    NCARDS,
    NL,
    NR,
    ONBOARD,
    OWNER,
    PLAYERS,
    REMOVED,
    SC,
    SID,
    SLOTS,
    STONE_ANY,
    STONE_I,
    STONE_T,
    SUPPLY,
    T_EVENT,
    T_LANDS,
    TURN_CAP,
)
from simbalance.games.captain_future.replay_nb import (
    EV_END,
    EV_HAND,
    EV_INVALID,
    EV_PASS,
    EV_STONE,
    EV_TURN,
    log_event_card,
    log_refill,
    log_slot,
    snapshot,
)
from simbalance.games.captain_future.rules_nb import (
    CAT_ABSENT,
    CAT_MAJORITY,
    CAT_PRESENT,
    STONE_BODY,
    deal,
    majority_holder,
    n_stone_places,
    new_state,
    refill_hand,
    reset_state,
    scores,
    stone_place,
)
from simbalance.games.captain_future.strategies_nb import do_event, do_slot, reset_cache
from simbalance.games.captain_future.validate_nb import W_BAD, WORK_SIZE, check_invariants

# Trace columns (one row per turn, for tests): seat, landings, attacks by category (3), the largest
# attack cost paid, the event played (-1 none), supply after the turn, the end seat, final-round turn.
TRACE_W = 10


@njit(cache=True, _nrt=False)
def _broken(bd, st, work):
    """Validation (``work`` given): check every invariant after a step and note the first broken
    one in work[W_BAD]. Without ``work`` numba compiles this to ``False``."""
    if work is None:
        return False
    work[W_BAD] = check_invariants(bd, st, work)
    return work[W_BAD] != 0


@njit(cache=True, _nrt=False)
def play_turn(bd, st, fs, buf, rng, p, final, seat_prm, work=None, log=None, log_n=None):
    """One turn of seat ``p``: an optional event, the action slots, an optional event if none was
    played yet, then draw back up to the hand size. Returns False if the player could do nothing.
    With ``work``: the invariants are checked after every step; the first broken one goes into
    work[W_BAD] and ends the turn there. With ``log``: every step is logged (replay_nb)."""
    sid = st[SID + p]
    prm = seat_prm[p]
    st[T_LANDS] = 0
    st[T_EVENT] = -1
    acted = False
    events_left = bd[EVPT]
    if events_left > 0:
        if log is not None:
            snapshot(bd, st, work, p)
        if do_event(sid, prm, bd, st, fs, rng, p, seat_prm, 0):
            events_left -= 1
            acted = True
            if log is not None:
                log_event_card(bd, st, work, p, log, log_n)
        if _broken(bd, st, work):
            return acted
    for slot in range(bd[SLOTS]):
        if log is not None:
            snapshot(bd, st, work, p)
        if not do_slot(sid, prm, bd, st, fs, buf, rng, p, final):
            if log is not None:
                log_event(log, log_n, EV_PASS, p, bd[SLOTS] - slot, 0, 0, 0)
            break  # nothing legal: the player passes the rest of his slots
        acted = True
        if log is not None:
            log_slot(bd, st, work, p, log, log_n)
        if _broken(bd, st, work):
            return acted
    while events_left > 0:
        if log is not None:
            snapshot(bd, st, work, p)
        if not do_event(sid, prm, bd, st, fs, rng, p, seat_prm, 1):
            break
        events_left -= 1
        acted = True
        if log is not None:
            log_event_card(bd, st, work, p, log, log_n)
        if _broken(bd, st, work):
            return acted
    if log is not None:
        snapshot(bd, st, work, p)
    refill_hand(bd, st, rng, p)
    if log is not None:
        log_refill(bd, st, work, p, log, log_n)
    _broken(bd, st, work)
    return acted


@njit(cache=True, _nrt=False)
def play_game(bd, st, fs, buf, rng, order, stone_t, stone_i, seat_prm, trace, work=None, log=None, log_n=None):
    """Deal ``order`` (a shuffled deck of card kinds), place the stone, play until the end or a
    cap. Seat strategy ids must be in st[SID..] (kept by reset). Returns (end code, turns played).
    ``trace`` (n x TRACE_W, may have 0 rows) gets one row per
    turn while it has room. ``work``: validate (END_INVALID when an invariant breaks); ``log``,
    ``log_n``: the replay's event log (see the module docstring)."""
    P = bd[PLAYERS]
    reset_state(bd, st, stone_t, stone_i)
    reset_cache(fs)
    deal(bd, st, order)
    if log is not None:
        for q in range(P):
            for k in range(MK):
                if st[HANDS + q * MK + k] > 0:
                    log_event(log, log_n, EV_HAND, q, st[HANDS + q * MK + k], k, 0, 0)
        log_event(log, log_n, EV_STONE, stone_place(bd, stone_t, stone_i), 0, 0, 0, 0)
    turn = 0
    seat = 0
    final_left = -1  # turns left in the final round once the end is triggered
    passes = 0
    end = END_WIN
    if _broken(bd, st, work):
        if log is not None:
            log_event(log, log_n, EV_INVALID, 0, work[W_BAD], 0, 0, 0)
            log_event(log, log_n, EV_END, END_INVALID, 0, 0, 0, 0)
        return END_INVALID, 0
    while True:
        if turn >= bd[TURN_CAP]:
            end = END_TIMEOUT
            break
        in_final = final_left > 0
        a0 = ATT + seat * 4
        att0 = st[a0 + CAT_MAJORITY]
        att1 = st[a0 + CAT_PRESENT]
        att2 = st[a0 + CAT_ABSENT]
        if log is not None:
            log_event(log, log_n, EV_TURN, turn + 1, seat, 1 if in_final else 0, st[HAND_N + seat],
                      st[SUPPLY + seat])
        acted = play_turn(bd, st, fs, buf, rng, seat, in_final, seat_prm, work, log, log_n)
        if turn < trace.shape[0]:
            d0 = st[a0 + CAT_MAJORITY] - att0
            d1 = st[a0 + CAT_PRESENT] - att1
            d2 = st[a0 + CAT_ABSENT] - att2
            trace[turn, 0] = seat
            trace[turn, 1] = st[T_LANDS]
            trace[turn, 2] = d0
            trace[turn, 3] = d1
            trace[turn, 4] = d2
            mc = 0
            if d0 > 0:
                mc = bd[COST_MAJ]
            if d1 > 0:
                mc = max(mc, bd[COST_PRE])
            if d2 > 0:
                mc = max(mc, bd[COST_ABS])
            trace[turn, 5] = mc
            trace[turn, 6] = st[T_EVENT]
            trace[turn, 7] = st[SUPPLY + seat]
            trace[turn, 8] = st[END_SEAT]
            trace[turn, 9] = 1 if in_final else 0
        turn += 1
        if work is not None and work[W_BAD] != 0:
            if log is not None:
                log_event(log, log_n, EV_INVALID, turn, work[W_BAD], 0, 0, 0)
            end = END_INVALID
            break
        passes = 0 if acted else passes + 1
        if in_final:
            final_left -= 1
            if final_left == 0:
                break
        elif st[END_SEAT] >= 0:
            # The player who emptied his supply has finished his turn: everyone else plays once more.
            final_left = P - 1
            if final_left == 0:
                break
        if passes >= P:
            end = END_STALEMATE
            break
        seat += 1
        if seat == P:
            seat = 0
    if log is not None:
        log_event(log, log_n, EV_END, end, turn, 0, 0, 0)
    return end, turn


@njit(cache=True, _nrt=False)
def write_record(bd, st, out, i, end, turns):
    P = bd[PLAYERS]
    sc = st[SC:SC + MP]
    scores(bd, st, sc)
    out[i].length = turns
    out[i].end = end
    out[i].end_seat = st[END_SEAT]
    out[i].stone = stone_place(bd, st[STONE_T], st[STONE_I])
    out[i].exchanges = min(st[EXCH], 32767)
    out[i].simon_wright = min(st[EV + 0], 32767)
    out[i].recall = min(st[EV + 1], 32767)
    out[i].otto = min(st[EV + 2], 32767)
    out[i].grag = min(st[EV + 3], 32767)
    top = -1
    for q in range(P):
        out[i].score[q] = sc[q]
        out[i].ships_board[q] = st[ONBOARD + q]
        out[i].ships_supply[q] = st[SUPPLY + q]
        out[i].ships_lost[q] = st[REMOVED + q]
        out[i].attacks_majority[q] = min(st[ATT + q * 4 + CAT_MAJORITY], 32767)
        out[i].attacks_present[q] = min(st[ATT + q * 4 + CAT_PRESENT], 32767)
        out[i].attacks_absent[q] = min(st[ATT + q * 4 + CAT_ABSENT], 32767)
        out[i].full_control[q] = 0
        out[i].majorities[q] = 0
        if sc[q] > top:
            top = sc[q]
    winners = 0
    n_win = 0
    win = -1
    if end == END_WIN:
        for q in range(P):
            if sc[q] == top:
                winners |= 1 << q
                n_win += 1
                win = q
    out[i].winners = winners
    out[i].winner = win if n_win == 1 else -1
    for b in range(out[i].body_full.shape[0]):
        out[i].body_full[b] = -1
        out[i].body_major[b] = -1
    for b in range(bd[NB]):
        h = majority_holder(bd, st, b)
        if h >= 0:
            if st[CNT + b * MP + h] == bd[BODY_SIZE + b]:
                out[i].body_full[b] = h
                out[i].full_control[h] += 1
            else:
                out[i].majorities[h] += 1
            out[i].body_major[b] = h
    held0 = np.uint64(0)
    held1 = np.uint64(0)
    won0 = np.uint64(0)
    won1 = np.uint64(0)
    one = np.uint64(1)
    for s in range(bd[NL]):
        q = st[OWNER + s]
        if q < 0:
            continue
        bit = one << np.uint64(s & 63)
        by_winner = (winners >> q) & 1
        if s < 64:
            held0 |= bit
            if by_winner:
                won0 |= bit
        else:
            held1 |= bit
            if by_winner:
                won1 |= bit
    out[i].held_mask[0] = held0
    out[i].held_mask[1] = held1
    out[i].winner_mask[0] = won0
    out[i].winner_mask[1] = won1


@njit(cache=True, _nrt=False)
def first_stone(bd, rng):
    """The stone's first place: a random body (default), or a random row, column or body."""
    if bd[STONE_ANY]:
        place = randint(rng, n_stone_places(bd))
        if place < bd[NR]:
            return 0, place
        if place < bd[NR] + bd[NC]:
            return 1, place - bd[NR]
        return 2, place - bd[NR] - bd[NC]
    return STONE_BODY, randint(rng, bd[NB])


@njit(cache=True, inline="always")
def start_game(bd, st, rng, order, seat_prm, out, i, game, seed, lineups, slot_strategy, slot_params):
    """Game ``game`` of the run: its random stream, seats, shuffled deck and the stone's first place
    (returned); the start of every game of the kernel and of the replay."""
    P = bd[PLAYERS]
    n_cards = bd[NCARDS]
    begin_game(rng, seed, game, out, i, lineups, slot_strategy, slot_params, P, st, SID, seat_prm)
    order[:] = bd[DECK:DECK + n_cards]
    shuffle(rng, order, n_cards)
    return first_stone(bd, rng)


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, bd, validate):
    n = out.shape[0]
    P = bd[PLAYERS]
    n_cards = bd[NCARDS]
    blocks = n_blocks(n)
    for blk in prange(blocks):
        lo, hi = block_bounds(n, blocks, blk)
        st = new_state()
        fs = np.zeros(FS_SIZE, np.float64)
        buf = np.zeros(ML, np.int64)
        rng = np.zeros(1, np.uint64)
        order = np.empty(n_cards, np.int64)
        seat_prm = np.zeros((P, slot_params.shape[1]), np.float64)
        trace = np.zeros((0, TRACE_W), np.int64)
        work = np.zeros(WORK_SIZE, np.int64)
        for i in range(lo, hi):
            stone_t, stone_i = start_game(bd, st, rng, order, seat_prm, out, i, first_game + i, seed, lineups,
                                          slot_strategy, slot_params)
            if validate:
                end, turns = play_game(bd, st, fs, buf, rng, order, stone_t, stone_i, seat_prm, trace, work, None,
                                       None)
            else:
                end, turns = play_game(bd, st, fs, buf, rng, order, stone_t, stone_i, seat_prm, trace)
            write_record(bd, st, out, i, end, turns)


@njit(cache=True)
def trace_game(out, game, seed, lineups, slot_strategy, slot_params, bd, log, log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]`` exactly as the kernel plays it (validated),
    every event in ``log`` (replay_nb.EV_*); ``log_n[0]``: the number of events."""
    P = bd[PLAYERS]
    st = new_state()
    fs = np.zeros(FS_SIZE, np.float64)
    buf = np.zeros(ML, np.int64)
    rng = np.zeros(1, np.uint64)
    order = np.empty(bd[NCARDS], np.int64)
    seat_prm = np.zeros((P, slot_params.shape[1]), np.float64)
    trace = np.zeros((0, TRACE_W), np.int64)
    work = np.zeros(WORK_SIZE, np.int64)
    log_n[0] = 0
    stone_t, stone_i = start_game(bd, st, rng, order, seat_prm, out, 0, game, seed, lineups, slot_strategy,
                                  slot_params)
    end, turns = play_game(bd, st, fs, buf, rng, order, stone_t, stone_i, seat_prm, trace, work, log, log_n)
    write_record(bd, st, out, 0, end, turns)
