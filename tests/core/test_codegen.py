"""simbalance compiles its own array accesses without numba's negative-index wrap (core/codegen.py).

That is only right while no index in simbalance's jitted code is ever negative. With numba's bounds
checks on (``NUMBA_BOUNDSCHECK=1``), an index that the wrap would have turned into the array's end
raises instead: every engine plays its default lineup, random players and the search players there,
with its invariants checked, and nothing may raise. A plug-in game's own code keeps numba's
semantics.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit
from small_search import SMALL, small_search_overrides

import simbalance  # noqa: F401  (installs the code generation of core/codegen.py)
from simbalance.core import codegen
from simbalance.games.registry import all_games

CHECKED = textwrap.dedent(r'''
    import json
    import sys
    import numpy as np
    import simbalance
    from numba import njit
    from simbalance.games.registry import all_games

    # The check can fail: a function of the simbalance package that indexes from the end raises here.
    space = {"__name__": "simbalance.planted", "njit": njit}
    exec("@njit\ndef last(a):\n    return a[-1]\n", space)
    try:
        space["last"](np.arange(3))
        sys.exit("a negative index in simbalance's code did not raise under NUMBA_BOUNDSCHECK=1")
    except IndexError:
        pass

    game, search_sets = sys.argv[1], json.loads(sys.argv[2])
    simbalance.simulate(game, 300, seed=5, threads=1, validate=True)
    simbalance.simulate(game, 100, seed=6, threads=1, strategies="random", validate=True)
    if all_games()[game].load().search is not None:
        simbalance.simulate(game, 8, seed=7, threads=1, strategies=["mcts", "flat"] * 2, overrides=search_sets,
                            rotate=True)
    print(game, "ok", flush=True)
''')


def test_installed():
    assert codegen.installed()


def test_a_plug_in_keeps_negative_indices():
    """Code outside the simbalance package indexes from the end as numba does."""

    @njit
    def last(a):
        return a[-1]

    assert last(np.arange(5)) == 4


@pytest.fixture(scope="session")
def boundscheck_cache(request, tmp_path_factory):
    """numba's cache of the bounds-checked builds, apart from the ordinary one (numba's cache key does
    not tell the two builds apart) and kept between runs in pytest's cache folder (the checkout's
    ``.pytest_cache``): a second ``make test-all`` loads what the first compiled. ``jit_cache`` drops
    its stale entries as it drops the ordinary cache's (its stamps live in that folder too)."""
    cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    return cache.mkdir("numba-boundscheck") if cache is not None else tmp_path_factory.mktemp("numba-boundscheck")


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", sorted(all_games()))
def test_no_index_is_negative(game, boundscheck_cache):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(boundscheck_cache))
    sets = json.dumps(small_search_overrides(game) if game in SMALL else [])
    out = subprocess.run([sys.executable, "-c", CHECKED, game, sets], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr.strip()[-2000:]
    assert f"{game} ok" in out.stdout
