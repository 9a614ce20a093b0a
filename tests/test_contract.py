"""One contract test for every game in the registry (no hand-kept list of games): whatever a game
is, its engine must

- write every field of every record (a field it forgets would keep whatever the memory held);
- play the same games on 1 and 2 threads and in any chunking;
- play the same games with validation on and off;
- replay a game exactly as the run recorded it;
- play the same games as plain Python (``NUMBA_DISABLE_JIT=1``);
- play on from a copy of its state taken at any decision to the record the kernel wrote, and list
  options that its own validation accepts.

The pinned digests (test_fixed_seed_records.py) read the same registry. ``test_a_broken_game_fails``
checks that these checks can fail: copies of a game that skip a record field, or whose games change
with the thread count, are caught.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher
from plain_python import assert_plain_python_plays_the_same_games

from simbalance.core.errors import ConfigError
from simbalance.core.plan import RunPlan
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import randint, seed_game
from simbalance.core.runner import max_threads, play_chunk
from simbalance.games.registry import all_games
from simbalance.studies.run import plan_run

GAMES = sorted(all_games())
N = 60  # games per check: enough to cover endings and ties, small enough for five engines


def lineup(game: str, players: int) -> dict:
    """The game's heuristics (not its search players) in turn on the seats, every seat permutation
    equally often."""
    names = all_games()[game].load().heuristics
    if len(names) == 1:
        return {}
    return {"strategies": [names[s % len(names)] for s in range(players)], "rotate": True}


def plan_of(game: str, n: int = N, players: int = 3, **kwargs) -> RunPlan:
    spec = all_games()[game]
    players = min(max(players, spec.min_players), spec.max_players)
    return plan_run(game, n, players=players, seed=17, **lineup(game, players), **kwargs)


def play(plan: RunPlan, *, threads: int = 1, chunk: int | None = None, fill: int = 0) -> np.ndarray:
    """The plan's games with its engine's kernel, into records whose bytes start as ``fill``."""
    engine = plan.engine
    out = np.full(plan.n * engine.record_dtype.itemsize, fill, dtype=np.uint8).view(engine.record_dtype)
    chunk = chunk or plan.n
    for first in range(0, plan.n, chunk):
        size = min(chunk, plan.n - first)
        play_chunk(engine, plan.lineup, plan.prepared, plan.seed, first, size, threads, out=out[first:first + size])
    return out


# ---------------------------------------------------------------------------------------------------
# The checks, as functions of a plan, so that a broken copy of a game can be put through them too


def check_every_field_is_written(plan: RunPlan) -> None:
    """Per-seat fields (length MAX_SEATS) count for the seats in play only: the runner hands a
    kernel zeroed records, and seats beyond the player count stay as it gave them."""
    zeros, ones = play(plan, fill=0x00), play(plan, fill=0xFF)

    def in_play(values: np.ndarray) -> np.ndarray:
        return values[:, :plan.players] if values.ndim == 2 and values.shape[1] == MAX_SEATS else values

    unwritten = [name for name in plan.engine.record_dtype.names
                 if not np.array_equal(in_play(zeros[name]), in_play(ones[name]))]
    assert not unwritten, f"{plan.spec.id}: the kernel does not write the record fields {unwritten}"


def check_threads_and_chunks(plan: RunPlan) -> None:
    base = play(plan, threads=1)
    threads = min(2, max_threads())
    assert np.array_equal(base, play(plan, threads=threads)), f"{plan.spec.id}: 1 and {threads} threads play different games"
    for chunk in (1, 7, plan.n // 3 + 1):
        assert np.array_equal(base, play(plan, chunk=chunk)), f"{plan.spec.id}: chunks of {chunk} change the games"
    shorter = dataclasses.replace(plan, n=plan.n // 2)
    assert np.array_equal(base[:shorter.n], play(shorter)), f"{plan.spec.id}: a shorter run plays other games"


def check_resumable_play_on(plan: RunPlan, games=range(6)) -> None:
    """From the state after k decisions (several k), a copy played on to the end with the same
    random stream gives the kernel's record; every listed option passes the engine's validation."""
    engine = plan.engine
    res = engine.resumable
    assert res is not None, f"{plan.spec.id}: the engine is not resumable (Engine.resumable)"
    records = play(plan)
    ctx = res.context(*plan.prepared)
    options = np.zeros(res.max_options(ctx), np.int64)
    pick = np.zeros(1, np.uint64)
    seed_game(pick, np.uint64(99), np.int64(0))  # the test's own choices, apart from the game's stream
    compared = [f for f in engine.record_dtype.names if f not in ("game", "strategy")]
    for g in games:
        slots = plan.lineup.seats[g % len(plan.lineup.seats)]
        seat_sid = plan.lineup.slot_strategy[slots].astype(np.int64)
        seat_prm = np.ascontiguousarray(plan.lineup.slot_params[slots])
        start = res.new_state(ctx)
        res.start(ctx, start, np.uint64(plan.seed), np.int64(g))
        decisions = res.play_out(ctx, res.clone(start), seat_sid, seat_prm, -1)
        for k in sorted({0, decisions // 3, decisions // 2, max(decisions - 1, 0)}):
            state = res.clone(start)
            assert res.play_out(ctx, state, seat_sid, seat_prm, k) == k
            if k < decisions:
                assert res.to_move(ctx, state) >= 0, f"{plan.spec.id} game {g}: over after {k} of {decisions} decisions"
                n_options = res.legal_options(ctx, state, options)
                assert n_options >= 1, f"{plan.spec.id} game {g}: a pending decision with no option"
                for option in options[:n_options]:
                    tried = res.clone(state)
                    res.apply_option(ctx, tried, option)
                    assert res.check(ctx, tried) == 0, f"{plan.spec.id} game {g}: listed option {option} breaks a rule"
                chosen = res.clone(state)
                res.apply_option(ctx, chosen, options[randint(pick, n_options)])
                res.play_out(ctx, chosen, seat_sid, seat_prm, -1)
                assert res.to_move(ctx, chosen) == -1
            copy = res.clone(state)
            res.play_out(ctx, copy, seat_sid, seat_prm, -1)
            assert res.to_move(ctx, copy) == -1
            out = np.zeros(1, engine.record_dtype)
            res.write_record(ctx, copy, out.view(np.recarray) if numba.config.DISABLE_JIT else out, 0)
            differ = [f for f in compared if not np.array_equal(out[0][f], records[g][f])]
            assert not differ, f"{plan.spec.id} game {g}: played on after {k} decisions, {differ} differ"


# ---------------------------------------------------------------------------------------------------
# Every game in the registry


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_fills_in_the_contract(game):
    spec = all_games()[game]
    engine = spec.load()
    assert engine.version >= 1 and {"game", "winner", "winners", "length", "end", "strategy"} <= set(engine.record_dtype.names)
    assert list(engine.strategies) == list(engine.strategy_params) and "random" in engine.strategies
    assert engine.replay is not None, f"{game}: no replay"


def largest_table(game: str) -> int:
    """The most players the default config seats (captain-action's deck runs short before 6)."""
    spec = all_games()[game]
    for players in range(spec.max_players, spec.min_players, -1):
        try:
            plan_of(game, n=1, players=players)
            return players
        except ConfigError:
            continue
    return spec.min_players


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", ["fewest", "most"])
def test_every_record_field_is_written(game, players):
    spec = all_games()[game]
    check_every_field_is_written(plan_of(game, players=spec.min_players if players == "fewest" else largest_table(game)))


@pytest.mark.parametrize("game", GAMES)
def test_the_same_games_on_any_threads_and_chunks(game):
    check_threads_and_chunks(plan_of(game))


@pytest.mark.parametrize("game", GAMES)
def test_validation_does_not_change_the_games(game):
    assert np.array_equal(play(plan_of(game)), play(plan_of(game, validate=True)))


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_is_the_recorded_game(game):
    plan = plan_of(game, n=8)
    assert plan.engine.trace is not None, f"{game}: no trace hook (the file template's replay.py)"
    records = play(plan)
    for g in range(plan.n):
        record, events = plan.engine.trace(plan, g)
        assert record.tobytes() == records[g:g + 1].tobytes(), f"{game} game {g}: the replay differs from the run"
        assert len(events) > 0
    assert all(isinstance(line, str) for line in plan.engine.replay(plan, 3))


@pytest.mark.parametrize("game", GAMES)
def test_plain_python_plays_the_same_games(game):
    kwargs = lineup(game, 3)
    assert_plain_python_plays_the_same_games(game, 3, seed=4, players=3, **kwargs)


@pytest.mark.parametrize("game", GAMES)
def test_a_copy_of_the_state_plays_on_to_the_same_game(game):
    check_resumable_play_on(plan_of(game))


def literal_arguments(package: str) -> list[str]:
    """Calls, inside the jitted functions of ``package``, that hand an integer or boolean literal
    (``-1``, ``True``, or a module constant such as ``END_WIN``) to a jitted function that is not inlined. numba compiles
    the callee once more for each literal value (docs/architecture.md, "Compile time"). Read from
    the source: a warm cache registers no callee's signatures, so the compiled functions cannot
    tell."""
    found = []
    for path in sorted(Path(importlib.import_module(package).__file__).parent.glob("*_nb.py")):
        module = importlib.import_module(f"{package}.{path.stem}")
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef) and isinstance(getattr(module, fn.name, None), CPUDispatcher):
                found += [f"{path.name}:{call.lineno} {ast.unparse(call)}" for call in ast.walk(fn)
                          if isinstance(call, ast.Call) and _not_inlined(module, call)
                          and any(_literal(module, arg) for arg in call.args)]
    return found


def _not_inlined(module, call: ast.Call) -> bool:
    fn = getattr(module, call.func.id, None) if isinstance(call.func, ast.Name) else None
    return isinstance(fn, CPUDispatcher) and fn.targetoptions.get("inline", "never") == "never"


def _literal(module, arg: ast.expr) -> bool:
    """An integer or boolean constant, or a name the module binds to one."""
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
        arg = arg.operand
    if isinstance(arg, ast.Constant):
        return isinstance(arg.value, int)
    return isinstance(arg, ast.Name) and isinstance(getattr(module, arg.id, None), int)


@pytest.mark.parametrize("game", GAMES)
def test_no_jitted_call_hands_over_an_integer_literal(game):
    package = all_games()[game].load().module.rsplit(".", 1)[0]
    assert not literal_arguments(package), "pass np.int64(...) instead: " + "; ".join(literal_arguments(package))


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
