"""Which tests compile numba code, and what: counts of compiles, not timings (issue 56 item 3).

Counts do not depend on the machine's load, so they say where the suite compiles again what it could
share even on a busy machine. Every process is logged, the subprocesses that tests start included
(benchmarks/compile_log/sitecustomize.py: one JSON line per compile, a cache miss).

    python -m benchmarks.compile_counts first GAME...            # tests/compile_first.py, logged
    python -m benchmarks.compile_counts search GAME...           # its search step alone, on an empty cache
    python -m benchmarks.compile_counts tests FILE...             # each file in a pytest process of its own
    python -m benchmarks.compile_counts cli "ARGS"... --runs 2      # a simbalance command, each run a process
    python -m benchmarks.compile_counts table [LOG]               # the counts, per step or test file

``search`` compiles only compile-first's search step (the search players' kernel: ``mcts``,
``flat``, the first heuristic and ``random`` rotated, 2 games of seed 7) in a fresh
``NUMBA_CACHE_DIR``, so always cold, and prints its CPU seconds and the records' SHA-256 (the same
games on both sides of a change; the folder is removed after). ``first``, ``search`` and ``tests``
log into ``--log`` (default /tmp/simbalance-compile-log), one folder per game or test file; run ``first`` on the games a file needs before ``tests`` (as ``make test``'s
``--compile-first`` does), so that what a file compiles is what the suite compiles in it.
``tests`` runs pytest with ``-n 0 -m "not exhaustive"`` (``--exhaustive`` for that tier).
``cli`` runs ``simbalance ARGS`` (one quoted string per command, e.g. ``"card-value aquaman --states
10 --decisions 5 --observe 0 --out /tmp/cv"``) ``--runs`` times in turn, each run a fresh process
logged in a folder of its own (``cli-<args>-run<k>``): what the second run compiles is what a warm
process compiles again.

The table: per folder, the compiles called from Python or from another process (``top``, each one
a whole function with everything it inlines or calls compiled with it) and in all (callees
included); how many of the top ones are of functions with no on-disk cache (numba compiles them in
every process that calls them); the processes that compiled anything; and the functions compiled
more than once (the same name in several processes, or under several signatures).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOOK = Path(__file__).resolve().parent / "compile_log"
DEFAULT_LOG = Path("/tmp/simbalance-compile-log")
# compile-first's search step alone (tests/compile_first.compile_game), timed, with its records' digest
SEARCH_ONLY = """
import hashlib, sys, time
import numpy as np
from small_search import small_search_overrides
from simbalance.core.runner import play_chunk
from simbalance.studies.run import plan_run
game = sys.argv[1]
engine = plan_run(game, 1).engine
plan = plan_run(game, 2, players=4, seed=7, strategies=f"mcts,flat,{engine.heuristics[0]},random", rotate=True,
                overrides=small_search_overrides(game))
out = np.zeros(plan.n, engine.record_dtype)
began = time.process_time()
play_chunk(engine, plan.lineup, plan.prepared_for(), plan.seed, 0, plan.n, 1, out=out)
print(f"{game}: search kernel {time.process_time() - began:.1f} CPU s, records sha256 "
      f"{hashlib.sha256(out.tobytes()).hexdigest()[:16]}")
"""


def logged_env(folder: Path) -> dict[str, str]:
    paths = [str(HOOK), str(ROOT / "tests"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, SIMBALANCE_COMPILE_LOG=str(folder), PYTHONPATH=os.pathsep.join(p for p in paths if p))


def folder_name(text: str) -> str:
    return text.replace("/", "__").replace(".py", "")


def read(folder: Path) -> tuple[list[dict], int]:
    """Every compile logged in ``folder`` (each with its process id) and the number of processes."""
    compiles, processes = [], 0
    for path in sorted(folder.glob("*.jsonl")):
        processes += 1
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "compiled" in record:
                record["pid"] = path.stem
                compiles.append(record)
    return compiles, processes


def short(name: str) -> str:
    return name.removeprefix("simbalance.")


def summary(folder: Path) -> dict:
    compiles, processes = read(folder)
    top = [c for c in compiles if c["depth"] == 0]
    by_name = collections.defaultdict(list)
    for c in top:
        by_name[c["compiled"]].append(c)
    again = {name: len(cs) for name, cs in by_name.items() if len(cs) > 1}
    signatures = {name: len({c["args"] for c in cs}) for name, cs in by_name.items()}
    return {"folder": folder.name, "top": len(top), "all": len(compiles),
            "uncached": sum(c["cache"] == "NullCache" for c in top),
            "processes": len({c["pid"] for c in compiles}), "logged": processes,
            "again": dict(sorted(again.items(), key=lambda kv: -kv[1])),
            "several_signatures": {n: k for n, k in signatures.items() if k > 1},
            "cpu_top": round(sum(c["cpu"] for c in top), 1),
            "names": collections.Counter(c["compiled"] for c in top)}


def table(log: Path) -> None:
    rows = [summary(f) for f in sorted(p for p in log.iterdir() if p.is_dir())]
    print("| folder | top compiles | all compiles | of them uncached (top) | processes compiling | compiled again (name: times) |")
    print("|---|---:|---:|---:|---:|---|")
    for r in rows:
        again = ", ".join(f"{short(n)}: {k}" for n, k in list(r["again"].items())[:6])
        if len(r["again"]) > 6:
            again += f", ... ({len(r['again'])} functions)"
        print(f"| {r['folder']} | {r['top']} | {r['all']} | {r['uncached']} | {r['processes']} | {again} |")
    print()
    for r in rows:
        if r["top"]:
            names = ", ".join(f"{short(n)} x{k}" for n, k in r["names"].most_common(12))
            print(f"{r['folder']}: {names}" + (f"; several signatures: {r['several_signatures']}"
                                               if r["several_signatures"] else ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["first", "search", "tests", "cli", "table"])
    parser.add_argument("items", nargs="*")
    parser.add_argument("--log", type=Path, default=DEFAULT_LOG)
    parser.add_argument("--exhaustive", action="store_true")
    parser.add_argument("-k", dest="k", default="", help="pytest's -k, for every file (and in the log folder's name)")
    parser.add_argument("--runs", type=int, default=2, help="cli: runs of each command, each a process of its own")
    args = parser.parse_args()
    if args.what == "table":
        table(Path(args.items[0]) if args.items else args.log)
        return
    if args.what == "cli":
        for item in args.items:
            words = shlex.split(item)
            slug = "-".join(w.lstrip("-") for w in words if not w.startswith("/"))
            for run in range(1, args.runs + 1):
                folder = args.log / folder_name(f"cli-{slug}-run{run}")
                command = [sys.executable, "-c", "from simbalance.cli.main import main; main()", *words]
                done = subprocess.run(command, cwd=ROOT, env=logged_env(folder), stdout=subprocess.DEVNULL)
                print(f"{item} (run {run}): exit {done.returncode}", file=sys.stderr)
        return
    for item in args.items:
        name = item + (f"-k-{args.k}" if args.k else "") if args.what == "tests" else f"{args.what}-{item}"
        folder = args.log / folder_name(name)
        env = logged_env(folder)
        if args.what == "first":
            command = [sys.executable, str(ROOT / "tests" / "compile_first.py"), item]
        elif args.what == "search":
            env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="simbalance-cold-")
            command = [sys.executable, "-c", SEARCH_ONLY, item]
        else:
            tier = "exhaustive" if args.exhaustive else "not exhaustive"
            command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-m", tier, *(["-k", args.k] if args.k else []), item]
        done = subprocess.run(command, cwd=ROOT, env=env)
        if args.what == "search":
            shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)  # the cold cache made above
        print(f"{item}: exit {done.returncode}", file=sys.stderr)


if __name__ == "__main__":
    main()
