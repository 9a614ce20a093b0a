"""What `simbalance run GAME --robust` costs (docs/strategies.md, "What --robust costs").

    python -m benchmarks.robust_cost [--measure captain-action] [--estimate captain-future] [--write]

For each game of ``--measure``: the wall time of `simbalance run GAME --n N` with and without
`--robust` (the CLI in a subprocess, warm cache: one untimed run of each first; best of
``--repeat``), and how many games its search sample played. For each game of ``--estimate``: the
speed of its search sample's players (every seat ``mcts@100``, ``--sample`` games on all threads,
compiling not counted) and the time the sample would take at the games the precision needs when
every seat is near its fair share (the normal approximation: 1.96^2 (1/P)(1 - 1/P) / precision^2,
800 games at 4 seats and 3 points; a seat near 50% needs more, 1,067). ``--write`` puts the table
into docs/strategies.md between ``<!-- robust-cost -->`` markers. The machine is shared: compare
figures of one run.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
PRECISION, BUDGET = 0.03, 100


def timed_run(game: str, n: str, robust: bool, repeat: int) -> tuple[float, dict | None]:
    """Best wall seconds of the CLI run, and the search sample (findings.json's strong_play)."""
    best, strong = math.inf, None
    for i in range(repeat + 1):  # the first warms the cache and is not counted
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r"
            cmd = [sys.executable, "-m", "simbalance.cli.main", "run", game, "--n", n, "--out", str(out), "--quiet"]
            begin = time.perf_counter()
            subprocess.run(cmd + (["--robust"] if robust else []), check=True, capture_output=True, cwd=ROOT)
            seconds = time.perf_counter() - begin
            strong = json.loads((out / "findings.json").read_text()).get("strong_play")
        if i:
            best = min(best, seconds)
    return best, strong


def sample_speed(game: str, games: int) -> tuple[float, int]:
    """Games/s of every seat mcts@BUDGET (compiling not counted), and the players of the game."""
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.ladder import BUDGET_PARAMS, budget_preset
    from simbalance.studies.run import SimulationResult
    from simbalance.studies.settings import RunSettings

    settings = RunSettings.of(game, seed=1)
    base = settings.plan(1)
    info = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)["mcts"]
    name = f"mcts@{BUDGET}"
    plan = settings.plan(games, presets={name: budget_preset(info, BUDGET_PARAMS["mcts"], BUDGET)}, strategies=[name])
    result = SimulationResult.from_plan(plan)
    return result.n_played / result.elapsed, plan.players


def needed(share: float) -> int:
    """Games for a seat of this share to have a 95% CI half-width of PRECISION (normal approximation)."""
    return math.ceil(1.959963984540054**2 * share * (1 - share) / PRECISION**2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--measure", default="captain-action", help="games timed with and without --robust")
    parser.add_argument("--estimate", default="captain-future", help="games whose sample is estimated from speed")
    parser.add_argument("--n", default="1e5", help="games of the heuristic run")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--sample", type=int, default=16, help="search games played to measure the speed")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    lines = [f"`python -m benchmarks.robust_cost` on {time.strftime('%Y-%m-%d')}, this 2-core machine (shared), "
             f"`mcts@{BUDGET}` at every seat of the sample, precision {PRECISION}:", "",
             "| game | measured | `run --n " + args.n + "` | with `--robust` | the sample |", "|---|---|---:|---:|---|"]
    for game in filter(None, args.measure.split(",")):
        plain, _ = timed_run(game, args.n, False, args.repeat)
        robust, strong = timed_run(game, args.n, True, args.repeat)
        stop = "precision reached" if strong["reached"] else f"capped at {strong['most']:,}"
        lines.append(f"| {game} | wall time, best of {args.repeat} | {plain:.1f} s | {robust:.1f} s "
                     f"(+{robust - plain:.1f} s) | {strong['games']:,} games ({stop}) |")
    for game in filter(None, args.estimate.split(",")):
        speed, players = sample_speed(game, args.sample)
        games, most = needed(1 / players), needed(0.5)
        lines.append(f"| {game} | estimated: {args.sample} sample games at {speed:.2f} games/s | | "
                     f"+{games / speed / 60:.0f} min | about {games:,} games at {players} seats near the fair "
                     f"share; {most:,} (+{most / speed / 60:.0f} min) when a seat wins near half |")
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_into(ROOT / "docs" / "strategies.md", text, "robust-cost")


if __name__ == "__main__":
    main()
