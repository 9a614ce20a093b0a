"""captain-action as resumable steps, and the kernel that plays every game through them.

A game is ``start`` (shuffle and deal, on to the first decision), then decisions until it is over
(``play_out``: each seat's strategy chooses an option, ``apply_option`` takes it and plays on to
the next decision), then ``write_record``. The kernel, the tests' scripted deals (``play_scripted``)
and the replay (``trace_game``) all run these same steps; search players can stop anywhere,
``clone`` the state (state_nb), list the pending decision's options (``legal_options``) and try each.
The decisions and their option codes are in docs/rules/captain-action.md, "Decisions".

``ctx = (card_info, srules, game_rules, validate)``: the run's read-only arrays (``context``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.event_log import log_event
from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_WIN
from simbalance.core.rng import seed_game
from simbalance.core.rng import shuffled_range
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import write_progress
from simbalance.games.captain_action.rules_nb import call
from simbalance.games.captain_action.rules_nb import deal
from simbalance.games.captain_action.rules_nb import discard
from simbalance.games.captain_action.rules_nb import draw_from_countdown
from simbalance.games.captain_action.rules_nb import end_game
from simbalance.games.captain_action.rules_nb import end_turn
from simbalance.games.captain_action.rules_nb import take_from_discard_pile
from simbalance.games.captain_action.search_nb import determinize
from simbalance.games.captain_action.search_nb import evaluate
from simbalance.games.captain_action.search_nb import features
from simbalance.games.captain_action.search_nb import observe
from simbalance.games.captain_action.search_nb import outcome
from simbalance.games.captain_action.search_nb import policy
from simbalance.games.captain_action.state_nb import CALL
from simbalance.games.captain_action.state_nb import EV_INVALID
from simbalance.games.captain_action.state_nb import FROM_COUNTDOWN
from simbalance.games.captain_action.state_nb import FROM_PILE
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import G_PLAYERS
from simbalance.games.captain_action.state_nb import PH_CALL_AFTER
from simbalance.games.captain_action.state_nb import PH_CALL_BEFORE
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import PH_OVER
from simbalance.games.captain_action.state_nb import PH_SOURCE
from simbalance.games.captain_action.state_nb import PLAY_ON
from simbalance.games.captain_action.state_nb import TRACK
from simbalance.games.captain_action.state_nb import V_CALLER
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_END
from simbalance.games.captain_action.state_nb import V_FORBID
from simbalance.games.captain_action.state_nb import V_HAND_SCORE
from simbalance.games.captain_action.state_nb import V_LAST_DRAWER
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_SCORE
from simbalance.games.captain_action.state_nb import V_SEAT
from simbalance.games.captain_action.state_nb import V_TAKES
from simbalance.games.captain_action.state_nb import V_TURNS
from simbalance.games.captain_action.state_nb import V_WINNERS
from simbalance.games.captain_action.state_nb import new_state
from simbalance.games.captain_action.strategies_nb import choose
from simbalance.players.common_nb import is_legal
from simbalance.players.common_nb import is_search
from simbalance.players.common_nb import new_search
from simbalance.players.common_nb import search_capacity
from simbalance.players.fit_eval_nb import record_positions as generic_record_positions
from simbalance.players.search_nb import search


def context(card_info, srules, game_rules, validate):
    """The read-only arrays every step reads, from ``engine.prepare``'s output."""
    return card_info, srules, game_rules, np.bool_(validate)


def max_options(ctx) -> int:
    """The most options a decision can have: a discard from hand_size + 1 cards."""
    return int(ctx[2][G_HAND]) + 1


# ---- the game as resumable steps (Resumable in core/spec.py) ------------------------------------


@njit(cache=True, inline="always")
def start_game(ctx, state, seed, game, log, log_n):
    """Shuffle game ``game`` of ``seed`` into ``state`` and deal; on to the first decision."""
    rng, _, order, _, _, _, _ = state
    seed_game(rng, seed, game)
    shuffled_range(rng, order, order.shape[0])
    deal(ctx, state, log, log_n)


@njit(cache=True)
def start(ctx, state, seed, game):
    start_game(ctx, state, seed, game, None, None)


@njit(cache=True)
def to_move(ctx, state):
    """The seat whose decision is pending; -1 once the game is over."""
    gv = state[1]
    return -1 if gv[V_PHASE] == PH_OVER else gv[V_SEAT]


@njit(cache=True)
def legal_options(ctx, state, options):
    """The pending decision's options into ``options``; returns how many (0: the game is over)."""
    gv = state[1]
    phase = gv[V_PHASE]
    if phase == PH_OVER:
        return 0
    if phase == PH_SOURCE:
        # Both piles always hold a card at a turn's start: drawing the last Countdown card ends the
        # game, and every turn puts a card back on the discard pile.
        options[0] = FROM_COUNTDOWN
        options[1] = FROM_PILE
        return 2
    if phase == PH_DISCARD:
        n = 0
        for slot in range(ctx[2][G_HAND] + 1):
            if slot != gv[V_FORBID]:
                options[n] = slot
                n += 1
        return n
    options[0] = PLAY_ON  # PH_CALL_BEFORE, PH_CALL_AFTER
    options[1] = CALL
    return 2


@njit(cache=True, inline="always")
def take_option(ctx, state, option, log, log_n):
    """The pending decision settled by ``option``; the rule steps play on to the next decision."""
    phase = state[1][V_PHASE]
    if phase == PH_SOURCE:
        if option == FROM_PILE:
            take_from_discard_pile(ctx, state, log, log_n)
        else:
            draw_from_countdown(ctx, state, log, log_n)
    elif phase == PH_DISCARD:
        discard(ctx, state, option, log, log_n)
    elif option == CALL:  # PH_CALL_AFTER or PH_CALL_BEFORE
        call(ctx, state, log, log_n)
    elif phase == PH_CALL_AFTER:
        end_turn(ctx, state, log, log_n)
    elif phase == PH_CALL_BEFORE:
        state[1][V_PHASE] = PH_SOURCE  # no call: on to the draw


@njit(cache=True)
def apply_option(ctx, state, option):
    take_option(ctx, state, option, None, None)


@njit(cache=True, inline="always")
def play_on(ctx, state, seat_sid, seat_prm, max_decisions, log, log_n):
    """Let each seat's strategy decide (at most ``max_decisions`` times; -1: to the end); returns
    the decisions made. Stops before a search player's decision (play_searched takes it)."""
    gv = state[1]
    made = 0
    while gv[V_PHASE] != PH_OVER and made != max_decisions:
        seat = gv[V_SEAT]
        if is_search(seat_sid[seat]):
            break
        take_option(ctx, state, choose(ctx, state, seat_sid[seat], seat_prm[seat]), log, log_n)
        made += 1
    return made


# play_out and play_game are compiled without reference counting (they allocate nothing): every
# inlined step unpacks the state's arrays, and counting a reference for each made the kernel ~14%
# slower (docs/architecture.md, "Speed notes").
@njit(cache=True, _nrt=False)
def play_out(ctx, state, seat_sid, seat_prm, max_decisions):
    return play_on(ctx, state, seat_sid, seat_prm, max_decisions, None, None)


@njit(cache=True, inline="always")
def write_record(ctx, state, out, i):
    """The finished game into ``out[i]`` (all but ``game`` and ``strategy``, which begin_game writes)."""
    _, _, game_rules, _ = ctx
    gv = state[1]
    hand = state[3]
    hand_size = game_rules[G_HAND]
    for s in range(game_rules[G_PLAYERS]):
        out[i].takes[s] = gv[V_TAKES + s]
        out[i].hand_score[s] = gv[V_HAND_SCORE + s]
        out[i].score[s] = gv[V_SCORE + s]
        mask = np.uint64(0)
        for k in range(hand_size):
            mask |= np.uint64(1) << np.uint64(hand[s, k])
        out[i].hand_mask[s] = mask
    out[i].caller = gv[V_CALLER]
    out[i].countdown_left = gv[V_CD_END] - gv[V_CD_POS]
    out[i].countdown_out = 1 if gv[V_LAST_DRAWER] >= 0 else 0
    out[i].length = gv[V_TURNS]
    out[i].end = gv[V_END]
    winners = gv[V_WINNERS]
    out[i].winners = winners
    # One winner: its seat; a tie or no winner (a timeout, an invalid game): -1.
    out[i].winner = -1
    if gv[V_END] == END_WIN and (winners & (winners - 1)) == 0:
        for s in range(game_rules[G_PLAYERS]):
            if (winners >> s) & 1:
                out[i].winner = s
    write_progress(out, i, gv[TRACK:TRACK + PROGRESS_SIZE], winners, gv[V_TURNS])


# ---- search players (simbalance/players) --------------------------------------------------------


@njit(cache=True)
def search_option(ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch):
    """The option the search seat to move takes (players/search_nb.search with this game's steps)."""
    return search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                  observe, ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch)


@njit(cache=True, nogil=True)
def record_positions(ctx, state, block, out):
    """``simbalance fit-eval``'s recording kernel (players/fit_eval_nb.record_positions) with this
    game's steps named once: numba caches this call, not the generic kernel called from Python."""
    generic_record_positions(start, to_move, play_out, outcome, evaluate, features, ctx, state, block, out)


@njit(cache=True)
def new_search_scratch(ctx, slot_strategy, slot_params, weights):
    """The search players' scratch for a block (players/common_nb.new_search)."""
    game_rules = ctx[2]
    return new_search(ctx, new_state, game_rules[G_HAND] + 1, game_rules[G_PLAYERS], slot_params.shape[1],
                      search_capacity(slot_strategy, slot_params), weights)


@njit(cache=True)
def play_searched(ctx, state, seed, game, seat_sid, seat_prm, search_scratch, log, log_n):
    """The game on from a search seat's decision: the search picks, the strategies play on to the
    next search decision, until the end. With validation, an option the decision does not list
    ends the game as invalid."""
    gv = state[1]
    options = search_scratch[3]
    decision = 0
    while gv[V_PHASE] != PH_OVER:
        option = search_option(ctx, state, seat_sid, seat_prm, seed, game, np.int64(decision), search_scratch)
        decision += 1
        if ctx[3] and not is_legal(legal_options, ctx, state, options, option):
            if log is not None:
                log_event(log, log_n, EV_INVALID, gv[V_SEAT], option, 0)
            gv[V_END] = END_INVALID
            end_game(ctx, state, log, log_n)
            return
        take_option(ctx, state, option, log, log_n)
        play_on(ctx, state, seat_sid, seat_prm, np.int64(-1), log, log_n)


# ---- the kernel and its variants ----------------------------------------------------------------


@njit(cache=True, _nrt=False)
def play_game(ctx, state, seed, game, seat_sid, seat_prm, out, i, log, log_n, search_scratch):
    """One whole game as the kernel plays it: ``start``, ``play_out`` to the end, ``write_record``
    into ``out[i]``. One call per game: inlined into the kernel's loop, these steps made its
    compile twice as slow. ``search_scratch`` None (the kernel without search players: numba
    compiles the search away) or the search's scratch (``search_kernel``: a search seat's decisions
    are the search's)."""
    start_game(ctx, state, seed, game, log, log_n)
    play_on(ctx, state, seat_sid, seat_prm, -1, log, log_n)
    if search_scratch is not None:
        if state[1][V_PHASE] != PH_OVER:  # stopped before a search seat's decision
            play_searched(ctx, state, seed, game, seat_sid, seat_prm, search_scratch, log, log_n)
    elif state[1][V_PHASE] != PH_OVER:  # a search seat in the kernel without search: not a game
        state[1][V_END] = END_INVALID
        end_game(ctx, state, log, log_n)
    write_record(ctx, state, out, i)


@njit(cache=True, inline="always")
def play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, log, log_n, search_scratch):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``, with one state (and its
    scratch) for the whole block: the body of the kernel and of the replay. Inlined: with games this
    short (a few turns) a call per block measurably slowed the kernel."""
    players = ctx[2][G_PLAYERS]
    state = new_state(ctx)
    seat_sid = np.empty(players, np.int64)
    seat_prm = np.empty((players, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        game = first_game + i
        begin_game(state[0], seed, game, out, i, lineups, slot_strategy, slot_params, players, seat_sid, 0, seat_prm)
        play_game(ctx, state, seed, game, seat_sid, seat_prm, out, i, log, log_n, search_scratch)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules,
           validate):
    """Games ``lo .. hi - 1`` of the chunk (core/kernel.py)."""
    ctx = (card_info, srules, game_rules, validate)
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, None, None, None)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules,
                  validate, weights):
    """``kernel`` for a run with search players (compiled only when one is seated: the search adds
    to the cold compile)."""
    ctx = (card_info, srules, game_rules, validate)
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, None, None,
               new_search_scratch(ctx, slot_strategy, slot_params, weights))


@njit(cache=True)
def start_scripted(ctx, state, seed, game, order):
    """Tests: deal a chosen deck ``order`` (the stream keyed to ``seed``, ``game`` for the random
    players' draws); on to the first decision."""
    seed_game(state[0], seed, game)
    state[2][:] = order
    deal(ctx, state, None, None)


@njit(cache=True)
def play_scripted(order, seat_sid, seat_params, card_info, srules, game_rules, seed, game, out):
    """Tests: play one game from a chosen deck order with chosen strategies per seat (validated)."""
    ctx = (card_info, srules, game_rules, True)
    state = new_state(ctx)
    start_scripted(ctx, state, seed, game, order)
    play_out(ctx, state, seat_sid, seat_params, np.int64(-1))
    write_record(ctx, state, out, 0)


@njit(cache=True)
def trace_game(lineups, slot_strategy, slot_params, card_info, srules, game_rules, seed, game, out, log, log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]``, played by the kernel's own ``play_block``
    (validated), every event in ``log``; ``log_n[0]``: the number of events."""
    log_n[0] = 0
    play_block(out, 0, 1, game, seed, lineups, slot_strategy, slot_params, (card_info, srules, game_rules, True),
               log, log_n, None)


@njit(cache=True)
def trace_search_game(lineups, slot_strategy, slot_params, card_info, srules, game_rules, seed, game, out, log,
                      log_n, weights):
    """``trace_game`` for a run with search players."""
    log_n[0] = 0
    ctx = (card_info, srules, game_rules, np.bool_(True))
    play_block(out, 0, 1, game, seed, lineups, slot_strategy, slot_params, ctx, log, log_n,
               new_search_scratch(ctx, slot_strategy, slot_params, weights))
