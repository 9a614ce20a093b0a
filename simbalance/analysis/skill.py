"""Skill against luck (Jaffe et al. 2012): agency and restricted play, and a plain verdict.

- Agency: each heuristic alone against random players (seats rotated): its per-seat win rate
  against the fair share 1/P. A game of pure luck gives every strategy the fair share.
- Restricted play: a preset that takes one ability away from a strategy (``restricts = "X"`` in
  the game's presets, e.g. a player who never calls) alone against the full strategy X: how much
  the ability is worth.
"""

from __future__ import annotations

import pandas as pd

LUCK_EDGE = 0.01  # below one point of edge over random, a decision does not matter
SOME_SKILL = 0.05
MUCH_SKILL = 0.15


def verdict(has_decisions: bool, agency: pd.DataFrame, players: int) -> str:
    fair = 1.0 / players
    if not has_decisions:
        return (f"Pure luck: the game has no decisions, so every strategy wins its fair share ({fair:.0%}); "
                "only the deal and the seat matter.")
    if agency.empty:
        return "No heuristic to measure: only `random` is defined for this game."
    best = agency.sort_values("win_rate", ascending=False).iloc[0]
    edge = best["win_rate"] - fair
    lo = best["ci_low"] - fair
    text = (f"the best heuristic, {best['strategy']}, wins {best['win_rate']:.1%} against random players "
            f"where {fair:.0%} is fair (edge {edge:+.1%}, 95% CI from {lo:+.1%})")
    if lo <= 0 or edge < LUCK_EDGE:
        return f"Luck: no strategy tested beats random play; {text}."
    if edge < SOME_SKILL:
        return f"Mostly luck, a little skill: {text}."
    if edge < MUCH_SKILL:
        return f"Skill and luck: {text}."
    return f"Skill dominates: {text}."
