"""find-dr-evil's hooks for ``simbalance card-value`` (core/spec.CardSwap; docs/card_value.md).

**Holding** a card is having it in one's hand. **The swap**: a card of ``seat``'s hand changes
places with a card drawn uniformly from the other seats' hands (every card a seat cannot see: the
discarded pairs are public), among those the exchange leaves without a pair, since after the
opening discards no seat may hold a pose twice: the card coming in must be of a pose ``seat`` does
not hold, and the card going out of a pose its new holder does not hold (a card of the same pose,
its twin, always may). Every hand keeps its size, and every pose stays where the rules allow it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import END_WIN
from simbalance.core.rng import next_u64
from simbalance.core.rng import randint
from simbalance.games.find_dr_evil.play_nb import play_out
from simbalance.games.find_dr_evil.play_nb import start
from simbalance.games.find_dr_evil.play_nb import to_move
from simbalance.games.find_dr_evil.state_nb import END
from simbalance.games.find_dr_evil.state_nb import S_COUNT
from simbalance.games.find_dr_evil.state_nb import S_HAND
from simbalance.games.find_dr_evil.state_nb import S_RNG
from simbalance.games.find_dr_evil.state_nb import S_SLOT
from simbalance.games.find_dr_evil.state_nb import WINNER
from simbalance.games.find_dr_evil.state_nb import clone
from simbalance.players.card_value_nb import value_cards as generic_value_cards

HOLDING = "in the seat's hand"
SWAPPED = ("the card changes places with a card of another seat's hand (all hidden from the seat), drawn uniformly "
           "among those the exchange leaves without a pair: the incoming card's pose is not in the seat's hand, the "
           "outgoing card's pose is not in its new holder's (a card of the same pose always may)")
DECISION_KINDS = ("pick",)  # a blind pick of a slot of the offerer's hand


@njit(cache=True)
def held(ctx, state, seat, out):
    """The cards of ``seat``'s hand."""
    hand, count = state[S_HAND], state[S_COUNT]
    n = count[seat]
    for j in range(n):
        out[j] = hand[seat, j]
    return n


@njit(cache=True, inline="always")
def _allowed(slot, card_pose, seat, p, t, q):
    """May the card of pose ``q`` of seat ``t`` change places with ``seat``'s card of pose ``p``?"""
    return q == p or (slot[seat, q] < 0 and slot[t, p] < 0)


@njit(cache=True)
def swap(ctx, state, seat, card, rng):
    """``card`` of ``seat``'s hand changes places with a card of another hand, drawn uniformly among
    the allowed ones (module doc); returns that card, or -1 (none allowed, or ``card`` not held)."""
    card_pose, players = ctx[0], ctx[3]
    hand, count, slot = state[S_HAND], state[S_COUNT], state[S_SLOT]
    p = card_pose[card]
    i = slot[seat, p]
    if i < 0 or hand[seat, i] != card:
        return -1
    n = 0
    for t in range(players):
        if t != seat:
            for j in range(count[t]):
                n += _allowed(slot, card_pose, seat, p, t, card_pose[hand[t, j]])
    if n == 0:
        return -1
    r = randint(rng, n)
    for t in range(players):
        if t == seat:
            continue
        for j in range(count[t]):
            other = hand[t, j]
            q = card_pose[other]
            if _allowed(slot, card_pose, seat, p, t, q):
                if r == 0:
                    hand[seat, i] = other
                    hand[t, j] = card
                    slot[seat, p] = -1
                    slot[seat, q] = i
                    slot[t, q] = -1
                    slot[t, p] = j
                    return other
                r -= 1
    return -1


@njit(cache=True)
def rekey(state, rng):
    """The game's own stream (the picks) keyed from ``rng``."""
    state[S_RNG][0] = next_u64(rng)


@njit(cache=True)
def outcome(ctx, state):
    """The finished game's winner as a bit mask (0: a timeout, a stalemate)."""
    info = state[5]
    return np.int64(1) << info[WINNER] if info[END] == END_WIN and info[WINNER] >= 0 else np.int64(0)


@njit(cache=True)
def zones(ctx, state, out):
    """Cards per hand, then the discarded ones."""
    count = state[S_COUNT]
    players = ctx[3]
    held_total = 0
    for s in range(players):
        out[s] = count[s]
        held_total += count[s]
    out[players] = ctx[0].shape[0] - held_total
    return players + 1


@njit(cache=True)
def option_kind(ctx, state, option):
    """Every option is a pick."""
    return 0


# ---------------------------------------------------------------- the card-value kernels, cached


@njit(cache=True, nogil=True)
def value_cards(ctx, state, block, out):
    """players/card_value_nb.value_cards with this game's steps named once: numba caches this call
    (not the generic kernel called from Python with the steps as arguments)."""
    generic_value_cards(start, play_out, to_move, clone, held, swap, rekey, outcome, ctx, state, block, out)
