"""What recording the whole-game metrics costs: one engine against itself without them (issue 21).

    python -m benchmarks.ab_metrics GAME N [--rounds 21] [--strategies S] [--simulate]

Copies this checkout's ``simbalance`` package and ``configs`` into a temporary folder, sets
``core/progress.RECORD_METRICS`` to False there (the loop detection still runs, so the games are the
same; the metrics' checkpoints and record fields are left out), and runs ``benchmarks.ab_kernel``
with that copy as "before": the same N games of seed 1 on one thread, in turn, ``--rounds`` times,
CPU seconds of the kernel and of the chunk's aggregation. The shared targets page asks for at most
5 % more time per game ("recording lead changes and decisiveness costs <= 5 % games/s").
``--simulate`` times ``simulate(GAME, N)`` whole instead, on all threads (wall seconds).
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


def copy_without_metrics(into: Path) -> None:
    """This checkout's package and configs in ``into``, with the metrics switched off."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    # symlinks=False: the package's ``configs`` (a symlink to the top-level folder) is copied as files
    shutil.copytree(THIS_TREE / "simbalance", into / "simbalance", ignore=ignore, symlinks=False)
    progress = into / "simbalance" / "core" / "progress.py"
    text = progress.read_text()
    if text.count(SWITCH) != 1:
        raise SystemExit(f"{progress}: expected one line {SWITCH!r}")
    progress.write_text(text.replace(SWITCH, "RECORD_METRICS = False"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("n", type=int)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--strategies", default="")
    parser.add_argument("--simulate", action="store_true", help="time simulate() whole (all threads, wall seconds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="simbalance-no-metrics-") as tmp:
        copy_without_metrics(Path(tmp))
        cmd = [sys.executable, "-m", "benchmarks.ab_kernel", tmp, args.game, str(args.n), "--rounds", str(args.rounds)]
        if args.strategies:
            cmd += ["--strategies", args.strategies]
        if args.simulate:
            cmd.append("--simulate")
        print(f"without the metrics (before) -> with them (now): {' '.join(cmd[1:])}", flush=True)
        subprocess.run(cmd, cwd=THIS_TREE, check=True)


if __name__ == "__main__":
    main()
