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
from simbalance.games.captain_future.rules_nb import (
    deal,
    first_stone,
    majority_holder,
    refill_hand,
    scores,
    set_up,
    shuffle_deck,
    stone_place,
)
from simbalance.games.captain_future.state_nb import (
    ATT,
    BODY_SIZE,
    CAT_ABSENT,
    CAT_MAJORITY,
    CAT_PRESENT,
    CNT,
    COST_ABS,
    COST_MAJ,
    COST_PRE,
    END_SEAT,
    EV,
    EV_ATTACK,
    EV_DRAW,
    EV_END,
    EV_EXCHANGE,
    EV_GRAG,
    EV_HAND,
    EV_INVALID,
    EV_LAND,
    EV_OTTO,
    EV_PASS,
    EV_PAY,
    EV_RECALL,
    EV_RESHUFFLE,
    EV_RETURN,
    EV_SIMON,
    EV_STONE,
    EV_TRIGGER,
    EV_TURN,
    EVPT,
    EXCH,
    FS_SIZE,
    HAND_N,
    HANDS,
    LANDS,
    MK,
    ML,
    MP,
    NB,
    NCARDS,
    NDISC,
    NL,
    NSTACK,
    ONBOARD,
    OWNER,
    PLAYERS,
    REMOVED,
    S_ATT,
    S_END,
    S_EV,
    S_EXCH,
    S_HAND,
    S_LANDS,
    S_NDISC,
    S_NSTACK,
    S_OWN,
    S_STONE,
    SC,
    SID,
    SLOTS,
    STACK,
    STONE_I,
    STONE_T,
    SUPPLY,
    T_EVENT,
    T_LANDS,
    TURN_CAP,
    W_BAD,
    WORK_SIZE,
    new_state,
)
from simbalance.games.captain_future.strategies_nb import do_event, do_slot, reset_cache
from simbalance.games.captain_future.validate_nb import check_invariants

# Trace columns (one row per turn, for tests): seat, landings, attacks by category (3), the largest
# attack cost paid, the event played (-1 none), supply after the turn, the end seat, final-round turn.
TRACE_W = 10


# ---- the replay's event log: what a step did, from a snapshot taken before it ----------------------

@njit(cache=True, _nrt=False)
def snapshot(bd, st, work, p):
    """What an action of ``p`` can change, into work[W_LOG..]."""
    for s in range(bd[NL]):
        work[S_OWN + s] = st[OWNER + s]
    for k in range(MK):
        work[S_HAND + k] = st[HANDS + p * MK + k]
    work[S_NSTACK] = st[NSTACK]
    work[S_NDISC] = st[NDISC]
    work[S_LANDS] = st[LANDS]
    work[S_EXCH] = st[EXCH]
    for c in range(3):
        work[S_ATT + c] = st[ATT + p * 4 + c]
    work[S_STONE] = stone_place(bd, st[STONE_T], st[STONE_I])
    work[S_END] = st[END_SEAT]
    for e in range(4):
        work[S_EV + e] = st[EV + e]


@njit(cache=True, _nrt=False, inline="always")
def _taken_space(bd, st, work, p):
    """The space that is ``p``'s now and was not before (-1: none)."""
    for s in range(bd[NL]):
        if st[OWNER + s] == p and work[S_OWN + s] != p:
            return s
    return -1


@njit(cache=True, _nrt=False)
def _log_trigger(st, work, log, log_n):
    if work[S_END] < 0 and st[END_SEAT] >= 0:
        log_event(log, log_n, EV_TRIGGER, st[END_SEAT], 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def log_slot(bd, st, work, p, log, log_n):
    """Log the action slot ``p`` just used: a landing, an attack or an exchange."""
    h = HANDS + p * MK
    if st[LANDS] != work[S_LANDS]:
        k = -1
        for j in range(MK):
            if work[S_HAND + j] - st[h + j] == 1:
                k = j
        log_event(log, log_n, EV_LAND, p, _taken_space(bd, st, work, p), k, 0, 0)
    elif st[EXCH] != work[S_EXCH]:
        drawn = st[STACK + st[NSTACK]]  # the card drawn is left just above the stack's new top
        gone = -1
        for j in range(MK):
            if work[S_HAND + j] - st[h + j] + (1 if j == drawn else 0) == 1:
                gone = j
        log_event(log, log_n, EV_EXCHANGE, p, gone, drawn, 0, 0)
        if work[S_NSTACK] == 0:  # the exchanged card went to the discard pile, then the pile became the stack
            log_event(log, log_n, EV_RESHUFFLE, work[S_NDISC] + 1, 0, 0, 0, 0)
    else:
        cat = 0
        for c in range(3):
            if st[ATT + p * 4 + c] != work[S_ATT + c]:
                cat = c
        s = _taken_space(bd, st, work, p)
        cost = 0
        for j in range(MK):
            cost += work[S_HAND + j] - st[h + j]
        log_event(log, log_n, EV_ATTACK, p, s, work[S_OWN + s], cat, cost)
        for j in range(MK):
            if work[S_HAND + j] > st[h + j]:
                log_event(log, log_n, EV_PAY, p, work[S_HAND + j] - st[h + j], j, 0, 0)
    _log_trigger(st, work, log, log_n)


@njit(cache=True, _nrt=False)
def log_event_card(bd, st, work, p, log, log_n):
    """Log the event card ``p`` just played, with its targets and effects."""
    e = 0
    for j in range(4):
        if st[EV + j] != work[S_EV + j]:
            e = j
    if e == 0:
        log_event(log, log_n, EV_SIMON, p, work[S_STONE], stone_place(bd, st[STONE_T], st[STONE_I]), 0, 0)
    elif e == 1:
        log_event(log, log_n, EV_RECALL, p, 0, 0, 0, 0)
        P = bd[PLAYERS]
        for i in range(P):  # in the order the players chose: from the one who played it on
            q = (p + i) % P
            for s in range(bd[NL]):
                if work[S_OWN + s] == q and st[OWNER + s] < 0:
                    log_event(log, log_n, EV_RETURN, q, s, 0, 0, 0)
    elif e == 2:
        dst = _taken_space(bd, st, work, p)
        src = -1
        for s in range(bd[NL]):
            if work[S_OWN + s] == p and st[OWNER + s] != p:
                src = s
        log_event(log, log_n, EV_OTTO, p, src, dst, work[S_OWN + dst], 0)
    else:
        s = _taken_space(bd, st, work, p)
        log_event(log, log_n, EV_GRAG, p, s, work[S_OWN + s], 0, 0)
    _log_trigger(st, work, log, log_n)


@njit(cache=True, _nrt=False)
def log_refill(bd, st, work, p, log, log_n):
    """Log the cards ``p`` drew back up to the hand size (and a reshuffle on the way)."""
    if st[NDISC] < work[S_NDISC]:
        log_event(log, log_n, EV_RESHUFFLE, work[S_NDISC], 0, 0, 0, 0)
    h = HANDS + p * MK
    for j in range(MK):
        if st[h + j] > work[S_HAND + j]:
            log_event(log, log_n, EV_DRAW, p, st[h + j] - work[S_HAND + j], j, 0, 0)



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
    set_up(bd, st, stone_t, stone_i)
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


@njit(cache=True, inline="always")
def start_game(bd, st, rng, order, seat_prm, out, i, game, seed, lineups, slot_strategy, slot_params):
    """Game ``game`` of the run: its random stream, seats, shuffled deck and the stone's first place
    (returned); the start of every game of the kernel and of the replay."""
    P = bd[PLAYERS]
    begin_game(rng, seed, game, out, i, lineups, slot_strategy, slot_params, P, st, SID, seat_prm)
    shuffle_deck(bd, rng, order)
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
