"""The rules of captain-action as one jitted function per game (docs/rules/captain-action.md).

``play_game`` takes the shuffled deck order as an array, so tests can deal a chosen order. Cards are
ids into the game's deck (engine.game_deck); ``card_info`` and ``srules`` describe the cards and the
scoring rules (scoring_nb), ``game_rules`` is the int64 vector indexed by the G_* constants below.

One game function, ``play_game`` (run by ``play_block``), serves the kernel, the tests
(``play_scripted``) and the replay (``trace_game``: the same game with every event logged).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.event_log import log_event
from simbalance.core.kernel import begin_game, block_bounds, n_blocks
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN
from simbalance.core.rng import seed_game, shuffled_range
from simbalance.games.captain_action.scoring_nb import RULE_N_BG, RULE_N_CH, hand_score
from simbalance.games.captain_action.strategies_nb import RANDOM, decide_call, decide_discard, decide_source

# Indices into game_rules (built by engine.prepare).
G_PLAYERS = 0
G_HAND = 1  # cards per hand (8)
G_COUNTDOWN = 2  # cards in the Countdown Deck (10)
G_TAKE_BACK = 3  # 1: a card taken from the discard pile may be discarded in the same turn
G_CALL_BEFORE = 4  # 1: call at the start of one's turn (before drawing) instead of after discarding
G_PENALTY = 5  # points lost when the Countdown Deck runs out (0: none)
G_PENALTY_ALL = 6  # 1: every player loses them; 0: only the player who drew the last Countdown card
G_TURN_CAP = 7  # a game still running after this many turns is a timeout
N_GAME_RULES = 8

# Replay log: one row per event, (kind, a, b, c). Kernels pass None: no log, no cost.
EV_DEAL = 0  # seat a is dealt card b
EV_FACE_UP = 1  # card a starts the discard pile
EV_TURN = 2  # turn a begins: seat b's turn
EV_DRAW = 3  # seat a draws card b from the Countdown Deck, which then holds c cards
EV_TAKE = 4  # seat a takes card b from the discard pile
EV_DISCARD = 5  # seat a discards card b
EV_CALL = 6  # seat a calls "Let Justice Be Done!" with b cards left in the Countdown Deck
EV_COUNTDOWN_OUT = 7  # seat a drew the last Countdown card: the attack starts
EV_SCORE = 8  # seat a's hand scores b, its total is c
EV_TIMEOUT = 9  # the turn cap (a turns) is reached
EV_INVALID = 10  # seat a broke a rule (discard slot b) or the cards are not all accounted for (a = -1)


@njit(cache=True)
def _conserved(order, hand, players, hand_size, pile, pile_n, cd_pos, cd_end):
    """Validation: every card of the deck is in exactly one place (a hand, the discard pile, the
    Countdown Deck or the unused rest)."""
    n_cards = order.shape[0]
    seen = np.zeros(n_cards, np.int64)
    for s in range(players):
        for k in range(hand_size):
            seen[hand[s, k]] += 1
    for k in range(pile_n):
        seen[pile[k]] += 1
    for k in range(cd_pos, cd_end):
        seen[order[k]] += 1
    for k in range(cd_end + 1, n_cards):
        seen[order[k]] += 1
    for c in range(n_cards):
        if seen[c] != 1:
            return False
    return True


@njit(cache=True)
def play_game(state, order, seat_sid, seat_params, card_info, srules, game_rules, hand, pile, cnt, scratch, out, i,
              validate, log, log_n):
    """Deal ``order`` and play one game; write its record into ``out[i]``.

    ``seat_sid[s]`` / ``seat_params[s]``: the strategy id and parameters of seat ``s``;
    ``hand``: int64[players, hand_size + 1]; ``pile``: int64[deck size] (the discard pile); ``cnt``
    and ``scratch``: work arrays for scoring (scoring_nb). With ``validate`` every turn is checked
    (legal discard, cards conserved); a broken invariant ends the game with ``end = END_INVALID``.
    ``log``/``log_n``: the replay's event log (EV_*); None when not replaying (numba then compiles
    the game without a trace of the logging).
    """
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    countdown = game_rules[G_COUNTDOWN]
    take_back = game_rules[G_TAKE_BACK] != 0
    call_before = game_rules[G_CALL_BEFORE] != 0

    # Set up: deal hand_size cards each (card k to seat k % P), then the Countdown Deck, then one
    # card face up to start the discard pile. The rest of the deck is not used.
    for k in range(players * hand_size):
        hand[k % players, k // players] = order[k]
        if log is not None:
            log_event(log, log_n, EV_DEAL, k % players, order[k], 0)
    cd_pos = players * hand_size  # the Countdown Deck is order[cd_pos:cd_end], top first
    cd_end = cd_pos + countdown
    pile[0] = order[cd_end]
    pile_n = 1
    if log is not None:
        log_event(log, log_n, EV_FACE_UP, pile[0], 0, 0)
    for s in range(players):
        out[i].takes[s] = 0

    seat = 0  # the youngest player starts; play goes clockwise
    turns = 0
    caller = -1
    bonus = 0
    last_drawer = -1
    end = END_WIN
    while True:
        if turns >= game_rules[G_TURN_CAP]:
            end = END_TIMEOUT
            if log is not None:
                log_event(log, log_n, EV_TIMEOUT, turns, 0, 0)
            break
        sid = seat_sid[seat]
        params = seat_params[seat]
        step = turns // players  # this seat's own turn number, for scripted players
        left = cd_end - cd_pos
        if log is not None:
            log_event(log, log_n, EV_TURN, turns + 1, seat, 0)
        if call_before:
            score = 0 if sid == RANDOM else hand_score(hand, seat, hand_size, card_info, srules, cnt, scratch)
            if decide_call(sid, params, state, step, score, left, countdown - left):
                caller = seat
                bonus = left
                if log is not None:
                    log_event(log, log_n, EV_CALL, seat, left, 0)
                break

        # Planning: take the top card of the Countdown Deck or of the discard pile ...
        forbid = -1
        if decide_source(sid, params, state, step, hand, seat, hand_size, pile[pile_n - 1], card_info, srules, cnt,
                         scratch) == 1:
            pile_n -= 1
            card = pile[pile_n]
            out[i].takes[seat] += 1
            if not take_back:
                forbid = hand_size  # the card just taken may not go straight back
            if log is not None:
                log_event(log, log_n, EV_TAKE, seat, card, 0)
        else:
            card = order[cd_pos]
            cd_pos += 1
            if log is not None:
                log_event(log, log_n, EV_DRAW, seat, card, cd_end - cd_pos)
        hand[seat, hand_size] = card
        # ... then discard one card face up.
        d = decide_discard(sid, params, state, step, hand, seat, hand_size, forbid, card_info, srules, cnt, scratch)
        if validate and (d == forbid or d < 0 or d > hand_size):
            end = END_INVALID
            if log is not None:
                log_event(log, log_n, EV_INVALID, seat, d, 0)
            break
        if log is not None:
            log_event(log, log_n, EV_DISCARD, seat, hand[seat, d], 0)
        pile[pile_n] = hand[seat, d]
        pile_n += 1
        hand[seat, d] = hand[seat, hand_size]
        turns += 1
        if validate and not _conserved(order, hand, players, hand_size, pile, pile_n, cd_pos, cd_end):
            end = END_INVALID
            if log is not None:
                log_event(log, log_n, EV_INVALID, -1, 0, 0)
            break

        # Drawing the last Countdown card starts the attack at once: Dr. Evil got the jump.
        if cd_pos == cd_end:
            last_drawer = seat
            if log is not None:
                log_event(log, log_n, EV_COUNTDOWN_OUT, seat, 0, 0)
            break
        if not call_before:
            left = cd_end - cd_pos
            score = 0 if sid == RANDOM else hand_score(hand, seat, hand_size, card_info, srules, cnt, scratch)
            if decide_call(sid, params, state, step, score, left, countdown - left):
                caller = seat
                bonus = left
                if log is not None:
                    log_event(log, log_n, EV_CALL, seat, left, 0)
                break
        seat = (seat + 1) % players

    # Attack: every hand is scored; the caller adds the Countdown Deck's size.
    best = -(1 << 30)
    for s in range(players):
        hs = hand_score(hand, s, hand_size, card_info, srules, cnt, scratch)
        total = hs
        if s == caller:
            total += bonus
        if last_drawer >= 0 and (game_rules[G_PENALTY_ALL] != 0 or s == last_drawer):
            total -= game_rules[G_PENALTY]
        out[i].hand_score[s] = hs
        out[i].score[s] = total
        if log is not None:
            log_event(log, log_n, EV_SCORE, s, hs, total)
        mask = np.uint64(0)
        for k in range(hand_size):
            mask |= np.uint64(1) << np.uint64(hand[s, k])
        out[i].hand_mask[s] = mask
        if total > best:
            best = total
    out[i].caller = caller
    out[i].countdown_left = cd_end - cd_pos
    out[i].countdown_out = 1 if last_drawer >= 0 else 0
    out[i].length = turns
    out[i].end = end
    if end == END_WIN:
        winners = 0
        n_win = 0
        for s in range(players):
            if out[i].score[s] == best:
                winners |= 1 << s
                n_win += 1
                out[i].winner = s
        out[i].winners = winners
        if n_win > 1:
            out[i].winner = -1
    else:
        out[i].winner = -1
        out[i].winners = 0


@njit(cache=True)
def _work_arrays(card_info, srules, players, hand_size):
    n_cards = card_info.shape[0]
    n_bg = srules[RULE_N_BG]
    n_ch = srules[RULE_N_CH]
    hand = np.empty((players, hand_size + 1), np.int64)
    pile = np.empty(n_cards, np.int64)
    cnt = np.zeros((3, max(n_bg, n_ch)), np.int64)
    scratch = np.zeros(n_bg + n_ch + n_cards + 1, np.int64)
    return hand, pile, cnt, scratch


@njit(cache=True, inline="always")
def play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules,
               validate, log, log_n):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``, with one set of scratch
    arrays: the body of the kernel and of the replay. Inlined: with games this short (a few turns) a
    call per block measurably slowed the kernel."""
    n_cards = card_info.shape[0]
    players = game_rules[G_PLAYERS]
    state = np.zeros(1, np.uint64)
    order = np.empty(n_cards, np.int64)
    hand, pile, cnt, scratch = _work_arrays(card_info, srules, players, game_rules[G_HAND])
    seat_sid = np.empty(players, np.int64)
    seat_params = np.empty((players, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        begin_game(state, seed, first_game + i, out, i, lineups, slot_strategy, slot_params, players, seat_sid, 0,
                   seat_params)
        shuffled_range(state, order, n_cards)
        play_game(state, order, seat_sid, seat_params, card_info, srules, game_rules, hand, pile, cnt, scratch,
                  out, i, validate, log, log_n)


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules, validate):
    n = out.shape[0]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules,
                   validate, None, None)


@njit(cache=True)
def play_scripted(order, seat_sid, seat_params, card_info, srules, game_rules, seed, game, out):
    """Tests: play one game from a chosen deck order with chosen strategies per seat (validated)."""
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    hand, pile, cnt, scratch = _work_arrays(card_info, srules, game_rules[G_PLAYERS], game_rules[G_HAND])
    play_game(state, order.copy(), seat_sid, seat_params, card_info, srules, game_rules, hand, pile, cnt, scratch,
              out, 0, True, None, None)


@njit(cache=True)
def trace_game(lineups, slot_strategy, slot_params, card_info, srules, game_rules, seed, game, out, log, log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]``, played by the kernel's own ``play_block``
    (validated), every event in ``log``; ``log_n[0]``: the number of events."""
    log_n[0] = 0
    play_block(out, 0, 1, game, seed, lineups, slot_strategy, slot_params, card_info, srules, game_rules, True, log,
               log_n)
