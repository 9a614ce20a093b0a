"""``simbalance card-value``'s speed (issue 40): states and play-outs per second per game with the
card-swap hooks, and the time to value every captain-action card to a 95% CI of +-2 points.

    python -m benchmarks.card_value [--games a,b] [--half 0.02] [--write]

Per game: the card values of ``STATES`` states per phase (every phase, the default lineup, 4 paired
play-outs) on 1 thread and on all threads, warm (the kernel compiled first in a small run): states
per second and play-outs per second. Then captain-action to +-``half`` (the widest 95% CI
half-width of any card in any phase at most ``half``): a pilot of ``PILOT`` states per phase
measures the widest half-width, the states per phase are scaled by (widest / half)^2 (CIs shrink as
1/sqrt(states)) with 10% to spare, and that run is timed on all threads, warm, and again from a
cold process's point of view (the compile included: ``cold``). ``--write`` puts the tables into
BENCHMARKS.md between ``<!-- card-value -->`` markers. The machine is shared: compare figures of one
run.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
STATES = 200
PILOT = 300
GAMES = ("find-dr-evil", "captain-action", "lady-actions-escape", "aquaman", "captain-future")
TARGET_S = 600  # every captain-action card to +-2 points on 2 cores within 10 minutes


def timed(game: str, states: int, threads: int, **kw):
    from simbalance.studies.card_value import card_value

    begin = time.perf_counter()
    res = card_value(game, states=states, decisions=0, observe=0, seed=1, threads=threads, **kw)
    return res, time.perf_counter() - begin


def widest(res) -> float:
    v = res.values[res.values["phase"] != "all"]
    return float(((v["ci_high"] - v["ci_low"]) / 2).max())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--half", type=float, default=0.02)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    threads = os.cpu_count() or 1
    rows = []
    for game in args.games.split(","):
        begin = time.perf_counter()
        timed(game, 5, 1)  # compile (or load) everything first
        compile_s = time.perf_counter() - begin
        cells = [game, f"{compile_s:.1f}"]
        for t in (1, threads):
            res, secs = timed(game, STATES, t)
            c = res.counts
            cells += [f"{c['states'] / secs:,.0f}", f"{c['playouts'] / secs:,.0f}"]
        cells.append(f"{res.counts['pairs'] / res.counts['states']:.1f}")
        rows.append("| " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    pilot, _ = timed("captain-action", PILOT, threads)
    h = widest(pilot)
    states = int(math.ceil(PILOT * (h / args.half) ** 2 * 1.1))
    res, secs = timed("captain-action", states, threads)
    reached = widest(res)
    v = res.values[res.values["phase"] != "all"]
    verdict = "met" if secs < TARGET_S and reached <= args.half else "not met"
    precision = (f"Every captain-action card to +-{100 * args.half:.0f} points (95% CI, every phase, {len(v)} "
                 f"(card, phase) values, {threads} threads, warm): {states:,} states per phase (the pilot's "
                 f"{PILOT} gave a widest half-width of {100 * h:.2f} points), {res.counts['playouts']:,} play-outs "
                 f"in {secs:.1f} s; widest half-width reached {100 * reached:.2f} points. Target: under "
                 f"{TARGET_S // 60} minutes: {verdict}.")
    print(precision)
    head = (f"`python -m benchmarks.card_value` on {threads} cores, 4 players, the default lineup, {STATES} states "
            "per phase (early, middle, late), 4 paired play-outs per (state, card), warm (the compile timed alone "
            "first, in a process that has the games' caches):\n\n"
            "| game | compile and first call (s) | states/s, 1 thread | play-outs/s, 1 thread | states/s, all threads "
            "| play-outs/s, all threads | cards valued per state |\n|---|---|---|---|---|---|---|")
    text = head + "\n" + "\n".join(rows) + "\n\n" + precision
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "card-value")


if __name__ == "__main__":
    main()
