"""A/B of a run's report phase (``write_run_folder``: summary, findings, figures, games.parquet,
report.html) against another checkout, on the same games.

    git worktree add /tmp/before <commit>
    python -m benchmarks.report_phase /tmp/before [--game captain-future] [--n 1e6] [--rounds 5]
    python -m benchmarks.report_phase --steps [--n 1e6] [--rounds 3]

This checkout plays ``--n`` games once (seed 3, all threads) and keeps their records in a temporary
file; then, round by round, a fresh process of each checkout (each importing only its own tree, as
benchmarks/ab.py) reads them back and writes the run folder twice: the first write warms matplotlib
and the imports, the second is timed, wall (what ``simbalance run`` prints as "written in") and CPU
(the process's own, the Parquet thread included: steadier on a shared machine). Prints each round
and the median ratios this/before. Both sides must record the same fields (an engine whose records
changed cannot be compared this way).

``--steps``: no other checkout; this one's report steps one by one in this process (the CPU time of
each, ``time.process_time``, ``--rounds`` times on a fresh result): the games frame, the summary,
the findings, the figures drawn and saved, the notable games, and games.parquet (written here on
this thread, not beside the rest as the run does).
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import tempfile

import numpy as np

THIS_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKER = r'''
import pickle, sys, tempfile, time
from pathlib import Path
import simbalance
from simbalance.studies.run import SimulationResult
from simbalance.studies.settings import plan_run
from simbalance.report.run_folder import claim_out_dir, write_run_folder
data, tree = sys.argv[1], sys.argv[2]
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
game, n, threads, records, aggregate, sample, n_played, elapsed = pickle.loads(Path(data).read_bytes())
plan = plan_run(game, n, seed=3, threads=threads)
with tempfile.TemporaryDirectory() as tmp:
    for k in range(2):
        result = SimulationResult(plan, records, elapsed, aggregate, sample, n_played)
        wall, cpu = time.perf_counter(), time.process_time()
        with claim_out_dir(Path(tmp) / f"run{k}", game) as target:
            write_run_folder(result, target, command="benchmarks.report_phase")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(wall, cpu)
'''


def report_seconds(tree: str, data: str) -> tuple[float, float]:
    """(wall, CPU) seconds of the second write of the run folder in a fresh process of ``tree``."""
    tree = os.path.abspath(tree)
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-P", "-c", WORKER, data, tree], env=env, capture_output=True, text=True,
                         check=True)
    wall, cpu = out.stdout.split()[-2:]
    return float(wall), float(cpu)


def steps(result, rounds: int) -> None:
    """Each report step's CPU seconds, ``rounds`` times on a fresh copy of ``result``."""
    import time
    from pathlib import Path

    from simbalance.report import run_folder
    from simbalance.studies.run import SimulationResult

    for _ in range(rounds):
        fresh = SimulationResult(result.plan, result.records, result.elapsed, result.aggregate, result.sample,
                                 result.n_played)
        marks = [time.process_time()]  # after each step: its CPU seconds are the differences
        with tempfile.TemporaryDirectory() as tmp:
            games = fresh.games
            marks.append(time.process_time())
            summary = fresh.summary()
            marks.append(time.process_time())
            fresh.report_findings()
            marks.append(time.process_time())
            figs = run_folder.run_figures(fresh, summary)
            marks.append(time.process_time())
            run_folder.save_figures(Path(tmp), figs)
            marks.append(time.process_time())
            fresh.notable_games()
            marks.append(time.process_time())
            run_folder.write_games_parquet(games, Path(tmp) / "games.parquet")
            marks.append(time.process_time())
        names = ("games frame", "summary", "findings", "figures drawn", "figures saved", "notable games",
                 "games.parquet")
        took = dict(zip(names, np.diff(marks), strict=True))
        print(", ".join(f"{name} {seconds:.2f} s" for name, seconds in took.items()) + " (CPU)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", nargs="?", help="the other checkout (e.g. a git worktree of the previous main)")
    parser.add_argument("--steps", action="store_true", help="this checkout's report steps one by one")
    parser.add_argument("--game", default="captain-future")
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import simbalance

    n = int(args.n)
    result = simbalance.simulate(args.game, n, seed=3, threads=args.threads)
    if args.steps:
        steps(result, args.rounds)
        return
    if args.before is None:
        parser.error("give the other checkout, or --steps")
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "records.pickle")
        with open(data, "wb") as fh:
            pickle.dump((args.game, n, args.threads, result.records, result.aggregate, result.sample, result.n_played,
                         result.elapsed), fh)
        del result
        for r in range(args.rounds):
            old_wall, old_cpu = report_seconds(args.before, data)
            new_wall, new_cpu = report_seconds(THIS_TREE, data)
            walls.append(new_wall / old_wall)
            cpus.append(new_cpu / old_cpu)
            print(f"round {r + 1}: before {old_wall:.2f} s wall {old_cpu:.2f} s CPU, now {new_wall:.2f} s wall "
                  f"{new_cpu:.2f} s CPU, ratio wall {walls[-1]:.2f} CPU {cpus[-1]:.2f}", flush=True)
    print(f"{args.game} {n:,} games, report phase: median ratio now/before wall {statistics.median(walls):.2f}, "
          f"CPU {statistics.median(cpus):.2f}", flush=True)


if __name__ == "__main__":
    main()
