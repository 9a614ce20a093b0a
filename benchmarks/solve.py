"""Issue 39's measurement: `simbalance solve` on captain-future, 4 x aggressor, 4 players.

    python -m benchmarks.solve [--budget 20m] [--threads 2] [--knob KEY=LO:HI ...] [--write]

Today the widest gap between two seats over decided games is about 14.6 points (player 4 at 34.7 %,
player 2 at 20.1 %). The target: a change with balance >= 97 % (gap <= 3 points), verified at
10^5 games, within 20 minutes on 2 cores. The knobs are the game's `[knobs]` when its config has
them (the seat compensation), else those given with ``--knob``. ``--write`` puts the result into
BENCHMARKS.md between ``<!-- solve -->`` markers (the section "Issue 39"). Long: run it alone on the
machine.
"""

from __future__ import annotations

import argparse
import shlex
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
FALLBACK_KNOBS = ["ships.4=24:36", "rules.hand_size=8:12"]


def measure(budget: str, threads: int | None, knobs: list[str] | None, seed: int, out: Path | None) -> str:
    from simbalance.analysis.solve import targets_words, test_words
    from simbalance.core.config import load_config
    from simbalance.studies.solve import solve

    if not knobs and not load_config("captain-future").get("knobs"):
        knobs = FALLBACK_KNOBS
    argv = ["simbalance", "solve", "captain-future", "--strategies", "aggressor", "--target", "balance=0.97:1",
            *[a for k in knobs or [] for a in ("--knob", k)], "--budget", budget, "--seed", str(seed)]
    if threads:
        argv += ["--threads", str(threads)]
    begin = time.perf_counter()
    res = solve("captain-future", ["balance=0.97:1"], knobs, budget=budget, strategies="aggressor", seed=seed,
                threads=threads, players=4)
    wall = time.perf_counter() - begin
    if out is not None:
        from simbalance.report.solve_page import write_solve_folder

        write_solve_folder(res, out, " ".join(shlex.quote(a) for a in argv))
    chosen = res.chosen
    lines = [f"`{' '.join(shlex.quote(a) for a in argv)}` (`python -m benchmarks.solve --write`), "
             f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; knobs {', '.join(k.text() for k in res.knobs)}; targets "
             f"{targets_words(res.targets)}.", "",
             f"- today's rules ({res.verify_n:,} games): " + "; ".join(test_words(t) for t in res.today["tests"]),
             f"- candidates tried: {len(res.candidates)} in {int(res.candidates['games'].sum()) if len(res.candidates) else 0:,}"
             f" games; wall time {wall / 60:.1f} min of a {res.budget_s / 60:.0f} min budget"
             + (" (the budget stopped the search)" if res.budget_spent else "")]
    if chosen is not None:
        lines.append(f"- chosen: **{chosen.words}** (`{' '.join(f'--set {k}={v}' for k, v in chosen.change.items())}`): "
                     + "; ".join(test_words(t) for t in chosen.judged["tests"]) + f" on {res.verify_n:,} fresh games; "
                     + res.side_effects().get(chosen.words, ""))
        for m in chosen.models:
            lines.append(f"- under {m['model']} ({m['games']:,} games): {m['verdict']} ("
                         + "; ".join(test_words(t) for t in m["tests"]) + ")")
    else:
        lines += [f"- {f.text}" for f in res.findings()]
    met = chosen is not None and wall <= 20 * 60
    lines.append(f"- target (balance >= 97 % verified at 10^5 games within 20 minutes): {'met' if met else 'not met'}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", default="20m")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--knob", action="append", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the solve folder here")
    parser.add_argument("--write", action="store_true", help="write into BENCHMARKS.md (<!-- solve --> markers)")
    args = parser.parse_args()
    text = measure(args.budget, args.threads, args.knob, args.seed, args.out)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "solve")


if __name__ == "__main__":
    main()
