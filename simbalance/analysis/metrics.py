"""Balance metrics of one run, as designers know them (see docs/metrics.md).

Everything here is a function of the games DataFrame (one row per game), through the mergeable
``RunAggregate`` that streaming runs build chunk by chunk. Ties count as fractional
wins (1/k for each of k tied seats) accumulated in floats; games without a winner (timeouts,
stalemates) count as 0 wins for everyone, and win rates are over all games.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from simbalance.analysis.aggregate import Z95, RunAggregate, wilson  # noqa: F401  (re-exported)

if TYPE_CHECKING:
    from simbalance.api import SimulationResult

def seat_table(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate of every seat with its Wilson 95% interval."""
    n_slots = 1 + max(int(games[f"strategy_{s}"].max()) for s in range(players))
    return RunAggregate.from_games(games, players, n_slots).seat_table()


def strategy_table(games: pd.DataFrame, players: int, slot_names: tuple[str, ...]) -> pd.DataFrame:
    """Win rate of every strategy over the seats it occupied, with its Wilson 95% interval."""
    return RunAggregate.from_games(games, players, len(slot_names)).strategy_table(slot_names)


def summarize_games(
    games: pd.DataFrame, players: int, slot_names: tuple[str, ...], length_unit: str = "turns"
) -> dict:
    """Every generic metric of a run as a JSON-ready dict."""
    return _jsonable(RunAggregate.from_games(games, players, len(slot_names)).summary(slot_names, length_unit))


def summarize_run(result: SimulationResult) -> dict:
    """The generic metrics plus the engine's own (``summarize`` hook) under ``"game"``."""
    plan = result.plan
    summary = _jsonable(result.aggregate.summary(plan.lineup.slot_names, plan.spec.length_unit))
    if plan.engine.summarize is not None:
        summary["game"] = _jsonable(plan.engine.summarize(result.stats_games, plan.players, plan.config))
    if result.records is None:
        summary["sampled_games"] = int(len(result.sample))  # engine statistics and card impact use these
    table = card_table(result)
    if table is not None:
        summary["cards"] = _records(table)
    return summary


def card_table(result: SimulationResult) -> pd.DataFrame | None:
    """Card impact of the run, for engines that record which cards each seat had."""
    plan = result.plan
    cards = plan.engine.cards
    if cards is None:
        return None
    from simbalance.analysis.cards import card_impact

    labels, groups = cards.labels(plan.config)
    games = result.stats_games
    return card_impact(games, plan.players, cards.masks(games, plan.players, plan.config), labels, groups)


def _records(df: pd.DataFrame) -> list[dict]:
    return [_jsonable(row) for row in df.to_dict(orient="records")]


def _jsonable(value):
    """Plain Python types for json.dump (numpy scalars and arrays, NaN as None)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
