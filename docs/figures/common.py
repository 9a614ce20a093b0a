"""Helpers shared by the docs figure scripts (docs/figures/<game>.py)."""

from __future__ import annotations


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def strategy_share(result, name: str) -> float:
    """The win rate per seat played by strategy ``name`` in a run, over all games (ties 1/k)."""
    return float(next(r["win_rate"] for r in result.summary()["strategies"] if r["strategy"] == name))
