"""A/B of every engine against another commit, side by side (the ratio is what counts).

    python -m benchmarks.ab BEFORE [--rounds 3] [--threads 1 2] [--headline] [--write]

BEFORE is a checkout's folder or a commit of this repository (exported once with ``git archive``
into the temporary folder, ``simbalance-before-<commit>``, and kept there, so that its compiled
kernels are reused by the next A/B). For each engine (default strategies, 4 players, warm cache) and
each thread count, the two trees play in turn, each in a fresh process that imports only its own
tree, best of three ``simulate()`` calls; a round's ratio is now/before, and the median of the rounds
is the figure. ``--headline``: ``simbalance run captain-future --n 1e6`` whole, each side in turn
(wall seconds of the command, and the seconds its report took as it prints them). ``--write`` puts the
table into BENCHMARKS.md (between ``<!-- ab -->`` markers). ``make bench`` runs it against
``BENCH_BEFORE`` (the Makefile's: the commit before the speed round).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

GAMES = {"find-dr-evil": 400_000, "captain-action": 100_000, "lady-actions-escape": 20_000, "aquaman": 10_000,
         "captain-future": 10_000}
THIS_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = """
import sys, time, simbalance
game, n, tree, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
simbalance.simulate(game, min(n, 2000), seed=1, threads=threads)
best = 0.0
for r in range(3):
    t = time.perf_counter(); simbalance.simulate(game, n, seed=r, threads=threads); best = max(best, n / (time.perf_counter() - t))
print(best)
"""
HEADLINE = ["run", "captain-future", "--n", "1e6"]  # not --quiet: its "written in" line is the report's seconds


def tree_of(before: str) -> str:
    """A checkout's folder as given, or a commit exported into a folder of its own (kept)."""
    if os.path.isdir(before):
        return os.path.abspath(before)
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{before}^{{commit}}"], cwd=THIS_TREE, capture_output=True,
                         text=True)
    if sha.returncode != 0:
        raise SystemExit(f"before: {before!r} is neither a folder nor a commit of this repository")
    folder = Path(tempfile.gettempdir()) / f"simbalance-before-{sha.stdout.strip()[:12]}"
    if not (folder / "simbalance").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha.stdout.strip()], cwd=THIS_TREE, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return str(folder)


def env_of(tree: str) -> dict:
    return dict(os.environ, PYTHONPATH=tree)


def games_per_s(game: str, n: int, tree: str, threads: int = 1) -> float:
    """Best of three runs in a fresh process that imports simbalance from ``tree`` and nowhere else
    (``-P``: the working directory is not put first on sys.path, so both sides of an A/B run from
    any folder import their own checkout; the probe checks it)."""
    tree = os.path.abspath(tree)
    out = subprocess.run([sys.executable, "-P", "-c", PROBE, game, str(n * threads), tree, str(threads)],
                         env=env_of(tree), capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def headline(tree: str, out: str) -> tuple[float, float]:
    """``simbalance run captain-future --n 1e6`` from ``tree``: (wall seconds, the report's seconds)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-P", "-m", "simbalance.cli.main", *HEADLINE, "--out", out],
                          env={**env_of(tree), "COLUMNS": "200"}, capture_output=True, text=True, cwd=tree)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the headline run failed: {(done.stderr or done.stdout).strip()[-300:]}")
    written = re.search(r"written in ([\d.]+) s", done.stdout + done.stderr)
    return wall, float(written.group(1)) if written else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout's folder, or a commit (e.g. the previous main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--threads", type=int, nargs="*", default=[1])
    parser.add_argument("--headline", action="store_true", help="also simbalance run captain-future --n 1e6 whole")
    parser.add_argument("--write", action="store_true", help="write the table into BENCHMARKS.md (<!-- ab -->)")
    args = parser.parse_args()
    before = tree_of(args.before)
    rows = []
    for game in args.games:
        for threads in args.threads:
            olds, news, ratios = [], [], []
            for r in range(args.rounds):
                old = games_per_s(game, GAMES[game], before, threads)
                new = games_per_s(game, GAMES[game], THIS_TREE, threads)
                olds.append(old)
                news.append(new)
                ratios.append(new / old)
                print(f"{game} {threads} thread(s) round {r + 1}: before {old:,.0f} games/s, now {new:,.0f} games/s, "
                      f"ratio {new / old:.2f}", flush=True)
            rows.append((game, threads, max(olds), max(news), statistics.median(ratios), min(ratios), max(ratios)))
            print(f"{game} {threads} thread(s): median ratio now/before {rows[-1][4]:.2f}", flush=True)
    runs = []
    if args.headline:
        with tempfile.TemporaryDirectory() as scratch:
            for tree in (before, THIS_TREE):  # a warm cache on both sides before anything is timed
                subprocess.run([sys.executable, "-P", "-m", "simbalance.cli.main", "run", "captain-future", "--n",
                                "1000", "--quiet", "--out", os.path.join(scratch, "warm")], env=env_of(tree),
                               capture_output=True, check=True, cwd=tree)
            for r in range(max(2, args.rounds - 1)):
                pair = [headline(tree, os.path.join(scratch, f"h{r}{side}")) for side, tree in (("b", before),
                                                                                              ("a", THIS_TREE))]
                runs.append(pair)
                print(f"headline round {r + 1}: before {pair[0][0]:.1f} s (report {pair[0][1]:.1f} s), now "
                      f"{pair[1][0]:.1f} s (report {pair[1][1]:.1f} s)", flush=True)
    text = render(args, before, rows, runs)
    print(text)
    if args.write:
        from benchmarks.profile import write_into

        write_into(Path(THIS_TREE) / "BENCHMARKS.md", text, "ab")


def commit_of(tree: str) -> str:
    """The commit a tree is (its folder name for an export, else git's word)."""
    name = os.path.basename(tree.rstrip("/"))
    if name.startswith("simbalance-before-"):
        return name.removeprefix("simbalance-before-")
    done = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=tree, capture_output=True, text=True)
    return done.stdout.strip() or tree


def render(args, before: str, rows: list, runs: list) -> str:
    now = datetime.now(UTC).isoformat(timespec="seconds")
    lines = [f"Produced by `python -m benchmarks.ab {args.before} --rounds {args.rounds} --threads "
             f"{' '.join(map(str, args.threads))}{' --headline' if args.headline else ''} --write` (run by `make bench`) "
             f"on {now}: this tree ({commit_of(THIS_TREE)}) against {commit_of(before)}, each engine's default "
             "lineup at 4 players, warm caches, each side in a fresh process in turn; a round's figure is the best "
             "of three `simulate()` calls, the ratio now/before per round, its median over the rounds (the range "
             "beside it). The machine's load moves both sides alike within a round: read the ratios.", "",
             "| engine | threads | before games/s | now games/s | now/before (median) | range of the rounds |",
             "|---|---|---|---|---|---|"]
    for game, threads, old, new, ratio, lo, hi in rows:
        lines.append(f"| {game} | {threads} | {old:,.0f} | {new:,.0f} | {ratio:.2f} | {lo:.2f}-{hi:.2f} |")
    if runs:
        lines += ["", "`simbalance run captain-future --n 1e6`, whole (start-up, play on every thread, "
                  "report), each side in turn after a warm-up run:", "",
                  "| round | before: wall s | before: report s | now: wall s | now: report s | now/before (wall) |",
                  "|---|---|---|---|---|---|"]
        for r, ((bw, br), (aw, ar)) in enumerate(runs, 1):
            lines.append(f"| {r} | {bw:.1f} | {br:.1f} | {aw:.1f} | {ar:.1f} | {aw / bw:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
