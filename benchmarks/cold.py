"""Cold compile of every engine, this checkout against another, side by side.

    git worktree add /tmp/before <commit>
    python -m benchmarks.cold /tmp/before [--games aquaman find-dr-evil]

Each engine, each side in turn: a fresh process with an empty ``NUMBA_CACHE_DIR`` imports simbalance
from its checkout and plays ``simulate(game, 20)`` on one thread. Prints the process's CPU seconds
(user + system: what the compile costs, steadier than the wall clock on a shared machine) and its
wall seconds, and the ratio now/before of the CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from benchmarks.ab import GAMES, THIS_TREE

PROBE = """
import sys, simbalance
game, tree = sys.argv[1], sys.argv[2]
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
simbalance.simulate(game, 20, seed=1, threads=1)
"""


def cold_compile(game: str, tree: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one cold run of ``game`` from checkout ``tree``."""
    tree = os.path.abspath(tree)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-P", "-c", PROBE, game, tree], env=env, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (e.g. a git worktree of the previous main)")
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    for game in args.games:
        old_cpu, old_wall = cold_compile(game, args.before)
        new_cpu, new_wall = cold_compile(game, THIS_TREE)
        print(f"{game}: before {old_cpu:.1f} CPU s ({old_wall:.1f} s wall), now {new_cpu:.1f} CPU s "
              f"({new_wall:.1f} s wall), ratio {new_cpu / old_cpu:.2f}", flush=True)


if __name__ == "__main__":
    main()
