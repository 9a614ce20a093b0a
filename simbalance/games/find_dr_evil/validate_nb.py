"""The invariants ``--validate`` checks after every pick (a broken one ends the game as invalid)."""

from __future__ import annotations

from numba import njit

from simbalance.games.find_dr_evil.state_nb import IN_PLAY

HANDS_OK = 0
POSE_HELD_TWICE = 1  # a seat's card is not where its pose's slot points: the seat holds the pose twice
CARDS_LOST = 2  # the hands do not hold the cards still in play


@njit(cache=True)
def check_hands(hand, count, slot, card_pose, players, in_play):
    """Validation: the hands hold ``in_play`` cards and no seat holds a pose twice (after the
    opening discards a seat holds each pose at most once). Returns HANDS_OK or what is broken."""
    total = 0
    for s in range(players):
        total += count[s]
        for j in range(count[s]):
            if slot[s, card_pose[hand[s, j]]] != j:
                return POSE_HELD_TWICE
    return HANDS_OK if total == in_play else CARDS_LOST


@njit(cache=True)
def check(ctx, state):
    """The engine's own validation of a state (the resumable ``check``): 0 when every invariant holds."""
    card_pose, _, _, players, _, _ = ctx
    _, _, hand, count, slot, info, _ = state
    return check_hands(hand, count, slot, card_pose, players, info[IN_PLAY])
