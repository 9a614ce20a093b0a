"""The invariants that ``--validate`` checks between turns (play_nb ends a game that breaks one)."""

from __future__ import annotations

from numba import njit

from simbalance.games.aquaman.state_nb import (
    C_DECK,
    C_DISC,
    CARD_SUIT,
    K_BOARD,
    K_DECK,
    K_DISC,
    K_HAND,
    R_HAND_LIMIT,
    R_MISSIONS_TO_WIN,
    R_NSUITS,
    R_PLAYERS,
    R_START_HAND,
    V_HAND_N,
    V_MISSIONS,
    V_POS,
    V_SUIT,
    X_CAND,
)

INVALID = -2  # play_game's result when validation found a broken invariant


@njit(cache=True)
def state_is_valid(G, S):
    """The invariants between turns: every card in exactly one place (deck, discard pile, board,
    hands), suit counts matching the hands, pawns on the board, hands within the limit (or the
    deal), nobody at the missions that win."""
    n_cards = G.card.shape[1]
    cells = G.move_to.shape[0]
    players = G.rules[R_PLAYERS]
    seen = S.scratch[X_CAND]  # free between turns
    hand_cap = max(G.rules[R_HAND_LIMIT], G.rules[R_START_HAND])  # before a first turn: the deal
    seen[:n_cards] = 0
    for i in range(S.ctr[C_DECK]):
        seen[S.cards[K_DECK, i]] += 1
    for i in range(S.ctr[C_DISC]):
        seen[S.cards[K_DISC, i]] += 1
    for cell in range(cells):
        if S.cards[K_BOARD, cell] >= 0:
            seen[S.cards[K_BOARD, cell]] += 1
    for s in range(players):
        n = S.seat[s, V_HAND_N]
        if n < 0 or n > hand_cap or not 0 <= S.seat[s, V_POS] < cells:
            return False
        if S.seat[s, V_MISSIONS] >= G.rules[R_MISSIONS_TO_WIN]:
            return False
        for suit in range(G.rules[R_NSUITS]):
            count = 0
            for i in range(n):
                if G.card[CARD_SUIT, S.cards[K_HAND + s, i]] == suit:
                    count += 1
            if count != S.seat[s, V_SUIT + suit]:
                return False
        for i in range(n):
            seen[S.cards[K_HAND + s, i]] += 1
    for c in range(n_cards):
        if seen[c] != 1:
            return False
    return True
