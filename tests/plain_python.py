"""Shared check: an engine run as plain Python (NUMBA_DISABLE_JIT=1, the bench's baseline) plays
exactly the games the jitted engine plays: integer widths and bit tricks must not change a game."""

import hashlib
import os
import subprocess
import sys

import simbalance


def assert_plain_python_plays_the_same_games(game: str, n: int, **kwargs) -> None:
    code = (f"import hashlib, simbalance; r = simbalance.simulate({game!r}, {n}, threads=1, **{kwargs!r}); "
            "print(hashlib.sha256(r.records.tobytes()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                         capture_output=True, text=True, check=True)
    jit = simbalance.simulate(game, n, threads=1, **kwargs).records
    assert out.stdout.strip() == hashlib.sha256(jit.tobytes()).hexdigest(), f"{game}: plain Python differs"
