"""Edge duel's engine (the package's docstring has the rules)."""

from __future__ import annotations

import numpy as np
from edge_duel import game_nb

from simbalance.core.config import require_int
from simbalance.core.records import record_dtype
from simbalance.core.spec import Engine

RECORD_DTYPE = record_dtype([])
STRATEGIES = {"alpha": game_nb.ALPHA, "beta": game_nb.BETA, "gamma": game_nb.GAMMA}
STRATEGY_PARAMS = {"alpha": (), "beta": (), "gamma": ()}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    edges = np.zeros((3, 3), np.float64)
    for (i, j), key in {(0, 1): "rules.edge_ab", (1, 2): "rules.edge_bc", (2, 0): "rules.edge_ca"}.items():
        edges[i, j] = require_int(cfg, key, -50, 50) / 100
        edges[j, i] = -edges[i, j]
    return (edges,)


ENGINE = Engine(
    version=1,
    record_dtype=RECORD_DTYPE,
    strategies=STRATEGIES,
    strategy_params=STRATEGY_PARAMS,
    prepare=prepare,
    kernel=game_nb.kernel,
    module=__name__,
    has_decisions=True,
)
