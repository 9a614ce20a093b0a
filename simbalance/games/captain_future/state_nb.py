"""The one home of captain-future's layouts and enums: where everything lives in the kernel's flat
arrays, and every code the engine's parts share (stone places, attack categories, strategy ids and
parameter positions, the replay's event kinds, the invariants, the scratch layout of ``work``).

Why flat arrays: numba passes a namedtuple of arrays to a function that is not inlined as hundreds
of scalar arguments, which made every rule call cost ~300 ns. So the kernel keeps

- ``bd`` (int64): the board, the deck and the rule settings of the run (read-only);
- ``st`` (int64): one game's state (board, hands, piles, supplies, counters);
- ``fs`` (float64): scratch values of the heuristics;

each at fixed offsets below. Sizes are capped (checked in board.py): up to MP players, ML landing
spaces, MB bodies of up to MBS spaces, MR rows, MC columns, MN cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.layout import Offsets
from simbalance.core.lineup import MAX_PARAMS
from simbalance.core.whole_game import PROGRESS_SIZE

MP = 4  # players
ML = 128  # landing spaces (the held masks are two uint64 words)
MB = 16  # bodies
MBS = 32  # landing spaces per body
MR = 32  # rows
MC = 32  # columns
MK = MR + MC + MB + 1 + 4  # card kinds: rows, columns, bodies, joker, 4 events
MN = 1024  # cards in the deck


# ---- bd: board, deck, rules ---------------------------------------------------------------------
_a = Offsets()
NR = _a.take(1)  # rows
NC = _a.take(1)  # columns
NB = _a.take(1)  # bodies
NL = _a.take(1)  # landing spaces
NK = _a.take(1)  # card kinds in use (R + C + B + 5)
KJ = _a.take(1)  # the joker's kind; Simon Wright, Recall, Otto, GRAG are KJ + 1 .. KJ + 4
NCARDS = _a.take(1)  # cards in the deck
PLAYERS = _a.take(1)
SHIPS = _a.take(1)  # ships per player
HAND = _a.take(1)  # hand size
SLOTS = _a.take(1)  # action slots per turn
EVPT = _a.take(1)  # events per turn
COST_MAJ = _a.take(1)  # attack cost for the majority holder
COST_PRE = _a.take(1)  # ... for a player with a ship on the body
COST_ABS = _a.take(1)  # ... for a player without
FINAL_MAX = _a.take(1)  # largest attack cost allowed in the final round
RESHUFFLE = _a.take(1)  # 1: an empty stack is refilled from the discard pile
STONE_ANY = _a.take(1)  # 1: the stone starts on any row, column or body; 0: on a body
TURN_CAP = _a.take(1)
SHIP_PTS = _a.take(1)
MAJ_PTS = _a.take(1)
WINDOW = _a.take(1)  # turns without progress after which a game is a stalemate (rules.stalemate_window; 0: never)
TOP_BONUS = _a.take(1)  # the largest full-control points of any body
BD_ORDERED = _a.take(1)  # 1: no body's full control is worth less than a majority (the heuristics' bounds hold)
SP_ROW = _a.take(ML)  # per landing space: row, column, body
SP_COL = _a.take(ML)
SP_BODY = _a.take(ML)
SP_K = _a.take(ML * 4)  # per space, the 4 card kinds naming it: row, column, body, joker
BODY_SIZE = _a.take(MB)
BODY_BONUS = _a.take(MB)  # full-control points
BODY_SP = _a.take(MB * MBS)  # the spaces of body b: BODY_SP + b * MBS + j
KIND_N = _a.take(MK)  # spaces named by trajectory kind k
KIND_SP = _a.take(MK * ML)  # ... listed at KIND_SP + k * ML + j
LINE_NB = _a.take(MR + MC)  # bodies crossed by row or column kind k
LINE_B = _a.take((MR + MC) * MB)  # ... listed at LINE_B + k * MB + j
BODY_LINES = _a.take(MB)  # per body, bit k set for every row or column kind naming one of its spaces
DECK = _a.take(MN)  # the card kind of every card, unshuffled
# Seat compensation (docs/rules/captain-future.md, "Seat compensation"), per seat, read once at set-up:
COMP_PTS = _a.take(MP)  # points a seat starts with (so in its score as the board stands and its final score)
COMP_SHIPS = _a.take(MP)  # ships added to (negative: taken from) the seat's supply of bd[SHIPS]
BD_SIZE = _a.n

# ---- st: one game's state ----------------------------------------------------------------------
_s = Offsets()
STONE_T = _s.take(1)  # 0 row, 1 column, 2 body
STONE_I = _s.take(1)
NSTACK = _s.take(1)  # cards in the stack; its top is STACK + NSTACK - 1
NDISC = _s.take(1)
END_SEAT = _s.take(1)  # the seat whose placement emptied his supply, -1 before
EXCH = _s.take(1)  # exchanges this game
LANDS = _s.take(1)  # landings this game
T_LANDS = _s.take(1)  # landings this turn (the heuristics hold events in turns with a landing)
# Where the game stands (play_nb): everything the loop needs to go on from a decision.
TURN = _s.take(1)  # turns played; the turn under way is turn TURN + 1
SEAT = _s.take(1)  # the seat whose turn it is
PHASE = _s.take(1)  # where in the turn (PH_*)
SLOT = _s.take(1)  # the action slot under way (PH_SLOT), from 0
EVENTS_LEFT = _s.take(1)  # event cards the seat may still play this turn
ACTED = _s.take(1)  # 1 once the seat did something this turn
PASSES = _s.take(1)  # turns in a row in which the seat could do nothing
FINAL_LEFT = _s.take(1)  # turns left in the final round once the end is triggered, -1 before
END = _s.take(1)  # the end code (core.records END_*) once PHASE is PH_OVER
OWNER = _s.take(ML)  # owner of each landing space, -1 empty
CNT = _s.take(MB * MP)  # ships of player p on body b: CNT + b * MP + p
FILLED = _s.take(MB)  # ships on body b
BTOP = _s.take(MB)  # per body, kept live: the largest ship count of a player
BSEC = _s.take(MB)  # ... the second largest (equal to BTOP when tied)
BHOLD = _s.take(MB)  # ... the player with the strict majority, -1 if none
BAWH = _s.take(MB)  # ... the player awarded the body's bonus (full control or majority), -1 if none
BAWA = _s.take(MB)  # ... and the bonus points
SCORE = _s.take(MP)  # every player's score as the board stands, kept live
CLOCK = _s.take(1)  # counts changes of body summaries
BVER = _s.take(MB)  # per body: the CLOCK of its last change (heuristics cache their values by it)
CONQ = _s.take(1)  # bit b set while body b is conquered (FILLED == BODY_SIZE), kept live with the summaries
HANDS = _s.take(MP * MK)  # cards of kind k in p's hand: HANDS + p * MK + k
HAND_N = _s.take(MP)
SUPPLY = _s.take(MP)
ONBOARD = _s.take(MP)
REMOVED = _s.take(MP)  # ships out of the game (attacked)
EMPTY_K = _s.take(MK)  # empty landable spaces named by each trajectory kind
ELB = _s.take((MR + MC) * MB)  # empty spaces of body b on row or column kind k: ELB + k * MB + b
ATT = _s.take(MP * 4)  # attacks by category: ATT + p * 4 + cat
EV = _s.take(4)  # events played: Simon Wright, Recall, Otto, GRAG
SID = _s.take(MP)  # strategy id of each seat (a search seat's: its rollout strategy, play_nb.play_out)
SEARCHERS = _s.take(1)  # bit q set when seat q is a search player: play_on stops before its decisions
SC = _s.take(MP)  # scratch: scores
PTS = _s.take(MP)  # scratch: points on one body
BUF = _s.take(ML)  # scratch list
FEWEST = _s.take(1)  # the fewest ships any player has had in supply (loop detection: a new low is progress)
TRACK = _s.take(PROGRESS_SIZE)  # the whole-game metrics' tracker (core/whole_game.py)
STACK = _s.take(MN)
DISCARD = _s.take(MN)
ST_SIZE = _s.n

# ---- fs: heuristics' scratch -------------------------------------------------------------------
_f = Offsets()
FV = _f.take(MB * (MP + 1))  # per body and occupant (-1..P-1): FV + b * (MP + 1) + q + 1
FBASE = _f.take(MB)  # per body: the evaluation as the board stands
FW = _f.take(MP)  # weight of each opponent's points
FLOC = _f.take(MR + MC + MB)  # per stone place: protection value
FD = _f.take(MP)  # scratch: points change of each player
# Cached values of changes of the heuristics, per player p, body b and change (q + 1 for "p's ship
# replaces q's", 0 for "lands on an empty space", p + 1 for "p's ship leaves"): one record of CREC
# values each, together, so that a look-up touches one or two cache lines instead of four (a
# value is asked about 2,000 times a game, from all over the table):
C_VER = 0  # the body's BVER when the points changes were computed (valid while it is unchanged)
C_WS = 1  # the weights (FWS) the value C_WV was computed with, the last ones used
C_WV = 2  # ... that value
C_GAIN = 3  # the player's own change with his progress, then every player's points change (MP)
CREC = C_GAIN + 1 + MP
CACHE = _f.take(MP * MB * (MP + 1) * CREC)
FWS = _f.take(1)  # which weights FW holds now (player and leader)
FS_SIZE = _f.n
FQ = MP + 1  # stride of FV: occupant -1..P-1

# ---- codes ------------------------------------------------------------------------------------
STONE_ROW, STONE_COL, STONE_BODY = 0, 1, 2  # STONE_T: what the stone sits on

# Where in a turn the game stands (st[PHASE]). The first three are decisions of st[SEAT]; the game
# passes PH_TURN_END (draw up, the next turn) at once, and stops at PH_OVER.
PH_EVENT_BEFORE = 0  # an event card before the slots, or none
PH_SLOT = 1  # action slot st[SLOT]: land, attack, exchange, or pass when nothing is legal
PH_EVENT_AFTER = 2  # an event card after the slots (while st[EVENTS_LEFT] > 0), or none
PH_TURN_END = 3  # the turn is over: draw back up, then the next turn
PH_OVER = 4  # the game is over (st[END])

# The options of a decision (play_nb.legal_options, docs/rules/captain-future.md "Decisions"): one
# int64 each, option(kind, a, b) = kind * 65536 + a * 256 + b.
OPT_NONE = 0  # no event / pass (a slot with nothing legal)
OPT_LAND = 1  # land with a card of kind a on space b
OPT_ATTACK = 2  # attack space b (paying the cards that name it, the least useful first)
OPT_EXCHANGE = 3  # exchange a card of kind a
OPT_SIMON = 4  # Simon Wright: the stone to place a; then Recall, Otto, GRAG: OPT_SIMON + event index
OPT_RECALL = 5  # Recall (every player chooses his own ship by his strategy)
OPT_OTTO = 6  # Otto: own ship on space a to space b
OPT_GRAG = 7  # GRAG: a ship from supply onto space a

# Attack categories (records): by the majority holder, by a player present, by a player absent.
CAT_MAJORITY, CAT_PRESENT, CAT_ABSENT = 0, 1, 2

# Strategy ids (engine.STRATEGIES) and the heuristics' parameter positions: the engine binds the
# config's [strategies.builder] / [strategies.aggressor] keys by these names (engine.STRATEGY_PARAMS);
# builder has every one but the last.
RANDOM, BUILDER, AGGRESSOR = 0, 1, 2
P_OPP, P_LEADER, P_FULL, P_CARD, P_EXCH, P_OTTO, P_GRAG, P_SIMON, P_RECALL, P_EVENTS, P_HOLD, P_CHEAP = range(12)
HEURISTIC_PARAMS = ("opp_weight", "leader_weight", "full_weight", "card_weight", "exchange_value", "otto_min",
                    "grag_min", "simon_min", "recall_gap", "play_events", "hold_events", "cheap_cost")

# The replay's event log (play_nb writes it, replay.py tells it): one row (EV_*, a, b, c, d, e).
EV_HAND = 0  # after the deal: seat a holds b cards of kind c
EV_STONE = 1  # the stone starts on place a (rows, then columns, then bodies)
EV_TURN = 2  # turn a (from 1): seat b; c = 1 in the final round; d cards in hand, e ships in supply
EV_LAND = 3  # seat a lands on space b with a card of kind c
EV_ATTACK = 4  # seat a attacks space b held by seat c; category d (0 majority, 1 present, 2 absent), e cards
EV_PAY = 5  # ... paying b cards of kind c (seat a)
EV_EXCHANGE = 6  # seat a discards a card of kind b and draws one of kind c
EV_PASS = 7  # seat a can do nothing legal: passes its b remaining action slots
EV_SIMON = 8  # seat a plays Simon Wright: the stone moves from place b to place c
EV_RECALL = 9  # seat a plays Recall
EV_RETURN = 10  # ... seat a sends its ship on space b home
EV_OTTO = 11  # seat a plays Otto: its ship moves from space b to space c, swapping with seat d's (-1: none)
EV_GRAG = 12  # seat a plays GRAG: a ship from supply onto space b, whose ship (seat c, -1: none) goes home
EV_TRIGGER = 13  # seat a placed its last ship: the end is triggered
EV_DRAW = 14  # seat a draws b cards of kind c (the refill at the end of its turn)
EV_RESHUFFLE = 15  # the stack ran out: the discard pile (a cards) is shuffled into a new stack
EV_END = 16  # the game ends: end code a (core.records END_*) after b turns
EV_INVALID = 17  # validation: invariant b (INV_*) broke in turn a
EV_STALEMATE = 18  # a stalemate for reason a (R_*) after b turns without progress

# ---- stalemate reasons (the record's stalemate_reason; engine.STALEMATE_REASONS names them) ------
R_NO_ACTION = 1  # a whole round in which nobody could do anything
R_NO_PROGRESS = 2  # rules.stalemate_window turns in which no supply got smaller and no score better
N_EV_COLS = 6

# What validate_nb.check_invariants returns: 0, or the first invariant broken (validate_nb.INVARIANTS
# says what each means).
INV_OK = 0
INV_SHIPS = 1
INV_OWNER = 2
INV_COUNTS = 3
INV_SUMMARY = 4
INV_SCORE = 5
INV_STONE = 6
INV_EMPTY = 7
INV_HAND = 8
INV_CARDS = 9
INV_END_SEAT = 10
INV_TURN = 11

# ---- work: validation's scratch, then play_nb's note of a broken invariant and the replay's snapshot
_w = Offsets()
W_CNT = _w.take(MB * MP)  # ships per body and player: W_CNT + b * MP + q
W_ON = _w.take(MP)  # ships on the board per player
W_KIND = _w.take(MK)  # cards per kind: the deck's minus those found
W_EMPTY = _w.take(MK)  # empty landable spaces per card kind
W_SC = _w.take(MP)  # scores
W_ELB = _w.take((MR + MC) * MB)  # empty spaces per row or column kind and body
W_BAD = _w.take(1)  # play_nb: the invariant a step broke (0: none)
W_LOG = _w.n  # the replay's snapshot of what an action can change (play_nb.snapshot):
S_OWN = _w.take(ML)  # the landing spaces' owners
S_HAND = _w.take(MK)  # the acting player's hand
S_NSTACK = _w.take(1)
S_NDISC = _w.take(1)
S_LANDS = _w.take(1)
S_EXCH = _w.take(1)
S_ATT = _w.take(3)  # the acting player's attacks, by category
S_STONE = _w.take(1)
S_END = _w.take(1)
S_EV = _w.take(4)  # event counters
WORK_SIZE = _w.n


@njit(cache=True, inline="always")
def option(kind, a, b):
    return kind * 65536 + a * 256 + b


@njit(cache=True, inline="always")
def option_kind(code):
    return code // 65536


@njit(cache=True, inline="always")
def option_a(code):
    return (code // 256) % 256


@njit(cache=True, inline="always")
def option_b(code):
    return code % 256


# ---- one game's state: a tuple of arrays ------------------------------------------------------
# (st, fs, buf, rng, seat_prm, work, order): the flat state, the heuristics' cache, a scratch list,
# the random stream, each seat's strategy parameters, validation's and the replay's scratch, and the
# deck as shuffled for the deal. The kernel makes one per block; clone copies all of it.

@njit(cache=True)
def new_state(ctx):
    """A blank state for the board of ``ctx`` = (bd, validate)."""
    bd = ctx[0]
    return (np.zeros(ST_SIZE, np.int64), np.zeros(FS_SIZE, np.float64), np.zeros(ML, np.int64),
            np.zeros(1, np.uint64), np.zeros((bd[PLAYERS], MAX_PARAMS), np.float64), np.zeros(WORK_SIZE, np.int64),
            np.zeros(bd[NCARDS], np.int64))


@njit(cache=True)
def clone(state):
    """An independent copy of a state (the random stream too)."""
    st, fs, buf, rng, seat_prm, work, order = state
    return st.copy(), fs.copy(), buf.copy(), rng.copy(), seat_prm.copy(), work.copy(), order.copy()


@njit(cache=True, _nrt=False)
def reset_state(bd, st):
    """A blank game: an empty board, full supplies, no cards anywhere, no end triggered (the seats'
    strategy ids kept). The stone and the counts of empty spaces are the set-up's (rules_nb.set_up)."""
    st[:SID] = 0
    st[SID + MP:STACK] = 0
    st[OWNER:OWNER + bd[NL]] = -1
    for p in range(bd[PLAYERS]):
        st[SUPPLY + p] = bd[SHIPS] + bd[COMP_SHIPS + p]
        st[SCORE + p] = bd[COMP_PTS + p]
    st[END_SEAT] = -1
    st[FINAL_LEFT] = -1
    st[BHOLD:BHOLD + MB] = -1
    st[BAWH:BAWH + MB] = -1
