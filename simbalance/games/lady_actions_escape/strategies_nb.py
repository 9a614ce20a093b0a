"""lady-actions-escape decisions: one jitted function per decision point, branching on the id.

Decision points (docs/rules/lady-actions-escape.md, "Strategies"):
1. ``choose_card``: which card to lead (any card) or to play (one of the playable cards). A player
   who cannot play draws until a playable card comes and plays it: no decision there.
2. ``name_background`` then ``name_character``: what a played wildcard stands for.

Ids (engine.STRATEGIES): 0 random, 1 flexible (and steer: same rule, negative weights), 2 blocker. ``SCRIPTED`` (-1) is for tests only: its
parameter row lists, per decision of its player, the card id to play (or, after a wild, the
background then the character to name).

Hands are uint64 masks over card ids (bits_nb). Strategies see their own hand, the cards they may
play, the direction of play and how many cards every player holds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint
from simbalance.games.lady_actions_escape.bits_nb import ONE, lowest_card, nth_card, popcount

RANDOM = 0
FLEXIBLE = 1
BLOCKER = 2
SCRIPTED = -1

# Parameter positions (the order of the keys in configs/lady-actions-escape.toml).
P_BG_WEIGHT = 0  # weight of "cards I hold of this card's background"
P_CH_WEIGHT = 1  # weight of "cards I hold of this card's character"
P_WILD_HOLD = 2  # extra cost of playing a wildcard (keeps it for when nothing else fits)
P_DANGER = 3  # blocker: a player holding this many cards or fewer is about to go out
P_WEAPON_HOLD = 4  # blocker: extra cost of spending a Dr. Evil or Lady Action when nobody is in danger

EFFECT_NONE = 0
EFFECT_REVERSE = 1
EFFECT_DRAW = 2


@njit(cache=True)
def _keep_value(params, card, hand, card_bg, card_ch, card_wild, bg_cards, ch_cards):
    """How much the player wants to keep ``card``: the cards it holds of the same background and
    character (majority kinds keep options open), plus a premium on wildcards."""
    v = 0.0
    b = card_bg[card]
    c = card_ch[card]
    if b >= 0:
        v += params[P_BG_WEIGHT] * popcount(hand & bg_cards[b])
    if c >= 0:
        v += params[P_CH_WEIGHT] * popcount(hand & ch_cards[c])
    if card_wild[card]:
        v += params[P_WILD_HOLD]
    return v


@njit(cache=True)
def choose_card(sid, params, state, step, hand, options, k, card_bg, card_ch, card_wild, card_effect, bg_cards,
                ch_cards, n_next, n_prev):
    """The card to play, one of the ``k`` cards in the mask ``options`` (the whole hand for the
    leader). ``n_next``/``n_prev``: cards held by the next player and by the one after a reversal."""
    if sid == RANDOM:
        return nth_card(options, randint(state, k))
    if sid == SCRIPTED:
        return int(params[step])

    # flexible and blocker: play the card it would least like to keep.
    danger = sid == BLOCKER and n_next <= params[P_DANGER]
    best = 1e300
    best_card = -1
    rest = options
    while rest != np.uint64(0):
        card = lowest_card(rest)
        rest &= rest - ONE
        v = _keep_value(params, card, hand, card_bg, card_ch, card_wild, bg_cards, ch_cards)
        if sid == BLOCKER:
            effect = card_effect[card]
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
    return best_card


@njit(cache=True)
def _most_held(hand, kind_cards):
    best = 0
    best_n = -1
    for x in range(kind_cards.shape[0]):
        n = popcount(hand & kind_cards[x])
        if n > best_n:
            best = x
            best_n = n
    return best


@njit(cache=True)
def name_background(sid, params, state, step, hand, bg_cards):
    """The background a played wildcard stands for (heuristics: the one they hold most of)."""
    if sid == RANDOM:
        return randint(state, bg_cards.shape[0])
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(hand, bg_cards)


@njit(cache=True)
def name_character(sid, params, state, step, hand, ch_cards):
    """The character a played wildcard stands for (heuristics: the one they hold most of)."""
    if sid == RANDOM:
        return randint(state, ch_cards.shape[0])
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(hand, ch_cards)
