"""Arrange aquaman situations by hand for the rule tests (imported by the test files beside it).

Cards are written as a suit letter and a rank: A Aquaman, C Companion, X Sea Creature, P Plot,
F Foe, O Power, S Strangeness, L Location; e.g. "P12" is the 12 of Plot.
"""

from __future__ import annotations

import numpy as np

from simbalance.core.config import apply_overrides, load_config
from simbalance.core.rng import seed_game
from simbalance.games.aquaman import engine
from simbalance.games.aquaman.play_nb import advance, context, first_turn, play_out, resolve, run_step
from simbalance.games.aquaman.state_nb import (
    C_ACT_CARD,
    C_DECISION,
    C_DECK,
    C_DISC,
    C_MOVER,
    C_PLOT,
    C_RESULT,
    C_STAMP,
    C_STEP,
    C_TO_MOVE,
    C_WINNER,
    CARD_RANK,
    CARD_SUIT,
    D_MISSION,
    D_OPPONENT,
    D_POWER,
    HEURISTIC_PARAM_NAMES,
    K_BOARD,
    K_DECK,
    K_DISC,
    K_HAND,
    K_KNOWN,
    NO_DECISION,
    R_COLS,
    R_CORNER,
    R_PLAYERS,
    R_RANKS,
    STEP_END_TURN,
    STEP_LAND,
    STEP_MISSION,
    STEP_OVER,
    STEP_REST,
    STEP_SWIM,
    STEP_TURN,
    V_HAND_N,
    V_POS,
    V_SUIT,
    new_state,
)
from simbalance.games.aquaman.strategies_nb import decide

LETTERS = "ACXPFOSL"
# the strategies' parameters as in configs/aquaman.toml, in the order the code reads them
CONFIG = load_config("aquaman")
RUNNER = np.array([float(CONFIG["strategies"]["runner"][k]) for k in HEURISTIC_PARAM_NAMES])
RAIDER = np.array([float(CONFIG["strategies"]["raider"][k]) for k in HEURISTIC_PARAM_NAMES])
NO_PARAMS = np.zeros_like(RUNNER)


def make(players: int = 4, **overrides):
    """A Game and an empty State; overrides use '__' for '.', e.g. rules__fight_ties="once"."""
    cfg = apply_overrides(CONFIG, {k.replace("__", "."): v for k, v in overrides.items()})
    G = context(*engine.prepare(cfg, players))
    S = new_state(G)
    return G, S


def card(G, code: str) -> int:
    suit, rank = LETTERS.index(code[0]), int(code[1:])
    return suit * int(G.rules[R_RANKS]) + rank - 1


def name(G, c: int) -> str:
    return f"{LETTERS[G.card[CARD_SUIT, c]]}{G.card[CARD_RANK, c]}"


def cell(G, r: int, c: int) -> int:
    return r * int(G.rules[R_COLS]) + c


def arrange(G, S, *, deck=(), discard=(), board=None, hands=None, pos=None, seed=0):
    """Put exactly these cards in place (everything else empty).

    ``deck`` is listed top card first, ``discard`` bottom card first (its last is the top),
    ``board`` maps (row, col) to a card, ``hands`` maps a seat to its cards, ``pos`` a seat to
    (row, col) (default: the seat's corner).
    """
    stamp = S.ctr[C_STAMP]  # stamps are never reused (see rules_nb.reset)
    S.ctr[:] = 0
    S.ctr[C_STAMP] = stamp
    S.ctr[C_ACT_CARD] = -1  # no activated card waits for the discard pile
    S.cards[:, :] = -1
    S.cards[K_KNOWN, :] = 0  # nobody has seen where any card is
    S.seat[:, :] = 0
    seed_game(S.rng, 12345, seed)
    players = int(G.rules[R_PLAYERS])
    for s in range(players):
        S.seat[s, V_POS] = G.rules[R_CORNER + s]
    for s, (r, c) in (pos or {}).items():
        S.seat[s, V_POS] = cell(G, r, c)
    ids = [card(G, x) for x in deck]
    for i, c in enumerate(reversed(ids)):
        S.cards[K_DECK, i] = c
    S.ctr[C_DECK] = len(ids)
    for i, x in enumerate(discard):
        S.cards[K_DISC, i] = card(G, x)
    S.ctr[C_DISC] = len(discard)
    for (r, c), x in (board or {}).items():
        S.cards[K_BOARD, cell(G, r, c)] = card(G, x)
    for s, cards in (hands or {}).items():
        for i, x in enumerate(cards):
            c = card(G, x)
            S.cards[K_HAND + s, i] = c
            S.seat[s, V_SUIT + G.card[CARD_SUIT, c]] += 1
        S.seat[s, V_HAND_N] = len(cards)


def hand(G, S, seat) -> list[str]:
    return sorted(name(G, c) for c in S.cards[K_HAND + seat, : S.seat[seat, V_HAND_N]])


def deck_top_first(G, S) -> list[str]:
    n = int(S.ctr[C_DECK])
    return [name(G, c) for c in S.cards[K_DECK, :n][::-1]]


def discard_pile(G, S) -> list[str]:
    """Bottom card first."""
    return [name(G, c) for c in S.cards[K_DISC, : S.ctr[C_DISC]]]


def board_at(G, S, r, c):
    x = S.cards[K_BOARD, cell(G, r, c)]
    return None if x < 0 else name(G, x)


def all_card_ids(G, S) -> np.ndarray:
    """Every card id in deck, discard pile, board and hands (for conservation checks)."""
    parts = [S.cards[K_DECK, : S.ctr[C_DECK]], S.cards[K_DISC, : S.ctr[C_DISC]]]
    board = S.cards[K_BOARD, : G.move_to.shape[0]]
    parts.append(board[board >= 0])
    for s in range(int(G.rules[R_PLAYERS])):
        parts.append(S.cards[K_HAND + s, : S.seat[s, V_HAND_N]])
    return np.concatenate(parts).astype(np.int64)


# ---------------------------------------------------------------- one rule at a time
# The rules run as steps between decisions (play_nb); these drivers start the game at one rule step
# (or with one decision taken), let the strategies decide, and stop when the rules reach the step
# after that rule.


def _seats(G, sid, par):
    players = int(G.rules[R_PLAYERS])
    return np.full(players, sid, np.int64), np.array([par] * players, np.float64)


def play_until(G, S, strat, par, *stops):
    """Let the strategies decide and the rules run until the next step is one of ``stops`` (or the
    game is over)."""
    while True:
        if S.ctr[C_DECISION] >= 0 and S.ctr[C_TO_MOVE] >= 0:
            resolve(G, S, decide(G, S, strat, par))
        elif S.ctr[C_STEP] in stops or S.ctr[C_STEP] == STEP_OVER:
            return
        else:
            run_step(G, S)


def _turn_of(S, seat):
    S.ctr[C_MOVER] = seat
    S.ctr[C_TO_MOVE] = seat
    S.ctr[C_DECISION] = NO_DECISION


def _decided(G, S, seat, decision, option):
    """``seat`` has just taken ``option`` at ``decision``."""
    _turn_of(S, seat)
    S.ctr[C_DECISION] = decision
    resolve(G, S, option)


def activate(G, S, seat, sid, par, i):
    """The power phase activates hand slot ``i``; the power resolves (its choices by ``sid``). Returns
    the Plot square or -1."""
    S.ctr[C_PLOT] = -1
    _decided(G, S, seat, D_POWER, i)
    play_until(G, S, *_seats(G, sid, par), STEP_SWIM)
    return int(S.ctr[C_PLOT])


def fight(G, S, a, b, strat, par):
    """``a`` (the mover) fights ``b`` to the end of the fight; returns the winner or -1."""
    _decided(G, S, a, D_OPPONENT, b)
    play_until(G, S, strat, par, STEP_MISSION)
    return int(S.ctr[C_WINNER])


def land(G, S, seat, strat, par):
    """``seat``'s pawn lands on its square (a fight there is fought out)."""
    _turn_of(S, seat)
    S.ctr[C_STEP] = STEP_LAND
    play_until(G, S, strat, par, STEP_MISSION)


def play_mission(G, S, seat, sid, par):
    """``seat`` plays a mission (its suits and cards picked by ``sid``)."""
    _decided(G, S, seat, D_MISSION, 1)
    play_until(G, S, *_seats(G, sid, par), STEP_MISSION, STEP_REST)


def rest(G, S, seat, sid, par):
    """``seat`` discards down to the hand limit."""
    _turn_of(S, seat)
    S.ctr[C_STEP] = STEP_REST
    play_until(G, S, *_seats(G, sid, par), STEP_END_TURN)


def play_turn(G, S, seat, strat, par):
    """One whole turn of ``seat``; True when it won."""
    _turn_of(S, seat)
    S.ctr[C_STEP] = STEP_TURN
    play_until(G, S, strat, par, STEP_END_TURN)
    return bool(S.ctr[C_STEP] == STEP_OVER and S.ctr[C_RESULT] == seat)


def play_game(G, S, strat, par, validate=False):
    """From a dealt (or arranged) position with seat 0 to move, the game to its end, as the kernel
    plays it; returns the winner, RESULT_TIMEOUT or RESULT_INVALID."""
    if validate:
        G = G._replace(validate=np.bool_(True))
    first_turn(G, S)
    advance(G, S)
    play_out(G, S, strat, par, -1)
    return int(S.ctr[C_RESULT])
