"""What the search players (simbalance/players) need of lady-actions-escape: ``determinize``,
``outcome``, ``evaluate``, ``features`` (the fitted evaluation's: ``FEATURES``) and ``policy``
(docs/strategies.md).

What a seat sees: its own hand, the discard pile, every hand's size and the draw pile's size, the
direction of play and what the top card stands for. Hidden from it: the others' cards and the draw
pile's order (cards drawn face down; a reshuffled discard pile becomes hidden again).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.bits import popcount
from simbalance.core.records import END_WIN
from simbalance.core.rng import MASK32
from simbalance.core.rng import S32
from simbalance.core.rng import next_u64
from simbalance.games.lady_actions_escape.rules_nb import playable
from simbalance.games.lady_actions_escape.state_nb import DIRECTION
from simbalance.games.lady_actions_escape.state_nb import DRAW
from simbalance.games.lady_actions_escape.state_nb import DRAW_N
from simbalance.games.lady_actions_escape.state_nb import END
from simbalance.games.lady_actions_escape.state_nb import G_N_BG
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import INFO_EFFECT
from simbalance.games.lady_actions_escape.state_nb import INFO_WILD
from simbalance.games.lady_actions_escape.state_nb import ONE
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import WINNER
from simbalance.games.lady_actions_escape.state_nb import option_code
from simbalance.games.lady_actions_escape.strategies_nb import strategy_move
from simbalance.players.common_nb import fully_observed

# What a seat sees of another's move (the search's ``observe``, docs/strategies.md "Hidden moves"): every
# move is made in the open here (the cards are hidden, the moves are not).
observe = fully_observed


@njit(cache=True, inline="always")
def _below(rng, n, word, spare):
    """Uniform integer in ``[0, n)`` (n < 2^32) without bias (Lemire 2019, as core.rng.randint),
    from 32 random bits: the upper half of a fresh 64-bit word, or the lower half of the last one
    (``spare`` true). Returns (the integer, the word, whether its lower half is still unused): a
    shuffle of 40 cards draws 20 words instead of 40."""
    bound = np.uint64(n)
    while True:
        if spare:
            bits = word & MASK32
            spare = False
        else:
            word = next_u64(rng)
            bits = word >> S32
            spare = True
        m = bits * bound
        low = m & MASK32
        if low >= bound or low >= ((MASK32 + ONE) - bound) % bound:
            return np.int64(m >> S32), word, spare


@njit(cache=True, _nrt=False)
def determinize(ctx, state, seat, rng):
    """Shuffle every card ``seat`` cannot see (the others' hands, the draw pile) among those places,
    each keeping its size; then re-key the game's own stream from ``rng`` (reshuffles and the real
    game's future stay unknown).

    The hidden cards are laid out in card order before the shuffle (in the draw pile's space, which
    holds at most every card of the deck), so the result depends on which cards are hidden, never on
    where they really are: the same ``rng`` gives the same determinization of every state the seat
    cannot tell apart.

    A search determinizes at every iteration, so this is its cheapest uniform deal: a Fisher-Yates
    shuffle from the top that stops once only the last hand's cards are left (a hand is a set: its
    order needs no draws), 32 random bits a step. The draw pile is the top ``DRAW_N`` places in
    the order drawn, the other hands take the places below in turn."""
    srng, masks, st = state
    players = ctx[3][G_PLAYERS]
    hidden = np.uint64(0)
    draw_n = st[DRAW_N]
    for k in range(draw_n):
        hidden |= ONE << np.uint64(st[DRAW + k])
    last = -1  # the last other seat: its hand is what the shuffle leaves at the bottom
    for s in range(players):
        if s != seat:
            hidden |= masks[HAND + s]
            last = s
    m = 0
    while hidden != np.uint64(0):
        st[DRAW + m] = lowest_bit(hidden)
        hidden &= hidden - ONE
        m += 1
    rest = st[HAND_N + last] if last >= 0 else 0
    word = np.uint64(0)
    spare = False
    for i in range(m - 1, rest - 1, -1):  # places rest..m-1: a uniform draw, in order, of the m cards
        if i == 0:
            break
        j, word, spare = _below(rng, i + 1, word, spare)
        card = st[DRAW + i]
        st[DRAW + i] = st[DRAW + j]
        st[DRAW + j] = card
    # The top draw_n places become the draw pile (in place: the pile's top is DRAW + draw_n - 1, its
    # cards must sit at DRAW .. DRAW + draw_n - 1): first take the hands from below the top.
    at = 0  # the hands: places 0 .. m - draw_n - 1, the last other seat's first (the unshuffled rest)
    for s in range(players - 1, -1, -1):
        if s == seat:
            continue
        hand = np.uint64(0)
        for _ in range(st[HAND_N + s]):
            hand |= ONE << np.uint64(st[DRAW + at])
            at += 1
        masks[HAND + s] = hand
    for k in range(draw_n):  # then the draw pile moves down to its places
        st[DRAW + k] = st[DRAW + at + k]
    srng[0] = next_u64(rng)


@njit(cache=True, _nrt=False)
def outcome(ctx, state):
    """The finished game's winner as a bit mask; 0 for a timeout or a stalemate."""
    st = state[2]
    return np.int64(1) << st[WINNER] if st[END] == END_WIN else np.int64(0)


@njit(cache=True, _nrt=False)
def evaluate(ctx, state, rew):
    """A play-out cut short: the race to empty one's hand, as shares of the win that fall by a factor
    e per card held beyond the fewest (a seat two cards behind the leader weighs e^-2 of it)."""
    st = state[2]
    players = ctx[3][G_PLAYERS]
    fewest = st[HAND_N]
    for s in range(1, players):
        fewest = min(fewest, st[HAND_N + s])
    total = 0.0
    for s in range(players):
        rew[s] = np.exp(-np.float64(st[HAND_N + s] - fewest))
        total += rew[s]
    for s in range(players):
        rew[s] /= total


# The fitted evaluation's features of a seat (``features``; docs/strategies.md, "The fitted
# evaluation"): the race to empty one's hand, from what is public and the seat's own hand.
FEATURES = (
    "hand",  # cards in hand
    "gap",  # cards in hand minus the fewest any other seat holds
    "one_left",  # 1 with a single card left
    "turns_away",  # turns until the seat plays (0: its turn), in the direction of play
    "playable",  # own cards that may be played on the top card now (own view)
    "wilds",  # own wildcards (own view)
    "actions",  # own Lady Actions and Dr. Evils (own view)
)
# The sign each weight may take (1: at least 0, -1: at most 0, 0: either): what the rules say is
# good for a seat stays good in the fit, so that a search maximizing the evaluation is never led to
# give points away for a correlation of the heuristics' games (docs/strategies.md).
FEATURE_SIGNS = (-1, -1, 1, 0, 1, 1, 1)


@njit(cache=True, _nrt=False)
def features(ctx, state, seat, out):
    """Seat ``seat``'s ``FEATURES`` into ``out``. Public: every hand's size, whose turn it is, the
    direction of play, the top card; own view: the cards of ``seat``'s own hand. No other seat's
    cards are read."""
    card_info = ctx[0]
    _, masks, st = state
    players = ctx[3][G_PLAYERS]
    fewest = 1 << 30
    for q in range(players):
        if q != seat:
            fewest = min(fewest, st[HAND_N + q])
    away = (seat - st[SEAT]) * st[DIRECTION]
    away = away % players
    hand = masks[HAND + seat]
    wilds = 0
    actions = 0
    rest = hand
    while rest != np.uint64(0):
        c = lowest_bit(rest)
        rest &= rest - ONE
        wilds += 1 if card_info[c, INFO_WILD] else 0
        actions += 1 if card_info[c, INFO_EFFECT] != 0 else 0
    out[0] = st[HAND_N + seat]
    out[1] = st[HAND_N + seat] - fewest
    out[2] = 1.0 if st[HAND_N + seat] == 1 else 0.0
    out[3] = away
    out[4] = popcount(playable(ctx, state, seat))
    out[5] = wilds
    out[6] = actions


@njit(cache=True, _nrt=False)
def policy(ctx, state, sid, params):
    """The option heuristic ``sid`` takes at the pending decision (``strategy_move``, as a code)."""
    n_cards = ctx[0].shape[0]
    n_ch = ctx[2].shape[0] - ctx[3][G_N_BG]
    card, bg, ch, _ = strategy_move(ctx, state, sid, params)
    return option_code(card, bg, ch, n_cards, n_ch)
