"""Same seed, same games whatever the size of the thread pool the process starts with (separate
processes); every game also passes the contract test (tests/test_contract.py: threads, chunks,
plain Python)."""

import hashlib
import os
import subprocess
import sys

import numpy as np

import simbalance

SCRIPT = """
import hashlib, simbalance
r = simbalance.simulate("find-dr-evil", 30_000, seed=5)
print(hashlib.sha256(r.records.tobytes()).hexdigest())
"""


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
