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
TARGETS = {"captain-future": 20, "lady-actions-escape": 40, "aquaman": 40, "captain-action": 200}  # games/s, 2 cores (../shared/guide/targets.md)
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


def search_seat(game: str) -> tuple:
    """Game 0's table of the benchmark's lineup (seat 0 the search seat) for playing decision by
    decision through the resumable steps: (plan, resumable, search, ctx, scratch, strategy ids,
    parameter rows)."""
    from simbalance.studies.run import plan_run

    _, seats = lineup(game)
    plan = plan_run(game, 1, players=4, seed=1, strategies=seats, presets=presets(game))
    res, search = plan.engine.resumable, plan.engine.search
    ctx = res.context(*plan.prepared)
    scratch = search.new_scratch(ctx, plan.lineup.slot_strategy, plan.lineup.slot_params, plan.evaluation_weights)
    sid = plan.lineup.slot_strategy[plan.lineup.seats[0]].astype(np.int64)
    prm = np.ascontiguousarray(plan.lineup.slot_params[plan.lineup.seats[0]])
    return plan, res, search, ctx, scratch, sid, prm


def iterations_per_second(game: str, seconds: float) -> tuple[float, float]:
    """(decisions/s, iterations/s) of the search seat, one thread, for about ``seconds``."""
    plan, res, search, ctx, scratch, sid, prm = search_seat(game)
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


def _copies(work, state, repeat: int) -> float:
    """Seconds per copy of ``state`` into ``work``, as the search copies it (players/common_nb.copy_state,
    jitted, no allocation)."""
    from numba import njit

    from simbalance.players.common_nb import copy_state

    global _COPY_LOOP
    if _COPY_LOOP is None:
        @njit
        def loop(dst, src, k):
            for _ in range(k):
                copy_state(dst, src)

        _COPY_LOOP = loop
    _COPY_LOOP(work, state, 1)
    t = time.perf_counter()
    _COPY_LOOP(work, state, repeat)
    return (time.perf_counter() - t) / repeat


_COPY_LOOP = None
_DETERMINIZE_LOOP = None


def _determinizations(determinize, ctx, work, seat: int, repeat: int) -> float:
    """Seconds per determinization of ``work`` for ``seat``, the game's ``determinize`` called from a
    jitted loop (a new key each time, as the search draws one per iteration)."""
    from numba import njit

    global _DETERMINIZE_LOOP
    if _DETERMINIZE_LOOP is None:
        @njit
        def loop(fn, ctx, work, seat, k):
            rng = np.zeros(1, np.uint64)
            for i in range(k):
                rng[0] = np.uint64(i + 1)
                fn(ctx, work, seat, rng)

        _DETERMINIZE_LOOP = loop
    seat = np.int64(seat)
    _DETERMINIZE_LOOP(determinize, ctx, work, seat, 1)
    t = time.perf_counter()
    _DETERMINIZE_LOOP(determinize, ctx, work, seat, repeat)
    return (time.perf_counter() - t) / repeat


def _per_call(fn, args, repeat: int) -> float:
    """Seconds per call of ``fn(*args)`` from Python, over ``repeat`` calls."""
    t = time.perf_counter()
    for _ in range(repeat):
        fn(*args)
    return (time.perf_counter() - t) / repeat


def iteration_profile(game: str, states: int, games: int) -> dict:
    """Where a search seat's time goes, from ``states`` decisions of the search seat drawn at random
    from ``games`` whole games (one thread): search decisions per game; microseconds per iteration with the
    preset's play-outs, and cut after one decision (depth 1: the copy, the determinization, the
    selection, one decision and the evaluation); and of those, the copy of the state and the
    determinization alone (each in a jitted loop). The play-outs' share is what depth 1 saves."""
    from simbalance.players.common_nb import P_MCTS_DEPTH

    plan, res, search, ctx, scratch, sid, prm = search_seat(game)
    cut = prm.copy()
    cut[0, P_MCTS_DEPTH] = 1.0  # row 0: the search seat's parameters
    found, per_game = [], []
    for g in range(games):  # the decision states of whole games, the search seat's choices played
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(plan.seed), np.int64(g))
        k = 0
        while True:
            res.play_out(ctx, state, sid, prm, np.int64(-1))
            if res.to_move(ctx, state) < 0:
                break
            found.append((res.clone(state), g, k))
            option = search.choose(ctx, state, sid, prm, np.uint64(plan.seed), np.int64(g), np.int64(k), scratch)
            res.apply_option(ctx, state, option)
            k += 1
        per_game.append(k)
    pick = np.random.default_rng(0).permutation(len(found))[:states]
    found = [found[i] for i in sorted(pick)]
    seed = np.uint64(plan.seed)
    timed = {"full": 0.0, "cut": 0.0, "copy": 0.0, "determinize": 0.0}
    for i, (state, g, k) in enumerate(found):
        for name, row in (("full", prm), ("cut", cut)):
            if i == 0:  # compile or load first
                search.choose(ctx, res.clone(state), sid, row, seed, np.int64(g), np.int64(k), scratch)
            timed[name] += _per_call(search.choose, (ctx, res.clone(state), sid, row, seed, np.int64(g), np.int64(k),
                                                     scratch), 1) / BUDGET
        seat = res.to_move(ctx, state)
        work = res.clone(state)
        timed["copy"] += _copies(work, state, 200)
        timed["determinize"] += _determinizations(search.determinize, ctx, work, seat, 200)
    us = {name: 1e6 * value / len(found) for name, value in timed.items()}
    return {"decisions per game": float(np.mean(per_game)), "full": us["full"], "cut": us["cut"],
            "copy": us["copy"], "determinize": us["determinize"]}


def profile_table(games: list[str], quick: bool) -> str:
    """Where a search seat's time goes (iteration_profile), one row per game."""
    rows = ["| game | search decisions per game | us per iteration | play-outs | copy of the state | "
            "determinization | the rest (tree, one decision, evaluation) |", "|---|---|---|---|---|---|---|"]
    for game in games:
        p = iteration_profile(game, 20 if quick else 60, 3 if quick else 8)
        playouts = max(0.0, p["full"] - p["cut"])
        rest = max(0.0, p["cut"] - p["copy"] - p["determinize"])

        def share(x: float, full: float = p["full"]) -> str:
            return f"{x:,.1f} ({100 * x / full:.0f}%)"

        rows.append(f"| {game} | {p['decisions per game']:,.0f} | {p['full']:,.1f} | {share(playouts)} | "
                    f"{share(p['copy'])} | {share(p['determinize'])} | {share(rest)} |")
    return "\n".join([f"Where a `mcts-{BUDGET}` seat's time goes (`python -m benchmarks.search`, one thread; "
                      "microseconds per iteration: with the preset's play-outs, and cut after one decision, whose "
                      "saving is the play-outs' share; the copy and the determinization timed alone):", "", *rows])


def table(games: list[str], quick: bool) -> str:
    from simbalance.games.registry import get_game

    cores = os.cpu_count() or 1
    rows = ["| game (engine version) | seat | against | games/s, 1 thread | games/s, all threads | "
            "search decisions/s, 1 thread | iterations/s, 1 thread | iterations/s, all threads | "
            "target (games/s, 2 cores) |", "|---|---|---|---|---|---|---|---|---|"]
    for game in games:
        spec = get_game(game)
        against, _ = lineup(game)
        rate = TARGETS.get(game)
        # a few seconds of play each: about 10 s per measurement at the target rate
        n = max(8, int(2 * (rate or 10) * (1 if quick else 5)))
        one, every = games_per_second(game, n, 1), games_per_second(game, n, cores)
        per_decision, per_iteration = iterations_per_second(game, 2.0 if quick else 8.0)
        verdict = "" if rate is None else (f"{rate}: met" if every >= rate else f"{rate}: **not met**")
        # all threads: one thread's iterations/s scaled by the games/s the threads add
        rows.append(f"| {game} (v{spec.load().version}) | mcts-{BUDGET} | 3 x {against} | {one:,.1f} | {every:,.1f} | "
                    f"{per_decision:,.0f} | {per_iteration:,.0f} | {per_iteration * every / one:,.0f} | {verdict} |")
    return "\n".join([f"`python -m benchmarks.search` on {cores} cores, 4 players, seats rotated, warm cache "
                       "(iterations/s on all threads: one thread's, times the games/s all threads add):", "",
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
    text = table(games, args.quick) + "\n\n" + profile_table(games, args.quick)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "search")


if __name__ == "__main__":
    main()
