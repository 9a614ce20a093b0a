"""find-dr-evil's parts of the report: its summary line and the card-impact table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.games.find_dr_evil.deck import game_deck


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Win rate by the seat dealt Dr. Ling: the deal decides the game."""
    won_with_ling = (games["winner"] == games["ling_dealt"]).mean()
    return {"share_won_by_seat_dealt_dr_ling": float(won_with_ling)}


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of ``dealt_mask``) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The cards each seat was dealt (no survivor bias: every game deals every card)."""
    return {"dealt": [games[f"dealt_mask_{s}"].to_numpy() for s in range(players)]}
