"""Measure the regression gate's false-alarm and miss rates at the default n (docs/ci.md).

    python -m benchmarks.check_rates [--trials 200] [--n 100000]

False alarms: unchanged rules re-checked on fresh seeds. Misses: a planted change, as if a rule
change had made it, re-checked on fresh seeds: the baseline's balance raised by the amount (the
re-run's balance is then that much *worse*: the gate fails), and the baseline's seat-0 win rate
shifted by the amount (a two-sided metric: *changed*, which fails with ``--fail-on-change``).
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

    def fails(metrics, metric, shift, fail_on_change):
        b = {k: dict(v) for k, v in base.items()}
        b[metric]["value"] += shift
        return any(c.fails(fail_on_change) for c in compare_to_baseline(b, metrics))

    print(f"{args.game}, n = {args.n:,}, {args.trials} fresh seeds per row")
    print("| planted change | balance worse by it: check fails | seat 0 moved by it: fails with --fail-on-change |")
    print("|---|---|---|")
    for shift in (0.0, 0.01, 0.015, 0.02, 0.03):
        worse = sum(fails(m, "balance", shift, False) for m in fresh) / len(fresh)
        moved = sum(fails(m, "win rate seat 0", shift, True) for m in fresh) / len(fresh)
        label = "none (false alarms)" if shift == 0 else f"{shift * 100:.1f} points"
        print(f"| {label} | {worse:.1%} | {moved:.1%} |")


if __name__ == "__main__":
    main()
