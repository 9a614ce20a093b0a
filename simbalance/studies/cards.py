"""Card impact of a run: for engines that record which cards each seat had (``Engine.cards``), the
win rate with and without each card, adjusted for game length (analysis/cards.py)."""

from __future__ import annotations

import pandas as pd

from simbalance.analysis.cards import card_impact
from simbalance.core.plan import RunPlan


def card_table(plan: RunPlan, games: pd.DataFrame) -> pd.DataFrame | None:
    """The card-impact table of a run's games (all of them, or a streamed run's sample), or None
    for an engine that records no cards."""
    cards = plan.engine.cards
    if cards is None:
        return None
    labels, groups = cards.labels(plan.config)
    return card_impact(games, plan.players, cards.masks(games, plan.players, plan.config), labels, groups)
