"""Integer names shared by the aquaman kernels, the engine module and the tests.

These are fixed indices into arrays, never config values (those reach the kernels only as the
``rules`` array built by ``engine.prepare``).
"""

# The eight powers a suit can carry (config ``deck.powers``); NO_POWER for a suit without one.
AQUAMAN, COMPANION, SEA_CREATURE, PLOT, FOE, POWER, STRANGENESS, LOCATION = range(8)
NO_POWER = 8
POWER_NAMES = ("aquaman", "companion", "sea_creature", "plot", "foe", "power", "strangeness", "location")
N_POWERS = 8

# rules[...]: the resolved config as integers.
(R_ROWS, R_COLS, R_PLAYERS, R_RANKS, R_NSUITS, R_NDICE, R_FACES, R_START_HAND, R_HAND_LIMIT,
 R_POWER_MIN, R_MISSIONS_TO_WIN, R_MISSION_SUITS, R_MISSIONS_PER_TURN, R_TURN_CAP, R_AQUAMAN_DRAW,
 R_COMPANION_LOOK, R_TIES_REPEAT, R_EMPTY_LOSES, R_DISCARD_AFTER, R_RESHUFFLE, N_RULES) = range(21)

# ctr[...]: the game's scalar counters.
C_DECK, C_DISC, C_TURN, C_REFILLS, C_STAMP, N_CTR = range(6)

# stats[seat, ...]: what the records report per seat. ST_USE + power counts that power's uses.
ST_FIGHTS, ST_WON, ST_STOLEN, ST_TAKEN, ST_FOE_HITS, ST_USE = range(6)
N_STATS = ST_USE + N_POWERS

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
