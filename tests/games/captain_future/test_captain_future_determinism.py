"""Same seed, same games, also for rotated mixed lineups at three players (a case once suspected)."""

import numpy as np

import simbalance

KW = dict(seed=4, players=3, strategies=["aggressor", "builder", "random"], rotate=True)


def test_rotated_three_player_games_do_not_depend_on_chunking_or_run_length():
    whole = simbalance.simulate("captain-future", 2400, **KW).records
    assert np.array_equal(whole, simbalance.simulate("captain-future", 2400, **KW).records)
    assert np.array_equal(whole, simbalance.simulate("captain-future", 2400, chunk_size=7, threads=1, **KW).records)
    assert np.array_equal(whole[:1000], simbalance.simulate("captain-future", 1000, **KW).records)


def test_plain_python_plays_the_same_games_as_the_jit():
    """NUMBA_DISABLE_JIT=1 runs the same code as Python (the bench's JIT speed-up needs it): bit
    tricks and integer widths must not change a game."""
    import hashlib
    import os
    import subprocess
    import sys

    strategies = ["builder", "aggressor", "random", "builder"]
    code = ("import simbalance, hashlib; r = simbalance.simulate('captain-future', 3, seed=4, threads=1, "
            f"strategies={strategies!r}); print(hashlib.sha256(r.records.tobytes()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                         capture_output=True, text=True, check=True)
    jit = simbalance.simulate("captain-future", 3, seed=4, threads=1, strategies=strategies)
    assert out.stdout.strip() == hashlib.sha256(jit.records.tobytes()).hexdigest()
