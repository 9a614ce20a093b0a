"""A/B of the studies' whole commands against another checkout, one thread, side by side (the CPU
ratio is what counts on a shared machine).

    git worktree add /tmp/before <commit>
    python -m benchmarks.ab_studies /tmp/before [--rounds 5] [--studies run compare ...]

For each study (COMMANDS: run, compare, solve and card-value on captain-action, small but whole
command lines at ``--threads 1``, 3 to 8 CPU seconds each; and ``simbalance games``, the start-up
every command pays) the two checkouts run the command in turn, before then now, each in a fresh
process that imports simbalance from its own tree only (``python -P``, PYTHONPATH=that tree, as
benchmarks/ab.py; the probe checks it), with its own ``--out`` in a temporary folder removed after
every run. Each tree compiles into its own numba cache (beside its sources), warmed by one uncounted
run of each side first. A run's cost is the child's CPU seconds (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after it: time spent waiting for the shared
cores does not count) and, beside it, its wall seconds. Prints both sides and the ratio now/before
per round, the median ratio with its range per study, and at the end a table of median CPU seconds
and ratios and the command lines (BENCHMARKS.md, "Studies before and after the contract (issue
52)").

The command lines mean the same work on both sides: only options both checkouts accept, and every
default that changed between them pinned (SIDES: what only one side needs to say the same thing).
Written for main before the study contract (e4f74bc) against main after it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks.ab import THIS_TREE

# Each study's command line, the same on both sides (``--out`` is added). Pinned where a default
# changed after e4f74bc: findings.alpha (0.01 -> 0.05, the statistics core's one ALPHA), through
# compare's own --alpha. solve's search is one whose work is the same on both sides: every candidate
# refuted in its first rung (188 candidates x 10,000 games, and today's rules verified on 10^5), so
# issue 51's race (a survivor plays on until settled) plays nothing more on either side.
ALPHA = ["--set", "findings.alpha=0.01"]
ONE = ["--threads", "1"]
COMMANDS = {
    "run": ["run", "captain-action", "--n", "2e5", "--seed", "1", *ALPHA, *ONE],
    "compare": ["compare", "captain-action", "--variant", "take-back", "--variant", "short-countdown", "--n", "2e5",
                "--seed", "1", "--alpha", "0.01", *ONE],
    "solve": ["solve", "captain-action", "--knob", "compensation.points.1=-20:0", "--knob", "rules.countdown=6:14",
              "--target", "balance=0.97:1", "--max-keys", "2", "--answers", "2", "--start-n", "10000",
              "--verify-n", "1e5", "--budget", "10m", "--strategies", "builder", "--seed", "1", *ALPHA, *ONE],
    "card-value": ["card-value", "captain-action", "--states", "400", "--playouts", "4", "--decisions", "60",
                   "--observe", "0", "--seed", "1", *ALPHA, *ONE],
    # no study: what every command pays before its own work (the imports, the commands registered)
    "start-up": ["games"],
}
WRITES_NOTHING = {"start-up"}  # takes no --out
# What one side adds to say the same thing: solve judged under the run's lineup alone (before:
# --no-models, no check under other players; now: --models naming that lineup, the one model).
SIDES = {"solve": {"before": ["--no-models"], "now": ["--models", "builder"]}}
PROBE = """
import sys, simbalance
tree = sys.argv[1]
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
from simbalance.cli.main import main
sys.argv = ["simbalance", *sys.argv[2:]]
sys.exit(main())
"""


def command(study: str, side: str, out: str) -> list[str]:
    """The study's command line on one side ("before" or "now"), writing its folder ``out``."""
    return [*COMMANDS[study], *SIDES.get(study, {}).get(side, []), *([] if study in WRITES_NOTHING else ["--out", out])]


def cost(study: str, side: str, tree: str) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one run of the study's command in a fresh
    process importing simbalance from ``tree`` and nowhere else; its output written in a temporary
    folder of its own, removed after."""
    tree = os.path.abspath(tree)
    folder = tempfile.mkdtemp(prefix=f"ab-studies-{study}-")
    try:
        args = [sys.executable, "-P", "-c", PROBE, tree, *command(study, side, os.path.join(folder, "out"))]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(args, env=dict(os.environ, PYTHONPATH=tree), cwd=folder, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"{study} ({side}, {tree}) exited {done.returncode}: {' '.join(args[4:])}\n{done.stderr[-3000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return cpu, wall
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (e.g. a git worktree of the previous main)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--studies", nargs="*", default=list(COMMANDS), choices=list(COMMANDS))
    args = parser.parse_args()
    trees = {"before": args.before, "now": THIS_TREE}
    table = []
    for study in args.studies:
        for side, tree in trees.items():  # warm each tree's numba cache: not counted
            cost(study, side, tree)
        cpu: dict[str, list[float]] = {"before": [], "now": []}
        cpu_ratios, wall_ratios = [], []
        for r in range(args.rounds):
            (old_cpu, old_wall), (new_cpu, new_wall) = (cost(study, side, tree) for side, tree in trees.items())
            cpu["before"].append(old_cpu)
            cpu["now"].append(new_cpu)
            cpu_ratios.append(new_cpu / old_cpu)
            wall_ratios.append(new_wall / old_wall)
            print(f"{study} round {r + 1}: CPU before {old_cpu:.2f} s, now {new_cpu:.2f} s, ratio {cpu_ratios[-1]:.2f} "
                  f"(wall {old_wall:.2f} s, {new_wall:.2f} s, ratio {wall_ratios[-1]:.2f})", flush=True)
        row = (study, statistics.median(cpu["before"]), statistics.median(cpu["now"]), statistics.median(cpu_ratios),
               min(cpu_ratios), max(cpu_ratios), statistics.median(wall_ratios))
        table.append(row)
        print(f"{study}: median CPU ratio now/before {row[3]:.2f} (range {row[4]:.2f} to {row[5]:.2f}), "
              f"median wall ratio {row[6]:.2f}", flush=True)
    print("\n| study | CPU before | CPU now | CPU now/before (range) | wall now/before |")
    print("|---|---:|---:|---:|---:|")
    for study, old, new, ratio, low, high, wall in table:
        print(f"| {study} | {old:.2f} s | {new:.2f} s | {ratio:.2f} ({low:.2f} to {high:.2f}) | {wall:.2f} |")
    print()
    for study in args.studies:
        for side in ("before", "now") if study in SIDES else ("now",):
            said = f" ({side})" if study in SIDES else ""
            print(f"- {study}{said}: `simbalance {' '.join(command(study, side, 'OUT'))}`")


if __name__ == "__main__":
    main()
