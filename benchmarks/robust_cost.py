"""What `simbalance run GAME --robust` costs (docs/strategies.md, "What --robust costs").

    python -m benchmarks.robust_cost [--measure captain-action] [--sample captain-future] [--write]

For each game of ``--measure``: the wall and CPU time (user + system of the child, every thread)
of `simbalance run GAME --n N` with and without `--robust`, in turn (the CLI in a subprocess, warm
cache: one untimed run of each first; best of ``--repeat``), and how many games its search sample
played. For each game of ``--sample``: its `--robust` sample alone, measured, not estimated
(studies/robustness.strong_play at the run's defaults and seed 0: every seat ``mcts@100`` until
every seat's 95% CI half-width is below 3 points, all threads, warm): its games, wall seconds and
CPU seconds (this process, every thread), so CPU seconds a game, which a shared machine inflates
less than the wall (the wall on dedicated cores is about CPU / cores: the sample's chunks keep
every thread busy but for a chunk's last block). The games the precision needs: about 800 at 4
seats near the fair share (1.96^2 (1/P)(1 - 1/P) / precision^2), 1,067 with a seat near 50%.
``--write`` puts the table into docs/strategies.md between ``<!-- robust-cost -->`` markers. The
machine is shared: compare figures of one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
PRECISION, BUDGET = 0.03, 100


def children_cpu() -> float:
    """User + system seconds of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_runs(game: str, n: str, repeat: int) -> dict:
    """The CLI run without and with --robust, in turn (plain, robust, plain, robust, ...): each
    one's best wall and CPU seconds, and the search sample (findings.json's strong_play)."""
    best = {False: [math.inf, math.inf], True: [math.inf, math.inf]}
    strong = None
    for i in range(repeat + 1):  # the first pair warms the cache and is not counted
        for robust in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "r"
                cmd = [sys.executable, "-m", "simbalance.cli.main", "run", game, "--n", n, "--out", str(out),
                       "--quiet"]
                begin, cpu = time.perf_counter(), children_cpu()
                subprocess.run(cmd + (["--robust"] if robust else []), check=True, capture_output=True, cwd=ROOT)
                seconds, cpu = time.perf_counter() - begin, children_cpu() - cpu
                if robust:
                    strong = json.loads((out / "findings.json").read_text()).get("strong_play")
            if i:
                best[robust] = [min(best[robust][0], seconds), min(best[robust][1], cpu)]
    return {"plain": best[False], "robust": best[True], "strong": strong}


def sample_cost(game: str, threads: int) -> dict:
    """`run GAME --robust`'s search sample alone (its defaults, seed 0), warm: games, wall seconds and
    CPU seconds (time.process_time: every thread of this process), and whether the precision came first."""
    from simbalance.studies.robustness import strong_play
    from simbalance.studies.settings import RunSettings

    settings = RunSettings.of(game, seed=0, threads=threads)
    strong_play(settings, most=4)  # compile or load the search kernel, read the fit: not timed
    wall, cpu = time.perf_counter(), time.process_time()
    sample = strong_play(settings)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": sample.games, "wall": wall, "cpu": cpu, "reached": sample.reached}


def needed(share: float) -> int:
    """Games for a seat of this share to have a 95% CI half-width of PRECISION (normal approximation)."""
    return math.ceil(1.959963984540054**2 * share * (1 - share) / PRECISION**2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--measure", default="captain-action", help="games timed with and without --robust")
    parser.add_argument("--sample", default="captain-future", help="games whose --robust sample is played alone")
    parser.add_argument("--n", default="1e5", help="games of the heuristic run")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="the sample's threads")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    from simbalance.games.registry import get_game

    def version(game: str) -> str:
        return f"{game} (v{get_game(game).load().version})"

    lines = [f"`python -m benchmarks.robust_cost` on {time.strftime('%Y-%m-%d %H:%M')} UTC, this 2-core machine "
             f"(shared with other jobs: load {os.getloadavg()[0]:.1f}), `mcts@{BUDGET}` at every seat of the "
             f"sample, precision {PRECISION}; CPU: user + system seconds, every thread:", "",
             "| game (engine) | measured | without `--robust` | with `--robust` | the sample |", "|---|---|---:|---:|---|"]
    for game in filter(None, args.measure.split(",")):
        found = timed_runs(game, args.n, args.repeat)
        (plain, plain_cpu), (robust, robust_cpu), strong = found["plain"], found["robust"], found["strong"]
        stop = "precision reached" if strong["reached"] else f"capped at {strong['most']:,}"
        lines.append(f"| {version(game)} | `run --n {args.n}`, in turn, best of {args.repeat} | {plain:.1f} s wall, "
                     f"{plain_cpu:.1f} s CPU | {robust:.1f} s wall (+{robust - plain:.1f} s), {robust_cpu:.1f} s CPU "
                     f"(+{robust_cpu - plain_cpu:.1f} s) | {strong['games']:,} games ({stop}) |")
    for game in filter(None, args.sample.split(",")):
        found = sample_cost(game, args.threads)
        stop = "precision reached" if found["reached"] else "capped"
        lines.append(f"| {version(game)} | the sample alone, {args.threads} threads | | +{found['wall']:.0f} s wall, "
                     f"+{found['cpu']:.0f} s CPU ({found['cpu'] / found['games']:.3f} s a game: about "
                     f"+{found['cpu'] / args.threads:.0f} s on {args.threads} dedicated cores) | {found['games']:,} "
                     f"games ({stop}; {needed(0.25):,} needed at 4 seats near the fair share, {needed(0.5):,} with "
                     "a seat near half) |")
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_into(ROOT / "docs" / "strategies.md", text, "robust-cost")


if __name__ == "__main__":
    main()
