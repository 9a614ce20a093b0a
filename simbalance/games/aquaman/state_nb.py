"""The state of one aquaman game, the one home of its layout and constants, and the card moves
every rule is made of.

A game is two named tuples of arrays:

- ``Game`` (read-only, from ``engine.prepare``; the ``ctx`` of ``Resumable``): ``rules`` (the config as integers, then each
  seat's corner and each suit's power; indices ``R_*`` below), ``card`` (suit and rank of every
  card id), ``move_to[cell, distance, direction]`` (where a straight leg ends, -1 where it cannot
  go), ``adj[cell, :]`` (adjacent squares, -1 padded) and ``validate`` (check the invariants after
  every turn).
- ``State`` (rewritten every game, allocated once per block): ``cards`` (deck, discard pile,
  scratch list, board and one hand per seat, as rows ``K_*``), ``seat`` (per seat: pawn, hand size,
  missions, statistics, suit counts, columns ``V_*``/``ST_*``), ``ctr`` (counters, dice, and where
  the game stands: the next rule step, the pending decision and what the turn remembers),
  ``scratch`` (candidate and reachable-square lists), ``fbuf`` (float tables) and ``rng``.

Why so few arrays: numba updates a reference count for every array inside a tuple each time the
tuple crosses a function boundary it cannot simplify away, and a turn crosses many. With six state
arrays and four game arrays instead of twenty-six the engine ran about 1.7 times as fast; binding
arrays to locals in hot loops (strategies_nb) did the rest.

Card ids run ``0 .. n_cards-1``; the deck's top card is ``cards[K_DECK, ctr[C_DECK] - 1]``, the
discard pile's top card ``cards[K_DISC, ctr[C_DISC] - 1]``; an empty square holds -1.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simbalance.core.event_log import log_event
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import shuffle
from simbalance.core.whole_game import PROGRESS_SIZE

# The eight powers a suit can carry (config ``deck.powers``); NO_POWER for a suit without one.
AQUAMAN, COMPANION, SEA_CREATURE, PLOT, FOE, POWER, STRANGENESS, LOCATION = range(8)
NO_POWER = 8
POWER_NAMES = ("aquaman", "companion", "sea_creature", "plot", "foe", "power", "strangeness", "location")
N_POWERS = 8

# rules[...]: the resolved config as integers. After the N_RULES scalars come the corner square of
# each seat (R_CORNER + seat, 4 slots), the cards each seat is dealt (R_START_SEAT + seat, 4 slots:
# rules.start_hand plus its seat compensation, docs/rules/aquaman.md "Seat compensation"), each
# seat's hand limit (R_LIMIT_SEAT + seat, likewise) and the power of each suit (R_SUIT_POWER + suit).
(R_ROWS, R_COLS, R_PLAYERS, R_RANKS, R_NSUITS, R_NDICE, R_FACES, R_START_HAND, R_HAND_LIMIT,
 R_POWER_MIN, R_MISSIONS_TO_WIN, R_MISSION_SUITS, R_MISSIONS_PER_TURN, R_TURN_CAP, R_AQUAMAN_DRAW,
 R_COMPANION_LOOK, R_TIES_REPEAT, R_CANNOT_REVEAL, R_DISCARD_AFTER, R_RESHUFFLE, R_TURN_LEGS, R_WINDOW,
 N_RULES) = range(23)
R_CORNER = N_RULES
R_START_SEAT = N_RULES + 4
R_LIMIT_SEAT = N_RULES + 8  # each seat's hand limit (rules.hand_limit plus its seat compensation), 4 slots
R_SUIT_POWER = N_RULES + 12

# rules[R_CANNOT_REVEAL]: when a fighter has no card to reveal (config rules.cannot_reveal, whose
# names CANNOT_REVEAL_NAMES are in this order): the fight ends before the reveal (nobody reveals,
# nobody wins), he loses, or nobody wins (the other's revealed card is still spent).
REVEAL_ENDS, REVEAL_LOSES, REVEAL_DRAWS = range(3)
CANNOT_REVEAL_NAMES = ("ends", "loses", "draws")

# card[...]: row CARD_SUIT and row CARD_RANK give each card id's suit and rank.
CARD_SUIT, CARD_RANK = 0, 1

# The game state is packed into few arrays: every array handed to a jitted function costs a
# reference-count update, and a turn makes many such calls (see the docstring).
#
# cards[row, :]: card piles, each a list of card ids. The hand of seat s is row K_HAND + s.
# The board is row K_BOARD (one entry per square, -1 empty). Row K_KNOWN is indexed by card id,
# not a pile: bit s set when seat s knows where that card is while it sits in a hand or in the deck
# (KNOWN_ALL: everyone saw it taken face up). The rules never read it; the search players'
# determinization (search_nb) keeps such cards where the searching seat knows them to be.
K_DECK, K_DISC, K_BUF, K_BOARD, K_KNOWN, K_HAND = range(6)
KNOWN_ALL = -1

# seat[s, ...]: per-seat numbers: pawn square, hand size, missions, statistics (ST_*), then the
# count of cards of each suit in hand (V_SUIT + suit).
V_POS, V_HAND_N, V_MISSIONS = range(3)
ST_FIGHTS, ST_WON, ST_STOLEN, ST_TAKEN, ST_FOE_HITS, ST_USE = range(3, 9)  # ST_USE + power
V_SUIT = ST_USE + 8

# ctr[...]: the game's counters, then the dice rolled (C_DICE + k), a dice order (C_ORDER + k) and
# the reachable-square counts per set of dice used (C_REACH_N + mask).
MAX_DICE = 3
C_DECK, C_DISC, C_TURN, C_REFILLS, C_STAMP = range(5)
C_DICE = 5
C_ORDER = C_DICE + MAX_DICE
C_REACH_N = C_ORDER + MAX_DICE
# Where the game stands (play_nb): the next rule step (C_STEP, STEP_*), the pending decision
# (C_DECISION, D_*, -1 while the rules run) and the seat that decides it (C_TO_MOVE, -1 once the game
# is over), whose turn it is (C_MOVER) and, once over, the result (C_RESULT: the winner, RESULT_TIMEOUT
# or RESULT_INVALID).
C_STEP = C_REACH_N + (1 << MAX_DICE)
C_DECISION, C_TO_MOVE, C_MOVER, C_RESULT = range(C_STEP + 1, C_STEP + 5)
# What a turn's later steps remember of its earlier ones: the power phase's card (C_ACT_CARD while
# it waits for the discard pile, -1 otherwise; C_ACT_RANK its rank), the Plot square (C_PLOT, -1:
# roll), Power's next hand slot to judge and cards swapped (C_SLOT, C_SWAPS), Companion's cards seen
# (C_SEEN, in cards[K_BUF]); a fight's two sides, rounds revealed, the first side's card this round
# and the winner (C_FIGHT_A .. C_WINNER); missions played this turn, mission suits or cards picked so
# far and the suit whose card is picked next (C_MISSION_ROUND, C_PICKED, C_SUIT).
(C_ACT_CARD, C_ACT_RANK, C_PLOT, C_SLOT, C_SWAPS, C_SEEN, C_FIGHT_A, C_FIGHT_B, C_REVEALS, C_REVEAL_A,
 C_WINNER, C_MISSION_ROUND, C_PICKED, C_SUIT, C_PROGRESS) = range(C_STEP + 5, C_STEP + 20)
# The whole-game metrics (core/whole_game.py): each seat's progress at the last checkpoint
# (C_PROGRESS + s, MAX_SEATS slots), its best so far (C_BEST + s: loop detection) and the tracker's
# block (C_TRACK).
C_BEST = C_PROGRESS + MAX_SEATS
C_TRACK = C_BEST + MAX_SEATS
N_CTR = C_TRACK + PROGRESS_SIZE

# The rule steps of a turn, in order (play_nb.run_step runs the one in C_STEP; docs/rules/aquaman.md).
(STEP_TURN, STEP_ACTIVATED, STEP_POWER_SWAPS, STEP_SWIM, STEP_LAND, STEP_REVEAL, STEP_REVEAL_B,
 STEP_FIGHT_END, STEP_MISSION, STEP_MISSION_CARDS, STEP_REST, STEP_END_TURN, STEP_OVER) = range(13)

# The decisions (docs/rules/aquaman.md, "Decisions"; the option codes are listed there):
# the power phase's card (or none), Companion's kept card, Plot's square, Foe's opponent, Power's
# swap of one card (keep 0 / swap 1), Strangeness's square, the swim's end square, the opponent to
# fight, the card to reveal, the card to steal, a mission now (no 0 / yes 1), the mission's next
# suit, the mission's card of a suit, the card discarded down to the hand limit.
(D_POWER, D_COMPANION, D_PLOT, D_FOE, D_SWAP, D_STRANGE, D_SWIM, D_OPPONENT, D_REVEAL, D_STEAL, D_MISSION,
 D_MISSION_SUIT, D_MISSION_CARD, D_REST, N_DECISIONS) = range(15)
NO_DECISION = -1

# C_RESULT of a game without a winner
RESULT_TIMEOUT = -1
RESULT_INVALID = -2
RESULT_STALEMATE = -3  # loop detection: rules.stalemate_window turns without progress

# Stalemate reasons (the record's stalemate_reason; engine.STALEMATE_REASONS names them).
R_NO_MISSION = 1  # no mission completed and no seat closer to one than any had been

# scratch[row, :]: a candidate list (X_CAND), then per set of dice used the list of reachable
# squares (X_REACH + mask) and their "seen" stamps (X_STAMP + mask), the suits a mission has
# picked (X_SUITS: 1 = picked) and the validation's count of every card (X_SEEN).
X_CAND = 0
X_REACH = 1
X_STAMP = 1 + (1 << MAX_DICE)
X_SUITS = 1 + 2 * (1 << MAX_DICE)
X_SEEN = X_SUITS + 1
N_SCRATCH = X_SEEN + 1

# Strategy ids (engine.STRATEGIES) and the parameter layout shared by the two heuristics
# (configs/aquaman.toml lists them in this order).
S_RANDOM, S_RUNNER, S_RAIDER = 0, 1, 2
(P_NEED, P_SPARE, P_RANK, P_FIGHT, P_EDGE, P_DENY, P_POWER_BAR, P_FOE, P_FIGHT_CARD,
 P_SWIM_REACH, N_HEURISTIC_PARAMS) = range(11)
HEURISTIC_PARAM_NAMES = ("need", "spare", "rank", "fight", "edge", "deny", "power_bar", "foe", "fight_card",
                         "swim_reach")

# Directions of a leg: up, down, left, right (row -1, row +1, col -1, col +1).
DIR_DROW = (-1, 1, 0, 0)
DIR_DCOL = (0, 0, -1, 1)

# The replay's event log (replay.py; written with log_step below): rows of (EV_*, a, b, c, d, deck
# refills so far). EV_STALEMATE: loop detection ends the game, reason a (R_*) after b turns
# without progress. The kernel passes None for the log: numba then compiles the game without any
# trace of the logging.
(EV_BOARD, EV_DEAL, EV_TURN, EV_ACTIVATE, EV_DRAW, EV_SEE, EV_KEEP, EV_DISC, EV_SEA, EV_PLOT, EV_FOE,
 EV_STRANGE, EV_LOCATION, EV_ROLL, EV_LEG, EV_SWIM, EV_TAKE, EV_EMPTY, EV_FIGHT, EV_REVEAL, EV_FIGHT_END,
 EV_STEAL, EV_MISSION, EV_WIN, EV_TIMEOUT, EV_INVALID, EV_MOVE, EV_NO_REVEAL, EV_STALEMATE) = range(29)
N_EV_COLS = 6
# why a card was discarded (EV_DISC c)
WHY_ACTIVATED, WHY_COMPANION, WHY_POWER, WHY_FOE, WHY_MISSION, WHY_REST = range(6)

Game = namedtuple("Game", ["rules", "card", "move_to", "adj", "validate"])
State = namedtuple("State", ["cards", "seat", "ctr", "scratch", "fbuf", "rng"])


@njit(cache=True)
def new_state(G):
    """The state of one game, allocated once per block of games (``setup_game`` resets every entry)."""
    rules = G.rules
    n_cards = G.card.shape[1]
    players = rules[R_PLAYERS]
    cells = rules[R_ROWS] * rules[R_COLS]
    width = max(cells, n_cards)
    return State(
        np.full((K_HAND + players, width), -1, np.int16),
        np.zeros((players, V_SUIT + rules[R_NSUITS]), np.int32),
        np.zeros(N_CTR, np.int64),
        np.zeros((N_SCRATCH, max(3 * cells, n_cards)), np.int32),
        np.zeros((2, rules[R_RANKS] + 2), np.float64),
        np.zeros(1, np.uint64),
    )


@njit(cache=True)
def clone(S):
    """An independent copy of a game's state, the random stream included: played on with the same
    decisions it gives the same game."""
    return State(S.cards.copy(), S.seat.copy(), S.ctr.copy(), S.scratch.copy(), S.fbuf.copy(), S.rng.copy())


@njit(cache=True)
def refill_deck(G, S):
    """An empty deck is refilled by shuffling the discard pile (unless rules.reshuffle is off)."""
    n = S.ctr[C_DISC]
    if G.rules[R_RESHUFFLE] != 0 and n > 0:
        for i in range(n):
            S.cards[K_DECK, i] = S.cards[K_DISC, i]
        S.ctr[C_DISC] = 0
        S.ctr[C_DECK] = n
        S.ctr[C_REFILLS] += 1
        shuffle(S.rng, S.cards[K_DECK], n)
        for i in range(n):  # shuffled face down: nobody knows where they are now
            S.cards[K_KNOWN, S.cards[K_DECK, i]] = 0


@njit(cache=True, inline="always")
def draw(G, S):
    """The deck's top card, or -1 when deck and discard pile are both empty."""
    if S.ctr[C_DECK] == 0:
        refill_deck(G, S)
        if S.ctr[C_DECK] == 0:
            return -1
    S.ctr[C_DECK] -= 1
    return np.int64(S.cards[K_DECK, S.ctr[C_DECK]])


@njit(cache=True, inline="always")
def discard(cards, ctr, c):
    """Put card ``c`` on the discard pile (``cards = S.cards``, ``ctr = S.ctr``)."""
    cards[K_DISC, ctr[C_DISC]] = c
    ctr[C_DISC] += 1


@njit(cache=True, inline="always")
def add_card(card, cards, seatv, seat, c):
    """Put card ``c`` into ``seat``'s hand. (Hot helpers take plain arrays: ``card = G.card``,
    ``cards = S.cards``, ``seatv = S.seat``; reading them from the tuples inside a loop makes numba
    update reference counts on every pass.)"""
    n = seatv[seat, V_HAND_N]
    cards[K_HAND + seat, n] = c
    seatv[seat, V_HAND_N] = n + 1
    seatv[seat, V_SUIT + card[CARD_SUIT, c]] += 1


@njit(cache=True, inline="always")
def remove_at(card, cards, seatv, seat, i):
    """Take the card in hand slot ``i`` out of ``seat``'s hand (the last card fills the gap)."""
    row = K_HAND + seat
    c = np.int64(cards[row, i])
    last = seatv[seat, V_HAND_N] - 1
    cards[row, i] = cards[row, last]
    seatv[seat, V_HAND_N] = last
    seatv[seat, V_SUIT + card[CARD_SUIT, c]] -= 1
    return c


@njit(cache=True, inline="always")
def draw_to_hand(G, S, seat):
    """Draw one card into ``seat``'s hand; returns it (-1 when deck and discard are empty)."""
    c = draw(G, S)
    if c >= 0:
        add_card(G.card, S.cards, S.seat, seat, c)
    return c


@njit(cache=True, inline="always")
def pawns_at(seatv, cell, players, seat):
    """How many pawns other than ``seat``'s stand on ``cell`` (seat -1: all pawns)."""
    n = 0
    for s in range(players):
        if s != seat and seatv[s, V_POS] == cell:
            n += 1
    return n


@njit(cache=True, inline="always")
def best_rank(card, cards, seatv, seat):
    best = 0
    for i in range(seatv[seat, V_HAND_N]):
        r = card[CARD_RANK, cards[K_HAND + seat, i]]
        if r > best:
            best = r
    return best


@njit(cache=True, inline="always")
def _push(scratch, ctr, mask, cell, stamp):
    if scratch[X_STAMP + mask, cell] != stamp:
        scratch[X_STAMP + mask, cell] = stamp
        scratch[X_REACH + mask, ctr[C_REACH_N + mask]] = cell
        ctr[C_REACH_N + mask] += 1


@njit(cache=True, inline="always")
def reachable(G, S, start):
    """Every square the rolled dice can end on from ``start``, in any order and directions.

    Layer by layer over the set of dice used so far (a bit mask): each die moves one leg in a legal
    direction, or is skipped when no direction is legal. With rules.legs = "turn" a leg must be at
    a right angle to the previous leg that moved, so the lists hold ``cell * 3 + axis`` (axis 0:
    free, 1: last leg vertical, 2: horizontal); with free legs the axis is always 0. Returns the
    count; the entries are ``S.scratch[X_REACH + full_mask, :count]`` (square = entry // 3).
    """
    scratch = S.scratch
    ctr = S.ctr
    move_to = G.move_to
    nd = G.rules[R_NDICE]
    turn = G.rules[R_TURN_LEGS] != 0
    full = (1 << nd) - 1
    ctr[C_STAMP] += 1  # a fresh stamp marks "seen" without clearing the tables
    stamp = ctr[C_STAMP]
    for m in range(full + 1):
        ctr[C_REACH_N + m] = 0
    _push(scratch, ctr, 0, start * 3, stamp)
    for mask in range(full):  # a mask is always processed after all its subsets
        for j in range(ctr[C_REACH_N + mask]):
            code = scratch[X_REACH + mask, j]
            cell = code // 3
            axis = code - 3 * cell
            for k in range(nd):
                bit = 1 << k
                if mask & bit:
                    continue
                d = ctr[C_DICE + k]
                moved = False
                for direction in range(4):
                    new_axis = 1 + (direction >> 1)  # directions 0, 1 are vertical; 2, 3 horizontal
                    if turn and new_axis == axis:
                        continue
                    dst = move_to[cell, d, direction]
                    if dst >= 0:
                        moved = True
                        _push(scratch, ctr, mask | bit, dst * 3 + (new_axis if turn else 0), stamp)
                if not moved:
                    _push(scratch, ctr, mask | bit, code, stamp)
    return ctr[C_REACH_N + full]


@njit(cache=True, inline="always")
def log_step(log, S, kind, a, b, c, d):
    """Append one event to the replay's log, ``log = (rows, count)`` (``core.event_log.log_event``),
    with the deck refills so far as its last column. Callers write ``if log is not None:`` first:
    the kernels pass None and numba compiles the logging away."""
    log_event(log[0], log[1], kind, a, b, c, d, S.ctr[C_REFILLS])
