"""captain-action's one home of layouts and constants, and the game state (docs/architecture.md,
"Resumable state").

The run's read-only arrays, ``ctx = (card_info, srules, game_rules, validate)`` (``engine.prepare``
builds the first three):

- ``card_info`` int64[n_cards, 3]: per card its background, character (or WILD / NO_SET) and points
  in a set (INFO_*);
- ``srules`` int64 vector: the scoring rules (RULE_*), then the points per card of each character,
  then the characters a wildcard may take;
- ``game_rules`` int64 vector: the turn rules (G_*);
- ``validate``: check the invariants after every step (validate_nb).

One game's whole state, ``state = (rng, gv, order, hand, pile, cnt, scratch)``:

- ``rng`` uint64[1]: the game's random stream (core/rng);
- ``gv`` int64 vector: where the game stands (V_*: whose turn, which decision is pending, the
  Countdown Deck's position, the discard pile's size, who called, the scores at the end ...) and
  the whole-game metrics' tracker (core/whole_game.py) at ``TRACK``;
- ``order`` int64[n_cards]: the shuffled deck; the Countdown Deck is ``order[cd_pos:cd_end]``, top
  first;
- ``hand`` int64[players, hand_size + 1]: card ids; during a turn the drawn card is in slot
  ``hand_size``;
- ``pile`` int64[n_cards]: the discard pile, its top at ``pile[pile_n - 1]``;
- ``cnt``, ``scratch``: the scoring's work arrays (scoring_nb); they carry nothing between steps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import MAX_SEATS
from simbalance.core.whole_game import PROGRESS_SIZE

# ---- game_rules: the turn rules (engine.prepare) ------------------------------------------------
G_PLAYERS = 0
G_HAND = 1  # cards per hand (8)
G_COUNTDOWN = 2  # cards in the Countdown Deck (10)
G_TAKE_BACK = 3  # 1: a card taken from the discard pile may be discarded in the same turn
G_CALL_BEFORE = 4  # 1: call at the start of one's turn (before drawing) instead of after discarding
G_PENALTY = 5  # points lost when the Countdown Deck runs out (0: none)
G_PENALTY_ALL = 6  # 1: every player loses them; 0: only the player who drew the last Countdown card
G_TURN_CAP = 7  # a game still running after this many turns is a timeout
G_WINDOW = 8  # turns without a Countdown card drawn after which a game is a stalemate (0: never)
G_COMP_PTS = 9  # seat compensation (docs/rules/captain-action.md, "Seat compensation"): points added to
                # seat s's total at the attack, G_COMP_PTS + s (before the winner is decided)
N_GAME_RULES = G_COMP_PTS + MAX_SEATS

# ---- card_info columns: one row per card -------------------------------------------------------
INFO_BG = 0  # background index; -1: none
INFO_CH = 1  # character index; WILD or NO_SET
INFO_VAL = 2  # points in a set
WILD = -1
NO_SET = -2

# ---- srules: the scoring rules (engine.scoring_arrays) ------------------------------------------
RULE_SET_SIZE = 0  # cards needed for a set (3)
RULE_MIN_NATURAL = 1  # natural cards of its own kind a set needs (2)
RULE_MAX_WILD = 2  # wildcards allowed in one set (a large number: unlimited)
RULE_POINTS = 3  # points per card in a set (4)
RULE_AB_POINTS = 4  # points per Action Boy in a set (8)
RULE_AB_CHAR = 5  # character index of Action Boy (-1: the deck has none)
RULE_N_BG = 6  # backgrounds
RULE_N_CH = 7  # characters
RULE_N_WILD_CH = 8  # characters a wild may take (those that can be in a set)
RULE_CH_VAL = 9  # srules[RULE_CH_VAL + c]: points per card of character c; then the wild characters

# ---- rows of cnt: a hand as counts (scoring_nb) -------------------------------------------------
BG_N = 0  # natural cards of background b that can be in a set
BG_V = 1  # ... and their points together
CH_N = 2  # natural cards of character c

# ---- strategies: ids (engine.STRATEGIES) and parameter positions (engine.STRATEGY_PARAMS) --------
RANDOM = 0
BUILDER = 1
BOLD = 2
COLLECTOR = 3
SCRIPTED = -1  # tests only: plays the code in its parameter row for the seat's turn (SCRIPT_*)

P_RANDOM_CALL = 0  # random: chance of calling at each call decision
P_TAKE_GAIN = 0  # builder/bold/collector: take the discard if it raises the hand's value by this much
P_PAIR_WEIGHT = 1  # builder/bold/collector: value of one kind held one card short of a set
P_CALL_SCORE = 2  # builder/bold/collector: call when score + bonus reaches this ...
P_CALL_SLOPE = 3  # builder/collector: ... plus this much per card already drawn from the Countdown Deck
P_MIN_TURNS = 4  # collector: never calls before its own turn number min_turns (its first turn is 1)

# Scripted codes, one per turn of the seat (all decisions of that turn read it): source (0 countdown,
# 1 discard pile) + 2 * discard slot + 100 * call.
SCRIPT_SLOT = 2
SCRIPT_CALL = 100

# ---- decisions: the pending one (gv[V_PHASE]) and its option codes (docs/rules, "Decisions") -----
PH_CALL_BEFORE = 0  # call before drawing? (only with rules.call_timing = "before_draw")
PH_SOURCE = 1  # draw from the Countdown Deck or take the discard pile's top card?
PH_DISCARD = 2  # which card to discard: the option is the hand slot (hand_size: the card just drawn)
PH_CALL_AFTER = 3  # call after discarding? (the default timing)
PH_OVER = 4  # the game is over: no decision pending

PLAY_ON = 0  # PH_CALL_*: do not call
CALL = 1  # PH_CALL_*: call "Let Justice Be Done!"
FROM_COUNTDOWN = 0  # PH_SOURCE: the top card of the Countdown Deck
FROM_PILE = 1  # PH_SOURCE: the top card of the discard pile

# ---- gv: where one game stands ------------------------------------------------------------------
V_PHASE = 0  # the pending decision (PH_*)
V_SEAT = 1  # the seat whose turn it is
V_TURNS = 2  # turns completed (a turn counts once its card is discarded): the record's length
V_STEP = 3  # the seat's own turn number (0: its first): collector's patience, scripted players' codes
V_CD_POS = 4  # the Countdown Deck is order[cd_pos:cd_end], top first
V_CD_END = 5
V_PILE_N = 6  # cards in the discard pile
V_FORBID = 7  # the hand slot that may not be discarded this turn (-1: none)
V_CALLER = 8  # the seat that called (-1: nobody)
V_BONUS = 9  # the caller's bonus: Countdown cards left at the call
V_LAST_DRAWER = 10  # the seat that drew the last Countdown card (-1: nobody)
V_END = 11  # how the game ended (core.records END_*)
V_WINNERS = 12  # bit s set when seat s has the best score (a finished, decided game)
V_TAKES = 13  # per seat: cards taken from the discard pile
V_HAND_SCORE = V_TAKES + MAX_SEATS  # per seat: the sets in the final hand
V_SCORE = V_HAND_SCORE + MAX_SEATS  # per seat: sets + bonus - penalty
V_PROGRESS = V_SCORE + MAX_SEATS  # per seat: the sets in the hand at the last round's end (whole-game metrics)
TRACK = V_PROGRESS + MAX_SEATS  # the whole-game metrics' tracker (core/whole_game.py)
V_KNOWN = TRACK + PROGRESS_SIZE  # per seat: bit c set when the table saw card c go into its hand (taken
#                                from the discard pile, not discarded since): what search players may not shuffle
N_GV = V_KNOWN + MAX_SEATS

# ---- the replay's event log: one row per event, (kind, a, b, c); kernels pass None --------------
EV_DEAL = 0  # seat a is dealt card b
EV_FACE_UP = 1  # card a starts the discard pile
EV_TURN = 2  # turn a begins: seat b's turn
EV_DRAW = 3  # seat a draws card b from the Countdown Deck, which then holds c cards
EV_TAKE = 4  # seat a takes card b from the discard pile
EV_DISCARD = 5  # seat a discards card b
EV_CALL = 6  # seat a calls "Let Justice Be Done!" with b cards left in the Countdown Deck
EV_COUNTDOWN_OUT = 7  # seat a drew the last Countdown card: the attack starts
EV_SCORE = 8  # seat a's hand scores b, its total is c
EV_TIMEOUT = 9  # the turn cap (a turns) is reached
EV_INVALID = 10  # seat a broke a rule (discard slot b) or the cards are not all accounted for (a = -1)
EV_STALEMATE = 11  # a stalemate for reason a (R_*): no Countdown card drawn in b turns

# ---- stalemate reasons (the record's stalemate_reason; engine.STALEMATE_REASONS names them) ------
R_DISCARD_LOOP = 1  # nobody draws from the Countdown Deck: every player takes the discard pile's top card


@njit(cache=True)
def new_state(ctx):
    """A blank game state for the run's rules (allocated once per block of games, not per game)."""
    card_info, srules, game_rules, _ = ctx
    n_cards = card_info.shape[0]
    n_bg = srules[RULE_N_BG]
    n_ch = srules[RULE_N_CH]
    rng = np.zeros(1, np.uint64)
    gv = np.zeros(N_GV, np.int64)
    gv[V_PHASE] = PH_OVER
    order = np.zeros(n_cards, np.int64)
    hand = np.zeros((game_rules[G_PLAYERS], game_rules[G_HAND] + 1), np.int64)
    pile = np.zeros(n_cards, np.int64)
    cnt = np.zeros((3, max(n_bg, n_ch)), np.int64)
    scratch = np.zeros(n_bg + n_ch + n_cards + 1, np.int64)  # best_score: B + K + wilds + 1
    return rng, gv, order, hand, pile, cnt, scratch


@njit(cache=True)
def clone(state):
    """An independent copy of a game state, its random stream included."""
    rng, gv, order, hand, pile, cnt, scratch = state
    return rng.copy(), gv.copy(), order.copy(), hand.copy(), pile.copy(), cnt.copy(), scratch.copy()
