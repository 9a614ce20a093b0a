"""Games with no winner: an all-search table against its rollout heuristic's (issue 53's Measure).

    python -m benchmarks.no_winner [--games GAME ...] [--write]

For each game with search: every seat ``mcts`` at 100 iterations (800 games) and every seat its
rollout strategy (4,000 games), the game's default players, the same seed (the same deals): each
ending's share (no winner; a timeout, ran into the cap; a stalemate) and the difference with its
Agresti-Caffo interval at the 98.3% level (simbalance.testing.stall_excess: the contract's own
check, tests/test_contract.py's exhaustive tier). ``--write`` puts the table into BENCHMARKS.md
between ``<!-- no-winner -->`` markers. One thread: the machine may be shared.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("captain-action", "lady-actions-escape", "aquaman", "captain-future")


def rows_of(game: str) -> list[str]:
    from simbalance.studies.run import SimulationResult
    from simbalance.studies.settings import plan_run
    from simbalance.testing import (
        STALL_BUDGET,
        STALL_GAMES,
        STALL_HEURISTIC_GAMES,
        STALL_OUTCOMES,
        simulate,
        stall_excess,
    )

    seed = 23  # no_winner_excess's
    base = plan_run(game, 1)
    rollout = base.config["strategies"]["mcts"]["rollout"]
    plan = plan_run(game, STALL_GAMES, seed=seed, strategies="mcts", threads=1,
                    overrides=[f"strategies.mcts.iterations={STALL_BUDGET}"])
    started = time.perf_counter()
    searching = SimulationResult.from_plan(plan.ready()).aggregate
    seconds = time.perf_counter() - started
    heuristic = simulate(game, STALL_HEURISTIC_GAMES, seed=seed, strategies=rollout, threads=1).aggregate
    excess = stall_excess(searching, heuristic)

    def share(agg, columns) -> str:
        return f"{100 * sum(agg.outcomes[c] for c in columns) / agg.n:.1f}%"

    out = []
    for row, (name, columns) in enumerate(STALL_OUTCOMES.items()):
        e = excess[name]
        verdict = "more (fails the contract)" if e.low > 0 else "fewer" if e.high < 0 else "not told apart"
        out.append(f"| {game} (v{base.engine.version}) | {name} | {share(searching, columns)} | {rollout}: "
                   f"{share(heuristic, columns)} | {100 * e.estimate:+.1f} ({100 * e.low:+.1f} to {100 * e.high:+.1f}) "
                   f"| {verdict} | {f'{STALL_GAMES / seconds:.1f}' if row == 0 else ''} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    head = (f"`python -m benchmarks.no_winner` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, one thread, 4 players, "
            "seed 23: 800 games of every seat `mcts@100` against 4,000 of every seat its rollout strategy (the same "
            "deals); the difference in points with its 98.3% interval (three endings, Bonferroni at 95%):\n\n"
            "| game | ending | all mcts@100 | all rollout strategy | difference, points | search ends | all mcts@100 "
            "games/s |\n|---|---|---|---|---|---|---|")
    lines = [head]
    for game in args.games:
        rows = rows_of(game)
        print("\n".join(rows), flush=True)
        lines += rows
    text = "\n".join(lines)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "no-winner")
    else:
        print(text)


if __name__ == "__main__":
    main()
