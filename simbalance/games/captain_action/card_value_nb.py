"""captain-action's hooks for ``simbalance card-value`` (core/spec.CardSwap; docs/card_value.md).

**Holding** a card is having it among the ``hand_size`` cards of one's hand (the card a seat has
just drawn and not yet kept or discarded is not counted). **The swap**: a held card changes places
with a card drawn uniformly among those the seat cannot see (search_nb.determinize's hidden cards
from its view: the others' hand cards the table did not see them take from the discard pile, the
card another seat has just drawn, the Countdown Deck and the unused rest of the deck); the card
swapped out goes where the other was, so every hand, the Countdown Deck and the rest keep their
sizes and the discard pile is untouched. A card the table saw the seat take from the pile stays
"known" under its new identity (the bit moves with the place).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64
from simbalance.core.rng import randint
from simbalance.games.captain_action.play_nb import apply_option
from simbalance.games.captain_action.play_nb import legal_options
from simbalance.games.captain_action.play_nb import play_out
from simbalance.games.captain_action.play_nb import start
from simbalance.games.captain_action.play_nb import to_move
from simbalance.games.captain_action.search_nb import determinize
from simbalance.games.captain_action.search_nb import outcome
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import G_PLAYERS
from simbalance.games.captain_action.state_nb import PH_CALL_AFTER
from simbalance.games.captain_action.state_nb import PH_CALL_BEFORE
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import PH_SOURCE
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_KNOWN
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_PILE_N
from simbalance.games.captain_action.state_nb import V_SEAT
from simbalance.games.captain_action.state_nb import clone
from simbalance.players.card_value_nb import value_cards as generic_value_cards
from simbalance.players.card_value_nb import value_decisions as generic_value_decisions

HOLDING = "among the hand's cards (hand_size of them; a card just drawn counts once kept)"
SWAPPED = ("the card changes places with a card drawn uniformly among those the seat cannot see: the others' hand "
           "cards not seen taken from the discard pile (and a card another seat has just drawn), the Countdown Deck "
           "and the unused rest of the deck")
DECISION_KINDS = ("draw", "discard", "call")


@njit(cache=True)
def held(ctx, state, seat, out):
    """The ``hand_size`` cards of ``seat``'s hand."""
    hand = state[3]
    n = ctx[2][G_HAND]
    for k in range(n):
        out[k] = hand[seat, k]
    return n


@njit(cache=True, inline="always")
def _slots_hidden(gv, s, seat, hand_size):
    """How many of seat ``s``'s hand slots ``seat`` cannot see into (none of its own)."""
    if s == seat:
        return 0
    return hand_size + 1 if gv[V_PHASE] == PH_DISCARD and gv[V_SEAT] == s else hand_size


@njit(cache=True)
def swap(ctx, state, seat, card, rng):
    """``card`` of ``seat``'s hand changes places with a card drawn uniformly among those ``seat``
    cannot see (module doc); returns that card, or -1 (``card`` not held)."""
    game_rules = ctx[2]
    _, gv, order, hand, _, _, _ = state
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    n_cards = order.shape[0]
    at = -1
    for k in range(hand_size):
        if hand[seat, k] == card:
            at = k
    if at < 0:
        return -1
    n = 0
    for s in range(players):
        known = gv[V_KNOWN + s]
        for k in range(_slots_hidden(gv, s, seat, hand_size)):
            n += (known >> hand[s, k]) & 1 == 0
    for j in range(gv[V_CD_POS], n_cards):
        n += j != gv[V_CD_END]  # order[cd_end] started the discard pile: public
    if n == 0:
        return -1
    r = randint(rng, n)
    other = -1
    for s in range(players):
        known = gv[V_KNOWN + s]
        for k in range(_slots_hidden(gv, s, seat, hand_size)):
            if (known >> hand[s, k]) & 1 == 0:
                if r == 0 and other < 0:
                    other = hand[s, k]
                    hand[s, k] = card
                r -= 1
    for j in range(gv[V_CD_POS], n_cards):
        if j != gv[V_CD_END]:
            if r == 0 and other < 0:
                other = order[j]
                order[j] = card
            r -= 1
    hand[seat, at] = other
    bit = np.int64(1) << card
    if gv[V_KNOWN + seat] & bit:
        gv[V_KNOWN + seat] = (gv[V_KNOWN + seat] & ~bit) | (np.int64(1) << other)
    return other


@njit(cache=True)
def rekey(state, rng):
    """The game's own stream (the strategies' draws) keyed from ``rng``."""
    state[0][0] = next_u64(rng)


@njit(cache=True)
def zones(ctx, state, out):
    """Cards per hand (the drawn card too), the discard pile, the Countdown Deck, the unused rest."""
    game_rules = ctx[2]
    gv, order = state[1], state[2]
    players = game_rules[G_PLAYERS]
    for s in range(players):
        out[s] = game_rules[G_HAND] + (1 if gv[V_PHASE] == PH_DISCARD and gv[V_SEAT] == s else 0)
    out[players] = gv[V_PILE_N]
    out[players + 1] = gv[V_CD_END] - gv[V_CD_POS]
    out[players + 2] = order.shape[0] - gv[V_CD_END] - 1
    return players + 3


@njit(cache=True)
def option_kind(ctx, state, option):
    """The pending decision's kind, every option's: draw (0), discard (1) or call (2); -1 once over."""
    phase = state[1][V_PHASE]
    if phase == PH_SOURCE:
        return 0
    if phase == PH_DISCARD:
        return 1
    if phase == PH_CALL_AFTER or phase == PH_CALL_BEFORE:
        return 2
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
