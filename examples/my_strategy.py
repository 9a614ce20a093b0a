"""An example plug-in strategy for lady-actions-escape: play the highest-numbered playable card.

Run it (from the repository root) with

    simbalance run lady-actions-escape --strategies plugin,random,random,random --rotate \
        --strategy-file examples/my_strategy.py:choose

``plugin`` in --strategies seats this function; every other name seats a built-in strategy. The
function is called at every decision of its seats: which card to lead (any card of the hand) or to
play (one of the cards that match the top card). The engine documents the arguments in
``simbalance.games.lady_actions_escape.engine.USER_STRATEGY_DOC``; in short:

- ``hand``, ``playable``: the player's hand and the cards it may play, as 64-bit masks: bit ``c`` is
  set when card id ``c`` is in it (``(playable >> np.uint64(c)) & np.uint64(1)``);
- ``top_background``, ``top_character``: what the top card of the discard pile stands for (-1: none);
- ``hand_sizes``: cards held by each seat (do not change this array); ``seat``: the player's seat;
  ``direction``: 1 clockwise, -1 counter-clockwise (the next seat is ``(seat + direction) % P``);
- ``cards``: one row per card id: background, character (-1 for a wildcard), wild flag, effect
  (0 none, 1 reverses, 2 the others draw) and printed number (0 for a wildcard);
- ``state``: the game's random stream; ``simbalance.core.rng.randint(state, n)`` draws from it
  (never use np.random: games must be the same for the same seed).

It returns the id of the card to play, which must be one of the set bits of ``playable``. A played
wildcard is named by the built-in rule (the background and character the hand holds most of; equal
counts are broken at random). Choose among equally good cards at random too (``wins_tie``): a
player who keeps the first of equals is biased.
"""

import numpy as np
from numba import njit

from simbalance.core.rng import wins_tie

NUMBER = 4  # column of the printed number in ``cards``


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    """The playable card with the highest printed number; wildcards (number 0) only when nothing
    else fits, so they are kept for when they are needed."""
    best = -1
    best_number = -1
    ties = 0
    for card in range(cards.shape[0]):
        if (playable >> np.uint64(card)) & np.uint64(1):
            if cards[card, NUMBER] > best_number:
                best = card
                best_number = cards[card, NUMBER]
                ties = 1
            elif cards[card, NUMBER] == best_number:
                # equally good cards: each is kept with the same chance (never "the lowest id")
                ties += 1
                if wins_tie(state, ties):
                    best = card
    return best
