"""A/B of every engine against another checkout, one thread, side by side (the ratio is what counts).

    git worktree add /tmp/before <commit>
    python -m benchmarks.ab /tmp/before [--rounds 3]

For each engine (default strategies, 4 players, warm cache) the two checkouts play in turn, each in
a fresh process (the other checkout's package first on PYTHONPATH), best of three simulate() calls;
prints games/s of both and the ratio new/old per round, and the median ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

GAMES = {"find-dr-evil": 400_000, "captain-action": 100_000, "lady-actions-escape": 20_000, "aquaman": 10_000,
         "captain-future": 10_000}
THIS_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = """
import sys, time, simbalance
game, n, tree = sys.argv[1], int(sys.argv[2]), sys.argv[3]
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
simbalance.simulate(game, min(n, 2000), seed=1, threads=1)
best = 0.0
for r in range(3):
    t = time.perf_counter(); simbalance.simulate(game, n, seed=r, threads=1); best = max(best, n / (time.perf_counter() - t))
print(best)
"""


def games_per_s(game: str, n: int, tree: str) -> float:
    """Best of three runs in a fresh process that imports simbalance from ``tree`` and nowhere else
    (``-P``: the working directory is not put first on sys.path, so both sides of an A/B run from
    any folder import their own checkout; the probe checks it)."""
    tree = os.path.abspath(tree)
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-P", "-c", PROBE, game, str(n), tree], env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (e.g. a git worktree of the previous main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    for game in args.games:
        ratios = []
        for r in range(args.rounds):
            old = games_per_s(game, GAMES[game], args.before)
            new = games_per_s(game, GAMES[game], THIS_TREE)
            ratios.append(new / old)
            print(f"{game} round {r + 1}: before {old:,.0f} games/s, now {new:,.0f} games/s, ratio {new / old:.2f}",
                  flush=True)
        print(f"{game}: median ratio now/before {statistics.median(ratios):.2f}", flush=True)


if __name__ == "__main__":
    main()
