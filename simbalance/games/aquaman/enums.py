"""Integer names shared by the aquaman kernels, the engine module and the tests.

These are fixed indices into arrays, never config values (those reach the kernels only as the
``rules`` array built by ``engine.prepare``).
"""

# The eight powers a suit can carry (config ``deck.powers``); NO_POWER for a suit without one.
AQUAMAN, COMPANION, SEA_CREATURE, PLOT, FOE, POWER, STRANGENESS, LOCATION = range(8)
NO_POWER = 8
POWER_NAMES = ("aquaman", "companion", "sea_creature", "plot", "foe", "power", "strangeness", "location")
N_POWERS = 8

# rules[...]: the resolved config as integers. After the N_RULES scalars come the corner square of
# each seat (R_CORNER + seat, 4 slots) and the power of each suit (R_SUIT_POWER + suit).
(R_ROWS, R_COLS, R_PLAYERS, R_RANKS, R_NSUITS, R_NDICE, R_FACES, R_START_HAND, R_HAND_LIMIT,
 R_POWER_MIN, R_MISSIONS_TO_WIN, R_MISSION_SUITS, R_MISSIONS_PER_TURN, R_TURN_CAP, R_AQUAMAN_DRAW,
 R_COMPANION_LOOK, R_TIES_REPEAT, R_CANNOT_REVEAL, R_DISCARD_AFTER, R_RESHUFFLE, R_TURN_LEGS, N_RULES) = range(22)
R_CORNER = N_RULES
R_SUIT_POWER = N_RULES + 4

# rules[R_CANNOT_REVEAL]: when a fighter has no card to reveal (config rules.cannot_reveal, whose
# names CANNOT_REVEAL_NAMES are in this order): the fight ends before the reveal (nobody reveals,
# nobody wins), he loses, or nobody wins (the other's revealed card is still spent).
REVEAL_ENDS, REVEAL_LOSES, REVEAL_DRAWS = range(3)
CANNOT_REVEAL_NAMES = ("ends", "loses", "draws")

# card[...]: row CARD_SUIT and row CARD_RANK give each card id's suit and rank.
CARD_SUIT, CARD_RANK = 0, 1

# The game state is packed into few arrays: every array handed to a jitted function costs a
# reference-count update, and a turn makes many such calls (see state_nb).
#
# cards[row, :]: card piles, each a list of card ids. The hand of seat s is row K_HAND + s.
# The board is row K_BOARD (one entry per square, -1 empty).
K_DECK, K_DISC, K_BUF, K_BOARD, K_HAND = range(5)

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
N_CTR = C_REACH_N + (1 << MAX_DICE)

# scratch[row, :]: a candidate list (X_CAND), then per set of dice used the list of reachable
# squares (X_REACH + mask) and their "seen" stamps (X_STAMP + mask).
X_CAND = 0
X_REACH = 1
X_STAMP = 1 + (1 << MAX_DICE)
N_SCRATCH = 1 + 2 * (1 << MAX_DICE)

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

# The replay's event log (engine.replay): rows of (EV_*, a, b, c, d, deck refills so far); row 0
# holds the count of events in [0, 0]. The kernel passes None for the log: numba then compiles the
# game without any trace of the logging.
(EV_BOARD, EV_DEAL, EV_TURN, EV_ACTIVATE, EV_DRAW, EV_SEE, EV_KEEP, EV_DISC, EV_SEA, EV_PLOT, EV_FOE,
 EV_STRANGE, EV_LOCATION, EV_ROLL, EV_LEG, EV_SWIM, EV_TAKE, EV_EMPTY, EV_FIGHT, EV_REVEAL, EV_FIGHT_END,
 EV_STEAL, EV_MISSION, EV_WIN, EV_TIMEOUT, EV_INVALID, EV_MOVE, EV_NO_REVEAL) = range(28)
N_EV_COLS = 6
# why a card was discarded (EV_DISC c)
WHY_ACTIVATED, WHY_COMPANION, WHY_POWER, WHY_FOE, WHY_MISSION, WHY_REST = range(6)
