"""Names for people: players count from 1 ("player 1" is seat 0 of every table and DataFrame, which
stay 0-based), and metric names as the pages and the terminal show them."""

from __future__ import annotations

import re


def player(seat: int) -> str:
    """Seat 0 is player 1."""
    return f"player {int(seat) + 1}"


def metric_label(name: str) -> str:
    """A metric's name as shown: ``win rate seat 0`` (the data's name) is ``win rate, player 1``."""
    return re.sub(r"\bseat (\d+)\b", lambda m: f"player {int(m[1]) + 1}", name).replace("win rate player",
                                                                                     "win rate, player")
