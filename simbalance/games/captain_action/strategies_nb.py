"""captain-action decisions: one jitted function per decision point, branching on the strategy id.

Decision points (in turn order; docs/rules/captain-action.md, "Strategies"):
1. ``decide_call`` before drawing (only with ``rules.call_timing = "before_draw"``);
2. ``decide_source``: the top of the Countdown Deck or of the discard pile;
3. ``decide_discard``: which of the hand's cards (the drawn one included) goes on the discard pile;
4. ``decide_call`` after discarding (the default timing), while the Countdown Deck is not empty.

Hands are ``hand[seat, :H]`` plus, during a turn, the drawn card in ``hand[seat, H]``. Strategies
see only what their player sees: their own hand, the discard pile's top, the Countdown Deck's size
and the turn number.

Ids (state_nb, named in engine.STRATEGIES): 0 random, 1 builder, 2 bold, 3 collector. ``SCRIPTED``
(-1) is for tests only: it plays the code in its parameter row for the seat's turn (see SCRIPT_*).
``choose`` gives a seat's strategy what its player sees and returns its choice as an option code
of the pending decision (state_nb PH_*).

Fairness: a choice among equally valued options (cards whose discard leaves the same hand value) is
uniform at random, drawn from the game's own stream (reservoir sampling over the equal-best: the
k-th equal option replaces the kept one with probability 1/k), never the first one in hand order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint
from simbalance.core.rng import uniform
from simbalance.core.rng import wins_tie
from simbalance.games.captain_action.scoring_nb import best_score
from simbalance.games.captain_action.scoring_nb import count_hand
from simbalance.games.captain_action.scoring_nb import hand_score
from simbalance.games.captain_action.scoring_nb import shift_card
from simbalance.games.captain_action.state_nb import BG_N
from simbalance.games.captain_action.state_nb import BUILDER
from simbalance.games.captain_action.state_nb import CALL
from simbalance.games.captain_action.state_nb import CH_N
from simbalance.games.captain_action.state_nb import COLLECTOR
from simbalance.games.captain_action.state_nb import G_COUNTDOWN
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import P_CALL_SCORE
from simbalance.games.captain_action.state_nb import P_CALL_SLOPE
from simbalance.games.captain_action.state_nb import P_MIN_TURNS
from simbalance.games.captain_action.state_nb import P_PAIR_WEIGHT
from simbalance.games.captain_action.state_nb import P_RANDOM_CALL
from simbalance.games.captain_action.state_nb import P_TAKE_GAIN
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import PH_SOURCE
from simbalance.games.captain_action.state_nb import PLAY_ON
from simbalance.games.captain_action.state_nb import RANDOM
from simbalance.games.captain_action.state_nb import RULE_N_BG
from simbalance.games.captain_action.state_nb import RULE_N_CH
from simbalance.games.captain_action.state_nb import RULE_SET_SIZE
from simbalance.games.captain_action.state_nb import SCRIPT_CALL
from simbalance.games.captain_action.state_nb import SCRIPT_SLOT
from simbalance.games.captain_action.state_nb import SCRIPTED
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_FORBID
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_PILE_N
from simbalance.games.captain_action.state_nb import V_SEAT
from simbalance.games.captain_action.state_nb import V_STEP


@njit(cache=True, inline="always")
def hand_value(cnt, wilds, pair_weight, srules, scratch):
    """A heuristic's value of a hand: its score now plus ``pair_weight`` per kind one short of a set."""
    near = srules[RULE_SET_SIZE] - 1
    pairs = 0
    for b in range(srules[RULE_N_BG]):
        if cnt[BG_N, b] == near:
            pairs += 1
    for c in range(srules[RULE_N_CH]):
        if cnt[CH_N, c] == near:
            pairs += 1
    return best_score(cnt, wilds, srules, scratch) + pair_weight * pairs


@njit(cache=True)
def best_discard(state, pick, hand, seat, hand_size, forbid, pair_weight, card_info, srules, cnt, scratch):
    """The slot of ``hand[seat, :hand_size + 1]`` whose discard leaves the best-valued hand, and
    that value. ``forbid``: a slot that may not be discarded (-1: none).

    With ``pick`` the slot is uniform at random among the equally best (one draw from ``state`` per
    tie); without it only the value is wanted and nothing is drawn."""
    wilds = count_hand(hand, seat, hand_size + 1, card_info, cnt)
    best = -1e18
    best_slot = 0
    ties = 0
    for d in range(hand_size + 1):
        if d == forbid:
            continue
        card = hand[seat, d]
        w = wilds + shift_card(cnt, card_info, card, -1)
        v = hand_value(cnt, w, pair_weight, srules, scratch)
        shift_card(cnt, card_info, card, 1)
        if v > best:
            best = v
            best_slot = d
            ties = 1
        elif v == best and pick:
            ties += 1
            if wins_tie(state, ties):
                best_slot = d
    return best_slot, best


@njit(cache=True)
def decide_source(sid, params, state, step, hand, seat, hand_size, top, card_info, srules, cnt, scratch):
    """1 to take the discard pile's top card ``top``, 0 to draw from the Countdown Deck."""
    if sid == RANDOM:
        return randint(state, 2)
    if sid == SCRIPTED:
        return int(params[step]) % SCRIPT_SLOT
    # builder, bold and collector: take the visible card when it improves the hand enough.
    wilds = count_hand(hand, seat, hand_size, card_info, cnt)
    now = hand_value(cnt, wilds, params[P_PAIR_WEIGHT], srules, scratch)
    hand[seat, hand_size] = top
    _, taken = best_discard(state, np.bool_(False), hand, seat, hand_size, hand_size, params[P_PAIR_WEIGHT],
                            card_info, srules, cnt, scratch)
    return 1 if taken - now >= params[P_TAKE_GAIN] else 0


@njit(cache=True)
def decide_discard(sid, params, state, step, hand, seat, hand_size, forbid, card_info, srules, cnt, scratch):
    """The slot (0..hand_size, the drawn card in hand_size) to discard; never ``forbid``."""
    if sid == RANDOM:
        n_legal = hand_size + 1 if forbid < 0 else hand_size
        d = randint(state, n_legal)
        if forbid >= 0 and d >= forbid:
            d += 1
        return d
    if sid == SCRIPTED:
        return (int(params[step]) % SCRIPT_CALL) // SCRIPT_SLOT
    slot, _ = best_discard(state, np.bool_(True), hand, seat, hand_size, forbid, params[P_PAIR_WEIGHT], card_info,
                           srules, cnt, scratch)
    return slot


@njit(cache=True)
def decide_call(sid, params, state, step, score, bonus, drawn):
    """Call "Let Justice Be Done!" now? ``step``: the seat's own turn (0: its first), ``score``: the
    hand's score, ``bonus``: the Countdown Deck's size, ``drawn``: cards already drawn from it."""
    if sid == RANDOM:
        return uniform(state) < params[P_RANDOM_CALL]
    if sid == SCRIPTED:
        return int(params[step]) >= SCRIPT_CALL
    if sid == BUILDER:
        # "Should beat the table": the others' hands improve as the Countdown Deck runs down.
        return score + bonus >= params[P_CALL_SCORE] + params[P_CALL_SLOPE] * drawn
    if sid == COLLECTOR:
        # Builds sets first: no call before its own turn min_turns, then builder's bar.
        if step + 1 < params[P_MIN_TURNS]:
            return False
        return score + bonus >= params[P_CALL_SCORE] + params[P_CALL_SLOPE] * drawn
    # bold: a fixed bar that the early bonus clears easily, so it calls early with a thin hand.
    return score + bonus >= params[P_CALL_SCORE]


@njit(cache=True, inline="always")
def choose(ctx, state, sid, params):
    """The option (state_nb: PH_* and its codes) that strategy ``sid`` with ``params`` picks for the
    pending decision of the seat to move; draws from the game's stream as the strategy does."""
    card_info, srules, game_rules, _ = ctx
    rng, gv, _, hand, pile, cnt, scratch = state
    hand_size = game_rules[G_HAND]
    seat = gv[V_SEAT]
    step = gv[V_STEP]
    phase = gv[V_PHASE]
    if phase == PH_SOURCE:
        return decide_source(sid, params, rng, step, hand, seat, hand_size, pile[gv[V_PILE_N] - 1], card_info,
                             srules, cnt, scratch)
    if phase == PH_DISCARD:
        return decide_discard(sid, params, rng, step, hand, seat, hand_size, gv[V_FORBID], card_info, srules, cnt,
                              scratch)
    # PH_CALL_BEFORE or PH_CALL_AFTER: random calls blindly, the others weigh the hand's score.
    left = gv[V_CD_END] - gv[V_CD_POS]
    score = 0 if sid == RANDOM else hand_score(hand, seat, hand_size, card_info, srules, cnt, scratch)
    return CALL if decide_call(sid, params, rng, step, score, left, game_rules[G_COUNTDOWN] - left) else PLAY_ON
