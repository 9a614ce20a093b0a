"""One structured record per game.

Every engine writes one row of a numpy structured array per game. The first fields are common to
all games (below); each engine appends its own. Per-seat fields are sub-arrays of length
``MAX_SEATS``; only the first ``players`` entries are meaningful and only those become DataFrame
columns (``<field>_<seat>``, e.g. ``score_0``).

Numba note: write sub-array fields as ``out[i].field[s] = v``. Binding the record first
(``r = out[i]; r.field[s] = v``) writes into a copy and is silently lost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

MAX_SEATS = 6

# How a game ended (field ``end``).
END_WIN = 0  # one or more winners (a tie shares the win)
END_TIMEOUT = 1  # the configured cap was reached: no winner
END_STALEMATE = 2  # nobody could act any more: no winner
END_INVALID = 3  # validation only: the engine broke one of its own invariants (a bug)
END_NAMES = {END_WIN: "win", END_TIMEOUT: "timeout", END_STALEMATE: "stalemate", END_INVALID: "invalid"}
# A stalemate's reason (the record field ``stalemate_reason`` of core/whole_game.PROGRESS_FIELDS): 0 none
# given, then each engine's own codes (Engine.stalemate_reasons), below MAX_REASONS.
MAX_REASONS = 16

BASE_FIELDS = [
    ("game", np.int64),  # global game index: with the seed it identifies the deal
    ("winner", np.int8),  # the winning seat; -1 for a tie or no winner
    ("winners", np.uint8),  # bit s set when seat s shares the win (ties: several bits)
    ("length", np.int32),  # the game's natural unit: picks, turns, ...
    ("end", np.int8),  # END_WIN / END_TIMEOUT / END_STALEMATE
    ("strategy", np.int8, (MAX_SEATS,)),  # strategy slot per seat (see the run's lineup)
]


def record_dtype(game_fields: list[tuple]) -> np.dtype:
    """The record dtype of an engine: the common fields followed by ``game_fields``."""
    return np.dtype(BASE_FIELDS + list(game_fields))


def records_to_frame(records: np.ndarray, players: int, strategy_names: tuple[str, ...] | None = None
                     ) -> pd.DataFrame:
    """Flatten records into a DataFrame: sub-array fields become one column per seat. With
    ``strategy_names`` (the lineup's slot names), each seat's slot column ``strategy_<seat>`` is
    followed by its name, ``strategy_name_<seat>`` (categorical: one byte per game).

    The columns are views into ``records`` (no copy), so a 10^7-game run does not hold its
    records twice.
    """
    columns: dict[str, np.ndarray] = {}
    for name in records.dtype.names:
        values = records[name]
        if values.ndim == 1:
            columns[name] = values
        elif values.shape[1] == MAX_SEATS:
            for seat in range(players):
                columns[f"{name}_{seat}"] = values[:, seat]
                if name == "strategy" and strategy_names is not None:
                    columns[f"strategy_name_{seat}"] = pd.Categorical.from_codes(values[:, seat],
                                                                                 categories=list(strategy_names))
        else:  # a per-game vector that is not per seat (e.g. per body): keep every entry
            for j in range(values.shape[1]):
                columns[f"{name}_{j}"] = values[:, j]
    return pd.DataFrame(columns, copy=False)


def seat_share(winners_mask: np.ndarray, seat: int) -> np.ndarray:
    """Per game, seat ``seat``'s share of the win: 1/k when it is one of k tied winners, else 0."""
    mask = np.asarray(winners_mask, dtype=np.uint8)
    won = (mask >> np.uint8(seat)) & np.uint8(1)
    k = np.bitwise_count(mask)
    return np.divide(won, k, out=np.zeros(len(mask), dtype=np.float64), where=k > 0)


def win_shares(winners_mask: np.ndarray, players: int) -> np.ndarray:
    """Per game and seat, the share of the win: 1/k for each of k tied winners, 0 otherwise."""
    return np.stack([seat_share(winners_mask, s) for s in range(players)], axis=1)
