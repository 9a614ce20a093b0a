"""The replay's event log of captain-future, written by play_nb from the state around each action.

The rule and strategy functions do not report what they did, so play_nb takes a ``snapshot`` of
what an action can change (the landing spaces, the acting player's hand, a few counters) before it
and, after it, these functions log the difference: which space changed hands, which cards left the
hand, which counter moved. They only read the state, so a logged game draws exactly the random
numbers of the kernel's game. The kernel passes ``log = None`` and numba compiles all of it away.

One row per event: (EV_*, a, b, c, d, e), meanings below. ``log_n[0]`` counts every event, also
those that did not fit: the replay then plays the game again with a log of that size.
"""

from __future__ import annotations

from numba import njit

from simbalance.core.event_log import log_event
from simbalance.games.captain_future.layout import (
    ATT,
    EV,
    EXCH,
    HANDS,
    LANDS,
    MK,
    ML,
    NDISC,
    NL,
    NSTACK,
    OWNER,
    PLAYERS,
    STACK,
    STONE_I,
    STONE_T,
)
from simbalance.games.captain_future.layout import END_SEAT as END_SEAT_AT
from simbalance.games.captain_future.rules_nb import stone_place
from simbalance.games.captain_future.validate_nb import W_LOG, WORK_SIZE

# Event kinds (columns a..e).
EV_HAND = 0  # after the deal: seat a holds b cards of kind c
EV_STONE = 1  # the stone starts on place a (rows, then columns, then bodies)
EV_TURN = 2  # turn a (from 1): seat b; c = 1 in the final round; d cards in hand, e ships in supply
EV_LAND = 3  # seat a lands on space b with a card of kind c
EV_ATTACK = 4  # seat a attacks space b held by seat c; category d (0 majority, 1 present, 2 absent), e cards
EV_PAY = 5  # ... paying b cards of kind c (seat a)
EV_EXCHANGE = 6  # seat a discards a card of kind b and draws one of kind c
EV_PASS = 7  # seat a can do nothing legal: passes its b remaining action slots
EV_SIMON = 8  # seat a plays Simon Wright: the stone moves from place b to place c
EV_RECALL = 9  # seat a plays Recall
EV_RETURN = 10  # ... seat a sends its ship on space b home
EV_OTTO = 11  # seat a plays Otto: its ship moves from space b to space c, swapping with seat d's (-1: none)
EV_GRAG = 12  # seat a plays GRAG: a ship from supply onto space b, whose ship (seat c, -1: none) goes home
EV_TRIGGER = 13  # seat a placed its last ship: the end is triggered
EV_DRAW = 14  # seat a draws b cards of kind c (the refill at the end of its turn)
EV_RESHUFFLE = 15  # the stack ran out: the discard pile (a cards) is shuffled into a new stack
EV_END = 16  # the game ends: end code a (core.records END_*) after b turns
EV_INVALID = 17  # validation: invariant b (validate_nb.INV_*) broke in turn a
N_EV_COLS = 6

# The snapshot in work[W_LOG..]: the landing spaces' owners, the acting player's hand, counters.
S_OWN = W_LOG
S_HAND = S_OWN + ML
S_NSTACK = S_HAND + MK
S_NDISC = S_NSTACK + 1
S_LANDS = S_NDISC + 1
S_EXCH = S_LANDS + 1
S_ATT = S_EXCH + 1  # 3 attack categories of the acting player
S_STONE = S_ATT + 3
S_END = S_STONE + 1
S_EV = S_END + 1  # 4 event counters
S_END_OF = S_EV + 4


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
    work[S_END] = st[END_SEAT_AT]
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
    if work[S_END] < 0 and st[END_SEAT_AT] >= 0:
        log_event(log, log_n, EV_TRIGGER, st[END_SEAT_AT], 0, 0, 0, 0)


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


assert S_END_OF <= WORK_SIZE, "validate_nb.WORK_SIZE is too small for the replay's snapshot"
