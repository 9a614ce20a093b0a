"""find-dr-evil as resumable steps, the kernel and the replay's trace (docs/architecture.md,
"Resumable state"; the decisions are in docs/rules/find-dr-evil.md, "Decisions").

A decision is a pick: the picking seat (``to_move``) chooses a slot of the offerer's hand, blind.
Its options are the slots ``0 .. count[offerer] - 1``. ``start`` deals and stops at the first pick,
``apply_option`` makes one pick and stops at the next, ``play_out`` lets the seats' strategy pick
until the end. The kernel plays every game as ``start``, ``play_out(..., -1)``, ``write_record``,
so the fast path and the resumable path are one code.

Most steps are inlined by LLVM (``forceinline=True``), not by numba (``inline="always"``): each
is typed once instead of at every call, which cut the cold compile by a third at the same games/s
(docs/architecture.md, "Compile time"); they allocate nothing (``_nrt=False``). The tiny helpers,
``new_state`` and ``write_record`` (one call site in the kernel) are cheaper inlined by numba.

Inside a game the turn (picker, offerer, cards in play, holders, picks) is kept in locals and saved
into ``info`` only when a step returns: the pick loop of ``play_out`` touches no more memory than
the rules need.
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
from simbalance.core.rng import seed_game
from simbalance.core.rng import shuffled_range
from simbalance.core.whole_game import PR_MARK_A
from simbalance.core.whole_game import PR_NEXT
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import progress_end_holder
from simbalance.core.whole_game import progress_reset
from simbalance.core.whole_game import progress_round_holder
from simbalance.core.whole_game import write_progress
from simbalance.games.find_dr_evil.rules_nb import deal
from simbalance.games.find_dr_evil.rules_nb import first_offerer
from simbalance.games.find_dr_evil.rules_nb import holders_after_pick
from simbalance.games.find_dr_evil.rules_nb import holders_of
from simbalance.games.find_dr_evil.rules_nb import last_holder
from simbalance.games.find_dr_evil.rules_nb import next_holder
from simbalance.games.find_dr_evil.rules_nb import next_offerer
from simbalance.games.find_dr_evil.rules_nb import pick
from simbalance.games.find_dr_evil.state_nb import DEAL_GIVEN
from simbalance.games.find_dr_evil.state_nb import DEAL_SEAT
from simbalance.games.find_dr_evil.state_nb import END
from simbalance.games.find_dr_evil.state_nb import EV_INVALID
from simbalance.games.find_dr_evil.state_nb import EV_STALEMATE
from simbalance.games.find_dr_evil.state_nb import EV_TIMEOUT
from simbalance.games.find_dr_evil.state_nb import EV_WIN
from simbalance.games.find_dr_evil.state_nb import FIRST_CARD_TO
from simbalance.games.find_dr_evil.state_nb import HOLDERS
from simbalance.games.find_dr_evil.state_nb import IN_PLAY
from simbalance.games.find_dr_evil.state_nb import KEPT
from simbalance.games.find_dr_evil.state_nb import LING_DEALT
from simbalance.games.find_dr_evil.state_nb import N_RULES
from simbalance.games.find_dr_evil.state_nb import OFFERER
from simbalance.games.find_dr_evil.state_nb import PICK_CAP
from simbalance.games.find_dr_evil.state_nb import PICKS
from simbalance.games.find_dr_evil.state_nb import R_NO_PAIR
from simbalance.games.find_dr_evil.state_nb import REPEAT_AFTER_PAIR
from simbalance.games.find_dr_evil.state_nb import REPEAT_MIN_HOLDERS
from simbalance.games.find_dr_evil.state_nb import RUNNING
from simbalance.games.find_dr_evil.state_nb import S_COUNT
from simbalance.games.find_dr_evil.state_nb import S_DEALT
from simbalance.games.find_dr_evil.state_nb import S_DECK
from simbalance.games.find_dr_evil.state_nb import S_INFO
from simbalance.games.find_dr_evil.state_nb import S_RNG
from simbalance.games.find_dr_evil.state_nb import S_SLOT
from simbalance.games.find_dr_evil.state_nb import STALEMATE_WINDOW
from simbalance.games.find_dr_evil.state_nb import TO_MOVE
from simbalance.games.find_dr_evil.state_nb import TRACK
from simbalance.games.find_dr_evil.state_nb import WINNER
from simbalance.games.find_dr_evil.state_nb import clone  # noqa: F401  (part of the resumable contract)
from simbalance.games.find_dr_evil.state_nb import new_state
from simbalance.games.find_dr_evil.strategies_nb import random_pick
from simbalance.games.find_dr_evil.validate_nb import HANDS_OK
from simbalance.games.find_dr_evil.validate_nb import check_hands


def context(card_pose, ling, n_pose_ids, players, rules, validate) -> tuple:
    """The game's read-only arrays and settings (``engine.prepare``'s output) as the tuple every step
    reads, typed as the kernel builds it."""
    return (card_pose, np.int64(ling), np.int64(n_pose_ids), np.int64(players), rules, np.bool_(validate))


def max_options(ctx) -> int:
    """The most options a pick can have: a hand never holds more than the deck."""
    return int(ctx[0].shape[0])


# ---- the game's course: after the deal and after every pick --------------------------------------

@njit(cache=True, forceinline=True, _nrt=False)
def _next_pick(count, players, offerer, in_play, picks, pick_cap):
    """Rule 4 and the pick cap, before each pick: the game is won when the only card left is
    Dr. Ling (every other pose has an even number of cards left, so that is "one card is left"),
    a timeout once the cap is reached; else the next seat after the offerer that holds cards picks.
    Returns (to_move, end)."""
    if in_play <= 1:
        return -1, END_WIN
    if picks >= pick_cap:
        return -1, END_TIMEOUT
    return next_holder(count, players, offerer), RUNNING


@njit(cache=True, forceinline=True, _nrt=False)
def _pick_and_pass(ctx, turn_rules, hand, count, slot, position, picker, offerer, in_play, holders, picks, log, log_n):
    """One decision taken: the picker takes slot ``position`` of the offerer's hand (rule 4),
    players without cards are out (rule 6), the picker picks again or the turn passes (rule 5), and
    the game goes on to its next pick or ends. ``turn_rules``: ``_turn_rules(ctx)``. Returns the
    turn: (to_move, offerer, in_play, holders, picks, end)."""
    card_pose, _, _, players, _, validate = ctx
    pick_cap, repeat_after_pair, repeat_min_holders = turn_rules
    paired = pick(hand, count, slot, card_pose, picker, offerer, position, log, log_n)
    picks += 1
    if paired:
        in_play -= 2
    if validate and check_hands(hand, count, slot, card_pose, players, in_play) != HANDS_OK:
        return -1, offerer, in_play, holders, picks, END_INVALID
    holders = holders_after_pick(count, picker, offerer, paired, holders)
    offerer = next_offerer(count, players, picker, offerer, paired, holders, repeat_after_pair, repeat_min_holders)
    to_move, end = _next_pick(count, players, offerer, in_play, picks, pick_cap)
    return to_move, offerer, in_play, holders, picks, end


@njit(cache=True, forceinline=True, _nrt=False)
def _turn_rules(ctx):
    """The rules a pick reads, as values read once per call: read from the rules array at every
    pick they cost a load each (the compiler cannot tell that the hands' stores leave them alone)."""
    rules = ctx[4]
    return rules[PICK_CAP], rules[REPEAT_AFTER_PAIR] != 0, rules[REPEAT_MIN_HOLDERS]


@njit(cache=True, forceinline=True, _nrt=False)
def _ling_holder(ctx, slot):
    """The seat holding Dr. Ling (someone always does: he never pairs). The progress measure is
    looked up here once a round rather than followed pick by pick: a test of every picked card in
    the game's loop cost 10 % of the kernel's time."""
    card_pose, ling, players = ctx[0], ctx[1], ctx[3]
    pose = card_pose[ling]
    holder = 0
    for s in range(players):
        holder = s if slot[s, pose] >= 0 else holder
    return holder


@njit(cache=True, forceinline=True, _nrt=False)
def _end_of_round(ctx, state, picks, in_play):
    """A round (``players`` picks) is over: its checkpoint of the progress measure (who holds Dr.
    Ling), and the loop detection: a pair made since the last progress is progress. Returns
    RUNNING, or END_STALEMATE once no pair was made for ``rules.stalemate_window`` picks."""
    info = state[S_INFO]
    stalled = progress_round_holder(info[TRACK:TRACK + PROGRESS_SIZE], _ling_holder(ctx, state[S_SLOT]), picks,
                                    in_play < info[TRACK + PR_MARK_A], ctx[4][STALEMATE_WINDOW], in_play,
                                    np.int64(0))
    return END_STALEMATE if stalled else RUNNING


@njit(cache=True, forceinline=True, _nrt=False)
def _save_turn(ctx, state, to_move, offerer, in_play, holders, picks, end, log, log_n):
    """Store the turn in ``info``; a game that has just ended gets its winner (the seat holding the
    last card, Dr. Ling), the whole-game metrics' last checkpoint and its last event."""
    count, info = state[S_COUNT], state[S_INFO]
    if end != RUNNING and info[END] == RUNNING:
        winner = last_holder(count, ctx[3]) if end == END_WIN else -1
        info[WINNER] = winner
        progress_end_holder(info[TRACK:TRACK + PROGRESS_SIZE], _ling_holder(ctx, state[S_SLOT]), picks,
                            np.int64(R_NO_PAIR) if end == END_STALEMATE else np.int64(0))
        if log is not None:
            if end == END_WIN:
                log_event(log, log_n, EV_WIN, winner, 0, 0)
            elif end == END_STALEMATE:
                log_event(log, log_n, EV_STALEMATE, picks - info[TRACK + PR_MARK_A], 0, 0)
            else:
                log_event(log, log_n, EV_TIMEOUT if end == END_TIMEOUT else EV_INVALID, 0, 0, 0)
    info[TO_MOVE] = to_move
    info[OFFERER] = offerer
    info[IN_PLAY] = in_play
    info[HOLDERS] = holders
    info[PICKS] = picks
    info[END] = end


# ---- the resumable steps ---------------------------------------------------------------------------

@njit(cache=True, forceinline=True, _nrt=False)
def start_dealt(ctx, state, log=None, log_n=None):
    """Deal ``state``'s deck as it lies (rules 1 and 2), find the first offerer (rule 3) and stop at
    the first pick, or at the end when the deal left only Dr. Ling."""
    card_pose, ling, _, players, rules, _ = ctx
    _, deck, hand, count, slot, info, dealt = state
    if rules[DEAL_GIVEN]:  # seat compensation: the seats' numbers of cards differ from the printed deal's
        info[LING_DEALT] = deal(deck, rules[FIRST_CARD_TO], players, card_pose, ling, hand, count, slot, dealt, log,
                                log_n, rules[DEAL_SEAT:DEAL_SEAT + deck.shape[0]])
    else:
        info[LING_DEALT] = deal(deck, rules[FIRST_CARD_TO], players, card_pose, ling, hand, count, slot, dealt, log,
                                log_n)
    in_play = 0
    for s in range(players):
        info[KEPT + s] = count[s]
        in_play += count[s]
    offerer = first_offerer(count, players)
    info[END] = RUNNING
    info[WINNER] = -1
    progress_reset(info[TRACK:TRACK + PROGRESS_SIZE], players, players, np.int64(0))  # a round: a pick per seat
    to_move, end = _next_pick(count, players, offerer, in_play, np.int64(0), rules[PICK_CAP])
    _save_turn(ctx, state, to_move, offerer, in_play, holders_of(count, players), np.int64(0), end, log, log_n)


@njit(cache=True, forceinline=True, _nrt=False)
def start(ctx, state, seed, game, log=None, log_n=None):
    """Game ``game`` of ``seed``: its random stream, the shuffled deck, the deal, up to the first pick."""
    rng, deck = state[S_RNG], state[S_DECK]
    seed_game(rng, seed, game)
    shuffled_range(rng, deck, deck.shape[0])
    start_dealt(ctx, state, log, log_n)


@njit(cache=True)
def to_move(ctx, state):
    """The seat whose pick is pending; -1 once the game is over."""
    return state[S_INFO][TO_MOVE]


@njit(cache=True)
def legal_options(ctx, state, options):
    """The pending pick's options: every slot of the offerer's hand (``0 .. count - 1``); none once
    the game is over. Returns how many."""
    count, info = state[S_COUNT], state[S_INFO]
    if info[TO_MOVE] < 0:
        return 0
    n = count[info[OFFERER]]
    for k in range(n):
        options[k] = k
    return n


@njit(cache=True)
def apply_option(ctx, state, option):
    """The pending pick takes slot ``option`` of the offerer's hand; the game goes on to the next
    pick (or ends)."""
    _, _, hand, count, slot, info, _ = state
    picker, offerer, in_play, holders, picks, end = _pick_and_pass(
        ctx, _turn_rules(ctx), hand, count, slot, option, info[TO_MOVE], info[OFFERER], info[IN_PLAY],
        info[HOLDERS], info[PICKS], None, None)
    if end == RUNNING and picks >= info[TRACK + PR_NEXT]:
        end = _end_of_round(ctx, state, picks, in_play)
        if end != RUNNING:
            picker = -1
    _save_turn(ctx, state, picker, offerer, in_play, holders, picks, end, None, None)


@njit(cache=True, forceinline=True, _nrt=False)
def play_out(ctx, state, seat_sid, seat_prm, max_decisions, log=None, log_n=None):
    """Let the seats pick, at most ``max_decisions`` times (-1: to the end); returns the picks made.
    Every seat plays the one strategy, ``random`` (strategies_nb.py): a pick is blind, so
    ``seat_sid`` and ``seat_prm`` are not read."""
    rng, _, hand, count, slot, info, _ = state
    picker, offerer, in_play, holders, picks, end = (info[TO_MOVE], info[OFFERER], info[IN_PLAY],
                                                     info[HOLDERS], info[PICKS], info[END])
    turn_rules = _turn_rules(ctx)
    made = 0
    next_round = info[TRACK + PR_NEXT]
    while picker >= 0 and made != max_decisions:
        position = random_pick(rng, count[offerer])
        picker, offerer, in_play, holders, picks, end = _pick_and_pass(
            ctx, turn_rules, hand, count, slot, position, picker, offerer, in_play, holders, picks, log, log_n)
        made += 1
        if picks >= next_round and picker >= 0:
            end = _end_of_round(ctx, state, picks, in_play)
            next_round = info[TRACK + PR_NEXT]
            if end != RUNNING:
                picker = -1
    _save_turn(ctx, state, picker, offerer, in_play, holders, picks, end, log, log_n)
    return made


@njit(cache=True, inline="always")
def write_record(ctx, state, out, i):
    """The finished game's record into ``out[i]`` (the game and strategy fields are begin_game's)."""
    players = ctx[3]
    info, dealt = state[S_INFO], state[S_DEALT]
    end = info[END]
    out[i].length = info[PICKS]
    out[i].end = end
    out[i].ling_dealt = info[LING_DEALT]
    for s in range(players):
        out[i].kept[s] = info[KEPT + s]
        out[i].dealt_mask[s] = dealt[s]
    winner = info[WINNER]
    out[i].winner = winner
    winners = np.int64(1) << winner if end == END_WIN else np.int64(0)
    out[i].winners = winners
    write_progress(out, i, info[TRACK:TRACK + PROGRESS_SIZE], winners, info[PICKS])


# ---- the kernel, the replay's trace, scripted games for the tests ---------------------------------

@njit(cache=True, _nrt=False)
def play_games(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, ctx, state, seat_sid, seat_prm):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``, one after the other on
    one ``state``. Compiled without reference counting (``_nrt=False``: it allocates nothing): the
    inlined steps hand the state's arrays from one to the next, and numba counted references to
    them at every pick, which made the kernel 3 times slower."""
    for i in range(lo, hi):
        game = first_game + i
        # begin_game keys the stream to (seed, game) and records the seats' strategies; start keys
        # it again to the same value (it starts a game from scratch for the resumable path too).
        begin_game(state[S_RNG], seed, game, out, i, lineups, slot_strategy, slot_params, ctx[3], seat_sid, 0,
                   seat_prm)
        start(ctx, state, seed, game)
        play_out(ctx, state, seat_sid, seat_prm, np.int64(-1))
        write_record(ctx, state, out, i)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_pose, ling, n_pose_ids, players,
           rules, validate):
    """Games ``lo .. hi - 1`` of the chunk (core/kernel.py): the block's scratch (one state, the
    seats' strategies) and its games."""
    ctx = (card_pose, ling, n_pose_ids, players, rules, validate)
    state = new_state(ctx)
    seat_sid = np.zeros(players, np.int64)
    # The one strategy reads no parameters (STRATEGY_PARAMS): the seats get none, and begin_game
    # copies none per game.
    no_params = slot_params[:, :0]
    seat_prm = np.zeros((players, 0), np.float64)
    play_games(out, lo, hi, first_game, seed, lineups, slot_strategy, no_params, ctx, state, seat_sid, seat_prm)


@njit(cache=True)
def trace_game(lineups, slot_strategy, slot_params, card_pose, ling, n_pose_ids, players, rules, seed, game, out,
               log, log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]`` exactly as the kernel plays it (validated),
    every event in ``log`` (state_nb.EV_*)."""
    ctx = (card_pose, ling, n_pose_ids, players, rules, True)
    state = new_state(ctx)
    seat_sid = np.zeros(players, np.int64)
    seat_prm = np.zeros((players, slot_params.shape[1]), np.float64)
    log_n[0] = 0
    begin_game(state[S_RNG], seed, game, out, 0, lineups, slot_strategy, slot_params, players, seat_sid, 0, seat_prm)
    start(ctx, state, seed, game, log, log_n)
    play_out(ctx, state, seat_sid, seat_prm, np.int64(-1), log, log_n)
    write_record(ctx, state, out, np.int64(0))


@njit(cache=True)
def start_scripted(ctx, order, seed, game):
    """Tests: a state started from a chosen deck order, which may leave cards of the game's deck
    out (card k goes to seat (k + first) % players); the picks still draw from the stream of
    ``(seed, game)``."""
    blank = new_state(ctx)
    state = (blank[0], order.copy(), blank[2], blank[3], blank[4], blank[5], blank[6])
    seed_game(state[S_RNG], seed, game)
    start_dealt(ctx, state)
    return state


def scripted_rules(cap=10_000, repeat=True, repeat_min=3, stalemate_window=0, first_card_to=1):
    """Tests: a full rules array, every entry by name. (A short array would let the kernel read
    past its end, as jitted code has no bounds checks: a scripted game once ended as a stalemate.)"""
    rules = np.zeros(N_RULES, dtype=np.int64)
    rules[PICK_CAP], rules[FIRST_CARD_TO] = cap, first_card_to
    rules[REPEAT_AFTER_PAIR], rules[REPEAT_MIN_HOLDERS] = repeat, repeat_min
    rules[STALEMATE_WINDOW] = stalemate_window
    return rules


@njit(cache=True)
def play_scripted(order, card_pose, ling, players, rules, seed, game, out):
    """Tests: play one validated game from a chosen deck order into ``out[0]``."""
    ctx = (card_pose, ling, card_pose.max() + 1, players, rules, True)
    state = start_scripted(ctx, order, seed, game)
    play_out(ctx, state, np.zeros(players, np.int64), np.zeros((players, 1), np.float64), np.int64(-1))
    write_record(ctx, state, out, np.int64(0))
