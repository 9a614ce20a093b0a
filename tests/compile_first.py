"""Compile each game's kernels into numba's cache before the tests run (``make test``: pytest's
``--compile-first``, tests/conftest.py).

A cold compile is most of a fresh clone's ``make test``, and a game's kernels are needed by tests in
many files. Compiled here first, one game per process and one process per core (the game whose
compile takes longest first: ``COMPILE_CPU``), every kernel is compiled exactly once and the tests
load it from the cache, whichever worker runs them. What is compiled is what the contract test and the search players' tests use:
the kernel (default lineup, every heuristic, validation on), the replay's trace, the resumable
steps and, where the game has them, the search players with their kernel and trace. Kernels
that only a few tests use (scripted deals) compile in those tests.

Run alone: ``python tests/compile_first.py GAME`` compiles one game.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def compile_game(game: str) -> None:
    import numpy as np
    from small_search import SMALL, small_search_overrides

    import simbalance
    from simbalance.core.runner import play_chunk
    from simbalance.studies.run import plan_run
    from simbalance.testing import CONTRACT_CHECKS

    simbalance.simulate(game, 20, threads=1)
    for check in ("validation-changes-no-game", "copy-of-the-state-plays-on", "replay-is-the-recorded-game"):
        CONTRACT_CHECKS[check](game)
    engine = plan_run(game, 1).engine
    if engine.search is not None and game in SMALL:
        strategies = f"mcts,flat,{engine.heuristics[0]},random"
        plan = plan_run(game, 2, players=4, seed=7, strategies=strategies, rotate=True,
                        overrides=small_search_overrides(game))
        out = np.zeros(plan.n, engine.record_dtype)
        play_chunk(engine, plan.lineup, plan.prepared_for(), plan.seed, 0, plan.n, 1, out=out)
        engine.trace(plan, 0)


# Each built-in game's cold compile in this script, CPU seconds, alone on an empty cache (`python -m
# benchmarks.compile_counts first GAME`, 2026-12-06): the order to compile in, the longest first, so
# that neither process is left compiling a long game alone at the end. The jitted sources' size
# (game_size) mis-ranks them: aquaman has 0.8x captain-future's bytes and takes 1.7x its compile.
# A game not listed (a plug-in) is estimated from its size (about captain-future's CPU per byte).
COMPILE_CPU = {"aquaman": 182, "captain-future": 107, "captain-action": 83, "lady-actions-escape": 65, "find-dr-evil": 13}


def compile_cost(game: str) -> float:
    return COMPILE_CPU.get(game, game_size(game) / 1300)


def game_size(game: str) -> int:
    """The bytes of a game's jitted sources: how long its compile takes, near enough to order by."""
    import importlib

    from simbalance.games.registry import get_game

    folder = Path(importlib.import_module(get_game(game).engine).__file__).parent
    return sum(len(p.read_bytes()) for p in folder.glob("*_nb.py"))


def compile_all(games: list[str], processes: int) -> list[str]:
    """Compile ``games`` in ``processes`` processes at once, the longest first (each process takes
    the next game when its last is done: longest-processing-time-first); a line per game.
    A game that fails here is left to its tests, which then say what is wrong."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))

    def one(game: str) -> str:
        began = time.perf_counter()
        done = subprocess.run([sys.executable, str(Path(__file__)), game], env=env, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            return f"{game}: not compiled first ({last}); its tests compile it"
        return f"{game} {time.perf_counter() - began:.0f} s"

    with ThreadPoolExecutor(max_workers=max(1, processes)) as pool:
        return list(pool.map(one, sorted(games, key=compile_cost, reverse=True)))


if __name__ == "__main__":
    sys.path.insert(0, str(TESTS))
    compile_game(sys.argv[1])
