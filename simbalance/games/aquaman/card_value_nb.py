"""aquaman's hooks for ``simbalance card-value`` (core/spec.CardSwap; docs/card_value.md).

**Holding** a card is having it in one's hand. **The swap**: a card of ``seat``'s hand changes
places with a card drawn uniformly among those the seat cannot place (search_nb.determinize's
hidden cards from its view: the others' hand cards it does not know, the deck's cards it has not
seen); the cards on the board, in the discard pile, shown by a Companion or being activated are
public and untouched. Every hand and the deck keep their sizes, the suit counts of both hands follow
the cards, and what the table knows stays with the place (a card swapped into a slot the others
knew is known there under its new identity). While a fight's reveal or steal, Power's swaps or a
mission is pending, the pending step depends on the cards of the hands involved: no card is swapped
then (``swap`` returns -1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64
from simbalance.core.rng import randint
from simbalance.games.aquaman.play_nb import apply_option
from simbalance.games.aquaman.play_nb import legal_options
from simbalance.games.aquaman.play_nb import play_out
from simbalance.games.aquaman.play_nb import start
from simbalance.games.aquaman.play_nb import to_move
from simbalance.games.aquaman.search_nb import determinize
from simbalance.games.aquaman.search_nb import outcome
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_DECK
from simbalance.games.aquaman.state_nb import C_DISC
from simbalance.games.aquaman.state_nb import CARD_SUIT
from simbalance.games.aquaman.state_nb import D_MISSION
from simbalance.games.aquaman.state_nb import D_MISSION_CARD
from simbalance.games.aquaman.state_nb import D_MISSION_SUIT
from simbalance.games.aquaman.state_nb import D_REVEAL
from simbalance.games.aquaman.state_nb import D_STEAL
from simbalance.games.aquaman.state_nb import D_SWAP
from simbalance.games.aquaman.state_nb import K_BOARD
from simbalance.games.aquaman.state_nb import K_DECK
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import K_KNOWN
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import V_HAND_N
from simbalance.games.aquaman.state_nb import V_SUIT
from simbalance.games.aquaman.state_nb import clone
from simbalance.players.card_value_nb import value_cards as generic_value_cards
from simbalance.players.card_value_nb import value_decisions as generic_value_decisions

HOLDING = "in the seat's hand"
SWAPPED = ("the card changes places with a card drawn uniformly among those the seat cannot place (the others' hand "
           "cards it does not know, the deck's cards it has not seen); none while a fight's reveal or steal, Power's "
           "swaps or a mission is pending")
DECISION_KINDS = ("power", "companion", "plot", "foe", "power swap", "strangeness", "swim", "opponent", "reveal",
                  "steal", "mission", "mission suit", "mission card", "rest")


def card_labels(cfg: dict) -> list[str]:
    """One label per card id (suit by suit, rank 1 first): ``Aquaman 7``."""
    suits = cfg["deck"]["suits"]
    ranks = int(cfg["deck"]["ranks"])
    return [f"{suit} {rank}" for suit in suits for rank in range(1, ranks + 1)]


@njit(cache=True)
def held(G, S, seat, out):
    """The cards of ``seat``'s hand."""
    n = S.seat[seat, V_HAND_N]
    for i in range(n):
        out[i] = S.cards[K_HAND + seat, i]
    return n


@njit(cache=True, inline="always")
def _frozen(S):
    d = S.ctr[C_DECISION]
    return (d == D_REVEAL or d == D_STEAL or d == D_SWAP or d == D_MISSION or d == D_MISSION_SUIT
            or d == D_MISSION_CARD)


@njit(cache=True)
def swap(G, S, seat, card, rng):
    """``card`` of ``seat``'s hand changes places with a card drawn uniformly among those ``seat``
    cannot place (module doc); returns that card, or -1."""
    if _frozen(S):
        return -1
    cards, seatv = S.cards, S.seat
    players = G.rules[R_PLAYERS]
    me = np.int16(1 << seat)
    at = -1
    for i in range(seatv[seat, V_HAND_N]):
        if cards[K_HAND + seat, i] == card:
            at = i
    if at < 0:
        return -1
    n = 0
    for s in range(players):
        if s != seat:
            for i in range(seatv[s, V_HAND_N]):
                n += (cards[K_KNOWN, cards[K_HAND + s, i]] & me) == 0
    for j in range(S.ctr[C_DECK]):
        n += (cards[K_KNOWN, cards[K_DECK, j]] & me) == 0
    if n == 0:
        return -1
    r = randint(rng, n)
    other = -1
    holder = -1  # the seat whose hand the other card leaves (-1: the deck)
    for s in range(players):
        if s != seat and other < 0:
            for i in range(seatv[s, V_HAND_N]):
                o = cards[K_HAND + s, i]
                if (cards[K_KNOWN, o] & me) == 0:
                    if r == 0 and other < 0:
                        other, holder = o, s
                        cards[K_HAND + s, i] = card
                    r -= 1
    if other < 0:
        for j in range(S.ctr[C_DECK]):
            o = cards[K_DECK, j]
            if (cards[K_KNOWN, o] & me) == 0:
                if r == 0 and other < 0:
                    other = o
                    cards[K_DECK, j] = card
                r -= 1
    cards[K_HAND + seat, at] = other
    known = cards[K_KNOWN, card]  # what the table knows stays with the place
    cards[K_KNOWN, card] = cards[K_KNOWN, other]
    cards[K_KNOWN, other] = known
    a, b = G.card[CARD_SUIT, card], G.card[CARD_SUIT, other]
    seatv[seat, V_SUIT + a] -= 1
    seatv[seat, V_SUIT + b] += 1
    if holder >= 0:
        seatv[holder, V_SUIT + b] -= 1
        seatv[holder, V_SUIT + a] += 1
    return other


@njit(cache=True)
def rekey(S, rng):
    """The game's own stream (dice, draws, reshuffles, random players) keyed from ``rng``."""
    S.rng[0] = next_u64(rng)


@njit(cache=True)
def zones(G, S, out):
    """Cards per hand, the deck, the discard pile, the board."""
    players = G.rules[R_PLAYERS]
    for s in range(players):
        out[s] = S.seat[s, V_HAND_N]
    out[players] = S.ctr[C_DECK]
    out[players + 1] = S.ctr[C_DISC]
    board = 0
    for c in range(S.cards.shape[1]):
        if c < G.move_to.shape[0] and S.cards[K_BOARD, c] >= 0:
            board += 1
    out[players + 2] = board
    return players + 3


@njit(cache=True)
def option_kind(G, S, option):
    """The pending decision (state_nb.D_*, named in DECISION_KINDS), every option's; -1 once over."""
    return S.ctr[C_DECISION]


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
