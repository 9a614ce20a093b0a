"""Same seed, same games: whatever the chunk size or the thread count (in separate processes)."""

import hashlib
import os
import subprocess
import sys

import numpy as np
from plain_python import assert_plain_python_plays_the_same_games

import simbalance

SCRIPT = """
import hashlib, simbalance
r = simbalance.simulate("find-dr-evil", 30_000, seed=5)
print(hashlib.sha256(r.records.tobytes()).hexdigest())
"""


def test_chunk_size_does_not_change_the_games():
    base = simbalance.simulate("find-dr-evil", 5_000, seed=42).records
    for chunk in (1, 7, 1000, 4999):
        other = simbalance.simulate("find-dr-evil", 5_000, seed=42, chunk_size=chunk).records
        assert np.array_equal(base, other), chunk


def test_seed_changes_the_games():
    a = simbalance.simulate("find-dr-evil", 1_000, seed=1).records
    b = simbalance.simulate("find-dr-evil", 1_000, seed=2).records
    assert not np.array_equal(a["dealt_mask"], b["dealt_mask"])


def test_one_and_two_threads_give_identical_games():
    digests = set()
    for threads in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    local = simbalance.simulate("find-dr-evil", 30_000, seed=5, threads=1).records
    digests.add(hashlib.sha256(local.tobytes()).hexdigest())
    assert len(digests) == 1


def test_plain_python_plays_the_same_games_as_the_jit():
    assert_plain_python_plays_the_same_games("find-dr-evil", 40, seed=8, players=3)
