"""Balance metrics of one run, as designers know them (see docs/metrics.md).

Everything here is a function of the games DataFrame (one row per game), through the mergeable
``RunAggregate`` that streaming runs build chunk by chunk. Ties count as fractional
wins (1/k for each of k tied seats) accumulated in floats; games without a winner (timeouts,
stalemates) count as 0 wins for everyone, and win rates are over all games.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simbalance.core.aggregate import RunAggregate


def seat_table(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate of every seat with its Wilson 95% interval."""
    n_slots = 1 + max(int(games[f"strategy_{s}"].max()) for s in range(players))
    return RunAggregate.from_games(games, players, n_slots).seat_table()


def strategy_table(games: pd.DataFrame, players: int, slot_names: tuple[str, ...]) -> pd.DataFrame:
    """Win rate of every strategy over the seats it occupied, with its Wilson 95% interval."""
    return RunAggregate.from_games(games, players, len(slot_names)).strategy_table(slot_names)


def json_records(df: pd.DataFrame) -> list[dict]:
    return [jsonable(row) for row in df.to_dict(orient="records")]


def jsonable(value):
    """Plain Python types for json.dump (numpy scalars and arrays, NaN as None)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
