"""captain-future's game as resumable steps, the kernel, and the replay's event log.

A game is a sequence of decisions (docs/rules/captain-future.md, "Decisions"): in each turn of seat
st[SEAT], the event before the slots, each action slot, and the events after the slots. Where the
game stands is part of its state (st[TURN], st[SEAT], st[PHASE], st[SLOT], st[EVENTS_LEFT], ...:
state_nb), so it can stop at any decision, be copied (state_nb.clone) and play on. What lies between
two decisions (the checks, the refill, the end of a turn, the final round, the next turn) runs at
once: after the deal and after every decision the state stands at the next decision, or at the end
(st[PHASE] = PH_OVER).

The kernel plays every game as ``start``, ``play_out`` to the end, ``write_record`` (the
``Resumable`` contract of core/spec.py; inlined into the kernel, so a game pays no call that
passes the state's arrays); search players and tests also list the options of a
decision (``legal_options``) and take one (``apply_option``). All of them run ``play_on``, the one
game loop.

Optional arguments of the steps switch extras on; the kernel's ordinary path passes none, and
numba compiles every ``if work is not None`` / ``if log is not None`` away:
- ``work`` (state_nb.WORK_SIZE int64): check every invariant (validate_nb.check_invariants) after
  the deal, after every event and action slot and after the refill; a broken one ends the game as
  END_INVALID. ``ctx = (bd, validate)`` says which.
- ``log``, ``log_n`` (with ``work``): the replay's event log, written by ``trace_game``: a snapshot
  of what a step can change before it, the difference logged after it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.event_log import log_event
from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import seed_game
from simbalance.core.whole_game import PR_NEXT
from simbalance.core.whole_game import PR_STALL_FROM
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import progress_end
from simbalance.core.whole_game import progress_reset
from simbalance.core.whole_game import progress_round_of
from simbalance.core.whole_game import write_progress
from simbalance.games.captain_future.rules_nb import deal
from simbalance.games.captain_future.rules_nb import event_options
from simbalance.games.captain_future.rules_nb import first_stone
from simbalance.games.captain_future.rules_nb import majority_holder
from simbalance.games.captain_future.rules_nb import n_stone_places
from simbalance.games.captain_future.rules_nb import refill_hand
from simbalance.games.captain_future.rules_nb import scores
from simbalance.games.captain_future.rules_nb import set_up
from simbalance.games.captain_future.rules_nb import shuffle_deck
from simbalance.games.captain_future.rules_nb import slot_options
from simbalance.games.captain_future.rules_nb import snapshot
from simbalance.games.captain_future.rules_nb import stone_place
from simbalance.games.captain_future.rules_nb import take_action
from simbalance.games.captain_future.rules_nb import taken_space
from simbalance.games.captain_future.search_nb import copy_position
from simbalance.games.captain_future.search_nb import determinize
from simbalance.games.captain_future.search_nb import evaluate
from simbalance.games.captain_future.search_nb import features
from simbalance.games.captain_future.search_nb import observe
from simbalance.games.captain_future.search_nb import outcome
from simbalance.games.captain_future.search_nb import policy
from simbalance.games.captain_future.search_nb import search_options
from simbalance.games.captain_future.state_nb import ACTED
from simbalance.games.captain_future.state_nb import ATT
from simbalance.games.captain_future.state_nb import BODY_SIZE
from simbalance.games.captain_future.state_nb import CAT_ABSENT
from simbalance.games.captain_future.state_nb import CAT_MAJORITY
from simbalance.games.captain_future.state_nb import CAT_PRESENT
from simbalance.games.captain_future.state_nb import CNT
from simbalance.games.captain_future.state_nb import END
from simbalance.games.captain_future.state_nb import END_SEAT
from simbalance.games.captain_future.state_nb import EV
from simbalance.games.captain_future.state_nb import EV_ATTACK
from simbalance.games.captain_future.state_nb import EV_DRAW
from simbalance.games.captain_future.state_nb import EV_END
from simbalance.games.captain_future.state_nb import EV_EXCHANGE
from simbalance.games.captain_future.state_nb import EV_GRAG
from simbalance.games.captain_future.state_nb import EV_HAND
from simbalance.games.captain_future.state_nb import EV_INVALID
from simbalance.games.captain_future.state_nb import EV_LAND
from simbalance.games.captain_future.state_nb import EV_OTTO
from simbalance.games.captain_future.state_nb import EV_PASS
from simbalance.games.captain_future.state_nb import EV_PAY
from simbalance.games.captain_future.state_nb import EV_RECALL
from simbalance.games.captain_future.state_nb import EV_RESHUFFLE
from simbalance.games.captain_future.state_nb import EV_RETURN
from simbalance.games.captain_future.state_nb import EV_SIMON
from simbalance.games.captain_future.state_nb import EV_STALEMATE
from simbalance.games.captain_future.state_nb import EV_STONE
from simbalance.games.captain_future.state_nb import EV_TRIGGER
from simbalance.games.captain_future.state_nb import EV_TURN
from simbalance.games.captain_future.state_nb import EVENTS_LEFT
from simbalance.games.captain_future.state_nb import EVPT
from simbalance.games.captain_future.state_nb import EXCH
from simbalance.games.captain_future.state_nb import FEWEST
from simbalance.games.captain_future.state_nb import FINAL_LEFT
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import LANDS
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import MP
from simbalance.games.captain_future.state_nb import NB
from simbalance.games.captain_future.state_nb import NDISC
from simbalance.games.captain_future.state_nb import NK
from simbalance.games.captain_future.state_nb import NL
from simbalance.games.captain_future.state_nb import NSTACK
from simbalance.games.captain_future.state_nb import ONBOARD
from simbalance.games.captain_future.state_nb import OPT_NONE
from simbalance.games.captain_future.state_nb import OPT_SIMON
from simbalance.games.captain_future.state_nb import OWNER
from simbalance.games.captain_future.state_nb import PASSES
from simbalance.games.captain_future.state_nb import PH_EVENT_AFTER
from simbalance.games.captain_future.state_nb import PH_EVENT_BEFORE
from simbalance.games.captain_future.state_nb import PH_OVER
from simbalance.games.captain_future.state_nb import PH_SLOT
from simbalance.games.captain_future.state_nb import PH_TURN_END
from simbalance.games.captain_future.state_nb import PHASE
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import R_NO_ACTION
from simbalance.games.captain_future.state_nb import R_NO_PROGRESS
from simbalance.games.captain_future.state_nb import REMOVED
from simbalance.games.captain_future.state_nb import S_ATT
from simbalance.games.captain_future.state_nb import S_END
from simbalance.games.captain_future.state_nb import S_EV
from simbalance.games.captain_future.state_nb import S_EXCH
from simbalance.games.captain_future.state_nb import S_HAND
from simbalance.games.captain_future.state_nb import S_LANDS
from simbalance.games.captain_future.state_nb import S_NDISC
from simbalance.games.captain_future.state_nb import S_NSTACK
from simbalance.games.captain_future.state_nb import S_OWN
from simbalance.games.captain_future.state_nb import S_STONE
from simbalance.games.captain_future.state_nb import SC
from simbalance.games.captain_future.state_nb import SCORE
from simbalance.games.captain_future.state_nb import SEARCHERS
from simbalance.games.captain_future.state_nb import SEAT
from simbalance.games.captain_future.state_nb import SID
from simbalance.games.captain_future.state_nb import SLOT
from simbalance.games.captain_future.state_nb import SLOTS
from simbalance.games.captain_future.state_nb import STACK
from simbalance.games.captain_future.state_nb import STONE_I
from simbalance.games.captain_future.state_nb import STONE_T
from simbalance.games.captain_future.state_nb import SUPPLY
from simbalance.games.captain_future.state_nb import T_LANDS
from simbalance.games.captain_future.state_nb import TRACK
from simbalance.games.captain_future.state_nb import TURN
from simbalance.games.captain_future.state_nb import TURN_CAP
from simbalance.games.captain_future.state_nb import W_BAD
from simbalance.games.captain_future.state_nb import WINDOW
from simbalance.games.captain_future.state_nb import new_state
from simbalance.games.captain_future.state_nb import option_a
from simbalance.games.captain_future.state_nb import option_b
from simbalance.games.captain_future.state_nb import option_kind
from simbalance.games.captain_future.strategies_nb import do_event
from simbalance.games.captain_future.strategies_nb import do_slot
from simbalance.games.captain_future.strategies_nb import play_event
from simbalance.games.captain_future.strategies_nb import reset_cache
from simbalance.games.captain_future.validate_nb import check_invariants
from simbalance.players import FLAT
from simbalance.players import MCTS
from simbalance.players.common_nb import P_FLAT_ROLLOUT
from simbalance.players.common_nb import P_MCTS_ROLLOUT
from simbalance.players.common_nb import is_legal
from simbalance.players.common_nb import new_search
from simbalance.players.common_nb import search_capacity
from simbalance.players.fit_eval_nb import record_positions as generic_record_positions
from simbalance.players.search_nb import search_with_copy

# ---- the replay's event log: what a step did, from a snapshot taken before it ----------------------

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
        log_event(log, log_n, EV_LAND, p, taken_space(bd, st, work, p), k, 0, 0)
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
        s = taken_space(bd, st, work, p)
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
        dst = taken_space(bd, st, work, p)
        src = -1
        for s in range(bd[NL]):
            if work[S_OWN + s] == p and st[OWNER + s] != p:
                src = s
        log_event(log, log_n, EV_OTTO, p, src, dst, work[S_OWN + dst], 0)
    else:
        s = taken_space(bd, st, work, p)
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


# ---- the steps between decisions ----------------------------------------------------------------

@njit(cache=True, _nrt=False)
def game_over(st, end, reason, log, log_n):
    """The game ends with ``end`` (core.records END_*; a stalemate's ``reason``, R_*): nobody is to
    move any more. The whole-game metrics take their last checkpoint: the scores as the board stands
    (docs/rules/captain-future.md, "Whole-game metrics")."""
    st[PHASE] = PH_OVER
    st[END] = end
    progress_end(st[TRACK:TRACK + PROGRESS_SIZE], st[SCORE:SCORE + MAX_SEATS], np.int64(1), st[TURN], reason)
    if log is not None:
        log_event(log, log_n, EV_END, end, st[TURN], 0, 0, 0)


@njit(cache=True, _nrt=False)
def end_of_round(bd, st, log, log_n):
    """A round (a turn per seat) is over: the whole-game metrics' checkpoint of the scores, and the
    loop detection (rules.stalemate_window): a player down to fewer ships in supply than any player
    had before (the end, triggered by an empty supply, comes closer), or a better score than any
    so far, is progress. True: no progress for the window's turns ended the game as a stalemate."""
    fewest = st[FEWEST]
    for q in range(bd[PLAYERS]):
        fewest = min(fewest, st[SUPPLY + q])
    moved = fewest < st[FEWEST]
    st[FEWEST] = fewest
    tr = st[TRACK:TRACK + PROGRESS_SIZE]
    if not progress_round_of(tr, st[SCORE:SCORE + MAX_SEATS], np.int64(1), st[TURN], moved, bd[WINDOW], st[EXCH],
                             np.int64(0)):
        return False
    if log is not None:
        log_event(log, log_n, EV_STALEMATE, R_NO_PROGRESS, st[TURN] - tr[PR_STALL_FROM], 0, 0, 0)
    game_over(st, np.int64(END_STALEMATE), np.int64(R_NO_PROGRESS), log, log_n)
    return True


@njit(cache=True, _nrt=False)
def begin_turn(bd, st, log, log_n):
    """The end of a round (its checkpoint and the loop detection), the turn cap (a timeout), then
    seat st[SEAT]'s turn begins: an optional event first (if the rules allow events), then the
    action slots."""
    if st[TURN] >= st[TRACK + PR_NEXT] and end_of_round(bd, st, log, log_n):
        return
    if st[TURN] >= bd[TURN_CAP]:
        game_over(st, np.int64(END_TIMEOUT), np.int64(0), log, log_n)
        return
    p = st[SEAT]
    if log is not None:
        log_event(log, log_n, EV_TURN, st[TURN] + 1, p, 1 if st[FINAL_LEFT] > 0 else 0, st[HAND_N + p],
                  st[SUPPLY + p])
    st[T_LANDS] = 0
    st[ACTED] = 0
    st[EVENTS_LEFT] = bd[EVPT]
    if bd[EVPT] > 0:
        st[PHASE] = PH_EVENT_BEFORE
    else:
        to_slot(bd, st, 0)


@njit(cache=True, _nrt=False, inline="always")
def to_slot(bd, st, k):
    """On to action slot ``k``; after the last one, to the events after the slots (if any are left)."""
    if k < bd[SLOTS]:
        st[PHASE] = PH_SLOT
        st[SLOT] = k
    else:
        after_slots(st)


@njit(cache=True, _nrt=False, inline="always")
def after_slots(st):
    """The slots are over: an event card after them while the seat may play one, else the turn ends."""
    st[PHASE] = PH_EVENT_AFTER if st[EVENTS_LEFT] > 0 else PH_TURN_END


@njit(cache=True, _nrt=False)
def end_turn(bd, st, rng, work, log, log_n):
    """Draw back up to the hand size (not after a broken step); then the end of the turn: the final
    round once a player emptied his supply (everyone else plays once more), a stalemate after a
    whole round in which nobody could act, else the next seat's turn."""
    p = st[SEAT]
    broken = work is not None and work[W_BAD] != 0
    if not broken:
        if log is not None:
            snapshot(bd, st, work, p)
        refill_hand(bd, st, rng, p)
        if log is not None:
            log_refill(bd, st, work, p, log, log_n)
        broken = _broken(bd, st, work)
    st[TURN] += 1
    if broken:
        if log is not None:
            log_event(log, log_n, EV_INVALID, st[TURN], work[W_BAD], 0, 0, 0)
        game_over(st, np.int64(END_INVALID), np.int64(0), log, log_n)
        return
    P = bd[PLAYERS]
    st[PASSES] = 0 if st[ACTED] else st[PASSES] + 1
    if st[FINAL_LEFT] > 0:
        st[FINAL_LEFT] -= 1
        if st[FINAL_LEFT] == 0:
            game_over(st, np.int64(END_WIN), np.int64(0), log, log_n)
            return
    elif st[END_SEAT] >= 0:
        # The player who emptied his supply has finished his turn: everyone else plays once more.
        st[FINAL_LEFT] = P - 1
        if st[FINAL_LEFT] == 0:
            game_over(st, np.int64(END_WIN), np.int64(0), log, log_n)
            return
    if st[PASSES] >= P:
        game_over(st, np.int64(END_STALEMATE), np.int64(R_NO_ACTION), log, log_n)
        return
    st[SEAT] = st[SEAT] + 1 if st[SEAT] + 1 < P else 0
    begin_turn(bd, st, log, log_n)


@njit(cache=True, _nrt=False)
def next_turns(bd, st, rng, work, log, log_n):
    """End the turn and begin the next, until a turn with a decision (or the end of the game)."""
    while st[PHASE] == PH_TURN_END:
        end_turn(bd, st, rng, work, log, log_n)


@njit(cache=True, _nrt=False)
def deal_and_begin(bd, st, fs, rng, order, stone_t, stone_i, work=None, log=None, log_n=None):
    """Set up (the stone on its first place), deal ``order`` (a shuffled deck of card kinds), and
    begin seat 0's turn: the state then stands at the first decision. Seat strategy ids in st[SID..]
    are kept. Tests call this with a scripted deck; ``start`` with the game's own."""
    set_up(bd, st, stone_t, stone_i)
    reset_cache(fs)
    deal(bd, st, order)
    if log is not None:
        for q in range(bd[PLAYERS]):
            for k in range(MK):
                if st[HANDS + q * MK + k] > 0:
                    log_event(log, log_n, EV_HAND, q, st[HANDS + q * MK + k], k, 0, 0)
        log_event(log, log_n, EV_STONE, stone_place(bd, stone_t, stone_i), 0, 0, 0, 0)
    st[TURN] = 0
    st[SEAT] = 0
    st[PASSES] = 0
    st[FINAL_LEFT] = -1
    progress_reset(st[TRACK:TRACK + PROGRESS_SIZE], bd[PLAYERS], bd[PLAYERS], st[TURN])  # a round: a turn per seat
    fewest = st[SUPPLY]  # the smallest supply at the start (seat compensation may change one)
    for q in range(1, bd[PLAYERS]):
        fewest = min(fewest, st[SUPPLY + q])
    st[FEWEST] = fewest
    if _broken(bd, st, work):
        if log is not None:
            log_event(log, log_n, EV_INVALID, 0, work[W_BAD], 0, 0, 0)
        game_over(st, np.int64(END_INVALID), np.int64(0), log, log_n)
        return
    begin_turn(bd, st, log, log_n)
    next_turns(bd, st, rng, work, log, log_n)


@njit(cache=True, _nrt=False)
def deal_game(bd, st, fs, rng, order, seed, game, work=None, log=None, log_n=None):
    """Game ``game`` of ``seed``: its random stream, the shuffled deck, the stone's first place, the
    deal; then on to the first decision (the start of the kernel's games and of the replay's)."""
    seed_game(rng, seed, game)
    shuffle_deck(bd, rng, order)
    stone_t, stone_i = first_stone(bd, rng)
    deal_and_begin(bd, st, fs, rng, order, stone_t, stone_i, work, log, log_n)


# ---- the game loop ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def play_on(bd, st, fs, buf, rng, seat_prm, max_decisions, forced, work=None, log=None, log_n=None):
    """Play on from the pending decision: the seats' strategies (st[SID..], ``seat_prm``) decide, at
    most ``max_decisions`` times (-1: to the end of the game); ``forced`` >= 0: the first decision
    takes that option (state_nb.OPT_*) instead. After each decision the game runs on to the next.
    Returns the decisions made."""
    n = 0
    while n != max_decisions and st[PHASE] != PH_OVER:
        p = st[SEAT]
        if forced < 0 and (st[SEARCHERS] >> p) & 1:
            break  # a search player's decision: the search takes it (play_searched)
        sid = st[SID + p]
        prm = seat_prm[p]
        phase = st[PHASE]
        if log is not None:
            snapshot(bd, st, work, p)
        if phase == PH_SLOT:
            # An action slot: land, attack or exchange; a player with nothing legal passes the rest.
            if forced >= 0:
                acted = take_action(bd, st, rng, p, option_kind(forced), option_a(forced), option_b(forced))
            else:
                acted = do_slot(sid, prm, bd, st, fs, buf, rng, p, st[FINAL_LEFT] > 0)
            if not acted:
                if log is not None:
                    log_event(log, log_n, EV_PASS, p, bd[SLOTS] - st[SLOT], 0, 0, 0)
                after_slots(st)
            else:
                st[ACTED] = 1
                if log is not None:
                    log_slot(bd, st, work, p, log, log_n)
                if _broken(bd, st, work):
                    st[PHASE] = PH_TURN_END
                else:
                    to_slot(bd, st, st[SLOT] + 1)
        else:
            # An event card before or after the slots, or none.
            if forced >= 0:
                played = forced != OPT_NONE
                if played:
                    play_event(bd, st, fs, rng, p, seat_prm, option_kind(forced) - OPT_SIMON, option_a(forced),
                               option_b(forced))
            else:
                played = do_event(sid, prm, bd, st, fs, rng, p, seat_prm, 0 if phase == PH_EVENT_BEFORE else 1)
            if played:
                st[EVENTS_LEFT] -= 1
                st[ACTED] = 1
                if log is not None:
                    log_event_card(bd, st, work, p, log, log_n)
            if phase == PH_EVENT_BEFORE:
                if _broken(bd, st, work):
                    st[PHASE] = PH_TURN_END
                else:
                    to_slot(bd, st, 0)
            elif not played or _broken(bd, st, work):
                st[PHASE] = PH_TURN_END
            else:
                after_slots(st)
        forced = -1
        n += 1
        if st[PHASE] == PH_TURN_END:
            next_turns(bd, st, rng, work, log, log_n)
    return n


# ---- the Resumable contract (core/spec.py) -------------------------------------------------------

def context(bd, validate) -> tuple:
    """The game's read-only arrays from prepare's output: (board array, validate flag)."""
    return (bd, np.bool_(validate))


def max_options(ctx) -> int:
    """The most options a decision on the board of ``ctx`` can have (the length of ``options``): an
    event decision: none, the stone's other places, Recall, Otto's pairs of spaces, GRAG's spaces; a
    slot: landings (every space is named by 4 card kinds), attacks, exchanges (or the pass)."""
    bd = ctx[0]
    n_spaces, n_kinds = int(bd[NL]), int(bd[NK])
    events = 1 + (int(n_stone_places(bd)) - 1) + 1 + n_spaces * n_spaces + n_spaces
    slots = 4 * n_spaces + n_spaces + n_kinds + 1
    return max(events, slots)


@njit(cache=True, inline="always")
def start(ctx, state, seed, game):
    """Game ``game`` of ``seed`` dealt into ``state``, on to the first decision."""
    bd, validate = ctx
    st, fs, buf, rng, seat_prm, work, order = state
    if validate:
        deal_game(bd, st, fs, rng, order, seed, game, work)
    else:
        deal_game(bd, st, fs, rng, order, seed, game)


@njit(cache=True, _nrt=False)
def to_move(ctx, state):
    """The seat whose decision is pending; -1 once the game is over."""
    st = state[0]
    return -1 if st[PHASE] == PH_OVER else st[SEAT]


@njit(cache=True, _nrt=False)
def legal_options(ctx, state, options):
    """The pending decision's options (state_nb.OPT_*) into ``options``; returns how many (0 once
    the game is over)."""
    bd = ctx[0]
    st = state[0]
    phase = st[PHASE]
    if phase == PH_OVER:
        return 0
    p = st[SEAT]
    if phase == PH_SLOT:
        return slot_options(bd, st, p, st[FINAL_LEFT] > 0, options)
    return event_options(bd, st, p, options)


@njit(cache=True, _nrt=False)
def apply_option(ctx, state, option):
    """Take one listed option of the pending decision, then play on to the next decision. Recall's
    choices (every player sends a ship home) are made by the seats' strategies in the state."""
    bd, validate = ctx
    st, fs, buf, rng, seat_prm, work, order = state
    if validate:
        play_on(bd, st, fs, buf, rng, seat_prm, np.int64(1), option, work)
    else:
        play_on(bd, st, fs, buf, rng, seat_prm, np.int64(1), option)


@njit(cache=True, _nrt=False, inline="always")
def set_seats(bd, st, prm, seat_sid, seat_prm):
    """The seats' strategies into the state (st[SID..], ``prm``), as the game loop reads them. A
    search seat (players.SEARCH_IDS) gets its bit in st[SEARCHERS], so that play_on stops before its
    decisions, and plays its rollout strategy (id and parameters from its own row) wherever the
    rules ask a player outside a decision: Recall's ship (docs/rules/captain-future.md, "Search
    players"). ``seat_sid`` and ``seat_prm`` may be st[SID..] and ``prm`` themselves (the kernel):
    a rollout row is copied forward within its row."""
    searchers = 0
    for q in range(bd[PLAYERS]):
        sid = seat_sid[q]
        at = P_MCTS_ROLLOUT if sid == MCTS else (P_FLAT_ROLLOUT if sid == FLAT else -1)
        if at >= 0:
            searchers |= 1 << q
            st[SID + q] = np.int64(seat_prm[q, at])
        else:
            st[SID + q] = sid
        for j in range(prm.shape[1]):
            prm[q, j] = seat_prm[q, at + 1 + j] if at + 1 + j < seat_prm.shape[1] else 0.0
    st[SEARCHERS] = searchers


@njit(cache=True, inline="always")
def play_out(ctx, state, seat_sid, seat_prm, max_decisions):
    """Let the seats' strategies (ids ``seat_sid``, parameter rows ``seat_prm``, as the kernel gives
    them; they become the state's) decide, at most ``max_decisions`` times (-1: to the end); returns
    the decisions made."""
    bd, validate = ctx
    st, fs, buf, rng, prm, work, order = state
    set_seats(bd, st, prm, seat_sid, seat_prm)
    if validate:
        return play_on(bd, st, fs, buf, rng, prm, max_decisions, np.int64(-1), work)
    return play_on(bd, st, fs, buf, rng, prm, max_decisions, np.int64(-1))


@njit(cache=True, inline="always")
def write_record(ctx, state, out, i):
    """The finished game's record into ``out[i]`` (all but the kernel's game and strategy fields)."""
    bd = ctx[0]
    st = state[0]
    end = st[END]
    turns = st[TURN]
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
    write_progress(out, i, st[TRACK:TRACK + PROGRESS_SIZE], winners, turns)
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



@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, bd, validate):
    """Games ``lo .. hi - 1`` of the chunk (core/kernel.py) on one state, each as start, play_out,
    write_record."""
    P = bd[PLAYERS]
    ctx = (bd, validate)
    state = new_state(ctx)
    st = state[0]
    seat_prm = state[4]
    for i in range(lo, hi):
        game = first_game + i
        # the record's game and strategy fields and the seats' strategies (begin_game keys the
        # random stream too; start keys it again, to the same state)
        begin_game(state[3], seed, game, out, i, lineups, slot_strategy, slot_params, P, st, SID, seat_prm)
        start(ctx, state, seed, game)
        play_out(ctx, state, st[SID:SID + P], seat_prm, np.int64(-1))
        if st[PHASE] != PH_OVER:  # stopped before a search seat's decision: search_kernel plays those
            game_over(st, np.int64(END_INVALID), np.int64(0), None, None)
        write_record(ctx, state, out, i)


@njit(cache=True)
def trace_game(out, game, seed, lineups, slot_strategy, slot_params, bd, log, log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]`` exactly as the kernel plays it (validated),
    every event in ``log`` (state_nb.EV_*); ``log_n[0]``: the number of events."""
    P = bd[PLAYERS]
    ctx = (bd, True)
    state = new_state(ctx)
    st, fs, buf, rng, seat_prm, work, order = state
    log_n[0] = 0
    begin_game(rng, seed, game, out, 0, lineups, slot_strategy, slot_params, P, st, SID, seat_prm)
    deal_game(bd, st, fs, rng, order, seed, game, work, log, log_n)
    play_on(bd, st, fs, buf, rng, seat_prm, np.int64(-1), np.int64(-1), work, log, log_n)
    write_record(ctx, state, out, 0)


# ---- search players (simbalance/players) --------------------------------------------------------


@njit(cache=True)
def n_options(bd):
    """max_options, in the kernel."""
    n_spaces = bd[NL]
    events = 1 + (n_stone_places(bd) - 1) + 1 + n_spaces * n_spaces + n_spaces
    return max(events, 4 * n_spaces + n_spaces + bd[NK] + 1)


@njit(cache=True, _nrt=False)
def search_option(ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch):
    """The option the search seat to move takes (players/search_nb.search with this game's steps;
    the options it weighs: search_nb.search_options)."""
    return search_with_copy(to_move, search_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                  observe, copy_position, ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch)


@njit(cache=True, nogil=True)
def record_positions(ctx, state, block, out):
    """``simbalance fit-eval``'s recording kernel (players/fit_eval_nb.record_positions) with this
    game's steps named once: numba caches this call, not the generic kernel called from Python."""
    generic_record_positions(start, to_move, play_out, outcome, evaluate, features, ctx, state, block, out)


@njit(cache=True)
def new_search_scratch(ctx, slot_strategy, slot_params, weights):
    """The search players' scratch for a block (players/common_nb.new_search)."""
    bd = ctx[0]
    return new_search(ctx, new_state, n_options(bd), bd[PLAYERS], slot_params.shape[1],
                      search_capacity(slot_strategy, slot_params), weights)


@njit(cache=True, inline="always")
def play_searched(ctx, state, seed, game, seat_sid, seat_prm, search_scratch, work, log, log_n):
    """The game on from where play_on stopped: each search seat's decision is the search's, the
    strategies play on to the next one, until the end. With validation (``work``), an option the
    decision does not list ends the game as invalid."""
    bd = ctx[0]
    st, fs, buf, rng, prm, _, _ = state
    options = search_scratch[3]
    decision = 0
    while st[PHASE] != PH_OVER:
        option = search_option(ctx, state, seat_sid, seat_prm, seed, game, np.int64(decision), search_scratch)
        decision += 1
        if work is not None and not is_legal(legal_options, ctx, state, options, option):
            if log is not None:
                log_event(log, log_n, EV_INVALID, st[TURN], 0, 0, 0, 0)
            game_over(st, np.int64(END_INVALID), np.int64(0), log, log_n)
            return
        play_on(bd, st, fs, buf, rng, prm, np.int64(1), np.int64(option), work, log, log_n)
        play_on(bd, st, fs, buf, rng, prm, np.int64(-1), np.int64(-1), work, log, log_n)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, bd, validate, weights):
    """``kernel`` for a run with search players (compiled only when one is seated: the search adds
    to the cold compile). The seats' rows stay apart from the state's, which hold the search seats'
    rollout strategies (set_seats)."""
    P = bd[PLAYERS]
    ctx = (bd, validate)
    state = new_state(ctx)
    st, fs, buf, rng, prm, work, order = state
    seat_sid = np.zeros(P, np.int64)
    seat_prm = np.zeros((P, slot_params.shape[1]), np.float64)
    scratch = new_search_scratch(ctx, slot_strategy, slot_params, weights)
    for i in range(lo, hi):
        game = first_game + i
        begin_game(rng, seed, game, out, i, lineups, slot_strategy, slot_params, P, seat_sid, 0, seat_prm)
        start(ctx, state, seed, game)
        play_out(ctx, state, seat_sid, seat_prm, -1)
        if validate:
            play_searched(ctx, state, seed, game, seat_sid, seat_prm, scratch, work, None, None)
        else:
            play_searched(ctx, state, seed, game, seat_sid, seat_prm, scratch, None, None, None)
        write_record(ctx, state, out, i)


@njit(cache=True)
def trace_search_game(out, game, seed, lineups, slot_strategy, slot_params, bd, log, log_n, weights):
    """``trace_game`` for a run with search players."""
    P = bd[PLAYERS]
    ctx = (bd, np.bool_(True))
    state = new_state(ctx)
    st, fs, buf, rng, prm, work, order = state
    seat_sid = np.zeros(P, np.int64)
    seat_prm = np.zeros((P, slot_params.shape[1]), np.float64)
    scratch = new_search_scratch(ctx, slot_strategy, slot_params, weights)
    log_n[0] = 0
    begin_game(rng, seed, game, out, 0, lineups, slot_strategy, slot_params, P, seat_sid, 0, seat_prm)
    deal_game(bd, st, fs, rng, order, seed, game, work, log, log_n)
    set_seats(bd, st, prm, seat_sid, seat_prm)
    play_on(bd, st, fs, buf, rng, prm, np.int64(-1), np.int64(-1), work, log, log_n)
    play_searched(ctx, state, seed, game, seat_sid, seat_prm, scratch, work, log, log_n)
    write_record(ctx, state, out, 0)
