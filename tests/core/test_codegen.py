"""simbalance compiles its own array accesses without numba's negative-index wrap (core/codegen.py).

That is only right while no index in simbalance's jitted code is ever negative. With numba's bounds
checks on (``NUMBA_BOUNDSCHECK=1``), an index that the wrap would have turned into the array's end
raises instead: every engine plays its default lineup, random players and the search players there,
with its invariants checked, and nothing may raise. A plug-in game's own code keeps numba's
semantics.
"""

from __future__ import annotations

import gc
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


def _planted(source: str, module: str):
    """A jitted function defined in ``module`` (planted as if it were simbalance's own code)."""
    space = {"__name__": module, "njit": njit}
    exec(textwrap.dedent(source), space)  # noqa: S102
    return space


def test_the_collector_is_paused_while_numba_compiles_and_runs_after():
    """core/codegen.py pauses the garbage collector from the outermost compile's start to its end;
    it runs again after, also when the compile fails."""
    from numba.core import event

    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append(gc.isenabled())

        def on_end(self, ev):
            pass

    space = _planted("""
        @njit
        def inner(x):
            return x + 1

        @njit
        def outer(x):
            return inner(x) * 2

        @njit
        def broken(x):
            return undefined_name(x)
    """, "simbalance.planted_gc")
    assert gc.isenabled()
    with event.install_listener("numba:compile", Listener()):
        assert space["outer"](np.int64(3)) == 8
    assert seen and not any(seen), "the collector ran during a compile (outer's or inner's)"
    assert gc.isenabled()
    with pytest.raises(Exception, match="undefined_name"):
        space["broken"](np.int64(1))
    assert gc.isenabled(), "a failed compile left the collector paused"


def test_a_literal_on_its_way_to_a_type_compiles_no_signature_of_its_own():
    """``best = -1`` before a loop that sets it: simbalance's callee compiles once, for int64; a
    plug-in's function (another module) keeps numba's literal signatures."""
    source = """
        @njit
        def pick(i):
            return i * 2

        @njit
        def caller(n):
            best = -1
            for i in range(n):
                if i % 3 == 2:
                    best = i
            return pick(best) + pick(-1)
    """
    ours, theirs = _planted(source, "simbalance.planted_literal"), _planted(source, "plugin_game.rules")
    assert ours["caller"](np.int64(10)) == theirs["caller"](np.int64(10)) == 16 - 2
    assert [str(s[0]) for s in ours["pick"].signatures] == ["int64"]
    assert any("Literal" in str(s[0]) for s in theirs["pick"].signatures), "the check cannot fail"


def test_target_options_compare_as_numba_compares_them():
    """The cheap equality and hash of numba's TargetConfig agree with numba's own."""
    from numba.core.compiler import Flags

    a, b, c = Flags(), Flags(), Flags()
    b.nrt = True
    c.nrt = a.nrt  # set explicitly to its default: equal to one that is not set
    assert a == c and hash(a) == hash(c)
    assert a != b and b != a
    a.nrt = True
    assert a == b and hash(a) == hash(b) == hash(Flags())
    assert hash(Flags()) == hash(tuple(sorted(Flags().values())))  # numba's own hash, the same value


def test_an_inlined_function_is_copied_with_one_scope():
    """numba's inliner copies an inlined function's IR with one memo (core/codegen.py): in place,
    and a function of many blocks inlined at several call sites computes what it computes
    without inlining."""
    from numba.core.inline_closurecall import InlineWorker

    assert getattr(InlineWorker.inline_ir, "simbalance_copy_once", False)
    space = _planted("""
        @njit(inline="always")
        def clipped_sum(a, lo, hi):
            total = 0
            for x in a:
                if x < lo:
                    total += lo
                elif x > hi:
                    total += hi
                else:
                    total += x
            return total

        @njit
        def twice(a):
            return clipped_sum(a, 2, 5) * 100 + clipped_sum(a, 0, 3)

        def twice_in_python(a):
            return clipped_sum.py_func(a, 2, 5) * 100 + clipped_sum.py_func(a, 0, 3)
    """, "simbalance.planted_inline")
    a = np.arange(8)
    assert space["twice"](a) == space["twice_in_python"](a) == 28 * 100 + 18


def test_the_reserved_frame_passes_the_call_through():
    """The outermost compile runs in a frame that reserves a large chunk of CPython's frame stack;
    it returns what the call returns and raises what it raises."""
    assert codegen._in_reserved_stack.__code__.co_stacksize >= 100_000
    assert codegen._in_reserved_stack(divmod, 7, 2) == (3, 1)
    assert codegen._in_reserved_stack(dict, a=1) == {"a": 1}
    with pytest.raises(ZeroDivisionError):
        codegen._in_reserved_stack(divmod, 1, 0)


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
