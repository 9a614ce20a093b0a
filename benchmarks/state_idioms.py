"""The three ways the engines hold a game's state, side by side (issue 36 item 2): the same toy game
step written for a namedtuple of arrays (aquaman's ``S.cards``), a plain tuple of arrays read by
position (``state[S_HELD]``: captain-action, lady-actions-escape, find-dr-evil, the scaffold) and
one flat int64 array with offsets (captain-future's ``st[CNT + b * MP + p]``).

    python -m benchmarks.state_idioms [--steps 20000000] [--runs 3]

Each idiom runs in a fresh process with an empty numba cache: the cold compile (seconds, the
first call) and the run (ns per step, best of ``--runs``), with the step compiled with numba's
reference counting (the default) and without it (``_nrt=False``, what the engines' rule steps use).
The step: a seat draws a card (a counter-based random number), the hand counts move, a score and a
turn counter are kept: the kind of work a turn does, a few array reads and writes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r'''
import json, sys, time
from collections import namedtuple
import numpy as np
from numba import njit

idiom, nrt, steps, runs = sys.argv[1], sys.argv[2] == "nrt", int(sys.argv[3]), int(sys.argv[4])
P, R = 4, 16
HELD, COUNT, SCORE, INFO = 0, P * R, P * R + P, P * R + 2 * P
State = namedtuple("State", ["rng", "held", "count", "score", "info"])

def new_state():
    rng = np.ones(1, np.uint64)
    held, count, score, info = (np.zeros((P, R), np.int64), np.zeros(P, np.int64), np.zeros(P, np.int64),
                                np.zeros(4, np.int64))
    if idiom == "namedtuple":
        return State(rng, held, count, score, info)
    if idiom == "tuple":
        return (rng, held, count, score, info)
    return rng, np.zeros(INFO + 4, np.int64)  # flat: one array with offsets, the stream apart

opts = dict(cache=True) if nrt else dict(cache=True, _nrt=False)

@njit(inline="always")
def draw(rng):
    rng[0] = rng[0] * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    return np.int64(rng[0] >> np.uint64(33))

if idiom == "namedtuple":
    @njit(**opts)
    def step(s, seat):
        r = draw(s.rng) % R
        s.held[seat, r] += 1
        s.count[seat] += 1
        if s.held[seat, r] >= 3:
            s.held[seat, r] -= 3
            s.count[seat] -= 3
            s.score[seat] += 1
        s.info[0] += 1
        return s.score[seat]
elif idiom == "tuple":
    @njit(**opts)
    def step(s, seat):
        rng, held, count, score, info = s[0], s[1], s[2], s[3], s[4]
        r = draw(rng) % R
        held[seat, r] += 1
        count[seat] += 1
        if held[seat, r] >= 3:
            held[seat, r] -= 3
            count[seat] -= 3
            score[seat] += 1
        info[0] += 1
        return score[seat]
else:
    @njit(**opts)
    def step(s, seat):
        rng, st = s[0], s[1]
        r = draw(rng) % R
        st[HELD + seat * R + r] += 1
        st[COUNT + seat] += 1
        if st[HELD + seat * R + r] >= 3:
            st[HELD + seat * R + r] -= 3
            st[COUNT + seat] -= 3
            st[SCORE + seat] += 1
        st[INFO] += 1
        return st[SCORE + seat]

@njit(cache=True)
def play(s, steps):
    total = 0
    for i in range(steps):
        total += step(s, i % P)
    return total

s = new_state()
t = time.perf_counter(); play(s, 10); compile_s = time.perf_counter() - t
best = float("inf")
for _ in range(runs):
    s = new_state()
    t = time.perf_counter(); play(s, steps); best = min(best, time.perf_counter() - t)
print(json.dumps({"idiom": idiom, "nrt": nrt, "compile_s": compile_s, "ns_per_step": 1e9 * best / steps}))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"{'idiom':12} {'refcounts':10} {'cold compile s':>15} {'ns per step':>12}")
    for nrt in ("nrt", "no-nrt"):
        for idiom in ("namedtuple", "tuple", "flat"):
            with tempfile.TemporaryDirectory() as folder:  # numba caches a file's functions, not -c's
                child = Path(folder) / "idiom.py"
                child.write_text(CHILD)
                out = subprocess.run([sys.executable, str(child), idiom, nrt, str(args.steps), str(args.runs)],
                                     capture_output=True, text=True,
                                     env={"NUMBA_CACHE_DIR": folder, "PATH": "", "NUMBA_NUM_THREADS": "1"})
            if out.returncode != 0:
                raise SystemExit(out.stderr)
            row = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{idiom:12} {'on' if nrt == 'nrt' else 'off':10} {row['compile_s']:15.2f} {row['ns_per_step']:12.2f}")


if __name__ == "__main__":
    main()
