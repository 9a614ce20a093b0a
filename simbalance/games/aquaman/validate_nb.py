"""The invariants of an aquaman game: what ``--validate`` checks after every turn (rules_nb.end_turn
ends a game that breaks one) and what ``Resumable.check`` checks at any decision."""

from __future__ import annotations

from numba import njit

from simbalance.games.aquaman.state_nb import C_ACT_CARD
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_DECK
from simbalance.games.aquaman.state_nb import C_DISC
from simbalance.games.aquaman.state_nb import C_SEEN
from simbalance.games.aquaman.state_nb import C_STEP
from simbalance.games.aquaman.state_nb import C_TO_MOVE
from simbalance.games.aquaman.state_nb import CARD_SUIT
from simbalance.games.aquaman.state_nb import D_COMPANION
from simbalance.games.aquaman.state_nb import K_BOARD
from simbalance.games.aquaman.state_nb import K_BUF
from simbalance.games.aquaman.state_nb import K_DECK
from simbalance.games.aquaman.state_nb import K_DISC
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import N_DECISIONS
from simbalance.games.aquaman.state_nb import R_LIMIT_SEAT
from simbalance.games.aquaman.state_nb import R_MISSIONS_TO_WIN
from simbalance.games.aquaman.state_nb import R_NSUITS
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import R_START_SEAT
from simbalance.games.aquaman.state_nb import STEP_END_TURN
from simbalance.games.aquaman.state_nb import STEP_OVER
from simbalance.games.aquaman.state_nb import STEP_TURN
from simbalance.games.aquaman.state_nb import V_HAND_N
from simbalance.games.aquaman.state_nb import V_MISSIONS
from simbalance.games.aquaman.state_nb import V_POS
from simbalance.games.aquaman.state_nb import V_SUIT
from simbalance.games.aquaman.state_nb import X_SEEN

# check's results: 0 when every invariant holds, else the first one broken
(VALID, BAD_CARDS, BAD_SUIT_COUNT, BAD_SEAT, BAD_BETWEEN_TURNS, BAD_DECISION) = range(6)


@njit(cache=True)
def check(G, S):
    """Every card in exactly one place (deck, discard pile, board, hands; also the cards Companion
    shows while its choice is pending and the activated card while its power resolves), suit counts
    matching the hands, pawns on the board, a pending decision that is one of the game's with a
    player to decide it; between turns also hands within the limit (or the deal) and nobody at
    the missions that win. Returns VALID (0) or the first broken invariant (BAD_*)."""
    n_cards = G.card.shape[1]
    cells = G.move_to.shape[0]
    players = G.rules[R_PLAYERS]
    seen = S.scratch[X_SEEN]
    step = S.ctr[C_STEP]
    decision = S.ctr[C_DECISION]
    between_turns = decision < 0 and (step == STEP_TURN or step == STEP_END_TURN)
    hand_cap = 0  # a seat's hand limit; before a first turn: the deal (both with seat compensation)
    for s in range(players):
        hand_cap = max(hand_cap, G.rules[R_LIMIT_SEAT + s], G.rules[R_START_SEAT + s])
    seen[:n_cards] = 0
    for i in range(S.ctr[C_DECK]):
        seen[S.cards[K_DECK, i]] += 1
    for i in range(S.ctr[C_DISC]):
        seen[S.cards[K_DISC, i]] += 1
    for cell in range(cells):
        if S.cards[K_BOARD, cell] >= 0:
            seen[S.cards[K_BOARD, cell]] += 1
    if decision == D_COMPANION:
        for j in range(S.ctr[C_SEEN]):
            seen[S.cards[K_BUF, j]] += 1
    if S.ctr[C_ACT_CARD] >= 0:
        seen[S.ctr[C_ACT_CARD]] += 1
    for s in range(players):
        n = S.seat[s, V_HAND_N]
        if n < 0 or not 0 <= S.seat[s, V_POS] < cells:
            return BAD_SEAT
        if between_turns and (n > hand_cap or S.seat[s, V_MISSIONS] >= G.rules[R_MISSIONS_TO_WIN]):
            return BAD_BETWEEN_TURNS
        for suit in range(G.rules[R_NSUITS]):
            count = 0
            for i in range(n):
                if G.card[CARD_SUIT, S.cards[K_HAND + s, i]] == suit:
                    count += 1
            if count != S.seat[s, V_SUIT + suit]:
                return BAD_SUIT_COUNT
        for i in range(n):
            seen[S.cards[K_HAND + s, i]] += 1
    for c in range(n_cards):
        if seen[c] != 1:
            return BAD_CARDS
    if step != STEP_OVER and decision >= 0:
        if decision >= N_DECISIONS or not 0 <= S.ctr[C_TO_MOVE] < players:
            return BAD_DECISION
    return VALID
