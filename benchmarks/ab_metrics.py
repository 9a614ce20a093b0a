"""What recording the whole-game metrics costs: one engine against itself without them (issue 21).

    python -m benchmarks.ab_metrics GAME N [--rounds 21] [--strategies S] [--simulate]

Copies this checkout's ``simbalance`` package and ``configs`` into two temporary folders, sets
``core/whole_game.RECORD_METRICS`` to False in the first (the loop detection still runs, so the games
are the same; the metrics' checkpoints and record fields are left out), and runs
``benchmarks.ab_kernel`` with the first as "before" and the second as "now" (two copies of the same
kind: a copy in /tmp and the checkout itself once differed by 7% for identical code): the same N
games of seed 1 on one thread, in turn, ``--rounds`` times,
CPU seconds of the kernel and of the chunk's aggregation. The shared targets page asks for at most
5 % more time per game ("recording lead changes and decisiveness costs <= 5 % games/s").
``--simulate`` times ``simulate(GAME, N)`` whole instead, on all threads (wall seconds).
``--null`` leaves the switch on in both copies: the same code on both sides, the method's own spread
(run it beside every A/B on a shared machine).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

THIS_TREE = Path(__file__).resolve().parent.parent
SWITCH = "RECORD_METRICS = True"


def copy_checkout(into: Path, metrics: bool) -> None:
    """This checkout's package and configs in ``into``, the metrics switched on or off."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    # symlinks=False: the package's ``configs`` (a symlink to the top-level folder) is copied as files
    shutil.copytree(THIS_TREE / "simbalance", into / "simbalance", ignore=ignore, symlinks=False)
    progress = into / "simbalance" / "core" / "progress.py"
    text = progress.read_text()
    if text.count(SWITCH) != 1:
        raise SystemExit(f"{progress}: expected one line {SWITCH!r}")
    if metrics:
        return
    progress.write_text(text.replace(SWITCH, "RECORD_METRICS = False"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("n", type=int)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--strategies", default="")
    parser.add_argument("--simulate", action="store_true", help="time simulate() whole (all threads, wall seconds)")
    parser.add_argument("--null", action="store_true", help="null test: both copies keep the metrics (identical code)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="simbalance-no-metrics-") as tmp:
        before, now = Path(tmp) / "before", Path(tmp) / "now"
        copy_checkout(before, metrics=args.null)
        copy_checkout(now, metrics=True)
        cmd = [sys.executable, "-m", "benchmarks.ab_kernel", str(before), args.game, str(args.n),
               "--rounds", str(args.rounds), "--now", str(now)]
        if args.strategies:
            cmd += ["--strategies", args.strategies]
        if args.simulate:
            cmd.append("--simulate")
        what = "null test, two copies with the metrics" if args.null else \
            "a copy without the metrics (before) -> a copy with them (now)"
        print(f"{what}: {' '.join(cmd[1:])}", flush=True)
        subprocess.run(cmd, cwd=THIS_TREE, check=True)


if __name__ == "__main__":
    main()
