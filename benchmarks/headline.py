"""The headline command timed whole, as a designer runs it (issue 24):

    python -m benchmarks.headline [--game captain-future] [--n 1e6] [--runs 3] [--threads N]

First a small run warms the JIT cache (not counted); then ``--runs`` runs of
``simbalance run GAME --n N`` in fresh processes. Per run and as the median: the wall time of the
whole process (start-up, play, report), the play's seconds and games/s and the report's seconds as
the command's own header states them, and the process's peak RSS. The machine's load during the
runs is printed too: on a shared machine the wall time is only as good as the quiet it had.
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

HEADER = re.compile(r"([\d.]+) s of play \(([\d,]+) games/s\)")
REPORT = re.compile(r"\(written in ([\d.]+) s\)")  # stderr's last line (also in checkouts before issue 24)


def one_run(game: str, n: str, out: str, threads: int | None) -> dict:
    cli = ["simbalance", "run", game, "--n", n, "--out", out] + (["--threads", str(threads)] if threads else [])
    args = [sys.executable, "-c", f"import sys; sys.argv = {cli!r}; from simbalance.cli.main import main; main()"]
    env = {**os.environ, "COLUMNS": "300"}  # rich wraps at 80 columns into a pipe: keep the header on one line
    with tempfile.TemporaryFile("w+") as out_f, tempfile.TemporaryFile("w+") as err_f:
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out_f, stderr=err_f, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        stdout, stderr = out_f.read(), err_f.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cli)} failed with exit code {proc.returncode}:\n{stderr[-500:]}")
    m, r = HEADER.search(stdout), REPORT.search(stderr)
    if m is None or r is None:
        raise SystemExit(f"no run header or report line in the output:\n{stdout[:500]}\n{stderr[-500:]}")
    return {"wall_s": wall, "play_s": float(m[1]), "games_per_s": float(m[2].replace(",", "")),
            "report_s": float(r[1]), "peak_mib": usage.ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="captain-future")
    parser.add_argument("--n", default="1e6")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        one_run(args.game, "1000", f"{tmp}/warm", args.threads)
        for i in range(args.runs):
            load = os.getloadavg()[0]
            row = one_run(args.game, args.n, f"{tmp}/run", args.threads)
            row["load"] = load
            rows.append(row)
            print(f"run {i + 1}: {row['wall_s']:.1f} s wall = {row['play_s']:.1f} s of play "
                  f"({row['games_per_s']:,.0f} games/s) + {row['report_s']:.1f} s of report + the rest "
                  f"(start-up, summary printed); peak {row['peak_mib']:,.0f} MiB; load before {load:.1f} on "
                  f"{os.cpu_count()} cores", flush=True)
    med = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    print(f"\n| command | wall (median of {len(rows)}) | play | games/s | report | peak RSS |\n|---|---|---|---|---|---|\n"
          f"| `simbalance run {args.game} --n {args.n}` | {med['wall_s']:.1f} s | {med['play_s']:.1f} s | "
          f"{med['games_per_s']:,.0f} | {med['report_s']:.1f} s | {med['peak_mib']:,.0f} MiB |")


if __name__ == "__main__":
    main()
