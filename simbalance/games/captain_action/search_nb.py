"""What the search players (simbalance/players) need of captain-action: ``determinize``,
``outcome``, ``evaluate``, ``features`` (the fitted evaluation's: ``FEATURES``) and ``policy``
(docs/strategies.md).

What a seat sees: its own hand (and the card it drew), the whole discard pile, the Countdown Deck's
size, and the cards the others took from the discard pile and still hold (``gv[V_KNOWN + s]``).
Everything else is hidden from it: the others' other cards (their drawn card too), the Countdown
Deck's order and the cards of the deck that are not in play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.records import END_WIN
from simbalance.core.rng import next_u64
from simbalance.core.rng import shuffle
from simbalance.games.captain_action.scoring_nb import hand_score
from simbalance.games.captain_action.state_nb import G_COUNTDOWN
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import G_PLAYERS
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import V_BONUS
from simbalance.games.captain_action.state_nb import V_CALLER
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_END
from simbalance.games.captain_action.state_nb import V_KNOWN
from simbalance.games.captain_action.state_nb import V_LAST_DRAWER
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_SEAT
from simbalance.games.captain_action.state_nb import V_TAKES
from simbalance.games.captain_action.state_nb import V_WINNERS
from simbalance.games.captain_action.strategies_nb import choose
from simbalance.players.common_nb import fully_observed

# What a seat sees of another's move (the search's ``observe``, docs/strategies.md "Hidden moves"): every
# move is made in the open here (the cards are hidden, the moves are not).
observe = fully_observed


@njit(cache=True, inline="always")
def _hidden_slots(gv, s, seat, hand_size):
    """How many of seat ``s``'s hand slots another seat cannot see into: its hand, and the card
    just drawn while it is to discard."""
    if s == seat:
        return 0
    return hand_size + 1 if gv[V_PHASE] == PH_DISCARD and gv[V_SEAT] == s else hand_size


@njit(cache=True)
def determinize(ctx, state, seat, rng):
    """Shuffle every card ``seat`` cannot see among the places it cannot see (the others' unknown
    hand slots, the Countdown Deck, the unused rest of the deck), each place keeping its size;
    then re-key the game's own stream from ``rng`` (the real game's future draws stay unknown).

    The hidden cards are dealt out in card order before the shuffle, so the result depends on which
    cards are hidden, never on where they really are: the same ``rng`` gives the same
    determinization of every state the seat cannot tell apart."""
    game_rules = ctx[2]
    srng, gv, order, hand, _, _, scratch = state
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    n_cards = order.shape[0]
    hidden = np.uint64(0)
    for s in range(players):
        known = gv[V_KNOWN + s]
        for k in range(_hidden_slots(gv, s, seat, hand_size)):
            if (known >> hand[s, k]) & 1 == 0:
                hidden |= np.uint64(1) << np.uint64(hand[s, k])
    for j in range(gv[V_CD_POS], n_cards):
        if j != gv[V_CD_END]:  # order[cd_end] started the discard pile: public
            hidden |= np.uint64(1) << np.uint64(order[j])
    m = 0
    while hidden != np.uint64(0):
        scratch[m] = lowest_bit(hidden)
        hidden &= hidden - np.uint64(1)
        m += 1
    shuffle(rng, scratch, m)
    m = 0
    for s in range(players):
        known = gv[V_KNOWN + s]
        for k in range(_hidden_slots(gv, s, seat, hand_size)):
            if (known >> hand[s, k]) & 1 == 0:
                hand[s, k] = scratch[m]
                m += 1
    for j in range(gv[V_CD_POS], n_cards):
        if j != gv[V_CD_END]:
            order[j] = scratch[m]
            m += 1
    srng[0] = next_u64(rng)


@njit(cache=True)
def outcome(ctx, state):
    """The finished game's winners (bit s: seat s shares the win); 0 for a timeout or none."""
    gv = state[1]
    return gv[V_WINNERS] if gv[V_END] == END_WIN else np.int64(0)


@njit(cache=True)
def evaluate(ctx, state, rew):
    """A play-out cut short: the seats whose hands score best now (the heuristics' measure of a hand)
    share the win."""
    card_info, srules, game_rules, _ = ctx
    _, _, _, hand, _, cnt, scratch = state
    players = game_rules[G_PLAYERS]
    best = -1
    leaders = 0
    for s in range(players):
        score = hand_score(hand, s, game_rules[G_HAND], card_info, srules, cnt, scratch)
        rew[s] = score
        if score > best:
            best = score
            leaders = 1
        elif score == best:
            leaders += 1
    for s in range(players):
        rew[s] = 1.0 / leaders if rew[s] == best else 0.0


# The fitted evaluation's features of a seat (``features``; docs/strategies.md, "The fitted
# evaluation"): the seat's own hand and what the table saw. The others' hand scores are hidden
# from it, so no gap to the leader: the logit compares each seat's own measures.
FEATURES = (
    "hand_score",  # the sets in the seat's own hand (scoring_nb.hand_score; own view)
    "score_x_progress",  # hand_score times the Countdown Deck's progress (1 - cards left / its size)
    "caller",  # 1 when the seat called
    "caller_bonus",  # the bonus of its call (Countdown cards left then; 0 if it did not call)
    "other_called",  # 1 when another seat called
    "takes",  # cards the seat took from the discard pile
    "last_drawer",  # 1 when the seat drew the last Countdown card (the penalty's seat)
)
# The sign each weight may take (1: at least 0, -1: at most 0, 0: either): what the rules say is
# good for a seat stays good in the fit, so that a search maximizing the evaluation is never led to
# give points away for a correlation of the heuristics' games (docs/strategies.md).
FEATURE_SIGNS = (1, 1, 0, 0, 0, 0, -1)


@njit(cache=True)
def features(ctx, state, seat, out):
    """Seat ``seat``'s ``FEATURES`` into ``out``. Public: the call and its bonus, the Countdown
    Deck's size, the cards taken from the discard pile, who drew the last Countdown card; own view:
    the score of ``seat``'s own hand. No other seat's cards are read."""
    card_info, srules, game_rules, _ = ctx
    _, gv, _, hand, _, cnt, scratch = state
    score = hand_score(hand, seat, game_rules[G_HAND], card_info, srules, cnt, scratch)
    left = gv[V_CD_END] - gv[V_CD_POS]
    progress = 1.0 - left / max(1, game_rules[G_COUNTDOWN])
    caller = gv[V_CALLER]
    out[0] = score
    out[1] = score * progress
    out[2] = 1.0 if caller == seat else 0.0
    out[3] = gv[V_BONUS] if caller == seat else 0.0
    out[4] = 1.0 if caller >= 0 and caller != seat else 0.0
    out[5] = gv[V_TAKES + seat]
    out[6] = 1.0 if gv[V_LAST_DRAWER] == seat else 0.0


@njit(cache=True)
def policy(ctx, state, sid, params):
    """The option heuristic ``sid`` takes at the pending decision (strategies_nb.choose)."""
    return choose(ctx, state, sid, params)
