"""lady-actions-escape decisions: one jitted function per decision point, branching on the id.

Decision points (docs/rules/lady-actions-escape.md, "Strategies"):
1. ``choose_card``: which card to lead (any card) or to play (one of the playable cards). A player
   who cannot play draws until a playable card comes and plays it: no decision there.
2. ``name_background`` then ``name_character``: what a played wildcard stands for.

Ids (engine.STRATEGIES): 0 random, 1 flexible (and steer: same rule, negative weights), 2 blocker.
``USER_STRATEGY_ID`` (-1, simbalance.core.user_strategy) is the user's ``--strategy-file`` function, called by
``strategy_move`` (at the end: a seat's whole decision, as play_nb and the search's ``policy`` ask for
it; it names wildcards with the heuristics' rule below). ``SCRIPTED`` (-2) is for tests only: its parameter row lists, per decision of its player, the card id to play (or,
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
from simbalance.core.rng import fair_best
from simbalance.core.rng import randint
from simbalance.core.user_strategy import USER_STRATEGY_ID
from simbalance.games.lady_actions_escape.rules_nb import next_seat
from simbalance.games.lady_actions_escape.rules_nb import playable
from simbalance.games.lady_actions_escape.state_nb import BLOCKER
from simbalance.games.lady_actions_escape.state_nb import DIRECTION
from simbalance.games.lady_actions_escape.state_nb import EFFECT_DRAW
from simbalance.games.lady_actions_escape.state_nb import EFFECT_NONE
from simbalance.games.lady_actions_escape.state_nb import EFFECT_REVERSE
from simbalance.games.lady_actions_escape.state_nb import G_N_BG
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import INFO_BG
from simbalance.games.lady_actions_escape.state_nb import INFO_CH
from simbalance.games.lady_actions_escape.state_nb import INFO_EFFECT
from simbalance.games.lady_actions_escape.state_nb import INFO_WILD
from simbalance.games.lady_actions_escape.state_nb import ONE
from simbalance.games.lady_actions_escape.state_nb import P_BG_WEIGHT
from simbalance.games.lady_actions_escape.state_nb import P_CH_WEIGHT
from simbalance.games.lady_actions_escape.state_nb import P_DANGER
from simbalance.games.lady_actions_escape.state_nb import P_WEAPON_HOLD
from simbalance.games.lady_actions_escape.state_nb import P_WILD_HOLD
from simbalance.games.lady_actions_escape.state_nb import PENDING
from simbalance.games.lady_actions_escape.state_nb import PHASE
from simbalance.games.lady_actions_escape.state_nb import PHASE_NAME
from simbalance.games.lady_actions_escape.state_nb import RANDOM
from simbalance.games.lady_actions_escape.state_nb import SCRIPTED
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import STEPS
from simbalance.games.lady_actions_escape.state_nb import TOP
from simbalance.games.lady_actions_escape.state_nb import bit
from simbalance.games.lady_actions_escape.state_nb import has
from simbalance.games.lady_actions_escape.state_nb import lowest_card
from simbalance.games.lady_actions_escape.state_nb import nth_card


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


@njit(cache=True, forceinline=True, _nrt=False)
def choose_card(sid, params, state, step, hand, options, k, card_info, kind_cards, n_bg, n_next, n_prev):
    """The card to play, one of the ``k`` cards in the mask ``options`` (the whole hand for the
    leader). ``n_next``/``n_prev``: cards held by the next player and by the one after a reversal.

    Inlined by LLVM (``forceinline``) into every turn that asks it: called, its arrays' fields were
    pushed at every decision of every play-out (an all-mcts@100 table 0.89 of the time with it
    inlined, BENCHMARKS.md "Issue 56: the search players")."""
    if sid == RANDOM:
        return nth_card(options, randint(state, k))
    if sid == SCRIPTED:
        return int(params[step])

    # flexible and blocker: play the card it would least like to keep (ties: uniform at random).
    danger = sid == BLOCKER and n_next <= params[P_DANGER]
    least_wanted = -1e300  # the highest -v: the card it least wants to keep
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
        take, least_wanted, ties = fair_best(state, -v, least_wanted, ties)
        if take:
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
        take, best_n, ties = fair_best(state, popcount(hand & kind_cards[first + x]), best_n, ties)
        if take:
            best = x
    return best


@njit(cache=True, _nrt=False)
def name_background(sid, params, state, step, hand, kind_cards, n_bg):
    """The background a played wildcard stands for (heuristics and plug-ins: the one they hold most of,
    ties uniform at random)."""
    if sid == RANDOM:
        return randint(state, n_bg)
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(state, hand, kind_cards, 0, n_bg)


@njit(cache=True, _nrt=False)
def name_character(sid, params, state, step, hand, kind_cards, n_bg):
    """The character a played wildcard stands for (heuristics and plug-ins: the one they hold most of,
    ties uniform at random)."""
    n_ch = kind_cards.shape[0] - n_bg
    if sid == RANDOM:
        return randint(state, n_ch)
    if sid == SCRIPTED:
        return int(params[step])
    return _most_held(state, hand, kind_cards, n_bg, n_ch)


# ---- a seat's decision, as the game asks for it --------------------------------------------------
@njit(cache=True)
def user_choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    """The decision of seats with strategy id USER_STRATEGY_ID (user_strategy.USER_STRATEGY_DOC). The normal kernel has no
    such seat; ``make_user_strategy_kernel`` puts the user's function under this name."""
    return -1


@njit(cache=True, inline="always")
def strategy_move(ctx, state, sid, params):
    """The pending decision, taken by the strategy ``sid`` with its parameters: (card, background,
    character, legal); background and character -1 for a card that is not wild. ``legal`` False: the
    strategy chose a card it may not play (the caller ends the game)."""
    card_info, kind_cards, game_rules = ctx[0], ctx[2], ctx[3]
    rng, masks, st = state
    seat = st[SEAT]
    hand = masks[HAND + seat]
    n_bg = game_rules[G_N_BG]
    n_ch = kind_cards.shape[0] - n_bg
    if st[PHASE] == PHASE_NAME:
        card = st[PENDING]  # drawn, and it must be played: only its naming is left to decide
    else:
        options = playable(ctx, state, seat)
        if sid == RANDOM:
            # choose_card's random branch, inline: a call passing this many arrays costs about as
            # much as the rest of the turn (numba counts references to every array argument).
            card = nth_card(options, randint(rng, popcount(options)))
        elif sid == USER_STRATEGY_ID:
            players = game_rules[G_PLAYERS]
            top = st[TOP]
            card = user_choose(hand, options, top // (n_ch + 1) - 1, top % (n_ch + 1) - 1,
                                 st[HAND_N:HAND_N + players], seat, st[DIRECTION], card_info, rng)
        else:
            players = game_rules[G_PLAYERS]
            direction = st[DIRECTION]
            card = choose_card(sid, params, rng, st[STEPS + seat], hand, options, popcount(options), card_info,
                               kind_cards, n_bg, st[HAND_N + next_seat(seat, direction, players)],
                               st[HAND_N + next_seat(seat, -direction, players)])
        st[STEPS + seat] += 1
        if card < 0 or card >= card_info.shape[0] or not has(options, card):
            return card, -1, -1, False
    if not card_info[card, INFO_WILD]:
        return card, -1, -1, True
    rest = hand & ~bit(card)  # what it names, it names for the hand it keeps
    bg = name_background(sid, params, rng, st[STEPS + seat], rest, kind_cards, n_bg)
    st[STEPS + seat] += 1
    ch = name_character(sid, params, rng, st[STEPS + seat], rest, kind_cards, n_bg)
    st[STEPS + seat] += 1
    return card, bg, ch, 0 <= bg < n_bg and 0 <= ch < n_ch
