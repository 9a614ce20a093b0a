"""Scripted deals for captain-action's tests: cards named by printed number (0: a Captain Action
wildcard), and a deck order that deals chosen hands, Countdown Deck (top first) and face-up card."""

import numpy as np

from simbalance.core.config import load_config
from simbalance.games.captain_action.deck import game_deck

CFG = load_config("captain-action")
DECK = game_deck(CFG)
WILDS = [c for c in range(DECK.size) if DECK.number[c] == 0]
ID = {int(DECK.number[c]): c for c in range(DECK.size) if DECK.number[c] > 0}

HAND_A = [1, 2, 3, 5, 6, 7, 9, 10]  # CA set 12, AB set 24, periwinkle 4+8+4, crimson 4+8+4: 68
HAND_B = [33, 34, 35, 25, 26, 27, 41, 42]  # Lady set 12; the rest is Dr. Evil, in no set: 12
HAND_C = [17, 18, 19, 21, 22, 23, 33, 34]  # the same shape as HAND_A: 68
COUNTDOWN = [37, 38, 39, 40, 45, 46, 47, 48, 29, 30]
FACE_UP = 44


def ids(numbers, wilds):
    out = []
    for n in numbers:
        out.append(wilds.pop() if n == 0 else ID[n])
    return out


def order_for(hands, countdown, face_up):
    """The deck order that deals ``hands`` (card k to seat k % P), then ``countdown``, then
    ``face_up``; the unused rest follows."""
    wilds = list(WILDS)
    players = len(hands)
    hand_ids = [ids(h, wilds) for h in hands]
    order = [hand_ids[k % players][k // players] for k in range(players * len(hands[0]))]
    order += ids(countdown, wilds) + ids([face_up], wilds)
    order += [c for c in range(DECK.size) if c not in order]
    assert sorted(order) == list(range(DECK.size))
    return np.array(order, dtype=np.int64)
