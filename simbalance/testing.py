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
- hand no integer literal to a jitted function that is not inlined (a compile of its own each);
- with decisions, have the search players ``mcts`` and ``flat`` (``Engine.search``, the game's
  ``search_nb.py``): seated among its heuristics they play valid games, the same on any threads and
  chunks, replayed as recorded; and they see only what their seat sees (the leak test: the hidden
  cards dealt otherwise, the same search).

A game's own tests add what only the game knows: ``check_determinization`` with what a seat sees
and where the hidden cards lie (tests/players/test_search.py, and the tests `new-game` writes).

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
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from simbalance.analysis.stats import ALPHA, Interval
from simbalance.core.aggregate import RunAggregate
from simbalance.core.errors import ConfigError
from simbalance.core.plan import RunPlan
from simbalance.core.records import END_INVALID, MAX_SEATS
from simbalance.core.rng import randint, seed_game
from simbalance.core.runner import max_threads, play_chunk
from simbalance.core.strategy_ids import FLAT, MCTS
from simbalance.games.registry import get_game
from simbalance.players.common_nb import T_PARENT
from simbalance.studies.run import plan_run
from simbalance.studies.run_study import simulate

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


def play(plan: RunPlan, *, threads: int = 1, chunk: int | None = None, fill: int = 0, kernel=None) -> np.ndarray:
    """The plan's games with its engine's kernel (with a search player seated, the search kernel;
    or ``kernel``), into records whose bytes start as ``fill``."""
    engine = plan.engine
    out = np.full(plan.n * engine.record_dtype.itemsize, fill, dtype=np.uint8).view(engine.record_dtype)
    chunk = chunk or plan.n
    for first in range(0, plan.n, chunk):
        size = min(chunk, plan.n - first)
        play_chunk(engine, plan.lineup, plan.prepared_for(kernel), plan.seed, first, size, threads, kernel,
                   out=out[first:first + size])
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
# The search players (docs/strategies.md): what every decision does, at small budgets

# Small budgets, and play-outs cut after a few decisions: the game's ``evaluate`` scores a cut
# play-out, its ``outcome`` one that ends within them, so both hooks are played.
SMALL_SEARCH = ["strategies.mcts.iterations=8", "strategies.flat.playouts=2", "strategies.mcts.depth=8",
                "strategies.flat.depth=8"]


def assert_has_search(plan: RunPlan) -> None:
    """A game with decisions has the search players: a balance verdict should not rest on
    hand-written heuristics alone (docs/strategies.md)."""
    assert plan.engine.search is not None, (
        f"{plan.spec.id}: a game with decisions has the search players mcts and flat: their hooks in search_nb.py "
        "and Engine(search=Search.of_game(play_nb, search_nb)) (simbalance's docs/strategies.md)")
    missing = sorted({"mcts", "flat"} - set(plan.engine.strategies))
    assert not missing, f"{plan.spec.id}: {missing} missing from the strategies (simbalance.players.SEARCH_STRATEGIES)"


def search_plans(game: str, n: int = 12, players: int = 3, **kwargs) -> tuple[RunPlan, RunPlan] | None:
    """Two small runs of ``game`` (seed 17, ``SMALL_SEARCH``, at ``players`` or the nearest the game
    seats): ``mcts`` and ``flat`` seated among the search's rollout strategy (every seat permutation
    equally often; at 2 players the two search players alone), and the rollout strategy on every
    seat. None for a game without decisions: there is nothing to search."""
    spec = get_game(game)
    if not spec.load().has_decisions:
        return None
    players = min(max(players, spec.min_players), spec.max_players)
    base = plan_run(game, n, players=players, seed=17, overrides=SMALL_SEARCH, **kwargs)
    assert_has_search(base)
    rollout = base.config["strategies"]["mcts"]["rollout"]
    searching = plan_run(game, n, players=players, seed=17, overrides=SMALL_SEARCH, rotate=True,
                         strategies=["mcts", "flat", *[rollout] * players][:players], **kwargs)
    return searching, plan_run(game, n, players=players, seed=17, overrides=SMALL_SEARCH, strategies=rollout, **kwargs)


def check_search_plays(plan: RunPlan) -> None:
    """With validation on, no search game ends as invalid (an option the decision does not list, or
    a broken invariant after it, would end it so); and the kernel without search never plays a
    search seat's decision (it ends the game as invalid: records that look played would be wrong)."""
    assert_has_search(plan)
    records = play(plan)
    invalid = np.flatnonzero(records["end"] == END_INVALID).tolist()
    assert not invalid, f"{plan.spec.id}: search games {invalid[:5]} end as invalid (validated)"
    every_seat = plan_run(plan.spec.id, plan.n, players=plan.players, seed=plan.seed, strategies="mcts",
                          overrides=SMALL_SEARCH)
    played = np.flatnonzero(play(every_seat, kernel=plan.engine.kernel)["end"] != END_INVALID).tolist()
    assert not played, (f"{plan.spec.id}: the kernel without search played games {played[:5]} of search seats: its "
                        "play_out must stop before a search seat's decision, and the game end as invalid")


def seats_of(plan: RunPlan, g: int) -> tuple[np.ndarray, np.ndarray]:
    """Game ``g``'s seats: their strategy ids and parameter rows, as the kernel hands them on."""
    slots = plan.lineup.seats[g % len(plan.lineup.seats)]
    return plan.lineup.slot_strategy[slots].astype(np.int64), np.ascontiguousarray(plan.lineup.slot_params[slots])


def decision_states(plan: RunPlan, games=range(2), every: int = 3, seats=None, limit: int | None = None
                    ) -> tuple[tuple, list]:
    """The game's context and states at decisions of the plan's games (every ``every``-th, the
    plan's heuristics deciding in between, or ``seats``: strategy ids and parameter rows for every
    game; at most ``limit`` a game, from its start), copied: the places a search starts from."""
    res = plan.engine.resumable
    ctx = res.context(*plan.prepared)
    found = []
    for g in games:
        sid, prm = seats or seats_of(plan, g)
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(plan.seed), np.int64(g))
        taken = 0
        while res.to_move(ctx, state) >= 0 and taken != limit:
            found.append(res.clone(state))
            taken += 1
            res.play_out(ctx, state, sid, prm, np.int64(every))
    return ctx, found


def stream(state) -> np.ndarray:
    """The state's own random stream: its one uint64[1] array."""
    (rng,) = [a for a in state if a.dtype == np.uint64 and a.shape == (1,)]
    return rng


def every_seats_decisions(res, ctx, states: list, per_seat: int = 3) -> list:
    """Up to ``per_seat`` of ``states`` for each seat to move, spread over the games (first,
    middle, last...): the leak tests look at every seat's decisions, not at every k-th decision,
    which in a game of two decisions a round would land on one seat only."""
    by_seat: dict[int, list] = {}
    for state in states:
        by_seat.setdefault(int(res.to_move(ctx, state)), []).append(state)
    picked = []
    for seat in sorted(by_seat):
        found = by_seat[seat]
        picked += [found[k] for k in sorted({round(i * (len(found) - 1) / max(per_seat - 1, 1))
                                             for i in range(min(per_seat, len(found)))})]
    return picked


def tree_leaks(plan: RunPlan, ctx, state, seat: int, scratch, rng) -> list[str]:
    """Where ``mcts``'s last tree (in ``scratch``, searched for ``seat`` at ``state``) lets another
    seat choose by the tree's statistics after a move hidden from it (the game's ``observe``): that
    seat's choice there would answer a move it never saw (issue 53: a reply to a face-down sign).
    The tree's options are replayed on a determinization of ``state`` for ``seat``; a branch whose
    option is not legal there, or whose mover is not the seat to move, is not followed. A search
    that built no tree (one option: it answers at once) leaves the root's parent as the caller set
    it (``scratch[1][0, T_PARENT] = 0`` before the search): nothing to look at."""
    from simbalance.players.common_nb import T_CHANCE, T_CHILD, T_MOVER, T_NEXT, T_OPTION

    res, search = plan.engine.resumable, plan.engine.search
    observe = search.observe or (lambda ctx, state, option, seat: option)
    ti = scratch[1]
    if ti[0, T_PARENT] != -1:
        return []
    options = np.zeros(res.max_options(ctx), np.int64)
    deal = res.clone(state)
    search.determinize(ctx, deal, seat, rng)
    found = []
    stack = [(0, deal, 0)]  # a node, the state its options lead to, the seats a move on the way was hidden from
    while stack:
        node, at, blind = stack.pop()
        child = ti[node, T_CHILD]
        while child >= 0:
            mover, option = int(ti[child, T_MOVER]), np.int64(ti[child, T_OPTION])
            if ti[child, T_CHANCE] == 0 and res.to_move(ctx, at) == mover:
                if mover != seat and (blind >> mover) & 1:
                    found.append(f"seat {mover} chooses {option} by the tree after a move hidden from it")
                if option in options[:res.legal_options(ctx, at, options)]:
                    seen = [observe(ctx, at, option, np.int64(q)) for q in range(plan.players)]
                    hidden = sum(1 << q for q in range(plan.players) if q != mover and seen[q] != option)
                    after = res.clone(at)
                    res.apply_option(ctx, after, option)
                    stack.append((child, after, blind | hidden))
            child = ti[child, T_NEXT]
    return found


def check_search_sees_nothing_hidden(searching: RunPlan, plain: RunPlan) -> None:
    """The leak test, for ``mcts`` and ``flat``: at decisions of every seat in ``plain``'s games (its
    strategy on every seat), the hidden cards dealt otherwise (the game's own ``determinize`` of
    the real state, its stream re-keyed): the search makes the same choice with the same
    statistics. A search that read a card its seat cannot see would choose otherwise somewhere.
    And ``mcts``'s tree lets no other seat choose after a move hidden from it (``tree_leaks``: a
    move the game's ``observe`` hides). (That ``determinize`` keeps what the seat sees is
    ``check_determinization``'s, with the game's own view.)"""
    res, search = plain.engine.resumable, plain.engine.search
    # every decision of each game's first 60 (a long game's copies would fill the memory), then up to
    # 3 a seat, spread over them
    ctx, states = decision_states(plain, every=1, limit=60)
    states = every_seats_decisions(res, ctx, states)
    # every strategy's parameter row: the search players' from ``searching``, the rollout's from ``plain``
    # (at 2 players ``searching`` seats the two search players alone)
    rows = {sid: row for p in (plain, searching)
            for sid, row in zip(p.lineup.slot_strategy.tolist(), p.lineup.slot_params, strict=True)}
    rollout = int(plain.lineup.slot_strategy[0])
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(9), np.int64(0))
    for player in (MCTS, FLAT):
        a = search.new_scratch(ctx, searching.lineup.slot_strategy, searching.lineup.slot_params,
                               searching.evaluation_weights)
        b = search.new_scratch(ctx, searching.lineup.slot_strategy, searching.lineup.slot_params,
                               searching.evaluation_weights)
        changed = 0
        for k, state in enumerate(states):
            seat = res.to_move(ctx, state)
            sid = np.full(plain.players, rollout, np.int64)  # the others play the rollout strategy
            prm = np.tile(rows[rollout], (plain.players, 1))
            sid[seat], prm[seat] = player, rows[player]
            for _ in range(4):  # a hidden sign may be drawn again as it was: a few draws, to see one move
                other = res.clone(state)
                search.determinize(ctx, other, seat, rng)
                moved = any(not np.array_equal(x, y) for x, y in zip(state, other, strict=True) if x is not stream(state))
                if moved:
                    break
            assert res.check(ctx, other) == 0, f"{plain.spec.id}: a determinization breaks the engine's validation"
            assert stream(other)[0] != stream(state)[0], f"{plain.spec.id}: a determinization keeps the game's stream"
            changed += moved
            key = (np.uint64(plain.seed), np.int64(0), np.int64(k))
            a[1][0, T_PARENT] = 0  # the root's parent: -1 again only if the search builds a tree (tree_leaks)
            chose = search.choose(ctx, state, sid, prm, *key, a), search.choose(ctx, other, sid, prm, *key, b)
            assert chose[0] == chose[1], f"{plain.spec.id}: the search sees hidden cards: it chose {chose} at decision {k}"
            for part in (2, 9):  # the tree's statistics, the root's options compared on the same deals
                assert np.array_equal(a[part], b[part]), f"{plain.spec.id}: the search sees hidden cards (decision {k})"
            if player == MCTS:
                leaks = tree_leaks(plain, ctx, state, seat, a, rng)
                assert not leaks, f"{plain.spec.id}: the tree answers hidden moves (decision {k}): {leaks[:3]}"
        assert changed > 0, f"{plain.spec.id}: determinize never moves a hidden card"


def check_determinization(plan: RunPlan, view: Callable, hidden: Callable, samples: int = 3000) -> None:
    """For a game's own tests, which know its state: at decisions of the plan's games, a
    determinization for the seat to move keeps what it sees, ``view(ctx, state, seat)`` (any
    comparable value), passes the engine's validation, keeps the hidden cards and the size of every
    place they lie in, ``hidden(ctx, state, seat) -> {place: [card, ...]}``, re-keys the game's own
    stream, moves the hidden cards in most states, and puts each hidden card in each hidden place
    at the rate of that place's size."""
    res, search = plan.engine.resumable, plan.engine.search
    ctx, states = decision_states(plan, range(3))
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(5), np.int64(0))
    changed = 0
    for state in states:  # a search determinizes for the seat to move
        seat = res.to_move(ctx, state)
        w = res.clone(state)
        search.determinize(ctx, w, seat, rng)
        assert view(ctx, w, seat) == view(ctx, state, seat), f"{plan.spec.id}: a determinization changes what the seat sees"
        assert res.check(ctx, w) == 0, f"{plan.spec.id}: a determinization breaks the engine's validation"
        before, after = hidden(ctx, state, seat), hidden(ctx, w, seat)
        assert {k: len(v) for k, v in before.items()} == {k: len(v) for k, v in after.items()}, "a place changed size"
        assert sorted(sum(before.values(), [])) == sorted(sum(after.values(), [])), "the hidden cards changed"
        assert stream(w)[0] != stream(state)[0], f"{plan.spec.id}: the game's own stream is not re-keyed"
        changed += before != after
    assert changed > len(states) // 2, f"{plan.spec.id}: the hidden cards moved in {changed} of {len(states)} states"
    # Uniform: each hidden card lands in each hidden place at the rate of the place's size.
    state = states[len(states) // 2]
    seat = res.to_move(ctx, state)
    places = hidden(ctx, state, seat)
    total = sum(len(v) for v in places.values())
    counts: dict = {}
    for _ in range(samples):
        w = res.clone(state)
        search.determinize(ctx, w, seat, rng)
        for place, cards in hidden(ctx, w, seat).items():
            for c in cards:
                counts[c, place] = counts.get((c, place), 0) + 1
    every = sum(places.values(), [])
    for card in sorted(set(every)):
        copies = every.count(card)  # a card may have copies (a rank, a kind): they count together
        for place, cards in places.items():
            p = len(cards) / total
            got = counts.get((card, place), 0)
            # (copies are drawn without replacement: this variance is an upper bound)
            z = (got - samples * copies * p) / np.sqrt(samples * copies * p * (1 - p)) if 0 < p < 1 else 0.0
            assert abs(z) < 5, (f"{plan.spec.id}: card {card} in {place} {got} times of {samples}, "
                                f"expected {samples * copies * p:.0f}")


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
    spec = get_game(game)
    players = min(max(3, spec.min_players), spec.max_players)  # 3, or the nearest the game seats
    assert_plain_python_plays_the_same_games(game, 3, seed=4, players=players, **lineup(game, players))


def check_resumable_of(game: str) -> None:
    check_resumable_play_on(plan_of(game))


def check_no_integer_literals(game: str) -> None:
    package = get_game(game).load().module.rsplit(".", 1)[0]
    found = literal_arguments(package)
    assert not found, "pass np.int64(...) instead: " + "; ".join(found)


def check_search_plays_of(game: str) -> None:
    plans = search_plans(game, validate=True)
    if plans is not None:
        check_search_plays(plans[0])


def check_search_threads_and_chunks_of(game: str) -> None:
    plans = search_plans(game)
    if plans is not None:
        check_threads_and_chunks(plans[0])


def check_search_replay_of(game: str) -> None:
    plans = search_plans(game, n=4)
    if plans is not None:
        check_replay(plans[0])


def check_search_kernel_plays_heuristics(game: str) -> None:
    """The search kernel (a run with a search seat) plays heuristic lineups exactly as the kernel."""
    if search_plans(game, n=1) is not None:
        plan = plan_of(game, n=100)
        assert np.array_equal(play(plan), play(plan, kernel=plan.engine.search.kernel)), (
            f"{game}: the search kernel plays heuristics otherwise than the kernel")


def check_search_leak_of(game: str) -> None:
    plans = search_plans(game)
    if plans is not None:
        check_search_sees_nothing_hidden(*plans)


def check_features_see_nothing_hidden(game: str) -> None:
    """The fitted evaluation's features (docs/strategies.md, "The fitted evaluation"): at decisions
    of heuristic games, each seat's features are the same after the game's ``determinize`` for that
    seat (which deals everything hidden from it otherwise, as the search does): they read only what
    the seat sees. And the fitted shares (players/common_nb.fitted_shares, at weights large enough to
    overflow a naive exp) are the softmax of the features, summing to 1, or with a "no winner"
    alternative to 1 minus its share, as analysis/fit_eval.softmax_shares computes them."""
    plans = search_plans(game, n=1)
    if plans is None:
        return
    from simbalance.analysis.fit_eval import kernel_weights, softmax_shares
    from simbalance.players.common_nb import fitted_shares

    plain = plans[1]
    res, search = plain.engine.resumable, plain.engine.search
    ctx, states = decision_states(plain)
    k = len(search.feature_names)
    assert k > 0, f"{game}: search_nb.FEATURES names no feature"
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(11), np.int64(0))
    before, after = np.zeros(k), np.zeros(k)
    weights = np.random.default_rng(5).normal(size=k) * 100.0
    no_winner = {"intercept": 3.0, "weights": list(np.random.default_rng(6).normal(size=k))}
    fit = np.zeros((2, 2 * k + 1))
    fit[0] = kernel_weights(weights, None)
    with_stall = np.zeros((2, 2 * k + 1))
    with_stall[0] = kernel_weights(weights, no_winner)
    rew = np.zeros(MAX_SEATS)
    feats = np.zeros((1, plain.players, k))
    for n, state in enumerate(states):
        for seat in range(plain.players):
            search.features(ctx, state, seat, before)
            other = res.clone(state)
            search.determinize(ctx, other, seat, rng)
            search.features(ctx, other, seat, after)
            assert np.array_equal(before, after), (
                f"{game}: seat {seat}'s features change when the cards hidden from it are dealt otherwise (decision "
                f"{n}): {dict(zip(search.feature_names, zip(before, after, strict=True), strict=True))}")
            feats[0, seat] = before
        fitted_shares(search.features, ctx, state, fit, rew, np.int64(plain.players))
        assert abs(rew[:plain.players].sum() - 1.0) < 1e-9, f"{game}: fitted shares sum to {rew.sum()}"
        np.testing.assert_allclose(rew[:plain.players], softmax_shares(feats, weights)[0], atol=1e-9)
        fitted_shares(search.features, ctx, state, with_stall, rew, np.int64(plain.players))
        np.testing.assert_allclose(rew[:plain.players], softmax_shares(feats, weights, no_winner)[0], atol=1e-9)


# The no-winner check (issue 53): the presets' budget, and 800 all-search games against 4,000 of the
# heuristic, the same seed (the same deals). The artifacts are three: games that end with no
# winner, that run into the cap (a timeout) or that stall (a stalemate) "measurably more often than the
# heuristics' do at the same table", so the check compares each share (stall_excess). The no-winner
# share alone cannot tell lady-actions-escape's old search (play-outs cut at 10, a fit that dropped
# the games with no winner) from today's: at this sample the old one ended 18.8% of its games with no
# winner against blocker's 17.9% (+0.9 points, CI -2.7 to +4.5). What gives it away is how they end: a
# search seat that keeps changing its moves escapes the loop detection, so 6.2% of its games ran into
# the 5,000-turn cap against blocker's 1.6% (+4.7 points, CI +2.7 to +6.9), and fewer stalled (12.5%
# against 16.3%). Pairing the two tables' games on their common deals would not sharpen the
# no-winner share: the search's and blocker's no-winner indicators of the same deal correlate -0.01
# (800 deals; the games part after the first decisions). Each 800-game table costs minutes of one
# core (lady-actions-escape, the old search: about 2 s a game of wall on the shared machine; today's:
# 0.75 CPU s a game), so the check is not in CONTRACT_CHECKS (a plug-in's everyday tests) but in
# tests/test_contract.py's exhaustive tier.
STALL_BUDGET = 100
STALL_GAMES = 800
STALL_HEURISTIC_GAMES = 4000  # the heuristic table's games: they cost little
# The endings without a winner by their columns of RunAggregate.outcomes (decided, ties, timeouts, stalemates).
STALL_OUTCOMES = {"no winner": (2, 3), "timeout (ran into the cap)": (2,), "stalemate": (3,)}


def stall_excess(searching: RunAggregate, heuristic: RunAggregate, alpha: float = ALPHA) -> dict[str, Interval]:
    """Each ending of STALL_OUTCOMES: its share of the all-search table's games minus its share of the
    heuristic table's, with the Agresti-Caffo interval (analysis/stats.proportion_difference) at
    ``alpha / 3`` each (Bonferroni: the three together are wrong at most ``alpha`` of the time)."""
    from simbalance.analysis.stats import proportion_difference

    level = alpha / len(STALL_OUTCOMES)

    def count(agg: RunAggregate, columns: tuple[int, ...]) -> int:
        return int(sum(agg.outcomes[c] for c in columns))

    return {name: proportion_difference(count(searching, columns), searching.n, count(heuristic, columns),
                                        heuristic.n, level)
            for name, columns in STALL_OUTCOMES.items()}


# The all-search table is played in blocks of this many games, and stops once its verdict is known
# whatever the games not played yet end (settled_above): a search that makes stalemates of its own
# (the old lady search: issue 53) is caught in about half the games, a search that does not plays
# all of them (an interval can only be known to stay at or below 0 once every game is in).
STALL_BLOCK = 100


def settled_above(searching: RunAggregate, n: int, heuristic: RunAggregate, alpha: float = ALPHA) -> dict[str, Interval]:
    """The endings of STALL_OUTCOMES whose stall_excess interval at ``n`` all-search games is above 0
    however the ``n - searching.n`` games not played yet end: for each, the interval of the final
    count (this one, or more of these endings to come) whose lower end is lowest, above 0. Exact, not
    a sequential test: a check that stops there gives the verdict a check of all ``n`` games gives.
    Every final count is tried, not only the first: a count's lower end need not grow with it near 0
    (the interval widens as the share grows; at ALPHA 0.05 it does grow, at 0.01 and below it dips)."""
    from simbalance.analysis.stats import proportion_difference

    level = alpha / len(STALL_OUTCOMES)
    left = n - searching.n
    settled = {}
    for name, columns in STALL_OUTCOMES.items():
        seen = int(sum(searching.outcomes[c] for c in columns))
        theirs = int(sum(heuristic.outcomes[c] for c in columns))
        finals = [proportion_difference(count, n, theirs, heuristic.n, level) for count in range(seen, seen + left + 1)]
        lowest = min(finals, key=lambda interval: interval.low)
        if lowest.low > 0:
            settled[name] = lowest
    return settled


def no_winner_excess(game: str, budget: int = STALL_BUDGET, n: int = STALL_GAMES,
                     heuristic_n: int = STALL_HEURISTIC_GAMES, seed: int = 23, search: tuple[str, ...] = (),
                     evaluation: Path | None = None, stop_when_settled: bool = False):
    """stall_excess of an all-search table (every seat ``mcts`` at ``budget`` iterations, the game's
    own search parameters otherwise, or those of ``search``: overrides such as
    ``strategies.mcts.depth=10``) against the same table of the search's rollout strategy (the
    heuristic it plays like), the game's default number of players, the same seed (the same deals);
    with the rollout strategy's name, the all-search games played, and the endings settled above 0
    (settled_above). ``evaluation``: an eval.json whose fit scores the cut play-outs instead of the
    game's own (an older fit, to show what the check finds in it). ``stop_when_settled``: the search
    table stops at the first block of STALL_BLOCK games after which an ending is settled above 0 (the
    excess is then that of the games played). None for a game without decisions."""
    from simbalance.core.runner import chunk_bounds
    from simbalance.studies.evaluation import provenance, stored_weights

    spec = get_game(game)
    if not spec.load().has_decisions:
        return None
    base = plan_run(game, 1)
    rollout = base.config["strategies"]["mcts"]["rollout"]
    heuristic = simulate(game, heuristic_n, seed=seed, strategies=rollout, threads=1).aggregate
    plan = plan_run(game, n, seed=seed, strategies="mcts", threads=1,
                    overrides=[f"strategies.mcts.iterations={budget}", *search])
    if evaluation is not None:
        data = json.loads(Path(evaluation).read_text())
        plan = dataclasses.replace(plan, search_eval=stored_weights(data), refit=None,
                                   search_eval_source=provenance(data, "given", Path(evaluation)))
    plan = plan.ready()
    kernel = plan.engine.kernel_for(plan.lineup)
    prepared = plan.prepared_for(kernel)
    slots = len(plan.lineup.slot_names)
    searching, settled = RunAggregate(plan.players, slots), {}
    # one game loop for both: a block at a time (the same games as one chunk of n: runner.chunk_bounds)
    for first, size in chunk_bounds(n, STALL_BLOCK if stop_when_settled else n):
        part = play_chunk(plan.engine, plan.lineup, prepared, plan.seed, first, size, 1, kernel)
        broken = np.flatnonzero(part["end"] == END_INVALID)
        assert not len(broken), (f"{game}: game {int(part['game'][broken[0]])} of seed {seed}, every seat "
                                 f"mcts@{budget} ({', '.join(search) or 'the game’s search parameters'}), "
                                 "broke an engine invariant")
        searching = searching.merge(RunAggregate.from_records(part, plan.players, slots))
        settled = settled_above(searching, n, heuristic)
        if stop_when_settled and settled:
            break
    return stall_excess(searching, heuristic), rollout, searching.n, settled


def check_search_makes_no_stalemates(game: str, budget: int = STALL_BUDGET, n: int = STALL_GAMES,
                                     heuristic_n: int = STALL_HEURISTIC_GAMES, search: tuple[str, ...] = (),
                                     evaluation: Path | None = None) -> None:
    """A search player's games end with no winner, run into the cap or stall no more often than its
    rollout strategy's at the same table: each share of an all-search table's ``n`` games is not above
    the heuristic table's beyond the interval of their difference (stall_excess; issue 53: in
    lady-actions-escape every seat mcts-100 stalled 24.0% of its games, 39.2% with the hand-written
    evaluation, every seat blocker 18.1%: the referee made its own stalemates). The search table
    stops as soon as an ending is above whatever its other games would do (settled_above: the same
    verdict, sooner). ``search`` and ``evaluation``: as no_winner_excess (the old lady's cut and fit,
    to show the check fails there)."""
    found = no_winner_excess(game, budget, n, heuristic_n, search=search, evaluation=evaluation,
                             stop_when_settled=True)
    if found is None:
        return
    excess, rollout, played, settled = found
    level = 1 - ALPHA / len(STALL_OUTCOMES)
    said = {name: f"{name}: {100 * e.estimate:+.1f} points (CI {100 * e.low:+.1f} to {100 * e.high:+.1f})"
            for name, e in excess.items()}
    above = list(settled)  # with every game played: the endings whose interval is above 0
    if played == n:
        sample = f"{n} and {heuristic_n} games"
    else:  # stopped early: the endings above whatever the other games do, at their least excess
        said.update({name: f"{name}: {100 * excess[name].estimate:+.1f} points in the first {played} games, "
                           f"at {n} games at least {100 * e.estimate:+.1f} (CI {100 * e.low:+.1f} to "
                           f"{100 * e.high:+.1f}) however the other {n - played} end" for name, e in settled.items()})
        sample = f"{played} of {n} games played (the verdict settled), {heuristic_n} of {rollout}"
    assert not above, (
        f"{game}: every seat mcts@{budget} ends more games than every seat {rollout} with "
        + "; ".join(said[name] for name in above) + " (besides: "
        + "; ".join(text for name, text in said.items() if name not in above)
        + f"; {100 * level:.4g}% CIs, {sample}): the search makes stalemates of its own")


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
    "search-players-play-valid-games": check_search_plays_of,
    "search-games-same-on-any-threads-and-chunks": check_search_threads_and_chunks_of,
    "search-replay-is-the-recorded-game": check_search_replay_of,
    "search-kernel-plays-heuristics-as-the-kernel": check_search_kernel_plays_heuristics,
    "search-sees-nothing-hidden": check_search_leak_of,
    "features-see-nothing-hidden": check_features_see_nothing_hidden,
}


def check_contract(game: str) -> None:
    """Every contract check on ``game``; the first that fails raises AssertionError."""
    for check in CONTRACT_CHECKS.values():
        check(game)
