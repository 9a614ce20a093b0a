"""Small search budgets for tests that check what every decision does, not how strong it is.

lady-actions-escape, aquaman and captain-future play long games: their play-outs are cut and scored
(aquaman's flat to the end: both ways are played)."""

from __future__ import annotations

SMALL = {"captain-action": [], "lady-actions-escape": ["strategies.mcts.depth=8", "strategies.flat.depth=8"],
         "aquaman": ["strategies.mcts.depth=12", "strategies.flat.depth=0"],
         "captain-future": ["strategies.mcts.depth=8", "strategies.flat.depth=8"]}


def small_search_overrides(game: str) -> list[str]:
    """``--set`` overrides that make ``mcts`` and ``flat`` cheap in ``game``."""
    return ["strategies.mcts.iterations=8", "strategies.flat.playouts=2", *SMALL[game]]
