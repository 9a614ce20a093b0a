"""The suite's two tiers and how it shares compiled kernels (docs/architecture.md, "Tests").

- ``make test`` runs every test not marked ``exhaustive``: every behaviour at small n.
  ``make test-all`` runs the exhaustive tier too (boundscheck recompiles, fresh venvs, long
  statistics, the notebook, every browser page, fault sweeps).
- Both run on pytest-xdist's workers (one per core) with ``--dist loadgroup``: every test that
  concerns one game is in that game's group, so one worker compiles the game's kernels and the
  other never waits for the same compile. A worker that meets a kernel another one compiled loads
  it from numba's cache (beside the sources, shared by every process of the checkout, the
  subprocesses that tests start included).

Tests import engine modules directly, not only through ``GameSpec.load``: every game's compiled
kernels are checked against their sources first, as loading a game does, once, before any worker
starts.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

# numba keeps only the 128 dispatchers it rebuilt last from a cache index alive
# (Dispatcher._recent). The generic search functions' index holds every game's entries; a long
# test process that rebuilt more than 128 since, then saves an entry of its own, pickles a dead one
# (ReferenceError: underlying object has vanished). Set before numba is first imported; the
# workers and the subprocesses that tests start inherit it.
os.environ.setdefault("NUMBA_FUNCTION_CACHE_SIZE", "100000")
# A run whose fitted evaluation is stale refits it and caches the refit (studies/evaluation.py): in the
# suite's own folder, never the user's ~/.cache (a test that checks the cache sets its own).
os.environ.setdefault("SIMBALANCE_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                           ".pytest_cache", "d", "simbalance-cache"))

import pytest  # noqa: E402

from simbalance.games.registry import all_games  # noqa: E402

GAME_DIRS = {game.replace("-", "_"): game for game in all_games()}
# the longest id first, so that a name inside another one cannot match in its place
GAME_IN_ID = re.compile("|".join(re.escape(g) for g in sorted(all_games(), key=len, reverse=True)))


def pytest_addoption(parser):
    parser.addoption("--compile-first", action="store_true",
                     help="compile every game's kernels first, a game per core (tests/compile_first.py; make test)")


def pytest_sessionstart(session):
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller has done this
        return
    for spec in all_games().values():
        spec.check_cache()
    # The planted plug-in games (tests/planted/) are registered only inside their test modules, so
    # their first check would come mid-suite: on a fresh clone (or after an edit of a source they
    # import) it found no matching stamp and deleted the caches of every source they import, among
    # them find-dr-evil's kernel (tests/planted/hostile_game plays it), which the next processes then
    # compiled again (BENCHMARKS.md, "Issue 56"). The same check, here, before anything compiles.
    from simbalance.core.jit_cache import drop_stale_cache

    for planted in sorted(Path(__file__).parent.glob("planted/*/__init__.py")):
        drop_stale_cache(planted.parent)
    if session.config.getoption("compile_first"):
        from compile_first import compile_all

        say = session.config.pluginmanager.get_plugin("terminalreporter").write_line
        say(f"compiling every game's kernels first, {os.cpu_count() or 1} at a time (minutes on a fresh clone)")
        began = time.perf_counter()
        lines = compile_all(sorted(all_games()), os.cpu_count() or 1)
        say(f"compiled in {time.perf_counter() - began:.0f} s: " + ", ".join(lines))


def game_of(item: pytest.Item) -> str | None:
    """The game a test concerns: its folder under tests/games/, else the one game its parameters
    name; None for a test of several games or of none."""
    parts = item.path.relative_to(item.config.rootpath).parts
    if parts[:2] == ("tests", "games") and len(parts) > 3 and parts[2] in GAME_DIRS:
        return GAME_DIRS[parts[2]]
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    named = set(GAME_IN_ID.findall(callspec.id))
    return named.pop() if len(named) == 1 else None


def pytest_collection_modifyitems(config, items):
    """Each game's tests in its xdist group, the largest game's first: xdist hands groups out in
    this order, so the long groups start at once and the single tests of no game fill in at the
    end, and neither worker is left with a long group while the other idles. Of those, the
    exhaustive tier's come first (one session runs both tiers: `make test-all`): they are the long
    ones (the wheel and a new game's walk, minutes), which would otherwise start last and leave a
    core idle while they end (issue 56)."""
    from compile_first import game_size

    size = {game: game_size(game) for game in all_games()}
    rank = {}
    for item in items:
        game = game_of(item)
        if game is not None:
            item.add_marker(pytest.mark.xdist_group(game))
            rank[item.nodeid] = -size[game]
        else:
            rank[item.nodeid] = 0 if item.get_closest_marker("exhaustive") else 1
    items.sort(key=lambda item: rank[item.nodeid])  # stable: each group keeps its order
