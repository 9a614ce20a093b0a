"""lady-actions-escape: the one home of the game's layouts, enums and constants.

A game in play is three arrays (``new_state``), everything the rules need to go on from any
decision (docs/architecture.md, "Resumable state"):

- ``rng`` uint64[1]: the game's random stream (simbalance.core.rng);
- ``masks`` uint64[2 * MAX_SEATS]: each seat's hand at ``HAND + s`` and its opening hand at
  ``DEALT + s``, as bit masks over card ids (bit c = card c; decks of at most 64 cards), so that
  "which cards may I play?" is one AND;
- ``st`` int64[ST_SIZE]: the table, at the offsets below: whose turn, the direction, what the top
  card stands for, the counters the record reports, each seat's hand size and counts, the
  whole-game metrics' tracker (core/whole_game.py) and both piles.

Why flat arrays: numba counts a reference for every array passed to a function that is not
inlined, which costs more than the work of a turn; three arrays cost three. The read-only arrays of
a run (``card_info``, ``match``, ``kind_cards``, ``game_rules``, from engine.prepare) travel with
the ``validate`` flag as the tuple ``ctx`` (play_nb.context).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.layout import Offsets
from simbalance.core.records import MAX_SEATS
from simbalance.core.whole_game import BATCH_SIZE
from simbalance.core.whole_game import PROGRESS_SIZE

MAX_CARDS = 64  # hands are 64-bit masks

# ---- game_rules (int64, built by engine.prepare) ------------------------------------------------
G_PLAYERS = 0
G_HAND = 1  # cards dealt to each player (5)
G_REVERSE = 2  # 1: a Lady Action reverses the direction of play
G_DRAW = 3  # cards every other player draws when a Dr. Evil is played (0: no effect)
G_TURN_CAP = 4  # turns (passes included) after which a game is a timeout
G_N_BG = 5  # backgrounds (kind_cards holds their masks first, then the characters')
G_LEADER = 6  # who leads the first card: LEADER_SEAT0, LEADER_ROTATE or LEADER_RANDOM
G_WINDOW = 7  # turns without progress after which a game is a stalemate (0: never; rules.stalemate_window)
# Seat compensation (docs/rules/lady-actions-escape.md, "Seat compensation"): the deal, made in prepare
G_DEALT = 8  # cards dealt in all (players x hand_size with no compensation)
G_DEAL_SEAT = 9  # the seat of card k of the deal: G_DEAL_SEAT + k (the printed deal: k % players)
N_GAME_RULES = G_DEAL_SEAT + MAX_CARDS

# rules.first_leader (engine.FIRST_LEADERS, in this order)
LEADER_SEAT0 = 0  # seat 0 leads every game
LEADER_ROTATE = 1  # game g's first leader is seat (g // L) % players, L = the run's lineups (1: g % players)
LEADER_RANDOM = 2  # uniform at random from the game's stream (one draw after the shuffle)

# ---- card_info (int64[n_cards, N_INFO], built by engine.prepare) --------------------------------
# Card attributes packed into one array on purpose: every array passed costs a reference count.
INFO_BG = 0  # background; -1: none
INFO_CH = 1  # character; -1: none (a wildcard until it is named)
INFO_WILD = 2  # 1: its player names a background and a character
INFO_EFFECT = 3  # EFFECT_*: what the printed card does
INFO_NUMBER = 4  # the printed number (0: a wildcard); read by plug-ins and replays only
N_INFO = 5

EFFECT_NONE = 0
EFFECT_REVERSE = 1  # Lady Action
EFFECT_DRAW = 2  # Dr. Evil (numbered, or Dr. Ling)

# ---- strategy ids (engine.STRATEGIES) and parameter positions -----------------------------------
RANDOM = 0
FLEXIBLE = 1  # also steer: the same rule with other weights
BLOCKER = 2
SCRIPTED = -2  # tests only: the parameter row lists the seat's decisions; -1 is core.plugins.USER_STRATEGY_ID

# Parameter positions (engine.STRATEGY_PARAMS: the order the code reads them).
P_BG_WEIGHT = 0  # weight of "cards I hold of this card's background"
P_CH_WEIGHT = 1  # weight of "cards I hold of this card's character"
P_WILD_HOLD = 2  # extra cost of playing a wildcard (keeps it for when nothing else fits)
P_DANGER = 3  # blocker: a player holding this many cards or fewer is about to go out
P_WEAPON_HOLD = 4  # blocker: extra cost of spending a Dr. Evil or Lady Action when nobody is in danger

# ---- masks (uint64) ----------------------------------------------------------------------------
HAND = 0  # the hand of seat s at HAND + s
DEALT = MAX_SEATS  # its opening hand at DEALT + s (the record's dealt_mask)
MASKS_SIZE = 2 * MAX_SEATS


# ---- st (int64): one game's table --------------------------------------------------------------
_a = Offsets()
PHASE = _a.take(1)  # PHASE_*: which decision is pending
SEAT = _a.take(1)  # whose turn it is (the seat to decide while a decision is pending)
DIRECTION = _a.take(1)  # 1 clockwise, -1 counter-clockwise
TOP = _a.take(1)  # what the discard pile's top card stands for: its index into match (top_index)
PENDING = _a.take(1)  # PHASE_NAME: the drawn wildcard its player must name (and play)
TURN = _a.take(1)  # turns begun so far, passes included (the record's length)
PASSES_IN_ROW = _a.take(1)  # consecutive passes: a full round of them is a stalemate
END = _a.take(1)  # once over: END_WIN, END_TIMEOUT, END_STALEMATE or END_INVALID
WINNER = _a.take(1)  # the seat that escaped; -1 otherwise
REVERSALS = _a.take(1)  # Lady Actions that reversed the direction
DRAW_EFFECTS = _a.take(1)  # Dr. Evils that made the others draw
WILDS = _a.take(1)  # wildcards played
PASSES = _a.take(1)  # turns in which a player could neither play nor draw
DRAW_N = _a.take(1)  # cards in the draw pile
DISC_N = _a.take(1)  # cards in the discard pile
RESHUFFLES = _a.take(1)  # times the discard pile became the draw pile
HAND_N = _a.take(MAX_SEATS)  # cards in each hand
STEPS = _a.take(MAX_SEATS)  # decisions each seat's strategy took (a scripted seat's next script entry)
PLAYS = _a.take(MAX_SEATS)  # cards each seat played
DRAWN = _a.take(MAX_SEATS)  # cards each seat drew (Dr. Evil's penalties included)
RESH_AT_ROUND = _a.take(1)  # RESHUFFLES at the end of the last round (a round without one is progress)
TRACK = _a.take(PROGRESS_SIZE)  # the whole-game metrics' tracker (core/whole_game.py)
DRAW = _a.take(MAX_CARDS)  # the draw pile, its top card at DRAW + st[DRAW_N] - 1
DISC = _a.take(MAX_CARDS)  # the discard pile, its top card at DISC + st[DISC_N] - 1
BATCH = _a.take(BATCH_SIZE)  # the tracker's last rounds, their metrics not yet worked out (core/whole_game.py)
ST_SIZE = _a.n

# What is pending (st[PHASE]).
PHASE_PLAY = 0  # the seat at SEAT plays one of its playable cards (any card when leading)
PHASE_NAME = 1  # the seat at SEAT drew the wildcard at PENDING, must play it and names what it stands for
PHASE_OVER = 2  # the game is over: nobody is to move

# ---- the replay's event log: one row per event, (kind, a, b, c) ---------------------------------
EV_DEAL = 0  # seat a is dealt card b
EV_TURN = 1  # turn a begins: seat b's turn
EV_PLAY = 2  # seat a plays card b (c = 1: leads it)
EV_DRAW = 3  # seat a draws card b (c = 0: cannot play; c = 1: Dr. Evil's penalty)
EV_NAME = 4  # seat a names the wildcard background b, character c
EV_REVERSE = 5  # the direction of play is now a (1 clockwise, -1 counter-clockwise)
EV_DRAW_EFFECT = 6  # seat a's Dr. Evil: every other player draws b cards
EV_RESHUFFLE = 7  # the discard pile but its top card (a cards) is shuffled into a new draw pile
EV_PASS = 8  # seat a can neither play nor draw: passes
EV_WIN = 9  # seat a has no cards left: wins
EV_STALEMATE = 10  # a stalemate for reason a (R_*) after b turns without progress
EV_TIMEOUT = 11  # the turn cap is reached
EV_INVALID = 12  # seat a broke a rule (card b: not playable) or (a = -1) an invariant broke
LOG_COLUMNS = 4

# ---- stalemate reasons (the record's stalemate_reason; engine.STALEMATE_REASONS names them) -----
R_NO_PLAY = 1  # rule 9: a full round in which every player passed
R_DR_EVIL_CHAIN = 2  # no progress, two thirds or more of the turns were Dr. Evils
R_EVIL_LADY_CYCLE = 3  # no progress, Dr. Evils and Lady Actions two thirds or more of the turns
R_RECYCLING = 4  # no progress for another cause: the discard pile reshuffled every round

ONE = np.uint64(1)


@njit(cache=True)
def new_state(ctx):
    """A blank game: (rng, masks, st). ``start`` (play_nb) deals into it."""
    st = np.zeros(ST_SIZE, np.int64)
    st[PHASE] = PHASE_OVER
    return np.zeros(1, np.uint64), np.zeros(MASKS_SIZE, np.uint64), st


@njit(cache=True)
def clone(state):
    """An independent copy of a game, its random stream included."""
    rng, masks, st = state
    return rng.copy(), masks.copy(), st.copy()


@njit(cache=True, inline="always")
def top_index(bg, ch, n_ch):
    """Index into ``match`` of a top card standing for background ``bg``, character ``ch`` (-1:
    none, e.g. a Captain Action 0 without wildcards has no background)."""
    return (bg + 1) * (n_ch + 1) + ch + 1


# ---- hands as bit masks ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def bit(card):
    return ONE << np.uint64(card)


@njit(cache=True, inline="always")
def has(mask, card):
    return (mask >> np.uint64(card)) & ONE != np.uint64(0)


@njit(cache=True, inline="always")
def nth_card(mask, r):
    """The card id of the ``r``-th set bit of ``mask`` (0 = lowest)."""
    for _ in range(r):
        mask &= mask - ONE
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def lowest_card(mask):
    return lowest_bit(mask)


@njit(cache=True, inline="always")
def option_code(card, bg, ch, n_cards, n_ch):
    """The option playing ``card`` (a wildcard: named background ``bg``, character ``ch``)."""
    return card if bg < 0 else card + n_cards * (1 + bg * n_ch + ch)
