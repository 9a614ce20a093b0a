"""Where everything of find-dr-evil lives: the rule settings, the event kinds, the strategy ids and
the game's state (docs/rules/find-dr-evil.md).

The game reads two tuples (both built once per block of games, never per game):

- ``ctx``, the run's read-only arrays and settings, in this order: ``card_pose`` (per card id its
  pose; Dr. Ling has a pose of his own, so he never pairs), ``ling`` (his card id), ``n_pose_ids``
  (poses + 1), ``players``, ``rules`` (indexed by the ``rules`` constants below) and ``validate``.
- ``state``, one game's whole state, in this order:

  - ``rng`` (uint64[1]): the game's random stream;
  - ``deck`` (int64[cards]): the shuffled deck, in the order it was dealt;
  - ``hand`` (int64[players, cards]): seat ``s`` holds ``hand[s, :count[s]]``, in no meaningful
    order (a card taken out is replaced by the hand's last card);
  - ``count`` (int64[players]): how many cards each seat holds;
  - ``slot`` (int64[players, n_pose_ids]): the slot in ``hand[s]`` of seat ``s``'s card of each
    pose, or -1. After the opening discards a seat holds each pose at most once, so "does this card
    pair?" is one lookup and a blind pick is one index;
  - ``info`` (int64[INFO_SIZE]): where the game stands, at the offsets below, and the whole-game
    metrics' tracker (core/whole_game.py) at ``TRACK``;
  - ``dealt`` (uint64[players]): bit ``c`` set when card ``c`` was dealt to the seat (the record).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import MAX_SEATS
from simbalance.core.whole_game import PROGRESS_SIZE

# ---- the rules array (engine.prepare builds it from the [rules] table) ----------------------
PICK_CAP = 0  # picks before a game ends as a timeout
FIRST_CARD_TO = 1  # the seat that gets the first card of the deal (default 1: the dealer's left)
REPEAT_AFTER_PAIR = 2  # 1: a pair lets the picker pick again from the same offerer
REPEAT_MIN_HOLDERS = 3  # ... but only while at least this many players hold cards
STALEMATE_WINDOW = 4  # picks without a pair after which a game is a stalemate (0: never)
# Seat compensation (docs/rules/find-dr-evil.md, "Seat compensation"): the deal, made in prepare
DEAL_GIVEN = 5  # 1: card k of the deal goes to seat rules[DEAL_SEAT + k]; 0: the printed deal, (k + first) % P
DEAL_SEAT = 6
MAX_DEAL = 64  # cards in a deal (the dealt masks are 64-bit)
N_RULES = DEAL_SEAT + MAX_DEAL

# ---- strategy ids (engine.STRATEGIES) --------------------------------------------------------
RANDOM = 0  # the only strategy: a pick is blind, so there is nothing else to play

# ---- the replay's events: one row (kind, a, b, c) each (core/event_log.log_event) ----------------
EV_DEAL = 0  # seat a is dealt card b
EV_PAIR = 1  # seat a discards the pair b + c
EV_PICK = 2  # seat a picks card c from seat b
EV_WIN = 3  # seat a holds Dr. Ling, the last card: wins
EV_TIMEOUT = 4  # the pick cap is reached
EV_INVALID = 5  # validation: a broken invariant ends the game (a bug)
EV_STALEMATE = 6  # no pair was made in rules.stalemate_window picks

# ---- stalemate reasons (the record's stalemate_reason; engine.STALEMATE_REASONS names them) -------
R_NO_PAIR = 1  # no pair in the window: the same cards pass round and round

# ---- the state tuple: where each part sits (the order of the module docstring) ----------------
S_RNG, S_DECK, S_HAND, S_COUNT, S_SLOT, S_INFO, S_DEALT = range(7)

# ---- info: where the game stands ---------------------------------------------------------
RUNNING = -1  # info[END] while the game goes on (else END_WIN, END_TIMEOUT or END_INVALID)
TO_MOVE = 0  # the seat whose pick is pending (the picker); -1 once the game is over
OFFERER = 1  # the seat whose hand the picker picks from
IN_PLAY = 2  # cards still held (Dr. Ling included)
HOLDERS = 3  # seats still holding cards
PICKS = 4  # picks so far: the record's length
END = 5  # RUNNING, or how the game ended
WINNER = 6  # the seat left holding Dr. Ling; -1 unless the game was won
LING_DEALT = 7  # the seat dealt Dr. Ling
KEPT = 8  # KEPT + s: the cards seat s kept after the opening discards
TRACK = KEPT + MAX_SEATS  # the whole-game metrics' block (core/whole_game.py): info[TRACK:TRACK + PROGRESS_SIZE]
INFO_SIZE = TRACK + PROGRESS_SIZE


@njit(cache=True, inline="always")
def new_state(ctx):
    """A blank state for the run's deck and table (see the module docstring for its parts)."""
    card_pose, _, n_pose_ids, players, _, _ = ctx
    n_cards = card_pose.shape[0]
    return (np.zeros(1, np.uint64), np.zeros(n_cards, np.int64), np.zeros((players, n_cards), np.int64),
            np.zeros(players, np.int64), np.full((players, n_pose_ids), -1, np.int64),
            np.zeros(INFO_SIZE, np.int64), np.zeros(players, np.uint64))


@njit(cache=True)
def clone(state):
    """An independent copy of a state, its random stream included."""
    rng, deck, hand, count, slot, info, dealt = state
    return rng.copy(), deck.copy(), hand.copy(), count.copy(), slot.copy(), info.copy(), dealt.copy()
