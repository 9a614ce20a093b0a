"""The solver's measurements (issues 39 and 51), not timed tests:

    python -m benchmarks.solve [--case captain-future|captain-action] [--budget 30m] [--threads 2]
                               [--models a,b] [--knob KEY=LO:HI ...] [--out DIR] [--write]

- ``captain-future`` (issue 51; issue 39 with ``--models aggressor``): the default knobs (the config's
  ``[knobs]``, the seat compensation), ``--target balance=0.97:1``, the default player models (each
  heuristic but random at every seat, and mcts@32): an answer that holds under every model, or an
  honest "none found" with the closest per model, within 30 minutes on 2 cores.
- ``captain-action``: ``--target length_median=4:99 --keep ties=0.03`` under the default models, the
  config's ``[knobs]`` with a choice (``rules.call_timing``) and the variant files: what it finds, and why.

Reported: the answer (or the findings), each model's verdict and games, the games the search played
per model, and the wall time. ``--write`` puts the result into BENCHMARKS.md between the
markers of its case: ``<!-- solve-models -->`` (captain-future) or ``<!-- solve-ca -->`` (captain-action). Long: run it alone on the machine.
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
CASES = {
    "captain-future": dict(targets=["balance=0.97:1"], keep=[], budget="30m", marker="solve-models", minutes=30),
    # the config's [knobs] and, as issue 51 asks, a choice (when to call) and the game's variant files
    "captain-action": dict(targets=["length_median=4:99"], keep=["ties=0.03"], budget="30m", marker="solve-ca",
                           minutes=30, extra_knobs=["rules.call_timing=after_discard,before_draw", "variant"]),
}


def measure(case: str, budget: str, threads: int | None, models: str | None, knobs: list[str] | None, seed: int,
            out: Path | None) -> str:
    from simbalance.analysis.solve import targets_words, test_words
    from simbalance.studies.solve import solve

    spec = CASES[case]
    if knobs is None and spec.get("extra_knobs"):
        from simbalance.analysis.solve import default_knobs
        from simbalance.core.config import load_config

        knobs = [k.text() for k in default_knobs(load_config(case), case)] + spec["extra_knobs"]
    argv = ["simbalance", "solve", case, *[a for t in spec["targets"] for a in ("--target", t)],
            *[a for k in spec["keep"] for a in ("--keep", k)], *[a for k in knobs or [] for a in ("--knob", k)],
            *(["--models", models] if models else []), "--budget", budget, "--seed", str(seed)]
    if threads:
        argv += ["--threads", str(threads)]
    load_before = os.getloadavg()  # the machine may be shared: its load beside the time
    begin = time.perf_counter()
    res = solve(case, spec["targets"], knobs, budget=budget, models=models, keep=spec["keep"], seed=seed,
                threads=threads)
    wall = time.perf_counter() - begin
    load_after = os.getloadavg()
    command = " ".join(shlex.quote(a) for a in argv)
    if out is not None:
        from simbalance.report.solve_page import write_solve_folder

        write_solve_folder(res, out, command)
    chosen = res.chosen
    games = int(res.candidates["games"].sum()) if len(res.candidates) else 0
    lines = [f"`{command}` (`python -m benchmarks.solve --case {case} --write`), {datetime.now(UTC):%Y-%m-%d %H:%M} "
             f"UTC; knobs {', '.join(k.text() for k in res.knobs)}; targets {targets_words(res.targets)}; player "
             f"models {', '.join(m.name for m in res.models)}.", "",
             f"- today's rules ({res.verify_n:,} games a heuristic model): "
             + "; ".join(f"{t.get('model')}: {test_words(t)}" for t in res.today["tests"]),
             f"- the search: {len(res.candidates)} candidates, {games:,} games per heuristic model "
             f"({games * sum(not m.expensive for m in res.models):,} in all), {len(res.unsettled)} unsettled; wall "
             f"time {wall / 60:.1f} min of a {res.budget_s / 60:.0f} min budget"
             + (" (the budget stopped the search)" if res.budget_spent else "")]
    for a in res.answers:
        lines.append(f"- {'chosen' if a is chosen else 'verified'}: **{a.words}** "
                     f"(`{' '.join(f'--set {k}={v}' for k, v in a.change.items())}`): {a.judged['verdict']}")
        for m in a.models:
            lines.append(f"  - under {m['model']} ({m['games']:,} games): {m['verdict']}"
                         + (f"; {m['reason']}" if m.get("reason") else "")
                         + ("" if not m["tests"] else " (" + "; ".join(test_words(t) for t in m["tests"]) + ")"))
    lines += [f"- {f.text}" for f in res.findings()]
    lines += [f"- note: {n}" for n in res.notes]
    lines.append(f"- load average (1, 5, 15 min) before {', '.join(f'{x:.1f}' for x in load_before)}, after "
                 f"{', '.join(f'{x:.1f}' for x in load_after)} (os.getloadavg; {os.cpu_count()} cores)")
    within = wall <= res.budget_s
    lines.append(f"- target (an answer under every model, or an honest none found, within {spec['minutes']} "
                 f"minutes): {'an answer' if chosen is not None else 'no answer'} in {wall / 60:.1f} min, "
                 f"{'within' if within else 'over'} the {res.budget_s / 60:.0f} min budget")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", choices=sorted(CASES), default="captain-future")
    parser.add_argument("--budget", default=None, help="default: the case's (30m)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models", default=None, help="default: the solver's default models")
    parser.add_argument("--knob", action="append", default=None, help="default: the game's [knobs]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the solve folder here")
    parser.add_argument("--write", action="store_true", help="write into BENCHMARKS.md (the case's markers)")
    args = parser.parse_args()
    text = measure(args.case, args.budget or CASES[args.case]["budget"], args.threads, args.models, args.knob,
                   args.seed, args.out)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, CASES[args.case]["marker"])


if __name__ == "__main__":
    main()
