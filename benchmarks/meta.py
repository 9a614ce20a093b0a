"""The metagame's measurement (issue 55), not a timed test:
    python -m benchmarks.meta [--n 1e4] [--threads 2] [--seed 1] [--out DIR] [--write]

captain-action with every heuristic and preset of its config (the default population), the whole
payoff table (every composition at 4 seats) with each entry's 95% CI half-width at most 1 point:
the wall time on 2 cores (aim: under 3 minutes), the widest half-width, the answer in words.
``--write`` puts the result into BENCHMARKS.md between the markers ``<!-- meta-ca -->``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
GAME = "captain-action"
AIM_S = 180.0
HALF_WIDTH = 0.01


def measure(n: int, threads: int, seed: int, out: Path | None) -> str:
    from simbalance.core.plan import read_count
    from simbalance.games.registry import get_game
    from simbalance.studies.meta import meta

    argv = ["simbalance", "meta", GAME, "--n", str(n), "--threads", str(threads), "--seed", str(seed)]
    begin = time.perf_counter()
    res = meta(GAME, n=read_count(str(n)), threads=threads, seed=seed)
    wall = time.perf_counter() - begin
    command = " ".join(shlex.quote(a) for a in argv)
    if out is not None:
        from simbalance.report.meta_page import write_meta_folder
        write_meta_folder(res, out, command)
    payoffs = res.payoffs()
    half = ((payoffs["ci_high"] - payoffs["ci_low"]) / 2).max()
    version = get_game(GAME).load().version
    load = os.getloadavg()[0]
    lines = [f"`{command}` (`python -m benchmarks.meta --write`), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
             f"{GAME} engine v{version}, {os.cpu_count()} cores shared with other work (load average "
             f"{load:.1f} at the end): the population {', '.join(res.names)}; {len(res.table.counts)} compositions "
             f"x {res.n:,} games = {len(res.table.counts) * res.n:,} games.", "",
             f"- wall time {wall:.0f} s (the plays and the analysis, {res.answer.weights.get('resamples_solved', [0])[0]}"
             f" bootstrap resamples; aim under {AIM_S:.0f} s): {'met' if wall <= AIM_S else 'not met'}",
             f"- the widest 95% CI half-width of an entry of the table: {100 * half:.2f} points (aim at most "
             f"{100 * HALF_WIDTH:.0f}): {'met' if half <= HALF_WIDTH else 'not met'}"]
    best, margin = res.dominance
    lines.append(f"- dominance (the best strategy's margin over an even field): {best} {100 * margin.estimate:+.2f} pp "
                 f"(95% CI {100 * margin.low:+.2f} to {100 * margin.high:+.2f} pp)")
    lines += [f"- {f.text}" for f in res.findings()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", default="1e4", help="games per composition")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the meta folder here")
    parser.add_argument("--write", action="store_true", help="write into BENCHMARKS.md (<!-- meta-ca -->)")
    args = parser.parse_args()
    text = measure(args.n, args.threads, args.seed, args.out)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "meta-ca")


if __name__ == "__main__":
    main()
