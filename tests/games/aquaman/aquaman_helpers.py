"""Arrange aquaman situations by hand for the rule tests (imported by the test files beside it).

Cards are written as a suit letter and a rank: A Aquaman, C Companion, X Sea Creature, P Plot,
F Foe, O Power, S Strangeness, L Location; e.g. "P12" is the 12 of Plot.
"""

from __future__ import annotations

import numpy as np

from simbalance.core.config import apply_overrides, load_config
from simbalance.core.rng import seed_game
from simbalance.games.aquaman import engine
from simbalance.games.aquaman.state_nb import (
    C_DECK,
    C_DISC,
    C_STAMP,
    CARD_RANK,
    CARD_SUIT,
    HEURISTIC_PARAM_NAMES,
    K_BOARD,
    K_DECK,
    K_DISC,
    K_HAND,
    R_COLS,
    R_CORNER,
    R_PLAYERS,
    R_RANKS,
    V_HAND_N,
    V_POS,
    V_SUIT,
    Game,
    new_state,
)

LETTERS = "ACXPFOSL"
# the strategies' parameters as in configs/aquaman.toml, in the order the code reads them
CONFIG = load_config("aquaman")
RUNNER = np.array([float(CONFIG["strategies"]["runner"][k]) for k in HEURISTIC_PARAM_NAMES])
RAIDER = np.array([float(CONFIG["strategies"]["raider"][k]) for k in HEURISTIC_PARAM_NAMES])
NO_PARAMS = np.zeros_like(RUNNER)


def make(players: int = 4, **overrides):
    """A Game and an empty State; overrides use '__' for '.', e.g. rules__fight_ties="once"."""
    cfg = apply_overrides(CONFIG, {k.replace("__", "."): v for k, v in overrides.items()})
    G = Game(*engine.prepare(cfg, players)[:4])  # the fifth is the validation flag
    S = new_state(G.rules, G.card.shape[1])
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
    S.cards[:, :] = -1
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
