"""lady-actions-escape decisions: one jitted function per decision point, branching on the id.

Decision points (docs/rules/lady-actions-escape.md, "Strategies"):
1. ``choose_card``: which card to lead (any card) or to play (one of the playable cards). A player
   who cannot play draws until a playable card comes and plays it: no decision there.
2. ``name_background`` then ``name_character``: what a played wildcard stands for.

Ids (engine.STRATEGIES): 0 random, 1 flexible, 2 blocker. ``SCRIPTED`` (-1) is for tests only: its
parameter row lists, per decision of its player, the hand slot to play (or, after a wild, the
background then the character to name).

Strategies see their own hand (``hand[seat, :n]`` with per-background and per-character counts
``cnt_bg``/``cnt_ch``), the top card, the direction of play and how many cards every player holds.
"""

from __future__ import annotations

from numba import njit

from simbalance.core.rng import randint

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


@njit(cache=True, inline="always")
def playable(card, top_mask, card_mask):
    return (card_mask[card] & top_mask) != 0


@njit(cache=True)
def _keep_value(sid, params, card, seat, card_bg, card_ch, card_wild, cnt_bg, cnt_ch):
    """How much the player wants to keep ``card``: the cards it holds of the same background and
    character (majority kinds keep options open), plus a premium on wildcards."""
    v = 0.0
    b = card_bg[card]
    c = card_ch[card]
    if b >= 0:
        v += params[P_BG_WEIGHT] * cnt_bg[seat, b]
    if c >= 0:
        v += params[P_CH_WEIGHT] * cnt_ch[seat, c]
    if card_wild[card]:
        v += params[P_WILD_HOLD]
    return v


@njit(cache=True)
def choose_card(sid, params, state, step, hand, n, seat, lead, top_mask, card_mask, card_bg, card_ch, card_wild,
                card_effect, cnt_bg, cnt_ch, hand_n, players, direction):
    """The hand slot to play: any slot when ``lead``, else a slot whose card is playable."""
    if sid == SCRIPTED:
        return int(params[step])
    if sid == RANDOM:
        if lead:
            return randint(state, n)
        k = 0
        for j in range(n):
            if playable(hand[seat, j], top_mask, card_mask):
                k += 1
        pick = randint(state, k)
        for j in range(n):
            if playable(hand[seat, j], top_mask, card_mask):
                if pick == 0:
                    return j
                pick -= 1
        return -1

    # flexible and blocker: play the card it would least like to keep.
    nxt = (seat + direction) % players
    prv = (seat - direction) % players
    danger = sid == BLOCKER and hand_n[nxt] <= params[P_DANGER]
    best = 1e300
    best_j = -1
    for j in range(n):
        card = hand[seat, j]
        if not lead and not playable(card, top_mask, card_mask):
            continue
        v = _keep_value(sid, params, card, seat, card_bg, card_ch, card_wild, cnt_bg, cnt_ch)
        if sid == BLOCKER:
            effect = card_effect[card]
            if danger:
                # Against a player about to go out: Dr. Evil makes him draw; a reversal passes the
                # turn away from him, unless the player behind is as close to going out.
                if effect == EFFECT_DRAW:
                    v -= 1e6
                elif effect == EFFECT_REVERSE and hand_n[prv] > params[P_DANGER]:
                    v -= 1e5
            elif effect != EFFECT_NONE:
                v += params[P_WEAPON_HOLD]
        if v < best:
            best = v
            best_j = j
    return best_j


@njit(cache=True)
def name_background(sid, params, state, step, seat, n_bg, cnt_bg):
    """The background a played wildcard stands for."""
    if sid == SCRIPTED:
        return int(params[step])
    if sid == RANDOM:
        return randint(state, n_bg)
    best = 0
    for b in range(1, n_bg):
        if cnt_bg[seat, b] > cnt_bg[seat, best]:
            best = b
    return best


@njit(cache=True)
def name_character(sid, params, state, step, seat, n_ch, cnt_ch):
    """The character a played wildcard stands for."""
    if sid == SCRIPTED:
        return int(params[step])
    if sid == RANDOM:
        return randint(state, n_ch)
    best = 0
    for c in range(1, n_ch):
        if cnt_ch[seat, c] > cnt_ch[seat, best]:
            best = c
    return best
