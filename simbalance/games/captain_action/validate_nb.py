"""The invariants ``--validate`` checks after every step of captain-action (state layout: state_nb).

``check`` is the engine's own validation of a whole state (``Resumable.check``); the rule steps
call ``legal_discard`` and ``cards_conserved`` themselves when the run validates, and end a game
that breaks one with ``end = END_INVALID``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import END_INVALID
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import G_PLAYERS
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import PH_OVER
from simbalance.games.captain_action.state_nb import PH_SOURCE
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_END
from simbalance.games.captain_action.state_nb import V_FORBID
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_PILE_N
from simbalance.games.captain_action.state_nb import V_SEAT

CHECK_OK = 0
CHECK_INVALID_END = 1  # a rule step ended the game as invalid (an illegal discard, lost cards)
CHECK_CARDS = 2  # a card is in no place or in two (hands, discard pile, Countdown Deck, unused rest)
CHECK_PILES = 3  # a running game with an empty Countdown Deck, or a draw pending on an empty discard pile


@njit(cache=True, inline="always")
def legal_discard(ctx, state, slot):
    """Rule 3: any card held after drawing (slots 0..hand_size) may go, except the one just taken
    from the discard pile (``gv[V_FORBID]``) unless ``rules.take_back``."""
    hand_size = ctx[2][G_HAND]
    return 0 <= slot <= hand_size and slot != state[1][V_FORBID]


@njit(cache=True)
def cards_conserved(ctx, state, drawn):
    """Every card of the deck is in exactly one place: a hand (with ``drawn``, the seat to move also
    holds the card in its drawn slot), the discard pile, the Countdown Deck or the unused rest.
    Decks hold at most 64 cards (engine.prepare), so one bit per card."""
    _, _, game_rules, _ = ctx
    _, gv, order, hand, pile, _, _ = state
    n_cards = order.shape[0]
    hand_size = game_rules[G_HAND]
    seen = np.uint64(0)
    twice = np.uint64(0)
    for s in range(game_rules[G_PLAYERS]):
        for k in range(hand_size + 1 if drawn and s == gv[V_SEAT] else hand_size):
            bit = np.uint64(1) << np.uint64(hand[s, k])
            twice |= seen & bit
            seen |= bit
    for k in range(gv[V_PILE_N]):
        bit = np.uint64(1) << np.uint64(pile[k])
        twice |= seen & bit
        seen |= bit
    for k in range(gv[V_CD_POS], n_cards):
        if k == gv[V_CD_END]:  # the face-up card that started the discard pile: counted there
            continue
        bit = np.uint64(1) << np.uint64(order[k])
        twice |= seen & bit
        seen |= bit
    everything = np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - n_cards)
    return twice == 0 and seen == everything


@njit(cache=True)
def check(ctx, state):
    """The engine's validation of a game state: CHECK_OK (0) when every invariant holds."""
    gv = state[1]
    phase = gv[V_PHASE]
    if gv[V_END] == END_INVALID:
        return CHECK_INVALID_END
    if not cards_conserved(ctx, state, phase == PH_DISCARD):
        return CHECK_CARDS
    if phase != PH_OVER and gv[V_CD_POS] >= gv[V_CD_END] and phase != PH_DISCARD:
        return CHECK_PILES
    if phase == PH_SOURCE and gv[V_PILE_N] < 1:
        return CHECK_PILES
    return CHECK_OK
