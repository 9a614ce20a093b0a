"""A fresh clone's first `make run`, timed as a designer meets it (BENCHMARKS.md, issue 22).

    python -m benchmarks.first_run [--keep]

Clones this checkout's HEAD into a temporary folder (no .venv, no JIT cache), runs `make run`
there (creates the venv, installs, compiles captain-future, plays the main job, writes the report)
and prints the wall time with the run's own header: play, compile and report seconds. The rest of
the wall time is the install and the imports. pip's download cache is the machine's own.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="simbalance-first-run-"))
    clone = folder / "simbalance"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    start = time.perf_counter()
    run = subprocess.run(["make", "run"], cwd=clone, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"make run failed ({run.returncode}):\n{run.stderr[-2000:]}")
    header = " ".join(run.stdout.split())
    play = re.search(r"([\d.]+) s of play \(([\d,]+) games/s\)", header)
    compiled = re.search(r"([\d.]+) s compiling the engine first", header)
    report = re.search(r"written in ([\d.]+) s", " ".join(run.stderr.split()))
    rows = [("make run, wall (fresh clone: venv, install, compile, play, report)", f"{wall:.0f} s"),
            ("compile (cold JIT cache)", f"{float(compiled[1]):.0f} s" if compiled else "n/a"),
            ("play", f"{float(play[1]):.0f} s ({play[2]} games/s)" if play else "n/a"),
            ("report", f"{float(report[1]):.1f} s" if report else "n/a")]
    print("| step | time |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    if args.keep:
        print(f"clone kept in {clone}")
    else:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
