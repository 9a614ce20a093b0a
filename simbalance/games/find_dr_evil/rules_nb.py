"""The rule steps of find-dr-evil, named after docs/rules/find-dr-evil.md ("Rules as simulated").

Each step works on the state's arrays (state_nb.py) and is inlined into the game loop (play_nb.py):
a game is a couple of dozen picks, so a call per step, passing its arrays, would cost more than
the step itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.event_log import log_event
from simbalance.games.find_dr_evil.state_nb import EV_DEAL
from simbalance.games.find_dr_evil.state_nb import EV_PAIR
from simbalance.games.find_dr_evil.state_nb import EV_PICK


@njit(cache=True, forceinline=True, _nrt=False)
def next_holder(count, players, seat):
    """The next seat clockwise after ``seat`` that still holds cards (no modulo: a division per
    step costs more than the rest of the step)."""
    s = seat + 1 if seat + 1 < players else 0
    while count[s] == 0:
        s = s + 1 if s + 1 < players else 0
    return s


@njit(cache=True, forceinline=True, _nrt=False)
def take_card(hand, count, slot, card_pose, seat, i):
    """Take the card in slot ``i`` out of ``seat``'s hand (the last card fills the gap)."""
    card = hand[seat, i]
    last = count[seat] - 1
    moved = hand[seat, last]
    hand[seat, i] = moved
    slot[seat, card_pose[moved]] = i
    slot[seat, card_pose[card]] = -1
    count[seat] = last
    return card


@njit(cache=True, forceinline=True, _nrt=False)
def receive_card(hand, count, slot, card_pose, seat, card):
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


@njit(cache=True, forceinline=True, _nrt=False)
def deal(deck, first, players, card_pose, ling, hand, count, slot, dealt, log, log_n, given=None):
    """Rules 1 and 2: card k of the shuffled ``deck`` goes to seat (k + first) % P (with seat
    compensation: to seat ``given[k]``, the order prepare made), and every player discards all pairs. Pairs are discarded as they form, which leaves what "discard all pairs"
    leaves (2 or 4 of a pose: none; 3: one). ``dealt`` records the deal; returns the seat dealt
    Dr. Ling."""
    count[:] = 0
    slot[:, :] = -1
    dealt[:] = 0
    ling_dealt = 0
    seat = first - 1 if first > 0 else players - 1
    for k in range(deck.shape[0]):
        seat = seat + 1 if seat + 1 < players else 0
        if given is not None:
            seat = given[k]
        card = deck[k]
        dealt[seat] |= np.uint64(1) << np.uint64(card)
        if card == ling:
            ling_dealt = seat
        if log is not None:
            log_event(log, log_n, EV_DEAL, seat, card, 0)
        other = receive_card(hand, count, slot, card_pose, seat, card)
        if other >= 0:
            if log is not None:
                log_event(log, log_n, EV_PAIR, seat, other, card)
    return ling_dealt


@njit(cache=True, forceinline=True, _nrt=False)
def first_offerer(count, players):
    """Rule 3: seat 0 offers first, or the next seat clockwise that holds cards."""
    return 0 if count[0] > 0 else next_holder(count, players, np.int64(0))


@njit(cache=True, forceinline=True, _nrt=False)
def holders_of(count, players):
    """How many seats hold cards."""
    holders = 0
    for s in range(players):
        if count[s] > 0:
            holders += 1
    return holders


@njit(cache=True, forceinline=True, _nrt=False)
def pick(hand, count, slot, card_pose, picker, offerer, position, log, log_n):
    """Rule 4: the picker takes the card in slot ``position`` of the offerer's hand (blind: which
    slot is the picking seat's decision); if it pairs with one of the picker's cards, both are
    discarded. Returns whether a pair was made."""
    card = take_card(hand, count, slot, card_pose, offerer, position)
    if log is not None:
        log_event(log, log_n, EV_PICK, picker, offerer, card)
    other = receive_card(hand, count, slot, card_pose, picker, card)
    if other >= 0:
        if log is not None:
            log_event(log, log_n, EV_PAIR, picker, other, card)
    return other >= 0


@njit(cache=True, forceinline=True, _nrt=False)
def holders_after_pick(count, picker, offerer, paired, holders):
    """Rule 6: a player without cards is out. A pick can empty the offerer's hand, and a pair the
    picker's."""
    if count[offerer] == 0:
        holders -= 1
    if paired and count[picker] == 0:
        holders -= 1
    return holders


@njit(cache=True, forceinline=True, _nrt=False)
def next_offerer(count, players, picker, offerer, paired, holders, repeat_after_pair, repeat_min_holders):
    """Rule 5: after a pair, while picker and offerer both hold cards and at least
    ``repeat_min_holders`` players do, the picker picks again from the same offerer. Otherwise the
    picker becomes the offerer, or, without cards, the next seat clockwise after him that holds some."""
    if (paired and repeat_after_pair and count[picker] > 0 and count[offerer] > 0
            and holders >= repeat_min_holders):
        return offerer
    return picker if count[picker] > 0 else next_holder(count, players, picker)


@njit(cache=True, forceinline=True, _nrt=False)
def last_holder(count, players):
    """Rule 4, the end: the seat holding the last card (Dr. Ling) wins."""
    winner = 0
    for s in range(players):
        if count[s] > 0:
            winner = s
    return winner
