"""The search players' speed: one ``mcts-100`` seat among three heuristics, 4 players, per game
with search players (issue 19's targets), and the search iterations per second.

    python -m benchmarks.search [--games a,b] [--write]

Per game: games/s of the kernel on 1 thread and on all threads (seats rotated, warm cache), and
iterations/s of one search seat (its decisions played one by one through the engine's resumable
steps on one thread: decisions x 100 iterations / seconds). ``--write`` puts the table into
BENCHMARKS.md between ``<!-- search -->`` markers. The machine is shared: compare figures of one run.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"captain-future": 5, "lady-actions-escape": 10, "aquaman": 10, "captain-action": 200}  # games/s, 2 cores
BUDGET = 100


def lineup(game: str) -> tuple[str, list[str]]:
    """The heuristic the search seat plays against (the ladder's default) and the 4 seats."""
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.ladder import default_against
    from simbalance.studies.run import plan_run

    base = plan_run(game, 1, players=4)
    infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
    heuristics = [n for n, i in infos.items() if not i.preset and not base.engine.is_search(i.base)]
    against = default_against(base.config, heuristics)
    return against, [f"mcts@{BUDGET}", against, against, against]


def presets(game: str) -> dict:
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.ladder import budget_preset
    from simbalance.studies.run import plan_run

    base = plan_run(game, 1, players=4)
    info = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)["mcts"]
    return {f"mcts@{BUDGET}": budget_preset(info, "iterations", BUDGET)}


def games_per_second(game: str, n: int, threads: int) -> float:
    from simbalance.studies.run import SimulationResult, plan_run

    _, seats = lineup(game)
    plan = plan_run(game, n, players=4, seed=1, strategies=seats, rotate=True, threads=threads,
                    presets=presets(game))
    SimulationResult.from_plan(plan)  # warm: compile or load the cache first
    result = SimulationResult.from_plan(plan)
    return n / result.elapsed


def iterations_per_second(game: str, seconds: float) -> tuple[float, float]:
    """(decisions/s, iterations/s) of the search seat, one thread, for about ``seconds``."""
    from simbalance.studies.run import plan_run

    _, seats = lineup(game)
    plan = plan_run(game, 1, players=4, seed=1, strategies=seats, presets=presets(game))
    res, search = plan.engine.resumable, plan.engine.search
    ctx = res.context(*plan.prepared)
    scratch = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params)
    sid = plan.lineup.slot_strategy[plan.lineup.seats[0]].astype(np.int64)
    prm = np.ascontiguousarray(plan.lineup.slot_params[plan.lineup.seats[0]])
    decisions, spent, g = 0, 0.0, 0
    while spent < seconds:
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(plan.seed), np.int64(g))
        k = 0
        while True:
            res.play_out(ctx, state, sid, prm, np.int64(-1))
            if res.to_move(ctx, state) < 0:
                break
            t = time.perf_counter()
            option = search.choose(ctx, state, sid, prm, np.uint64(plan.seed), np.int64(g), np.int64(k), scratch)
            spent += time.perf_counter() - t if g or k else 0.0  # the first call compiles or loads
            decisions += 1 if g or k else 0
            res.apply_option(ctx, state, option)
            k += 1
        g += 1
    return decisions / spent, decisions * BUDGET / spent


def table(games: list[str], quick: bool) -> str:
    from simbalance.games.registry import get_game

    cores = os.cpu_count() or 1
    rows = ["| game (engine version) | seat | against | games/s, 1 thread | games/s, all threads | "
            "search decisions/s | iterations/s | target (games/s, 2 cores) |", "|---|---|---|---|---|---|---|---|"]
    for game in games:
        spec = get_game(game)
        against, _ = lineup(game)
        rate = TARGETS.get(game)
        # a few seconds of play each: about 10 s per measurement at the target rate
        n = max(8, int(2 * (rate or 10) * (1 if quick else 5)))
        one, every = games_per_second(game, n, 1), games_per_second(game, n, cores)
        per_decision, per_iteration = iterations_per_second(game, 2.0 if quick else 8.0)
        verdict = "" if rate is None else (f"{rate}: met" if every >= rate else f"{rate}: **not met**")
        rows.append(f"| {game} (v{spec.load().version}) | mcts-{BUDGET} | 3 x {against} | {one:,.1f} | {every:,.1f} | "
                    f"{per_decision:,.0f} | {per_iteration:,.0f} | {verdict} |")
    return "\n".join([f"`python -m benchmarks.search` on {cores} cores, 4 players, seats rotated, warm cache:", "",
                      *rows])


def main() -> None:
    from simbalance.games.registry import all_games

    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default=None, help="comma-separated game ids (default: every game with search)")
    parser.add_argument("--quick", action="store_true", help="shorter measurements")
    parser.add_argument("--write", action="store_true", help="write the table into BENCHMARKS.md")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else sorted(
        g for g, spec in all_games().items() if spec.load().search is not None)
    text = table(games, args.quick)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "search")


if __name__ == "__main__":
    main()
