"""The rules of find-dr-evil as one jitted function per game (docs/rules/find-dr-evil.md).

Hands are kept per seat as a list of card ids (``hand[seat, :count[seat]]``) plus, per seat and
pose, the slot of the card of that pose or -1. After the opening discards a seat holds each pose at
most once, so "does this card pair?" is one lookup and drawing a uniform card is one index.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.event_log import log_event
from simbalance.core.kernel import block_bounds, n_blocks
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN
from simbalance.core.rng import randint, seed_game, shuffled_range


@njit(cache=True, inline="always")
def _remove_at(hand, count, slot, card_pose, seat, i):
    """Take the card in slot ``i`` out of ``seat``'s hand (the last card fills the gap)."""
    card = hand[seat, i]
    last = count[seat] - 1
    moved = hand[seat, last]
    hand[seat, i] = moved
    slot[seat, card_pose[moved]] = i
    slot[seat, card_pose[card]] = -1
    count[seat] = last
    return card


@njit(cache=True, inline="always")
def _receive(hand, count, slot, card_pose, seat, card):
    """Give ``card`` to ``seat``; a card of a pose the seat holds makes a pair, discarded at once.
    Returns the card it paired with, or -1."""
    # Both outcomes as one sequence of stores with selects instead of a branch: whether a card
    # pairs is a coin flip the CPU cannot predict, and a mispredicted branch costs more than the
    # stores. A pair: the last card of the hand fills the held card's slot. No pair: the card goes
    # last. Either way one slot of the hand gets one card, whose pose then points at that slot.
    pose = card_pose[card]
    held = slot[seat, pose]
    pair = held >= 0
    c = count[seat]
    partner = hand[seat, held] if pair else -1
    at = held if pair else c
    moved = hand[seat, c - 1] if pair else card
    hand[seat, at] = moved
    slot[seat, card_pose[moved]] = at
    slot[seat, pose] = -1 if pair else c
    count[seat] = c - 1 if pair else c + 1
    return partner


# Replay log: one row per event, (kind, a, b, c). Kernels pass None: numba then compiles the game
# without any logging, so the replay costs the kernel nothing.
EV_DEAL = 0  # seat a is dealt card b
EV_PAIR = 1  # seat a discards the pair b + c
EV_PICK = 2  # seat a picks card c from seat b
EV_WIN = 3  # seat a holds Dr. Ling, the last card: wins
EV_TIMEOUT = 4  # the pick cap is reached


@njit(cache=True, inline="always")
def _next_holder(count, players, seat):
    """The next seat clockwise after ``seat`` that still holds cards (no modulo: a division per
    step costs more than the rest of the step)."""
    s = seat + 1 if seat + 1 < players else 0
    while count[s] == 0:
        s = s + 1 if s + 1 < players else 0
    return s


@njit(cache=True)
def _hands_consistent(hand, count, slot, card_pose, players, cards_in_play):
    """Validation: the hands hold ``cards_in_play`` cards and no seat holds a pose twice."""
    total = 0
    for s in range(players):
        total += count[s]
        for j in range(count[s]):
            if slot[s, card_pose[hand[s, j]]] != j:
                return False
    return total == cards_in_play


# Indices into the ``rules`` array built by engine.prepare from the [rules] table.
PICK_CAP = 0  # picks before a game ends as a timeout
FIRST_CARD_TO = 1  # the seat that gets the first card of the deal (default 1: the dealer's left)
REPEAT_AFTER_PAIR = 2  # 1: a pair lets the picker pick again from the same offerer
REPEAT_MIN_HOLDERS = 3  # ... but only while at least this many players hold cards
N_RULES = 4


@njit(cache=True, inline="always")
def play_game(state, out, i, card_pose, ling, players, rules, deck, hand, count, slot, validate, log, log_n):
    """Deal ``deck`` (already in its shuffled order) and play one game into ``out[i]``.

    With ``validate`` the hands are checked after every pick; a broken invariant ends the game
    with ``end = END_INVALID``. Inlined into its callers: a call per game, passing a dozen arrays,
    cost 7% of the kernel's time.
    """
    pick_cap = rules[PICK_CAP]
    first = rules[FIRST_CARD_TO]
    repeat_after_pair = rules[REPEAT_AFTER_PAIR] != 0
    repeat_min_holders = rules[REPEAT_MIN_HOLDERS]
    n_cards = deck.shape[0]
    count[:] = 0
    slot[:, :] = -1

    # Deal: card k of the shuffled deck goes to seat (k + first) % P; pairs are discarded as they
    # form, which leaves what "discard all pairs" leaves (2 or 4 of a pose: none; 3: one).
    seat = first - 1 if first > 0 else players - 1
    for s in range(players):
        out[i].dealt_mask[s] = 0
    for k in range(n_cards):
        seat = seat + 1 if seat + 1 < players else 0
        card = deck[k]
        out[i].dealt_mask[seat] |= np.uint64(1) << np.uint64(card)  # the record of the deal
        if card == ling:
            out[i].ling_dealt = seat
        if log is not None:
            log_event(log, log_n, EV_DEAL, seat, card, 0)
        other = _receive(hand, count, slot, card_pose, seat, card)
        if other >= 0:
            if log is not None:
                log_event(log, log_n, EV_PAIR, seat, other, card)

    cards_in_play = 0
    for s in range(players):
        out[i].kept[s] = count[s]
        cards_in_play += count[s]

    # Every pose other than Dr. Ling's has an even number of cards left, so "only Dr. Ling is
    # left" is "one card is left", and while more are left at least two seats hold cards.
    offerer = 0 if count[0] > 0 else _next_holder(count, players, 0)
    holders = 0
    for s in range(players):
        if count[s] > 0:
            holders += 1
    picks = 0
    end = END_WIN
    while cards_in_play > 1:
        if picks >= pick_cap:
            end = END_TIMEOUT
            break
        picker = _next_holder(count, players, offerer)
        card = _remove_at(hand, count, slot, card_pose, offerer, randint(state, count[offerer]))
        picks += 1
        if log is not None:
            log_event(log, log_n, EV_PICK, picker, offerer, card)
        other = _receive(hand, count, slot, card_pose, picker, card)
        paired = other >= 0
        if paired:
            if log is not None:
                log_event(log, log_n, EV_PAIR, picker, other, card)
            cards_in_play -= 2
        if validate and not _hands_consistent(hand, count, slot, card_pose, players, cards_in_play):
            end = END_INVALID
            break
        if count[offerer] == 0:
            holders -= 1
        if paired and count[picker] == 0:
            holders -= 1
        if (paired and repeat_after_pair and count[picker] > 0 and count[offerer] > 0
                and holders >= repeat_min_holders):
            continue  # a pair lets the picker pick again from the same offerer
        offerer = picker if count[picker] > 0 else _next_holder(count, players, picker)

    out[i].length = picks
    out[i].end = end
    if end == END_WIN:
        winner = 0
        for s in range(players):
            if count[s] > 0:
                winner = s
        out[i].winner = winner
        out[i].winners = np.uint8(1) << np.uint8(winner)
        if log is not None:
            log_event(log, log_n, EV_WIN, winner, 0, 0)
    else:
        out[i].winner = -1
        out[i].winners = 0
        if log is not None:
            log_event(log, log_n, EV_TIMEOUT, 0, 0, 0)


@njit(cache=True)
def play_block(out, lo, hi, first_game, seed, lineups, card_pose, ling, n_pose_ids, players, rules, validate):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]`` with one set of scratch
    arrays. A function of its own, not the body of the ``prange`` loop, so that numba's parallel
    pass does not have to digest the inlined game (it doubled the cold compile)."""
    n_cards = card_pose.shape[0]
    state = np.zeros(1, np.uint64)
    deck = np.empty(n_cards, np.int64)
    hand = np.empty((players, n_cards), np.int64)
    count = np.zeros(players, np.int64)
    slot = np.empty((players, n_pose_ids), np.int64)
    for i in range(lo, hi):
        game = first_game + i
        seed_game(state, seed, game)
        out[i].game = game
        lineup = lineups[game % lineups.shape[0]]
        for s in range(players):
            out[i].strategy[s] = lineup[s]  # no decisions: strategies are recorded, not used
        shuffled_range(state, deck, n_cards)
        play_game(state, out, i, card_pose, ling, players, rules, deck, hand, count, slot, validate, None, None)


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, card_pose, ling, n_pose_ids, players,
           rules, validate):
    n = out.shape[0]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        play_block(out, lo, hi, first_game, seed, lineups, card_pose, ling, n_pose_ids, players, rules, validate)


@njit(cache=True)
def play_scripted(order, card_pose, ling, players, rules, seed, game, out):
    """Tests: play one game from a chosen deck order (card k goes to seat (k + 1) % players); the
    picks still draw from the stream of ``(seed, game)``."""
    n_cards = order.shape[0]
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    hand = np.empty((players, n_cards), np.int64)
    count = np.zeros(players, np.int64)
    slot = np.empty((players, card_pose.max() + 1), np.int64)
    deck = order.copy()
    play_game(state, out, 0, card_pose, ling, players, rules, deck, hand, count, slot, True, None, None)


@njit(cache=True)
def trace_game(card_pose, ling, players, rules, seed, game, out, log, log_n):
    """Replay: play game ``game`` of ``seed`` exactly as the kernel does, logging every event."""
    n_cards = card_pose.shape[0]
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    deck = np.empty(n_cards, np.int64)
    shuffled_range(state, deck, n_cards)
    hand = np.empty((players, n_cards), np.int64)
    count = np.zeros(players, np.int64)
    slot = np.empty((players, card_pose.max() + 1), np.int64)
    play_game(state, out, 0, card_pose, ling, players, rules, deck, hand, count, slot, True, log, log_n)
