"""lady-actions-escape as resumable steps, the kernel and the replay's ``trace_game``.

A game is ``start`` (deal, then play on to the first decision), then decisions until it is over,
then ``write_record``. The kernel plays every game so: ``start``, ``play_out(..., -1)`` (the seats'
strategies take every decision), ``write_record``; the resumable path (``Resumable`` in
core/spec.py: copy the state, list the options, apply one, play on) is the same code.

Decisions (docs/rules/lady-actions-escape.md, "Decisions"): in a turn the player can play in, which
card he plays (any card when leading) and, for a wildcard, the background and character it stands
for; when he drew a wildcard that he must play, what it stands for. Drawing and passing are forced.
An option is one int64 code: ``card`` for a card that is not wild, ``card + n_cards * (1 + bg *
n_ch + ch)`` for a wildcard named (bg, ch) (``option_code``).

The functions that run the game (``start``, ``play_out``, ``apply_option``, ...) are compiled with
``_nrt=False``: they allocate nothing, and with numba's reference counting on, the array locals of
the inlined rule steps cost atomic increments and decrements every turn (five times slower).

Seats with strategy id USER_STRATEGY_ID (a user's ``--strategy-file`` function) call the global
``user_choose`` (strategies_nb.py); ``make_user_strategy_kernel(fn)`` compiles copies of ``strategy_move``, ``play_out``,
``play_block``, ``kernel`` and ``trace_game`` in which that name is ``fn``. A global, not a
function argument: numba passes a function argument as a pointer constant, and a kernel holding
one cannot be cached.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.kernel import begin_game
from simbalance.core.records import END_WIN
from simbalance.core.rng import seed_game
from simbalance.core.rng import shuffled_range
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import write_progress
from simbalance.games.lady_actions_escape.rules_nb import begin_turn
from simbalance.games.lady_actions_escape.rules_nb import card_effect
from simbalance.games.lady_actions_escape.rules_nb import deal
from simbalance.games.lady_actions_escape.rules_nb import draw_until_playable
from simbalance.games.lady_actions_escape.rules_nb import escaped
from simbalance.games.lady_actions_escape.rules_nb import finish_progress
from simbalance.games.lady_actions_escape.rules_nb import invalid_play
from simbalance.games.lady_actions_escape.rules_nb import next_seat
from simbalance.games.lady_actions_escape.rules_nb import pass_turn
from simbalance.games.lady_actions_escape.rules_nb import play_card
from simbalance.games.lady_actions_escape.rules_nb import playable
from simbalance.games.lady_actions_escape.search_nb import determinize
from simbalance.games.lady_actions_escape.search_nb import evaluate
from simbalance.games.lady_actions_escape.search_nb import features
from simbalance.games.lady_actions_escape.search_nb import observe
from simbalance.games.lady_actions_escape.search_nb import outcome
from simbalance.games.lady_actions_escape.search_nb import policy
from simbalance.games.lady_actions_escape.state_nb import DEALT
from simbalance.games.lady_actions_escape.state_nb import DIRECTION
from simbalance.games.lady_actions_escape.state_nb import DISC
from simbalance.games.lady_actions_escape.state_nb import DRAW_EFFECTS
from simbalance.games.lady_actions_escape.state_nb import DRAWN
from simbalance.games.lady_actions_escape.state_nb import END
from simbalance.games.lady_actions_escape.state_nb import G_N_BG
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import INFO_WILD
from simbalance.games.lady_actions_escape.state_nb import PASSES
from simbalance.games.lady_actions_escape.state_nb import PENDING
from simbalance.games.lady_actions_escape.state_nb import PHASE
from simbalance.games.lady_actions_escape.state_nb import PHASE_NAME
from simbalance.games.lady_actions_escape.state_nb import PHASE_OVER
from simbalance.games.lady_actions_escape.state_nb import PHASE_PLAY
from simbalance.games.lady_actions_escape.state_nb import PLAYS
from simbalance.games.lady_actions_escape.state_nb import RESHUFFLES
from simbalance.games.lady_actions_escape.state_nb import REVERSALS
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import TRACK
from simbalance.games.lady_actions_escape.state_nb import TURN
from simbalance.games.lady_actions_escape.state_nb import WILDS
from simbalance.games.lady_actions_escape.state_nb import WINNER
from simbalance.games.lady_actions_escape.state_nb import bit
from simbalance.games.lady_actions_escape.state_nb import has
from simbalance.games.lady_actions_escape.state_nb import new_state
from simbalance.games.lady_actions_escape.state_nb import option_code
from simbalance.games.lady_actions_escape.strategies_nb import strategy_move
from simbalance.games.lady_actions_escape.validate_nb import broken_invariant
from simbalance.players.common_nb import is_search
from simbalance.players.common_nb import new_search
from simbalance.players.common_nb import search_capacity
from simbalance.players.fit_eval_nb import record_positions as generic_record_positions
from simbalance.players.search_nb import search


def context(card_info, match, kind_cards, game_rules, validate):
    """Resumable.context: the run's read-only arrays (engine.prepare's output) as one tuple."""
    return card_info, match, kind_cards, game_rules, validate


def max_options(ctx) -> int:
    """Resumable.max_options: at most every card of the deck, a wildcard once per naming."""
    card_info, kind_cards, game_rules = ctx[0], ctx[2], ctx[3]
    n_bg = int(game_rules[G_N_BG])
    return card_info.shape[0] * max(1, n_bg * (kind_cards.shape[0] - n_bg))


# ---- the game between decisions ----------------------------------------------------------------
@njit(cache=True, inline="always")
def resolve_play(ctx, state, seat, card, bg, ch, log, log_n):
    """``seat`` plays ``card`` (a wildcard named ``bg``, ``ch``), the player who empties his hand
    escapes, else the printed card's effect, and the turn passes on. False when the game is over."""
    st = state[2]
    play_card(ctx, state, seat, card, bg, ch, log, log_n)
    if escaped(st, seat, log, log_n):
        return False
    card_effect(ctx, state, seat, card, log, log_n)
    if ctx[4] and broken_invariant(ctx, state) != 0:  # --validate: after every turn
        invalid_play(st, -1, -1, log, log_n)
        return False
    st[SEAT] = next_seat(seat, st[DIRECTION], ctx[3][G_PLAYERS])
    return True


@njit(cache=True, forceinline=True, _nrt=False)
def play_on(ctx, state, card, bg, ch, log, log_n):
    """The seat to move plays ``card`` (a wildcard named ``bg``, ``ch``; -1: no card, as after the
    deal), then the game goes on to the next decision (or the end). Turns in which the player has no
    playable card are forced: he draws until one fits and plays it, or passes. They stop at a turn
    with a choice, or at a drawn wildcard, whose naming is its player's choice.

    Compiled once by numba (not ``inline="always"``: the whole turn typed at every caller would
    multiply the compile), then inlined by LLVM into its few callers (``forceinline``): a call
    passed the context's and the state's arrays field by field, some 30 words pushed at every
    decision (an all-mcts@100 table 0.87 of the time, BENCHMARKS.md "Issue 56: the search players")."""
    st = state[2]
    while True:
        if card >= 0 and not resolve_play(ctx, state, st[SEAT], card, bg, ch, log, log_n):
            return
        if not begin_turn(ctx, st, log, log_n):
            return
        seat = st[SEAT]
        if playable(ctx, state, seat) != 0:
            st[PHASE] = PHASE_PLAY
            return
        card = draw_until_playable(ctx, state, seat, log, log_n)
        bg = -1
        ch = -1
        if card < 0:
            if not pass_turn(ctx, st, seat, log, log_n):
                return
        elif ctx[0][card, INFO_WILD]:
            st[PENDING] = card
            st[PHASE] = PHASE_NAME
            return


# ---- Resumable ---------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def start_from(ctx, state, order, rotation, log=None, log_n=None):
    """Deal the deck in ``order`` and play on to the first decision. ``rotation``: the game's round
    through the run's lineups (rules_nb.first_leader)."""
    deal(ctx, state, order, rotation, log, log_n)
    play_on(ctx, state, np.int64(-1), np.int64(-1), np.int64(-1), log, log_n)


@njit(cache=True, _nrt=False)
def start(ctx, state, seed, game, lineups=1, log=None, log_n=None):
    """Resumable.start: deal game ``game`` of ``seed`` and play on to the first decision.
    ``lineups``: how many lineups the run rotates through (a rotating first leader depends on it)."""
    rng, st = state[0], state[2]
    n_cards = ctx[0].shape[0]
    seed_game(rng, seed, game)
    order = st[DISC:DISC + n_cards]  # the discard pile is empty until the deal is done: shuffle there
    shuffled_range(rng, order, n_cards)
    start_from(ctx, state, order, game // lineups, log, log_n)


@njit(cache=True, _nrt=False)
def to_move(ctx, state):
    """Resumable.to_move: the seat whose decision is pending; -1 once the game is over."""
    st = state[2]
    return -1 if st[PHASE] == PHASE_OVER else st[SEAT]


@njit(cache=True, _nrt=False)
def legal_options(ctx, state, options):
    """Resumable.legal_options: every playable card, a wildcard once per (background, character)
    it may be named; after a drawn wildcard, its namings. Returns how many were written."""
    card_info, kind_cards, game_rules = ctx[0], ctx[2], ctx[3]
    st = state[2]
    n_cards = card_info.shape[0]
    n_bg = game_rules[G_N_BG]
    n_ch = kind_cards.shape[0] - n_bg
    if st[PHASE] == PHASE_OVER:
        return 0
    cards = bit(st[PENDING]) if st[PHASE] == PHASE_NAME else playable(ctx, state, st[SEAT])
    n = 0
    while cards != np.uint64(0):  # the set bits, lowest card first (a search asks at every tree node)
        card = lowest_bit(cards)
        cards &= cards - np.uint64(1)
        if not card_info[card, INFO_WILD]:
            options[n] = card
            n += 1
            continue
        for bg in range(n_bg):
            for ch in range(n_ch):
                options[n] = option_code(card, bg, ch, n_cards, n_ch)
                n += 1
    return n


@njit(cache=True, inline="always")
def is_legal(ctx, state, card, bg, ch):
    """May the seat to move play ``card`` (named ``bg``, ``ch`` if wild)? Rules 2-5."""
    card_info, kind_cards, game_rules = ctx[0], ctx[2], ctx[3]
    st = state[2]
    n_bg = game_rules[G_N_BG]
    if card < 0 or card >= card_info.shape[0]:
        return False
    if st[PHASE] == PHASE_NAME:
        if card != st[PENDING]:
            return False
    elif not has(playable(ctx, state, st[SEAT]), card):
        return False
    if not card_info[card, INFO_WILD]:
        return bg < 0 and ch < 0
    return 0 <= bg < n_bg and 0 <= ch < kind_cards.shape[0] - n_bg


@njit(cache=True, _nrt=False)
def apply_option(ctx, state, option, log=None, log_n=None):
    """Resumable.apply_option: take ``option`` (one of ``legal_options``; any other ends the game as
    END_INVALID) and play on to the next decision."""
    st = state[2]
    if st[PHASE] == PHASE_OVER:
        return
    n_cards = ctx[0].shape[0]
    n_ch = ctx[2].shape[0] - ctx[3][G_N_BG]
    card = option % n_cards if option >= 0 else -1
    naming = option // n_cards - 1 if option >= 0 else -1
    bg = naming // n_ch if naming >= 0 else -1
    ch = naming % n_ch if naming >= 0 else -1
    seat = st[SEAT]
    if not is_legal(ctx, state, card, bg, ch):
        invalid_play(st, seat, card, log, log_n)
        return
    play_on(ctx, state, card, bg, ch, log, log_n)


@njit(cache=True, _nrt=False)
def play_out(ctx, state, seat_sid, seat_prm, max_decisions, log=None, log_n=None):
    """Resumable.play_out: the seats' strategies (``seat_sid[s]``, parameters ``seat_prm[s]``) take
    the decisions, at most ``max_decisions`` (-1: to the end). Returns the decisions taken. Stops
    before a search player's decision (play_searched takes it)."""
    st = state[2]
    made = 0
    while made != max_decisions and st[PHASE] != PHASE_OVER:
        seat = st[SEAT]
        if is_search(seat_sid[seat]):
            break
        card, bg, ch, legal = strategy_move(ctx, state, seat_sid[seat], seat_prm[seat])
        made += 1
        if not legal:
            invalid_play(st, seat, card, log, log_n)  # a plug-in's: plugin.py turns it into an error
            break
        play_on(ctx, state, card, bg, ch, log, log_n)
    return made


@njit(cache=True, _nrt=False)
def write_record(ctx, state, out, i):
    """Resumable.write_record: the finished game into ``out[i]`` (not its game and strategy fields)."""
    masks, st = state[1], state[2]
    players = ctx[3][G_PLAYERS]
    out[i].length = st[TURN]
    out[i].end = st[END]
    out[i].reversals = st[REVERSALS]
    out[i].draw_twos = st[DRAW_EFFECTS]
    out[i].reshuffles = st[RESHUFFLES]
    out[i].passes = st[PASSES]
    out[i].wilds_played = st[WILDS]
    for s in range(players):
        out[i].cards_left[s] = st[HAND_N + s]
        out[i].hand_mask[s] = masks[HAND + s]
        out[i].dealt_mask[s] = masks[DEALT + s]
        out[i].plays[s] = st[PLAYS + s]
        out[i].drawn[s] = st[DRAWN + s]
    if st[END] == END_WIN:
        out[i].winner = st[WINNER]
        winners = np.int64(1) << st[WINNER]
    else:
        out[i].winner = -1
        winners = np.int64(0)
    out[i].winners = winners
    finish_progress(st)
    write_progress(out, i, st[TRACK:TRACK + PROGRESS_SIZE], winners, st[TURN])


# ---- search players (simbalance/players) ---------------------------------------------------------
@njit(cache=True, _nrt=False)
def search_option(ctx, state, seat_sid, seat_prm, seed, game, decision, search_scratch):
    """The option the search seat to move takes (players/search_nb.search with this game's steps).

    ``_nrt=False``, as the game's own steps: the search allocates nothing (its scratch is the
    block's), and with reference counting on, every array it unpacks from the state, the scratch and
    ``ctx`` costs atomic increments and decrements at each iteration (perf: 9% of a search seat's
    time in NRT_incref/NRT_decref; an allocation added to the search would fail to compile here)."""
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
    card_info, kind_cards, game_rules = ctx[0], ctx[2], ctx[3]
    n_bg = game_rules[G_N_BG]
    n_options = card_info.shape[0] * max(1, n_bg * (kind_cards.shape[0] - n_bg))  # max_options
    return new_search(ctx, new_state, n_options, game_rules[G_PLAYERS], slot_params.shape[1],
                      search_capacity(slot_strategy, slot_params), weights)


@njit(cache=True)
def play_searched(ctx, state, seed, game, seat_sid, seat_params, search_scratch, log, log_n):
    """The game on from a search seat's decision: the search picks (``apply_option`` ends the game
    as invalid on an option it does not list), the strategies play on to the next search decision,
    until the end."""
    st = state[2]
    decision = 0
    while st[PHASE] != PHASE_OVER:
        option = search_option(ctx, state, seat_sid, seat_params, seed, game, np.int64(decision), search_scratch)
        decision += 1
        apply_option(ctx, state, option, log, log_n)
        play_out(ctx, state, seat_sid, seat_params, np.int64(-1), log, log_n)


# ---- the kernel --------------------------------------------------------------------------------
@njit(cache=True)
def play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, log, log_n, search_scratch):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``, in one state allocated
    once: the body of every kernel (the normal one and those around a plug-in) and of the replay.
    ``search_scratch``: None (no search players: numba compiles the search away) or the search's
    scratch (``search_kernel``)."""
    players = ctx[3][G_PLAYERS]
    state = new_state(ctx)
    seat_sid = np.empty(players, np.int64)
    seat_params = np.empty((players, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        game = first_game + i
        begin_game(state[0], seed, game, out, i, lineups, slot_strategy, slot_params, players, seat_sid, 0,
                   seat_params)
        start(ctx, state, seed, game, lineups.shape[0], log, log_n)
        play_out(ctx, state, seat_sid, seat_params, np.int64(-1), log, log_n)
        if search_scratch is not None:
            if state[2][PHASE] != PHASE_OVER:  # stopped before a search seat's decision
                play_searched(ctx, state, seed, game, seat_sid, seat_params, search_scratch, log, log_n)
        elif state[2][PHASE] != PHASE_OVER:  # a search seat in the kernel without search: not a game
            invalid_play(state[2], np.int64(-1), np.int64(-1), log, log_n)
        write_record(ctx, state, out, i)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
           game_rules, validate):
    """Games ``lo .. hi - 1`` of the chunk (core/kernel.py)."""
    ctx = (card_info, match, kind_cards, game_rules, validate)
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, None, None, None)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
                  game_rules, validate, weights):
    """``kernel`` for a run with search players (compiled only when one is seated: the search adds
    to the cold compile)."""
    ctx = (card_info, match, kind_cards, game_rules, validate)
    play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, None, None,
               new_search_scratch(ctx, slot_strategy, slot_params, weights))


@njit(cache=True)
def trace_game(lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules, seed, game, out, log,
               log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]``, played by the kernels' own ``play_block``
    (validated), every event in ``log``; ``log_n[0]``: the number of events."""
    log_n[0] = 0
    ctx = (card_info, match, kind_cards, game_rules, np.bool_(True))
    play_block(out, np.int64(0), np.int64(1), game, seed, lineups, slot_strategy, slot_params, ctx, log, log_n, None)


@njit(cache=True)
def trace_search_game(lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules, seed, game, out,
                      log, log_n, weights):
    """``trace_game`` for a run with search players."""
    log_n[0] = 0
    ctx = (card_info, match, kind_cards, game_rules, np.bool_(True))
    play_block(out, np.int64(0), np.int64(1), game, seed, lineups, slot_strategy, slot_params, ctx, log, log_n,
               new_search_scratch(ctx, slot_strategy, slot_params, weights))


@njit(cache=True)
def play_scripted(order, seat_sid, seat_params, card_info, match, kind_cards, game_rules, seed, game, out):
    """Tests: play one game from a chosen deck order with chosen strategies per seat (validated); a
    rotating first leader is seat ``game % players``."""
    ctx = (card_info, match, kind_cards, game_rules, np.bool_(True))
    state = new_state(ctx)
    seed_game(state[0], seed, game)
    start_from(ctx, state, order, game, None, None)
    play_out(ctx, state, seat_sid, seat_params, np.int64(-1), None, None)
    write_record(ctx, state, out, np.int64(0))


def _rebound(func, **names):
    """A copy of the Python function behind ``func`` that reads ``names`` as globals."""
    py = getattr(func, "py_func", func)  # the function itself under NUMBA_DISABLE_JIT
    return types.FunctionType(py.__code__, {**py.__globals__, **names}, py.__name__, py.__defaults__,
                              py.__closure__)


def make_user_strategy_kernel(fn):
    """The kernel and the replay with ``fn`` as ``user_choose``: the same code, compiled (on first
    call, once per process) for this function. user_strategy.build_user_strategy_kernel checks ``fn`` first."""
    move = njit(inline="always")(_rebound(strategy_move, user_choose=fn))
    out = njit(_nrt=False)(_rebound(play_out, strategy_move=move))  # as play_out: no reference counting
    block = njit(_rebound(play_block, play_out=out))
    return njit(nogil=True)(_rebound(kernel, play_block=block)), njit(_rebound(trace_game, play_block=block))
