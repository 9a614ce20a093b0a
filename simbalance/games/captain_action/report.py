"""captain-action's report: the summary, the figures and the cards of the card-impact table.

Each hook sees the games (one row per game), the player count and the resolved config
(core/spec.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.records import win_shares
from simbalance.games.captain_action.deck import game_deck


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of ``hand_mask``) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The cards each seat held at the end (the card-impact table adjusts for game length)."""
    return {"held at the end": [games[f"hand_mask_{s}"].to_numpy() for s in range(players)]}


def _seat_cols(games: pd.DataFrame, field: str, players: int) -> list[str]:
    return [f"{field}_{s}" for s in range(players) if f"{field}_{s}" in games]


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Who called, the Countdown at the call, countdown run-outs, scores per seat, hand scores."""
    n = len(games)
    if n == 0:
        return {}
    called = games["caller"] >= 0
    out: dict = {
        "share_called": float(called.mean()),
        "share_countdown_out": float((games["countdown_out"] == 1).mean()),
        "call_share_by_seat": [float((games["caller"] == s).mean()) for s in range(players)],
        "countdown_left_at_call_mean": float(games.loc[called, "countdown_left"].mean()) if called.any() else None,
        "countdown_left_at_call_hist": {
            int(k): int(v) for k, v in games.loc[called, "countdown_left"].value_counts().sort_index().items()
        },
        "score_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "score", players)],
        "hand_score_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "hand_score", players)],
        "takes_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "takes", players)],
    }
    hs = games[_seat_cols(games, "hand_score", players)].to_numpy().ravel()
    values, counts = np.unique(hs, return_counts=True)
    out["hand_score_hist"] = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    out["hand_score_percentiles"] = {str(q): float(np.percentile(hs, q)) for q in (5, 25, 50, 75, 95)}
    if called.any():
        # A caller tied with k - 1 others wins 1/k, as in every win rate (docs/architecture.md, "Ties").
        shares = win_shares(games.loc[called, "winners"].to_numpy(), players)
        caller = games.loc[called, "caller"].to_numpy().astype(np.int64)
        out["share_caller_wins"] = float(shares[np.arange(len(caller)), caller].mean())
    # Per strategy slot: how often its seats call, and their mean score.
    strat_cols = _seat_cols(games, "strategy", players)
    if strat_cols:
        slots = np.unique(games[strat_cols].to_numpy())
        by_slot = {}
        for slot in slots:
            seat_is = games[strat_cols].to_numpy() == slot
            scores = games[_seat_cols(games, "score", players)].to_numpy()
            calls = np.zeros_like(seat_is)
            caller = games["caller"].to_numpy()
            for s in range(players):
                calls[:, s] = caller == s
            by_slot[int(slot)] = {
                "score_mean": float(scores[seat_is].mean()),
                "calls_per_game": float((calls & seat_is).sum() / max(1, seat_is.any(axis=1).sum())),
            }
        out["by_strategy_slot"] = by_slot
    return out


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict:
    """Final-hand score distribution, and the Countdown Deck's size at the call."""
    from matplotlib.figure import Figure

    figs = {}
    players = sum(1 for c in games.columns if c.startswith("hand_score_"))
    hs = games[[f"hand_score_{s}" for s in range(players)]].to_numpy().ravel()
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    values, counts = np.unique(hs, return_counts=True)
    ax.bar(values, counts / counts.sum(), width=3)
    ax.set_xlabel("final hand score (sets only)")
    ax.set_ylabel("share of hands")
    ax.set_title("captain-action: final-hand scores")
    figs["captain_action_hand_scores"] = fig

    called = games["caller"] >= 0
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    if called.any():
        left = games.loc[called, "countdown_left"].value_counts().sort_index()
        ax.bar(left.index.to_numpy(), left.to_numpy() / len(games))
    ax.set_xlabel("Countdown cards left at the call (the caller's bonus)")
    ax.set_ylabel("share of games")
    ax.set_title(f"captain-action: calls ({called.mean():.0%} of games; rest: countdown out or timeout)")
    figs["captain_action_calls"] = fig
    return figs
