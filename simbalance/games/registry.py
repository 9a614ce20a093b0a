"""Game id -> GameSpec, found by scanning the packages under ``simbalance/games/``.

A new game needs no edit here: a package whose ``__init__`` defines ``SPEC`` is a game.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import simbalance.games as games_pkg
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.games.spec import GameSpec


@cache
def all_games() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(games_pkg.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{games_pkg.__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            found[spec.id] = spec
    return dict(sorted(found.items()))


def get_game(game_id: str) -> GameSpec:
    games = all_games()
    if game_id not in games:
        raise SimbalanceError(f"unknown game {game_id!r}{did_you_mean(game_id, games)}; known games: "
                              f"{', '.join(games)}")
    return games[game_id]
