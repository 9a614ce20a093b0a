"""The invariants ``--validate`` checks after every turn, and ``check`` (Resumable.check).

Nothing here allocates: the cards seen so far are one uint64 mask (decks of at most 64 cards).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import popcount
from simbalance.core.records import END_INVALID
from simbalance.games.lady_actions_escape.rules_nb import playable
from simbalance.games.lady_actions_escape.state_nb import DIRECTION
from simbalance.games.lady_actions_escape.state_nb import DISC
from simbalance.games.lady_actions_escape.state_nb import DISC_N
from simbalance.games.lady_actions_escape.state_nb import DRAW
from simbalance.games.lady_actions_escape.state_nb import DRAW_N
from simbalance.games.lady_actions_escape.state_nb import END
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import INFO_WILD
from simbalance.games.lady_actions_escape.state_nb import PENDING
from simbalance.games.lady_actions_escape.state_nb import PHASE
from simbalance.games.lady_actions_escape.state_nb import PHASE_NAME
from simbalance.games.lady_actions_escape.state_nb import PHASE_OVER
from simbalance.games.lady_actions_escape.state_nb import PHASE_PLAY
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import TOP
from simbalance.games.lady_actions_escape.state_nb import bit
from simbalance.games.lady_actions_escape.state_nb import has

OK = 0
BROKEN_CARDS = 1  # a card is in no place or in two (the hands, the draw pile, the discard pile)
BROKEN_HAND_SIZE = 2  # a hand size disagrees with the hand
BROKEN_TABLE = 3  # the seat to move, the direction or the top card is out of range
ILLEGAL_PLAY = 4  # the game ended as END_INVALID: a card was played that was not playable
BROKEN_DECISION = 5  # check only: the pending decision is none the rules ask for


@njit(cache=True, inline="always")
def _pile_ok(st, at, n, n_cards, seen):
    """Are the ``n`` cards of the pile at ``st[at:]`` real cards, none seen before? And the mask of
    the cards seen with them."""
    if n < 0 or n > n_cards:
        return False, seen
    for k in range(n):
        c = st[at + k]
        if c < 0 or c >= n_cards or has(seen, c):
            return False, seen
        seen |= bit(c)
    return True, seen


@njit(cache=True, _nrt=False)
def broken_invariant(ctx, state):
    """The first invariant the state breaks (one of the codes above), or OK."""
    card_info, match, kind_cards, game_rules, validate = ctx
    rng, masks, st = state
    n_cards = card_info.shape[0]
    players = game_rules[G_PLAYERS]
    every = ~np.uint64(0) >> np.uint64(64 - n_cards)  # the mask of every card of the deck
    seen = np.uint64(0)
    for s in range(players):
        hand = masks[HAND + s]
        if popcount(hand) != st[HAND_N + s]:
            return BROKEN_HAND_SIZE
        if (hand & seen) != 0 or (hand & ~every) != 0:
            return BROKEN_CARDS
        seen |= hand
    ok, seen = _pile_ok(st, DRAW, st[DRAW_N], n_cards, seen)
    if not ok:
        return BROKEN_CARDS
    ok, seen = _pile_ok(st, DISC, st[DISC_N], n_cards, seen)
    if not ok or seen != every:
        return BROKEN_CARDS
    if not (0 <= st[SEAT] < players and (st[DIRECTION] == 1 or st[DIRECTION] == -1)
            and 0 <= st[TOP] < match.shape[0]):
        return BROKEN_TABLE
    return OK


@njit(cache=True, _nrt=False)
def check(ctx, state):
    """Resumable.check, at a decision (or the end): OK when the game broke no rule, the state breaks
    no invariant and the pending decision is one the rules ask for: a player with a playable card,
    or a drawn wildcard in its player's hand."""
    card_info, masks, st = ctx[0], state[1], state[2]
    if st[PHASE] == PHASE_OVER:
        return ILLEGAL_PLAY if st[END] == END_INVALID else broken_invariant(ctx, state)
    broken = broken_invariant(ctx, state)
    if broken != OK:
        return broken
    hand = masks[HAND + st[SEAT]]
    if st[PHASE] == PHASE_NAME:
        card = st[PENDING]
        if not (0 <= card < card_info.shape[0] and has(hand, card) and card_info[card, INFO_WILD]):
            return BROKEN_DECISION
    elif st[PHASE] != PHASE_PLAY or playable(ctx, state, st[SEAT]) == 0:
        return BROKEN_DECISION
    return OK
