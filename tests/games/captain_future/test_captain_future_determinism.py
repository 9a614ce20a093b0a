"""Same seed, same games, also for rotated mixed lineups at three players (a case once suspected)."""

import numpy as np
from plain_python import assert_plain_python_plays_the_same_games

import simbalance

KW = dict(seed=4, players=3, strategies=["aggressor", "builder", "random"], rotate=True)


def test_rotated_three_player_games_do_not_depend_on_chunking_or_run_length():
    whole = simbalance.simulate("captain-future", 2400, **KW).records
    assert np.array_equal(whole, simbalance.simulate("captain-future", 2400, **KW).records)
    assert np.array_equal(whole, simbalance.simulate("captain-future", 2400, chunk_size=7, threads=1, **KW).records)
    assert np.array_equal(whole[:1000], simbalance.simulate("captain-future", 1000, **KW).records)


def test_plain_python_plays_the_same_games_as_the_jit():
    assert_plain_python_plays_the_same_games("captain-future", 3, seed=4,
                                             strategies=["builder", "aggressor", "random", "builder"])
