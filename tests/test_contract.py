"""One contract test for every built-in game of the registry (no hand-kept list of games). The
checks themselves live in ``simbalance.testing`` (read its docstring for what a game must do), so
that a plug-in game's own tests (what `simbalance new-game` writes) run the very same ones.

The pinned digests (test_fixed_seed_records.py) read the same registry. ``test_a_broken_game_fails``
checks that these checks can fail: copies of a game that skip a record field, or whose games change
with the thread count, are caught.
"""

from __future__ import annotations

import dataclasses
import zlib

import numpy as np
import pytest

from simbalance.core.plan import RunPlan
from simbalance.games.registry import builtin_games
from simbalance.testing import (
    CONTRACT_CHECKS,
    check_every_field_is_written,
    check_resumable_play_on,
    check_search_makes_no_stalemates,
    check_search_plays,
    check_search_sees_nothing_hidden,
    check_threads_and_chunks,
    plan_of,
    search_plans,
    stream,
)

GAMES = sorted(builtin_games())  # a plug-in game runs the same checks in its own tests


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_fills_in_the_contract(game):
    CONTRACT_CHECKS["engine-fills-in-the-contract"](game)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", ["fewest", "most"])
def test_every_record_field_is_written(game, players):
    CONTRACT_CHECKS[f"every-field-written-{players}-players"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_games_on_any_threads_and_chunks(game):
    CONTRACT_CHECKS["same-games-on-any-threads-and-chunks"](game)


@pytest.mark.parametrize("game", GAMES)
def test_validation_does_not_change_the_games(game):
    CONTRACT_CHECKS["validation-changes-no-game"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_is_the_recorded_game(game):
    CONTRACT_CHECKS["replay-is-the-recorded-game"](game)


@pytest.mark.parametrize("game", GAMES)
def test_plain_python_plays_the_same_games(game):
    CONTRACT_CHECKS["plain-python-plays-the-same-games"](game)


@pytest.mark.parametrize("game", GAMES)
def test_a_copy_of_the_state_plays_on_to_the_same_game(game):
    CONTRACT_CHECKS["copy-of-the-state-plays-on"](game)


@pytest.mark.parametrize("game", GAMES)
def test_no_jitted_call_hands_over_an_integer_literal(game):
    CONTRACT_CHECKS["no-integer-literal-to-a-jitted-call"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_players_play_valid_games(game):
    CONTRACT_CHECKS["search-players-play-valid-games"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_search_games_on_any_threads_and_chunks(game):
    CONTRACT_CHECKS["search-games-same-on-any-threads-and-chunks"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_of_a_search_game_is_the_recorded_game(game):
    CONTRACT_CHECKS["search-replay-is-the-recorded-game"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_kernel_plays_heuristics_as_the_kernel(game):
    CONTRACT_CHECKS["search-kernel-plays-heuristics-as-the-kernel"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_search_sees_nothing_hidden(game):
    CONTRACT_CHECKS["search-sees-nothing-hidden"](game)


@pytest.mark.parametrize("game", GAMES)
def test_the_features_see_nothing_hidden(game):
    CONTRACT_CHECKS["features-see-nothing-hidden"](game)


@pytest.mark.exhaustive  # every seat mcts-100: hundreds of search games per game, minutes
@pytest.mark.parametrize("game", GAMES)
def test_the_search_makes_no_stalemates_of_its_own(game):
    """Issue 53: at the budget the presets play (100 iterations), an all-search table ends no more
    of its games with no winner than the heuristic it plays like (failed on lady-actions-escape's
    fit before it saw games with no winner: 24.0% against blocker's 18.1%)."""
    check_search_makes_no_stalemates(game)


RUN_LOADS = """
import dataclasses, json, sys
import simbalance
from numba.core.registry import CPUDispatcher
from simbalance.games.registry import get_game

game = sys.argv[1]
simbalance.simulate(game, 20, threads=1)
engine = get_game(game).load()
others = {}  # the engine's jitted entry points besides its kernel
for part in (engine.resumable, engine.search):
    if part is not None:
        for field in dataclasses.fields(part):
            fn = getattr(part, field.name)
            if isinstance(fn, CPUDispatcher):
                others[field.name] = fn
for name, mod in list(sys.modules.items()):
    if name.startswith("simbalance"):
        for attr, fn in list(vars(mod).items()):
            if isinstance(fn, CPUDispatcher) and ("trace" in attr or name.startswith("simbalance.players")):
                others[f"{name}.{attr}"] = fn
print(json.dumps(sorted(k for k, fn in others.items() if fn.signatures)))
"""


@pytest.mark.parametrize("game", GAMES)
def test_a_run_compiles_only_its_kernel(game):
    """``simulate`` (and so ``simbalance run``) compiles or loads the main kernel and nothing the
    command does not use: not the replay's trace, the resumable steps or the search players
    (issue 37: a designer's first run waits for what it compiles)."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", RUN_LOADS, game], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_every_check_has_its_test():
    assert len(CONTRACT_CHECKS) == 15, "a new check in simbalance.testing needs a test here"


# ---------------------------------------------------------------------------------------------------
# The checks can fail


def _broken(plan: RunPlan, kernel) -> RunPlan:
    engine = dataclasses.replace(plan.engine, kernel=kernel)
    return dataclasses.replace(plan, engine=engine, kernel=kernel)


def test_a_broken_game_fails():
    plan = plan_of("find-dr-evil")
    good = plan.engine.kernel
    forgotten = plan.engine.record_dtype.names[-1]

    def skips_a_field(out, lo, hi, *args):
        full = np.zeros(len(out), out.dtype)
        good(full, lo, hi, *args)
        for name in out.dtype.names:
            if name != forgotten:
                out[name][lo:hi] = full[name][lo:hi]

    def depends_on_threads(out, lo, hi, *args):  # on how the chunk is split among the threads
        good(out, lo, hi, *args)
        out["length"][lo:hi] += lo

    with pytest.raises(AssertionError, match=forgotten):
        check_every_field_is_written(_broken(plan, skips_a_field))
    with pytest.raises(AssertionError, match="threads"):
        check_threads_and_chunks(_broken(plan, depends_on_threads))
    check_every_field_is_written(plan)
    check_threads_and_chunks(plan)


def test_the_play_on_check_fails_a_copy_that_is_not_one():
    """A ``clone`` that hands back the same arrays: playing the copy on plays the original on."""
    plan = plan_of("find-dr-evil", n=6)
    shallow = dataclasses.replace(plan.engine.resumable, clone=lambda state: tuple(state))
    broken = dataclasses.replace(plan, engine=dataclasses.replace(plan.engine, resumable=shallow))
    with pytest.raises(AssertionError, match="find-dr-evil"):
        check_resumable_play_on(broken, games=range(2))
    check_resumable_play_on(plan, games=range(2))


def test_the_search_checks_fail_a_game_without_search_players_and_a_search_that_peeks():
    """A game with decisions whose engine has no search players; a search that reads the hidden
    cards (its option depends on every array of the state); a determinization that moves nothing."""
    searching, plain = search_plans("captain-action", n=4, validate=True)
    nothing = dataclasses.replace(searching, engine=dataclasses.replace(searching.engine, search=None))
    with pytest.raises(AssertionError, match="captain-action: a game with decisions has the search players"):
        check_search_plays(nothing)
    res, search = plain.engine.resumable, plain.engine.search
    options = np.zeros(res.max_options(res.context(*plain.prepared)), np.int64)

    def peeks(ctx, state, *args):
        n = res.legal_options(ctx, state, options)
        return options[zlib.crc32(b"".join(a.tobytes() for a in state if a is not stream(state))) % n]

    def moves_nothing(ctx, state, seat, rng):
        stream(state)[0] ^= np.uint64(1)  # the stream re-keyed, and nothing else

    def with_search(plan, **parts):
        return dataclasses.replace(plan, engine=dataclasses.replace(plan.engine, search=dataclasses.replace(
            search, **parts)))

    with pytest.raises(AssertionError, match="the search sees hidden cards"):
        check_search_sees_nothing_hidden(searching, with_search(plain, choose=peeks))
    with pytest.raises(AssertionError, match="determinize never moves a hidden card"):
        check_search_sees_nothing_hidden(searching, with_search(plain, determinize=moves_nothing))
    check_search_plays(searching)
    check_search_sees_nothing_hidden(searching, plain)
