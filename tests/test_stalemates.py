"""No false stalemates (issue 21): every engine's loop detection leaves the games that end alone.
With each engine's default players, at a fixed seed, the games played with the default
``rules.stalemate_window`` and without it (0) are the same games field for field, except games the
window ended as stalemates, which without it run to the cap as timeouts."""

import numpy as np
import pytest

import simbalance
from simbalance.core.config import load_config
from simbalance.core.records import END_STALEMATE, END_TIMEOUT
from simbalance.games.registry import all_games

GAMES = sorted(all_games())
N = {"find-dr-evil": 20_000, "captain-action": 20_000, "lady-actions-escape": 2_000, "aquaman": 1_000,
     "captain-future": 500}


@pytest.mark.parametrize("game", GAMES)
def test_the_window_ends_only_games_that_would_never_end(game):
    assert "stalemate_window" in load_config(game)["rules"], f"{game}: no rules.stalemate_window"
    n = N.get(game, 1_000)
    on = simbalance.simulate(game, n, seed=5).records
    off = simbalance.simulate(game, n, seed=5, overrides={"rules.stalemate_window": 0}).records
    window = (on["end"] == END_STALEMATE) & (off["end"] != END_STALEMATE)
    assert (off["end"][window] == END_TIMEOUT).all(), f"{game}: a game the window ended would have ended"
    assert on[~window].tobytes() == off[~window].tobytes()
    assert window.sum() <= 0.002 * n, f"{game}: {window.sum()} stalemates with the default players"


@pytest.mark.parametrize("game", GAMES)
def test_every_stalemate_has_a_named_reason(game):
    engine = all_games()[game].load()
    assert engine.progress and engine.stalemate_reasons, f"{game}: no progress measure or stalemate reasons"
    res = simbalance.simulate(game, 200, seed=6, overrides={"rules.stalemate_window": 1})
    stalled = res.records["end"] == END_STALEMATE
    assert np.isin(res.records["stalemate_reason"][stalled], list(engine.stalemate_reasons)).all()
    assert (res.records["stalemate_reason"][~stalled] == 0).all()
