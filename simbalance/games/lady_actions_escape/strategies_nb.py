"""lady-actions-escape decisions: one jitted function per decision point, branching on the id.

Decision points (docs/rules/lady-actions-escape.md, "Strategies"):
1. ``choose_card``: which card to lead (any card) or to play (one of the playable cards). A player
   who cannot play draws until a playable card comes and plays it: no decision there.
2. ``name_background`` then ``name_character``: what a played wildcard stands for.

Ids (engine.STRATEGIES): 0 random, 1 flexible (and steer: same rule, negative weights), 2 blocker.
``PLUGIN_ID`` (-1, simbalance.core.plugins) is the user's ``--strategy-file`` function, called by
play_nb.strategy_move itself (it names wildcards with the heuristics' rule below). ``SCRIPTED`` (-2)
is for tests only: its parameter row lists, per decision of its player, the card id to play (or,
after a wild, the background then the character to name). Ids and parameter positions live in
state_nb.

Hands are uint64 masks over card ids (state_nb). Strategies see their own hand, the cards they may
play, and how many cards the next player (and the one after a reversal) holds.

Fairness: a choice among equally valued options (playable cards of the same value, backgrounds or
characters held equally often) is uniform at random, drawn from the game's own stream (reservoir
sampling: the k-th equal option replaces the kept one with probability 1/k), never the lowest card
id or the first kind in deck order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import popcount
from simbalance.core.rng import randint, wins_tie
from simbalance.games.lady_actions_escape.state_nb import (
    BLOCKER,
    EFFECT_DRAW,
    EFFECT_NONE,
    EFFECT_REVERSE,
    INFO_BG,
    INFO_CH,
    INFO_EFFECT,
    INFO_WILD,
    ONE,
    P_BG_WEIGHT,
    P_CH_WEIGHT,
    P_DANGER,
    P_WEAPON_HOLD,
    P_WILD_HOLD,
    RANDOM,
    SCRIPTED,
    lowest_card,
    nth_card,
)


@njit(cache=True, inline="always")
def _keep_value(params, card, hand, card_info, kind_cards, n_bg):
    """How much the player wants to keep ``card``: the cards it holds of the same background and
    character (``kind_cards``: the masks of each background's, then each character's cards), plus a
    premium on wildcards."""
    v = 0.0
    b = card_info[card, INFO_BG]
    c = card_info[card, INFO_CH]
    if b >= 0:
        v += params[P_BG_WEIGHT] * popcount(hand & kind_cards[b])
    if c >= 0:
        v += params[P_CH_WEIGHT] * popcount(hand & kind_cards[n_bg + c])
    if card_info[card, INFO_WILD]:
        v += params[P_WILD_HOLD]
    return v


@njit(cache=True)
def choose_card(sid, params, state, step, hand, options, k, card_info, kind_cards, n_bg, n_next, n_prev):
    """The card to play, one of the ``k`` cards in the mask ``options`` (the whole hand for the
    leader). ``n_next``/``n_prev``: cards held by the next player and by the one after a reversal."""
    if sid == RANDOM:
        return nth_card(options, randint(state, k))
    if sid == SCRIPTED:
        return int(params[step])

    # flexible and blocker: play the card it would least like to keep (ties: uniform at random).
    danger = sid == BLOCKER and n_next <= params[P_DANGER]
    best = 1e300
    best_card = -1
    ties = 0
    rest = options
    while rest != np.uint64(0):
        card = lowest_card(rest)
        rest &= rest - ONE
        v = _keep_value(params, card, hand, card_info, kind_cards, n_bg)
        if sid == BLOCKER:
            effect = card_info[card, INFO_EFFECT]
            if danger:
                # Against a player about to go out: Dr. Evil makes him draw; a reversal passes the
                # turn away from him, unless the player behind is as close to going out.
                if effect == EFFECT_DRAW:
                    v -= 1e6
                elif effect == EFFECT_REVERSE and n_prev > params[P_DANGER]:
                    v -= 1e5
            elif effect != EFFECT_NONE:
                v += params[P_WEAPON_HOLD]
        if v < best:
            best = v
            best_card = card
            ties = 1
        elif v == best:
            ties += 1
            if wins_tie(state, ties):
                best_card = card
    return best_card


@njit(cache=True, inline="always")
def _most_held(state, hand, kind_cards, first, count):
    """The kind among ``kind_cards[first:first + count]`` the hand holds most of (0-based); among
    kinds held equally often, uniform at random."""
    best = 0
    best_n = -1
    ties = 0
    for x in range(count):
        n = popcount(hand & kind_cards[first + x])
        if n > best_n:
            best = x
            best_n = n
            ties = 1
        elif n == best_n:
            ties += 1
            if wins_tie(state, ties):
                best = x
    return best


@njit(cache=True)
def name_background(sid, params, state, step, hand, kind_cards, n_bg):
    """The background a played wildcard stands for (heuristics and plug-ins: the one they hold most of,
    ties uniform at random)."""
    if sid == RANDOM:
        return randint(state, n_bg)
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(state, hand, kind_cards, 0, n_bg)


@njit(cache=True)
def name_character(sid, params, state, step, hand, kind_cards, n_bg):
    """The character a played wildcard stands for (heuristics and plug-ins: the one they hold most of,
    ties uniform at random)."""
    n_ch = kind_cards.shape[0] - n_bg
    if sid == RANDOM:
        return randint(state, n_ch)
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(state, hand, kind_cards, n_bg, n_ch)
