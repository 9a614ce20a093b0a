"""lady-actions-escape's hooks for ``simbalance card-value`` (core/spec.CardSwap;
docs/card_value.md).

**Holding** a card is having it in one's hand. **The swap**: a card of ``seat``'s hand changes
places with a card drawn uniformly among those the seat cannot see (search_nb.determinize's hidden
cards from its view: the others' hands and the draw pile), among those that leave the pending
decision one the rules ask for (the seat to move keeps a playable card; a drawn wildcard being
named stays where it is: it is neither swapped out nor in). Every hand and both piles keep their
sizes; the discard pile is public and untouched.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.rng import next_u64
from simbalance.core.rng import randint
from simbalance.games.lady_actions_escape.play_nb import apply_option
from simbalance.games.lady_actions_escape.play_nb import legal_options
from simbalance.games.lady_actions_escape.play_nb import play_out
from simbalance.games.lady_actions_escape.play_nb import start
from simbalance.games.lady_actions_escape.play_nb import to_move
from simbalance.games.lady_actions_escape.rules_nb import playable
from simbalance.games.lady_actions_escape.search_nb import determinize
from simbalance.games.lady_actions_escape.search_nb import outcome
from simbalance.games.lady_actions_escape.state_nb import DISC_N
from simbalance.games.lady_actions_escape.state_nb import DRAW
from simbalance.games.lady_actions_escape.state_nb import DRAW_N
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import ONE
from simbalance.games.lady_actions_escape.state_nb import PENDING
from simbalance.games.lady_actions_escape.state_nb import PHASE
from simbalance.games.lady_actions_escape.state_nb import PHASE_NAME
from simbalance.games.lady_actions_escape.state_nb import PHASE_PLAY
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import TURN
from simbalance.games.lady_actions_escape.state_nb import clone
from simbalance.players.card_value_nb import value_cards as generic_value_cards
from simbalance.players.card_value_nb import value_decisions as generic_value_decisions

HOLDING = "in the seat's hand"
SWAPPED = ("the card changes places with a card drawn uniformly among those the seat cannot see (the others' hands, "
           "the draw pile), among those that leave the player to move a playable card; a drawn wildcard being named "
           "is never swapped")
DECISION_KINDS = ("lead", "play", "name")


@njit(cache=True)
def held(ctx, state, seat, out):
    """The cards of ``seat``'s hand."""
    hand = state[1][HAND + seat]
    n = 0
    while hand != np.uint64(0):
        out[n] = lowest_bit(hand)
        n += 1
        hand &= hand - ONE
    return n


@njit(cache=True, inline="always")
def _exchange(masks, st, seat, card, place, other):
    """``card`` (seat's) and ``other`` at ``place`` (a seat, or -1 - k: the draw pile's k-th card)
    change places."""
    masks[HAND + seat] = (masks[HAND + seat] & ~(ONE << np.uint64(card))) | (ONE << np.uint64(other))
    if place >= 0:
        masks[HAND + place] = (masks[HAND + place] & ~(ONE << np.uint64(other))) | (ONE << np.uint64(card))
    else:
        st[DRAW + (-1 - place)] = card


@njit(cache=True, inline="always")
def _fine(ctx, state):
    """Is the pending decision still one the rules ask for (validate_nb.check's last part)?"""
    st = state[2]
    return st[PHASE] != PHASE_PLAY or playable(ctx, state, st[SEAT]) != np.uint64(0)


@njit(cache=True)
def swap(ctx, state, seat, card, rng):
    """``card`` of ``seat``'s hand changes places with a card drawn uniformly among the allowed ones
    (module doc); returns that card, or -1 (none allowed, ``card`` not held or being named)."""
    _, masks, st = state
    players = ctx[3][G_PLAYERS]
    pending = st[PENDING] if st[PHASE] == PHASE_NAME else -1
    if (masks[HAND + seat] >> np.uint64(card)) & ONE == np.uint64(0) or card == pending:
        return -1
    n = 0
    r = -1
    for step in range(2):  # 0: count the allowed ones; 1: take the r-th
        if step == 1:
            if n == 0:
                return -1
            r = randint(rng, n)
        for place in range(-st[DRAW_N], players):
            if place == seat:
                continue
            if place >= 0:
                hand = masks[HAND + place]
            else:
                hand = ONE << np.uint64(st[DRAW + (-1 - place)])
            while hand != np.uint64(0):
                other = lowest_bit(hand)
                hand &= hand - ONE
                if other == pending:
                    continue
                _exchange(masks, st, seat, card, place, other)
                ok = _fine(ctx, state)
                if step == 1 and ok and r == 0:
                    return other
                _exchange(masks, st, seat, other, place, card)  # undo
                if ok:
                    if step == 0:
                        n += 1
                    else:
                        r -= 1
    return -1


@njit(cache=True)
def rekey(state, rng):
    """The game's own stream (reshuffles, random players) keyed from ``rng``."""
    state[0][0] = next_u64(rng)


@njit(cache=True)
def zones(ctx, state, out):
    """Cards per hand, the draw pile, the discard pile."""
    st = state[2]
    players = ctx[3][G_PLAYERS]
    for s in range(players):
        out[s] = st[HAND_N + s]
    out[players] = st[DRAW_N]
    out[players + 1] = st[DISC_N]
    return players + 2


@njit(cache=True)
def option_kind(ctx, state, option):
    """The pending decision's kind, every option's: lead (0: the first card of the game, any card),
    play (1), name (2: a drawn wildcard); -1 once over."""
    st = state[2]
    if st[PHASE] == PHASE_NAME:
        return 2
    if st[PHASE] == PHASE_PLAY:
        return 0 if st[TURN] == 1 else 1
    return -1


# ---------------------------------------------------------------- the card-value kernels, cached


@njit(cache=True, nogil=True)
def value_cards(ctx, state, block, out):
    """players/card_value_nb.value_cards with this game's steps named once: numba caches this call
    (not the generic kernel called from Python with the steps as arguments)."""
    generic_value_cards(start, play_out, to_move, clone, held, swap, rekey, outcome, ctx, state, block, out)


@njit(cache=True, nogil=True)
def value_decisions(ctx, state, block, out):
    """players/card_value_nb.value_decisions with this game's steps named once (cached, as value_cards)."""
    generic_value_decisions(start, play_out, to_move, legal_options, apply_option, clone, determinize, outcome, option_kind, ctx, state,
                            block, out)
