"""Measure the regression gate's false-alarm and miss rates at the default n (docs/ci.md).

    python -m benchmarks.check_rates [--trials 200] [--n 100000]

False alarms: unchanged rules re-checked on fresh seeds. Misses: the baseline's seat-0 win rate
shifted by a planted amount (as if a rule change had moved it), re-checked on fresh seeds.
"""

from __future__ import annotations

import argparse

from simbalance.analysis.check import compare_to_baseline, headline_metrics
from simbalance.api import simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--game", default="find-dr-evil")
    args = parser.parse_args()
    base = headline_metrics(simulate(args.game, args.n, seed=0).summary())
    fresh = [headline_metrics(simulate(args.game, args.n, seed=s).summary()) for s in range(1, args.trials + 1)]

    def fails(metrics, shift):
        b = {k: dict(v) for k, v in base.items()}
        b["win rate seat 0"]["value"] += shift
        return any(c.status == "REGRESSION" for c in compare_to_baseline(b, metrics))

    print(f"{args.game}, n = {args.n:,}, {args.trials} fresh seeds per row")
    print("| planted shift of seat 0 | check fails |")
    print("|---|---|")
    for shift in (0.0, 0.01, 0.015, 0.02, 0.03):
        rate = sum(fails(m, shift) for m in fresh) / len(fresh)
        label = "none (false alarms)" if shift == 0 else f"{shift * 100:.1f} points"
        print(f"| {label} | {rate:.1%} |")


if __name__ == "__main__":
    main()
