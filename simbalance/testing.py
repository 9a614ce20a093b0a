"""The engine contract test, for any game: simbalance's own (tests/test_contract.py) and a plug-in
game's (the tests `simbalance new-game` writes) call the same checks.

Whatever a game is, its engine must

- fill in the contract (``Engine``: a version, the common record fields, ``random`` among its
  strategies, a replay);
- write every field of every record (a field it forgets would keep whatever the memory held);
- play the same games on 1 and 2 threads and in any chunking;
- play the same games with validation on and off;
- replay a game exactly as the run recorded it;
- play the same games as plain Python (``NUMBA_DISABLE_JIT=1``);
- play on from a copy of its state taken at any decision to the record the kernel wrote, and list
  options that its own validation accepts;
- hand no integer literal to a jitted function that is not inlined (a compile of its own each).

Each check raises ``AssertionError`` with the game and what differs. In a test suite::

    import pytest
    from simbalance.testing import CONTRACT_CHECKS

    @pytest.mark.parametrize("check", sorted(CONTRACT_CHECKS))
    def test_contract(check):
        CONTRACT_CHECKS[check]("my-game")

or ``check_contract("my-game")`` for all of them at once. The game must be known to the registry
(a plug-in: installed, e.g. ``pip install -e .``). Nothing here needs pytest.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from simbalance.core.errors import ConfigError
from simbalance.core.plan import RunPlan
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import randint, seed_game
from simbalance.core.runner import max_threads, play_chunk
from simbalance.games.registry import get_game
from simbalance.studies.run import plan_run, simulate

N = 60  # games per check: enough to cover endings and ties, small enough for every engine


def lineup(game: str, players: int) -> dict:
    """The game's heuristics (not its search players) in turn on the seats, every seat permutation
    equally often."""
    names = get_game(game).load().heuristics
    if len(names) == 1:
        return {}
    return {"strategies": [names[s % len(names)] for s in range(players)], "rotate": True}


def plan_of(game: str, n: int = N, players: int = 3, **kwargs) -> RunPlan:
    """A small run of ``game`` (seed 17) with every strategy seated, at ``players`` within its range."""
    spec = get_game(game)
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


def largest_table(game: str) -> int:
    """The most players the default config seats (a deck may run short before the spec's maximum)."""
    spec = get_game(game)
    for players in range(spec.max_players, spec.min_players, -1):
        try:
            plan_of(game, n=1, players=players)
            return players
        except ConfigError:
            continue
    return spec.min_players


# ---------------------------------------------------------------------------------------------------
# The checks of a plan (so that a broken copy of a game can be put through them too)


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
    """From the state after k decisions (several k, the last decision and past the end included), a
    copy played on to the end with the same random stream gives the kernel's record, and so does
    the original played on before it (the copy shares no array with it, its stream included);
    every listed option passes the engine's validation. A game's own tests run it on their
    variants and lineups (``plan_run(game, n, **setup)``)."""
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
        for k in sorted({0, 1, 2, 7, decisions // 3, decisions // 2, max(decisions - 1, 0), decisions, decisions + 5}):
            state = res.clone(start)
            made = res.play_out(ctx, state, seat_sid, seat_prm, k)
            assert made == min(k, decisions), f"{plan.spec.id} game {g}: {made} of {k} decisions made, the game has {decisions}"
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
            assert all(a is not b for a, b in zip(copy, state, strict=True)), f"{plan.spec.id}: clone shares an array"
            for which, played in (("the original", state), ("its copy", copy)):  # the original first
                left = res.play_out(ctx, played, seat_sid, seat_prm, -1)
                assert left == decisions - made, f"{plan.spec.id} game {g}: {which} made {left} more decisions, not {decisions - made}"
                assert res.to_move(ctx, played) == -1
                out = np.zeros(1, engine.record_dtype)
                res.write_record(ctx, played, out.view(np.recarray) if numba.config.DISABLE_JIT else out, 0)
                differ = [f for f in compared if not np.array_equal(out[0][f], records[g][f])]
                assert not differ, f"{plan.spec.id} game {g}: {which}, played on after {k} decisions: {differ} differ"


def check_replay(plan: RunPlan) -> None:
    """Every game of the plan replays to the record the run wrote, with events, and in words."""
    assert plan.engine.trace is not None, f"{plan.spec.id}: no trace hook (the file template's replay.py)"
    assert plan.engine.replay is not None, f"{plan.spec.id}: no replay hook (the file template's replay.py)"
    records = play(plan)
    for g in range(plan.n):
        record, events = plan.engine.trace(plan, g)
        assert record.tobytes() == records[g:g + 1].tobytes(), f"{plan.spec.id} game {g}: the replay differs from the run"
        assert len(events) > 0, f"{plan.spec.id} game {g}: the replay logged no event"
    lines = plan.engine.replay(plan, min(3, plan.n - 1))
    assert lines and all(isinstance(line, str) for line in lines), f"{plan.spec.id}: the replay is not lines of text"


def assert_plain_python_plays_the_same_games(game: str, n: int, **kwargs) -> None:
    """The engine run as plain Python (NUMBA_DISABLE_JIT=1, in a subprocess) plays exactly the games
    the jitted engine plays: integer widths and bit tricks must not change a game."""
    code = (f"import hashlib, simbalance; r = simbalance.simulate({game!r}, {n}, threads=1, **{kwargs!r}); "
            "print(hashlib.sha256(r.records.tobytes()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                         capture_output=True, text=True)
    assert out.returncode == 0, f"{game}: the plain-Python run failed: {out.stderr.strip().splitlines()[-1:]}"
    jit = simulate(game, n, threads=1, **kwargs).records
    assert out.stdout.strip() == hashlib.sha256(jit.tobytes()).hexdigest(), f"{game}: plain Python differs"


def literal_arguments(package: str) -> list[str]:
    """Calls, inside the jitted functions of ``package``, that hand an integer or boolean literal
    (``-1``, ``True``, or a module constant such as ``END_WIN``) to a jitted function that is not
    inlined. numba compiles the callee once more for each literal value (docs/architecture.md,
    "Compile time"). Read from the source: a warm cache registers no callee's signatures, so the
    compiled functions cannot tell."""
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


# ---------------------------------------------------------------------------------------------------
# The checks of a game, by id


def check_engine_fills_in_the_contract(game: str) -> None:
    engine = get_game(game).load()
    assert engine.version >= 1, f"{game}: Engine.version must be 1 or more"
    missing = {"game", "winner", "winners", "length", "end", "strategy"} - set(engine.record_dtype.names)
    assert not missing, f"{game}: the record lacks the common fields {sorted(missing)} (core/records.record_dtype)"
    assert list(engine.strategies) == list(engine.strategy_params), f"{game}: strategies and strategy_params differ"
    assert "random" in engine.strategies, f"{game}: every game has a 'random' strategy"
    assert engine.replay is not None, f"{game}: no replay"


def check_fields_fewest_players(game: str) -> None:
    check_every_field_is_written(plan_of(game, players=get_game(game).min_players))


def check_fields_most_players(game: str) -> None:
    check_every_field_is_written(plan_of(game, players=largest_table(game)))


def check_threads_and_chunks_of(game: str) -> None:
    check_threads_and_chunks(plan_of(game))


def check_validation_of(game: str) -> None:
    """``--validate`` checks invariants at every step and changes no game."""
    assert np.array_equal(play(plan_of(game)), play(plan_of(game, validate=True))), f"{game}: validation changes the games"


def check_replay_of(game: str) -> None:
    check_replay(plan_of(game, n=8))


def check_plain_python(game: str) -> None:
    assert_plain_python_plays_the_same_games(game, 3, seed=4, players=3, **lineup(game, 3))


def check_resumable_of(game: str) -> None:
    check_resumable_play_on(plan_of(game))


def check_no_integer_literals(game: str) -> None:
    package = get_game(game).load().module.rsplit(".", 1)[0]
    found = literal_arguments(package)
    assert not found, "pass np.int64(...) instead: " + "; ".join(found)


CONTRACT_CHECKS: dict[str, Callable[[str], None]] = {
    "engine-fills-in-the-contract": check_engine_fills_in_the_contract,
    "every-field-written-fewest-players": check_fields_fewest_players,
    "every-field-written-most-players": check_fields_most_players,
    "same-games-on-any-threads-and-chunks": check_threads_and_chunks_of,
    "validation-changes-no-game": check_validation_of,
    "replay-is-the-recorded-game": check_replay_of,
    "plain-python-plays-the-same-games": check_plain_python,
    "copy-of-the-state-plays-on": check_resumable_of,
    "no-integer-literal-to-a-jitted-call": check_no_integer_literals,
}


def check_contract(game: str) -> None:
    """Every contract check on ``game``; the first that fails raises AssertionError."""
    for check in CONTRACT_CHECKS.values():
        check(game)
