"""lady-actions-escape's part of the report: summary, figures, and the card-impact table's labels
and masks (Engine.summarize, Engine.figures, Engine.cards)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.games.lady_actions_escape.deck import game_deck


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of the masks) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The opening hand (no survivor bias). Cards held at the end are recorded too (``hand_mask``),
    but in a shedding game holding any card at the end means losing: no impact to measure there."""
    return {"dealt": [games[f"dealt_mask_{s}"].to_numpy() for s in range(players)]}


def _cols(games: pd.DataFrame, field: str, players: int) -> list[str]:
    return [f"{field}_{s}" for s in range(players) if f"{field}_{s}" in games]


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Plays, reversals, Dr. Evil draws, reshuffles, passes and cards left per seat."""
    if len(games) == 0:
        return {}
    out = {}
    for field in ("reversals", "draw_twos", "reshuffles", "passes", "wilds_played"):
        out[f"{field}_mean"] = float(games[field].mean())
    out["share_with_reshuffle"] = float((games["reshuffles"] > 0).mean())
    for field in ("plays", "drawn", "cards_left"):
        out[f"{field}_mean_by_seat"] = [float(games[c].mean()) for c in _cols(games, field, players)]
    left = games[_cols(games, "cards_left", players)].to_numpy()
    finished = games["end"].to_numpy() == 0
    if finished.any():
        # Cards the losers still held: how close the race was.
        losers = left[finished]
        out["cards_left_losers_mean"] = float(losers[losers > 0].mean()) if (losers > 0).any() else 0.0
    return out


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict:
    """Cards left in the losers' hands, and the game's event counts."""
    from matplotlib.figure import Figure

    players = sum(1 for c in games.columns if c.startswith("cards_left_"))
    left = games[[f"cards_left_{s}" for s in range(players)]].to_numpy()
    losers = left[(games["end"].to_numpy() == 0)[:, None] & (left > 0)]
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    if losers.size:
        values, counts = np.unique(losers, return_counts=True)
        ax.bar(values, counts / counts.sum())
    ax.set_xlabel("cards left in a losing hand at the end")
    ax.set_ylabel("share of losing hands")
    ax.set_title("lady-actions-escape: how close the others were")
    figs = {"lady_actions_escape_cards_left": fig}

    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    names = ["reversals", "draw_twos", "reshuffles", "passes", "wilds_played"]
    ax.bar(names, [games[n].mean() for n in names])
    ax.set_ylabel("per game (mean)")
    ax.set_title("lady-actions-escape: events per game")
    figs["lady_actions_escape_events"] = fig
    return figs
