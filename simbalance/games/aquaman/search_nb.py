"""What the search players (simbalance/players) need of aquaman: ``determinize``, ``outcome``,
``evaluate``, ``features`` (the fitted evaluation's: ``FEATURES``) and ``policy`` (docs/strategies.md).

What a seat sees: its own hand, the board, the pawns, the whole discard pile, every hand's size and
missions, the deck's size, and the cards whose place it has learnt (``cards[K_KNOWN]``, state_nb):
cards taken face up (from the board, from the discard pile by Sea Creature, shown by Foe and kept)
sit in their holder's hand for everyone to know; the winner of a fight has seen the loser's whole
hand and both of them know the stolen card; Location's player knows the deck's top cards he looked
at, also once someone draws them. Hidden from it: every other card in the others' hands, the rest
of the deck's order, and, in a fight, the card the first fighter chose while the second chooses his
(the reveals are simultaneous in the rules; the engine asks the mover first and already holds his
card on the discard pile).

Not modelled: what a seat could infer beyond where cards are (an Aquaman player who drew a third
card drew two that sum below its rank; Companion's kept card is lower than the Companion card): a
determinization may contradict such inferences, never what the seat saw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import next_u64
from simbalance.core.rng import shuffle
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_DECK
from simbalance.games.aquaman.state_nb import C_DISC
from simbalance.games.aquaman.state_nb import C_FIGHT_A
from simbalance.games.aquaman.state_nb import C_FIGHT_B
from simbalance.games.aquaman.state_nb import C_RESULT
from simbalance.games.aquaman.state_nb import C_REVEAL_A
from simbalance.games.aquaman.state_nb import C_TO_MOVE
from simbalance.games.aquaman.state_nb import CARD_SUIT
from simbalance.games.aquaman.state_nb import D_REVEAL
from simbalance.games.aquaman.state_nb import K_DECK
from simbalance.games.aquaman.state_nb import K_DISC
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import K_KNOWN
from simbalance.games.aquaman.state_nb import R_MISSION_SUITS
from simbalance.games.aquaman.state_nb import R_MISSIONS_TO_WIN
from simbalance.games.aquaman.state_nb import R_NSUITS
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import V_HAND_N
from simbalance.games.aquaman.state_nb import V_MISSIONS
from simbalance.games.aquaman.state_nb import V_SUIT
from simbalance.games.aquaman.state_nb import X_CAND
from simbalance.games.aquaman.state_nb import X_SEEN
from simbalance.games.aquaman.strategies_nb import decide_as
from simbalance.players.common_nb import fully_observed

# What a seat sees of another's move (the search's ``observe``, docs/strategies.md "Hidden moves"): every
# move is made in the open here (the cards are hidden, the moves are not).
observe = fully_observed

POOLED, RESERVED = 1, 2  # determinize's marks: a hidden card, a card known to sit with the first fighter


@njit(cache=True, inline="always")
def hidden_reveal(S, seat):
    """The fighter whose revealed card ``seat`` may not see yet (-1: none): ``seat`` is the second
    fighter to choose, and the first has chosen a card."""
    ctr = S.ctr
    if ctr[C_DECISION] == D_REVEAL and ctr[C_TO_MOVE] == seat and seat == ctr[C_FIGHT_B] and ctr[C_REVEAL_A] >= 0:
        return ctr[C_FIGHT_A]
    return np.int64(-1)


@njit(cache=True, _nrt=False)
def determinize(G, S, seat, rng):
    """Shuffle every card ``seat`` cannot place (module doc) among the places it cannot see (the
    others' hand slots holding such cards, the deck's positions holding such cards, the first
    fighter's chosen card), each place keeping its size and every known card its place; then re-key
    the game's own stream from ``rng`` (future draws, rolls and reshuffles stay unknown).

    While the second fighter chooses, the first fighter's chosen card is one of his hand's as it
    was: his cards that ``seat`` knows stay among his hand and that card, which of them he chose
    being shuffled too.

    The hidden cards are listed in card order before the shuffle, so the result depends on which
    cards are hidden, never on where they really are: the same ``rng`` gives the same
    determinization of every state the seat cannot tell apart."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    ctr = S.ctr
    players = G.rules[R_PLAYERS]
    n_cards = card.shape[1]
    mark = S.scratch[X_SEEN]  # the validation's count row, as marks by card id (check clears it)
    pool = S.scratch[X_CAND]  # a candidate list, as the hidden cards (no step keeps it across a decision)
    me = np.int16(1 << seat)
    first = hidden_reveal(S, seat)
    for c in range(n_cards):
        mark[c] = 0
    for s in range(players):
        if s == seat:
            continue
        for i in range(seatv[s, V_HAND_N]):
            c = cards[K_HAND + s, i]
            known = (cards[K_KNOWN, c] & me) != 0
            mark[c] = RESERVED if known and s == first else (0 if known else POOLED)
    if first >= 0:
        c = ctr[C_REVEAL_A]
        mark[c] = RESERVED if (cards[K_KNOWN, c] & me) != 0 else POOLED
    for j in range(ctr[C_DECK]):
        c = cards[K_DECK, j]
        if (cards[K_KNOWN, c] & me) == 0:
            mark[c] = POOLED
    m = 0
    for c in range(n_cards):
        if mark[c] == POOLED:
            pool[m] = c
            m += 1
            cards[K_KNOWN, c] = 0  # wherever it lands, only its holder knows it there
    shuffle(rng, pool, m)
    r = 0
    for c in range(n_cards):
        if mark[c] == RESERVED:
            pool[m + r] = c
            r += 1
    at = 0  # the next pooled card to place
    if first >= 0:
        # The first fighter's hand and chosen card: his known cards (pool[m:m + r]) and as many
        # pooled ones as he held unknown (the pool's tail), shuffled among his slots and the choice.
        group = seatv[first, V_HAND_N] + 1
        lo = m + r - group
        shuffle(rng, pool[lo:m + r], group)
        for i in range(group - 1):
            cards[K_HAND + first, i] = pool[lo + i]
        c = pool[lo + group - 1]
        cards[K_DISC, ctr[C_DISC] - 1] = c
        ctr[C_REVEAL_A] = c
    for s in range(players):
        if s == seat or s == first:
            continue
        for i in range(seatv[s, V_HAND_N]):
            if mark[cards[K_HAND + s, i]] == POOLED:
                c = pool[at]
                at += 1
                cards[K_HAND + s, i] = c
    for j in range(ctr[C_DECK]):
        if mark[cards[K_DECK, j]] == POOLED:
            c = pool[at]
            at += 1
            cards[K_DECK, j] = c
    for s in range(players):
        if s == seat:
            continue
        for k in range(G.rules[R_NSUITS]):
            seatv[s, V_SUIT + k] = 0
        for i in range(seatv[s, V_HAND_N]):
            seatv[s, V_SUIT + card[CARD_SUIT, cards[K_HAND + s, i]]] += 1
    S.rng[0] = next_u64(rng)


@njit(cache=True, _nrt=False)
def outcome(G, S):
    """The finished game's winner as a bit mask; 0 for a timeout, a stalemate or an invalid game."""
    result = S.ctr[C_RESULT]
    return np.int64(1) << result if result >= 0 else np.int64(0)


@njit(cache=True, _nrt=False)
def evaluate(G, S, rew):
    """A play-out cut short: the race to three missions, as shares of the win that fall by a factor
    e per step of progress behind the leader (progress as the whole-game metrics measure it:
    missions x (M + 1) + the suits in hand, at most M; a mission more outweighs any hand)."""
    players = G.rules[R_PLAYERS]
    m = G.rules[R_MISSION_SUITS]
    best = -1
    for s in range(players):
        suits = 0
        for k in range(G.rules[R_NSUITS]):
            suits += S.seat[s, V_SUIT + k] > 0
        rew[s] = S.seat[s, V_MISSIONS] * (m + 1) + min(suits, m)
        best = max(best, rew[s])
    total = 0.0
    for s in range(players):
        rew[s] = np.exp(rew[s] - best)
        total += rew[s]
    for s in range(players):
        rew[s] /= total


# The fitted evaluation's features of a seat (``features``; docs/strategies.md, "The fitted
# evaluation"): the race to the missions, from what is public and the seat's own hand.
FEATURES = (
    "missions",  # missions completed
    "mission_gap",  # missions minus the most of any other seat
    "one_to_go",  # 1 when one more mission wins the game
    "suits",  # suits in the seat's own hand, at most the suits a mission asks for (own view)
    "ready",  # 1 when the own hand holds the suits of a mission (own view)
    "progress",  # missions x (M + 1) + suits: the whole-game metrics' measure, the seat's own part
    "hand",  # cards in hand
)
# The sign each weight may take (1: at least 0, -1: at most 0, 0: either): what the rules say is
# good for a seat stays good in the fit, so that a search maximizing the evaluation is never led to
# give points away for a correlation of the heuristics' games (docs/strategies.md).
FEATURE_SIGNS = (1, 1, 1, 1, 1, 1, 0)


@njit(cache=True, _nrt=False)
def features(G, S, seat, out):
    """Seat ``seat``'s ``FEATURES`` into ``out``. Public: every seat's missions and hand size; own
    view: the suits in ``seat``'s own hand. No other seat's suits are read (the hand-written
    ``evaluate`` reads them, from a determinization)."""
    players = G.rules[R_PLAYERS]
    m = G.rules[R_MISSION_SUITS]
    most = 0
    for q in range(players):
        if q != seat:
            most = max(most, S.seat[q, V_MISSIONS])
    suits = 0
    for k in range(G.rules[R_NSUITS]):
        suits += S.seat[seat, V_SUIT + k] > 0
    suits = min(suits, m)
    missions = S.seat[seat, V_MISSIONS]
    out[0] = missions
    out[1] = missions - most
    out[2] = 1.0 if missions + 1 >= G.rules[R_MISSIONS_TO_WIN] else 0.0
    out[3] = suits
    out[4] = 1.0 if suits >= m else 0.0
    out[5] = missions * (m + 1) + suits
    out[6] = S.seat[seat, V_HAND_N]


@njit(cache=True, _nrt=False)
def policy(G, S, sid, params):
    """The option heuristic ``sid`` takes at the pending decision (strategies_nb.decide_as)."""
    return decide_as(G, S, sid, params, None)
