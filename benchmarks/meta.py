"""The metagame's measurements (issue 55), not timed tests:
    python -m benchmarks.meta [--case ca|cf] [--n N] [--threads 2] [--seed 1] [--out DIR] [--write]

- ``ca`` (default): captain-action with every heuristic and preset of its config (the default
  population), the whole payoff table (every composition at 4 seats) at ``--n 1e4`` with each
  entry's 95% CI half-width at most 1 point: the wall time on 2 cores (aim: under 3 minutes).
- ``cf``: captain-future with its heuristics and presets and ``mcts`` at 32 iterations (``--search
  mcts@32``, the solver's default model budget), at ``--n 480`` (a pilot at 48 games: see
  BENCHMARKS.md): the time to a table whose equilibrium weights have 95% bootstrap intervals within
  10 points either side (aim: under 20 minutes on 2 cores).

Each prints the widest half-width against its aim, the dominance margin and the answer in words;
``--write`` puts it into BENCHMARKS.md between the markers ``<!-- meta-ca -->`` (``<!-- meta-cf -->``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
@dataclass(frozen=True)
class Case:
    game: str
    n: str  # games per composition (the default of --n)
    search: str | None  # a search player at one budget in the population
    aim_s: float  # the wall time aimed at
    half_width: float  # the widest half-width aimed at, of the table's entries or the equilibrium weights
    of: str  # "entries" (the payoff table) or "weights" (the equilibrium's, bootstrap)
    marker: str


CASES = {
    "ca": Case("captain-action", "1e4", None, 180.0, 0.01, "entries", "meta-ca"),
    "cf": Case("captain-future", "480", "mcts@32", 1200.0, 0.10, "weights", "meta-cf"),
}


def widest(res, of: str) -> float:
    """The widest 95% CI half-width of the table's entries; of the reported equilibrium's weights, the
    largest distance from a weight to either end of its interval (a bootstrap percentile interval
    is not symmetric: a weight of 100% with its interval 81% to 100% is not within 10 points)."""
    if of == "entries":
        frame = res.payoffs()
        return float(((frame["ci_high"] - frame["ci_low"]) / 2).max())
    w = res.answer.weights
    return float(max((w["weight"] - w["ci_low"]).max(), (w["ci_high"] - w["weight"]).max()))


def measure(case: Case, n: str, threads: int, seed: int, out: Path | None, name: str) -> str:
    from simbalance.core.plan import read_count
    from simbalance.games.registry import get_game
    from simbalance.studies.meta import meta

    argv = ["simbalance", "meta", case.game, "--n", str(n), "--threads", str(threads), "--seed", str(seed)]
    if case.search:
        argv += ["--search", case.search]
    load_before = os.getloadavg()[0]
    begin, cpu_begin = time.perf_counter(), time.process_time()
    res = meta(case.game, n=read_count(str(n)), threads=threads, seed=seed, search=case.search)
    wall, cpu = time.perf_counter() - begin, time.process_time() - cpu_begin
    command = " ".join(shlex.quote(a) for a in argv)
    if out is not None:
        from simbalance.report.meta_page import write_meta_folder
        write_meta_folder(res, out, command)
    half = widest(res, case.of)
    version = get_game(case.game).load().version
    load = os.getloadavg()[0]
    what = ("an entry of the table" if case.of == "entries" else
            "an equilibrium weight (the largest distance from a weight to an end of its bootstrap interval)")
    lines = [f"`{command}` (`python -m benchmarks.meta --case {name} --n {n} --write`), "
             f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {case.game} engine v{version}, {os.cpu_count()} cores shared "
             f"with other work (load average {load_before:.1f} at the start, {load:.1f} at the end): the population "
             f"{', '.join(res.names)}; {len(res.table.counts)} compositions x {res.n:,} games = "
             f"{len(res.table.counts) * res.n:,} games.", "",
             f"- wall time {wall:.0f} s (the plays and the analysis, {res.answer.weights.get('resamples_solved', [0])[0]}"
             f" bootstrap resamples; aim under {case.aim_s:.0f} s): {'met' if wall <= case.aim_s else 'not met'}; "
             f"CPU time {cpu:.0f} s (all threads: on a shared machine the wall time is inflated by the others' load)",
             f"- the widest 95% CI half-width of {what}: {100 * half:.2f} points (aim at most "
             f"{100 * case.half_width:.0f}): {'met' if half <= case.half_width else 'not met'}"]
    best, margin = res.dominance
    lines.append(f"- dominance (the best strategy's margin over an even field): {best} {100 * margin.estimate:+.2f} pp "
                 f"(95% CI {100 * margin.low:+.2f} to {100 * margin.high:+.2f} pp)")
    lines += [f"- {f.text}" for f in res.findings()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", choices=sorted(CASES), default="ca")
    parser.add_argument("--n", default=None, help="games per composition (default: the case's)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the meta folder here")
    parser.add_argument("--write", action="store_true", help="write into BENCHMARKS.md (<!-- meta-CASE -->)")
    args = parser.parse_args()
    case = CASES[args.case]
    text = measure(case, args.n or case.n, args.threads, args.seed, args.out, args.case)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, case.marker)


if __name__ == "__main__":
    main()
