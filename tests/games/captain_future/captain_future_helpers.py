"""Shared helpers for the captain-future tests: build a board, name spaces and cards, arrange positions."""

from __future__ import annotations

import numpy as np

from simbalance.core.config import apply_overrides, load_config
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future.board import build_board
from simbalance.games.captain_future.rules_nb import place_from_supply, set_up, shuffle_deck
from simbalance.games.captain_future.state_nb import STONE_BODY
from simbalance.games.captain_future.strategies_nb import reset_cache


def deck_order(bd: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """The deck shuffled from the stream ``rng``, as a game's set-up shuffles it."""
    order = np.empty(int(bd[X.NCARDS]), np.int64)
    shuffle_deck(bd, rng, order)
    return order


class Table:
    """A board, an empty game state, and names for spaces, bodies and card kinds."""

    def __init__(self, players: int = 4, overrides: dict | None = None, stone: tuple[int, str] | None = None,
                 strategies: tuple[int, ...] = (0, 0, 0, 0)):
        cfg = apply_overrides(load_config("captain-future"), overrides)
        self.bd, self.lay = build_board(cfg, players)
        self.players = players
        self.st = np.zeros(X.ST_SIZE, np.int64)
        self.fs = np.zeros(X.FS_SIZE)
        reset_cache(self.fs)
        self.rng = np.zeros(1, np.uint64)
        for q in range(players):
            self.st[X.SID + q] = strategies[q]
        t, i = (STONE_BODY, self.body("jupiter")) if stone is None else (stone[0], self._stone_index(stone))
        set_up(self.bd, self.st, t, i)

    def _stone_index(self, stone):
        t, name = stone
        if t == 0:
            return self.lay.row_labels.index(name)
        if t == 1:
            return self.lay.col_labels.index(name)
        return self.body(name)

    # names -> indices
    def space(self, label: str) -> int:
        """'A1' -> the landing space at row A, column 1."""
        r = self.lay.row_labels.index(label[0])
        c = self.lay.col_labels.index(label[1:])
        hit = np.flatnonzero((self.lay.space_row == r) & (self.lay.space_col == c))
        if len(hit) != 1:
            raise KeyError(f"{label} is not a landing space")
        return int(hit[0])

    def body(self, bid: str) -> int:
        return self.lay.body_ids.index(bid)

    def row_card(self, label: str) -> int:
        return self.lay.row_labels.index(label)

    def col_card(self, label: str) -> int:
        return len(self.lay.row_labels) + self.lay.col_labels.index(label)

    def body_card(self, bid: str) -> int:
        return len(self.lay.row_labels) + len(self.lay.col_labels) + self.body(bid)

    @property
    def joker(self) -> int:
        return int(self.bd[X.KJ])

    def event(self, name: str) -> int:
        return self.joker + 1 + ("simon_wright", "recall", "otto", "grag").index(name)

    # arranging a position
    def give(self, p: int, kind: int, n: int = 1) -> None:
        self.st[X.HANDS + p * X.MK + kind] += n
        self.st[X.HAND_N + p] += n

    def hand(self, p: int, kind: int) -> int:
        return int(self.st[X.HANDS + p * X.MK + kind])

    def put(self, p: int, *labels: str) -> None:
        """Ships of ``p`` from his supply onto the named spaces."""
        for label in labels:
            place_from_supply(self.bd, self.st, p, self.space(label))

    # reading it
    def owner(self, label: str) -> int:
        return int(self.st[X.OWNER + self.space(label)])

    def cnt(self, bid: str, p: int) -> int:
        return int(self.st[X.CNT + self.body(bid) * X.MP + p])

    def supply(self, p: int) -> int:
        return int(self.st[X.SUPPLY + p])

    def removed(self, p: int) -> int:
        return int(self.st[X.REMOVED + p])

    def score(self, p: int) -> int:
        return int(self.st[X.SCORE + p])
