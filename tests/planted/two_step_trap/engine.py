"""Two-step trap's engine (the package's docstring has the rules)."""

from __future__ import annotations

import numpy as np
from two_step_trap import game_nb

from simbalance.core.config import require_int
from simbalance.core.records import MAX_SEATS, record_dtype
from simbalance.core.spec import Engine, Resumable, Search
from simbalance.players import SEARCH_PARAMS, SEARCH_STRATEGIES

RECORD_DTYPE = record_dtype([("points", np.int16, (MAX_SEATS,)), ("attacks", np.int16, (MAX_SEATS,))])
STRATEGIES = {"random": game_nb.RANDOM, **SEARCH_STRATEGIES}
STRATEGY_PARAMS = {"random": (), **SEARCH_PARAMS}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    rules = np.zeros(game_nb.N_RULES, np.int64)
    rules[game_nb.ROUNDS] = require_int(cfg, "rules.rounds", 1, 1000)
    rules[game_nb.REPLIES] = require_int(cfg, "rules.replies", 2, 16)
    return (np.int64(players), rules, np.bool_(validate))


ENGINE = Engine(
    version=1,
    record_dtype=RECORD_DTYPE,
    strategies=STRATEGIES,
    strategy_params=STRATEGY_PARAMS,
    prepare=prepare,
    kernel=game_nb.kernel,
    module=__name__,
    has_decisions=True,
    resumable=Resumable.of_game(game_nb, game_nb, game_nb),
    search=Search.of_game(game_nb, game_nb),
)
