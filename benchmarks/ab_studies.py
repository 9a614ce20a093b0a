"""A/B of the block-job studies (card-value, fit-eval) against another checkout, one thread, side
by side (the ratio is what counts on a shared machine).

    git worktree add /tmp/before <commit>
    python -m benchmarks.ab_studies /tmp/before [--rounds 3]

For each study the two checkouts play in turn, each in a fresh process that imports simbalance from
its own tree only (as benchmarks/ab.py), the study once to compile, then the best of two timed
calls on captain-action (short games, cheap to compile); prints seconds of both, the ratio
now/before per round and the median ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from benchmarks.ab import THIS_TREE

STUDIES = {
    "card-value": "from simbalance.studies.card_value import card_value as f\n"
                  "call = lambda s: f('captain-action', states=400, playouts=4, decisions=60, observe=0, seed=s, "
                  "threads=1)",
    "fit-eval": "from simbalance.studies.fit_eval import fit_eval as f\n"
                "call = lambda s: f('captain-action', 20000, seed=s, threads=1)",
}
PROBE = """
import sys, time, simbalance
tree = sys.argv[1]
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
exec(sys.argv[2])
call(0)
best = float("inf")
for s in (1, 2):
    t = time.perf_counter(); call(s); best = min(best, time.perf_counter() - t)
print(best)
"""


def seconds(study: str, tree: str) -> float:
    tree = os.path.abspath(tree)
    out = subprocess.run([sys.executable, "-P", "-c", PROBE, tree, STUDIES[study]],
                         env=dict(os.environ, PYTHONPATH=tree), capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (e.g. a git worktree of the previous main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--studies", nargs="*", default=list(STUDIES))
    args = parser.parse_args()
    for study in args.studies:
        ratios = []
        for r in range(args.rounds):
            old = seconds(study, args.before)
            new = seconds(study, THIS_TREE)
            ratios.append(new / old)
            print(f"{study} round {r + 1}: before {old:.2f} s, now {new:.2f} s, ratio now/before {new / old:.2f}",
                  flush=True)
        print(f"{study}: median ratio now/before {statistics.median(ratios):.2f} "
              f"(range {min(ratios):.2f} to {max(ratios):.2f})", flush=True)


if __name__ == "__main__":
    main()
