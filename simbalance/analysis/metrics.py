"""Balance metrics of one run, as designers know them (see docs/metrics.md).

Everything here is a function of the games DataFrame (one row per game). Ties count as fractional
wins (1/k for each of k tied seats) accumulated in floats; games without a winner (timeouts,
stalemates) count as 0 wins for everyone, and win rates are over all games.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import stats

from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, seat_share

if TYPE_CHECKING:
    from simbalance.api import SimulationResult

Z95 = 1.959963984540054
LENGTH_PERCENTILES = (5, 25, 50, 75, 95)


def wilson(successes: float | np.ndarray, n: float | np.ndarray, z: float = Z95):
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    successes = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def seat_table(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """Win rate of every seat with its Wilson 95% interval."""
    winners = games["winners"].to_numpy()
    n = len(games)
    wins = np.array([seat_share(winners, s).sum() for s in range(players)])
    lo, hi = wilson(wins, n)
    return pd.DataFrame({
        "seat": np.arange(players),
        "wins": wins,
        "games": n,
        "win_rate": wins / n,
        "ci_low": lo,
        "ci_high": hi,
    })


def strategy_table(games: pd.DataFrame, players: int, slot_names: tuple[str, ...]) -> pd.DataFrame:
    """Win rate of every strategy over the seats it occupied, with its Wilson 95% interval."""
    winners = games["winners"].to_numpy()
    wins = np.zeros(len(slot_names))
    seat_games = np.zeros(len(slot_names), dtype=np.int64)
    for seat in range(players):
        share = seat_share(winners, seat)
        slot = games[f"strategy_{seat}"].to_numpy()
        wins += np.bincount(slot, weights=share, minlength=len(slot_names))[: len(slot_names)]
        seat_games += np.bincount(slot, minlength=len(slot_names))[: len(slot_names)]
    rows = []
    for slot, name in enumerate(slot_names):
        lo, hi = wilson(wins[slot], seat_games[slot])
        rows.append({
            "strategy": name, "wins": float(wins[slot]), "seat_games": int(seat_games[slot]),
            "win_rate": wins[slot] / seat_games[slot] if seat_games[slot] else float("nan"),
            "ci_low": float(lo), "ci_high": float(hi),
        })
    return pd.DataFrame(rows)


def length_stats(lengths: pd.Series) -> dict:
    values = lengths.to_numpy(dtype=np.float64)
    out = {
        "mean": float(values.mean()),
        "sd": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        "min": float(values.min()),
        "max": float(values.max()),
    }
    for q, v in zip(LENGTH_PERCENTILES, np.percentile(values, LENGTH_PERCENTILES), strict=True):
        out[f"p{q}"] = float(v)
    return out


def outcome_shares(games: pd.DataFrame) -> dict:
    end = games["end"].to_numpy()
    n = len(games)
    winners = games["winners"].to_numpy()
    tied = (end == END_WIN) & (np.bitwise_count(winners) > 1)
    return {
        "decided": float((end == END_WIN).sum() / n),
        "ties": float(tied.sum() / n),
        "timeouts": float((end == END_TIMEOUT).sum() / n),
        "stalemates": float((end == END_STALEMATE).sum() / n),
    }


def equal_seats_test(seats: pd.DataFrame) -> dict:
    """Chi-square test of "every seat wins equally often" over the win counts of decided games."""
    wins = seats["wins"].to_numpy(dtype=np.float64)
    total = wins.sum()
    if total <= 0 or len(wins) < 2:
        return {"statistic": None, "p_value": None, "dof": len(wins) - 1}
    res = stats.chisquare(wins)
    return {"statistic": float(res.statistic), "p_value": float(res.pvalue), "dof": len(wins) - 1}


def balance(seats: pd.DataFrame) -> float:
    """Ludii's balance: 1 minus the largest gap between two seats' win rates."""
    rates = seats["win_rate"].to_numpy()
    return float(1.0 - (rates.max() - rates.min()))


def summarize_games(
    games: pd.DataFrame, players: int, slot_names: tuple[str, ...], length_unit: str = "turns"
) -> dict:
    """Every generic metric of a run as a JSON-ready dict."""
    seats = seat_table(games, players)
    first = seats.iloc[0]
    fair = 1.0 / players
    strategies = strategy_table(games, players, slot_names)
    return {
        "n_games": int(len(games)),
        "players": players,
        "seats": _records(seats),
        "strategies": _records(strategies),
        "first_player_advantage": {
            "value": float(first.win_rate - fair),
            "ci_low": float(first.ci_low - fair),
            "ci_high": float(first.ci_high - fair),
            "fair_share": fair,
        },
        "balance": balance(seats),
        "equal_seats_chi_square": equal_seats_test(seats),
        "length": {"unit": length_unit, **length_stats(games["length"])},
        "outcomes": outcome_shares(games),
    }


def summarize_run(result: SimulationResult) -> dict:
    """The generic metrics plus the engine's own (``summarize`` hook) under ``"game"``."""
    plan = result.plan
    summary = summarize_games(result.games, plan.players, plan.lineup.slot_names, plan.spec.length_unit)
    hook = getattr(plan.engine, "summarize", None)
    if hook is not None:
        summary["game"] = _jsonable(hook(result.games, plan.players))
    table = card_table(result)
    if table is not None:
        summary["cards"] = _records(table)
    return summary


def card_table(result: SimulationResult) -> pd.DataFrame | None:
    """Card impact of the run, for engines that record which cards each seat had."""
    engine = result.plan.engine
    if not (hasattr(engine, "card_masks") and hasattr(engine, "card_info")):
        return None
    from simbalance.analysis.cards import card_impact

    labels, groups = engine.card_info(result.plan.config)
    return card_impact(result.games, result.plan.players, engine.card_masks(result.games, result.plan.players),
                       labels, groups)


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
