"""The strategy ids of the search players, as the game contract (core/spec.py) and every engine read
them: a strategy id ``<= SEARCH_MAX_ID`` is a search player's, and a game's ``play_out`` stops
before its decisions. The search players themselves live in simbalance/players."""

from __future__ import annotations

MCTS = -64  # strategy id of ``mcts`` in every game that has search players
FLAT = -65  # strategy id of ``flat``
SEARCH_MAX_ID = -64  # a strategy id ``<= SEARCH_MAX_ID`` is a search player's (play_out stops there)
SEARCH_IDS = (MCTS, FLAT)


def is_search_id(sid: int) -> bool:
    return int(sid) <= SEARCH_MAX_ID
