"""Replay a sample of a large run's games with the engine's replay, which follows the board from the
event log alone and raises where it disagrees with the game's record (a rules check independent of
the kernel's own bookkeeping; docs/rules/<game>.md, "Replay").

    python -m benchmarks.replay_sample GAME [--n 1000000] [--sample 2000] [--strategies S] [--rotate]

The run is the one of seed 0; the sample is ``--sample`` of its ``--n`` game indices, drawn uniformly
(numpy's generator of seed 1), so an engine change can be checked across a 10^6-game run without
telling every game.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simbalance.api import plan_run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--strategies", default=None)
    parser.add_argument("--rotate", action="store_true")
    args = parser.parse_args()
    plan = plan_run(args.game, args.n, seed=0, strategies=args.strategies, rotate=args.rotate)
    games = np.sort(np.random.default_rng(1).choice(args.n, size=min(args.sample, args.n), replace=False))
    start = time.perf_counter()
    lines = 0
    for game in games:
        lines += len(plan.engine.replay(plan, int(game)))  # raises on any disagreement with the record
    print(f"{args.game} engine v{plan.engine.version}: {len(games):,} games of {args.n:,} (run seed 0, "
          f"{args.strategies or 'default lineup'}{', rotated' if args.rotate else ''}) replayed, every one agreeing "
          f"with its record ({lines:,} lines told, {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
