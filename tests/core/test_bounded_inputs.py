"""Huge counts fail fast in one line; chunks and grid values are made lazily (issue 23, item 3)."""

import itertools
import time
import tracemalloc
from collections.abc import Iterator

import numpy as np
import pytest
from typer.testing import CliRunner

from simbalance.analysis.sweep import MAX_POINTS, SweepParam, grid, parse_param
from simbalance.api import SimulationResult, check_n, plan_run
from simbalance.cli.main import app
from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.execution import RunOptions
from simbalance.core.plan import parse_count
from simbalance.core.runner import MAX_GAMES, chunk_bounds, games_in_chunks

GAME = "find-dr-evil"
CFG = load_config(GAME)


def one_line_error(args, tmp_path):
    start = time.perf_counter()
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert time.perf_counter() - start < 10  # nothing played, nothing allocated
    assert res.exit_code == 2, (res.output, res.exception)
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), res.output
    assert not (tmp_path / "out").exists()
    return lines[0]


def test_the_limit_is_ten_to_the_twelve_games():
    assert MAX_GAMES == 10**12
    assert parse_count("1e12") == parse_count("1_000_000_000_000") == parse_count("1000000000000") == MAX_GAMES
    assert check_n(MAX_GAMES) == MAX_GAMES and check_n(np.int64(MAX_GAMES)) == MAX_GAMES


@pytest.mark.parametrize("text", ["999999999999999", "1000000000001", "1_000_000_000_001", "1e13", "1e15",
                                  "1.0000001e12", "1e400", "9" * 5000])
def test_counts_above_the_limit_are_one_line_errors(text):
    with pytest.raises(SimbalanceError, match=r"at most 10\^12 \(1e12\) games") as exc:
        parse_count(text)
    assert "\n" not in str(exc.value) and repr(text) in str(exc.value)


@pytest.mark.parametrize("n", ["999999999999999", "1e13"])
def test_cli_refuses_a_huge_n_at_once(tmp_path, n):
    line = one_line_error(["run", GAME, "--n", n], tmp_path)
    assert f"--n '{n}'" in line and "at most 10^12" in line
    line = one_line_error(["run", GAME, "--n", n, "--precision", "0.01", "--stream"], tmp_path)
    assert "at most 10^12" in line


@pytest.mark.parametrize("n", [10**12 + 1, 999999999999999, np.int64(10**15), 10**100])
def test_api_refuses_a_huge_n_before_anything_is_played(n):
    start = time.perf_counter()
    with pytest.raises(SimbalanceError, match=r"^n = \d+: at most 10\^12 \(1e12\) games per run$"):
        plan_run(GAME, n)
    assert time.perf_counter() - start < 5


def old_chunk_bounds(n, chunk, first_game=0):
    return [(first_game + start, min(chunk, n - start)) for start in range(0, n, chunk)]


def test_chunk_bounds_is_lazy():
    start = time.perf_counter()
    chunks = chunk_bounds(MAX_GAMES, 1)  # 10^12 chunks: a list could never be built
    assert isinstance(chunks, Iterator) and not isinstance(chunks, (list, tuple))
    assert list(itertools.islice(chunks, 3)) == [(0, 1), (1, 1), (2, 1)]
    assert next(chunk_bounds(MAX_GAMES, 1 << 16, first_chunk=15258788)) == (15258788 << 16, 1 << 16)
    assert list(chunk_bounds(MAX_GAMES, 1 << 16, first_chunk=15258789)) == [(15258789 << 16, 4096)]
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("n", [1, 2, 999, 1000, 1001, 12_345, 65_536, 100_000])
@pytest.mark.parametrize("chunk", [1, 7, 1000, 1 << 15, 1 << 16, 1 << 18])
def test_chunk_bounds_are_the_chunks_of_before(n, chunk):
    old = old_chunk_bounds(n, chunk)
    assert list(chunk_bounds(n, chunk)) == old
    assert list(chunk_bounds(n, chunk, 500)) == old_chunk_bounds(n, chunk, 500)
    for k in {0, 1, 2, len(old) // 2, len(old) - 1, len(old), len(old) + 1}:
        assert list(chunk_bounds(n, chunk, first_chunk=k)) == old[k:]
        assert games_in_chunks(n, chunk, k) == sum(size for _, size in old[:k])


def test_a_precision_run_with_the_largest_n_stays_small():
    plan = plan_run(GAME, MAX_GAMES, seed=9, chunk_size=1000)
    tracemalloc.start()
    try:
        result = SimulationResult.from_plan(plan, options=RunOptions(keep_games=False, precision=0.03))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 1000 <= result.n_played < 100_000 and result.n_played % 1000 == 0
    assert peak < 64 * 2**20  # the sample of the first games and the aggregates: nothing per chunk of n
    # The games played are games 0..k-1 of the seed, whatever the maximum.
    same = SimulationResult.from_plan(plan_run(GAME, result.n_played, seed=9, chunk_size=1000),
                                      options=RunOptions(keep_games=False))
    assert same.summary()["seats"] == result.summary()["seats"]


def test_a_huge_sweep_range_fails_on_its_count():
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=rf"1:1e18:1': \d+ values; at most {MAX_POINTS}$"):
        parse_param("rules.pick_cap=1:1e18:1", CFG)
    with pytest.raises(ConfigError, match=rf"at most {MAX_POINTS}$"):
        parse_param(f"rules.pick_cap=1:{10**18}:1", CFG)
    big = SweepParam("rules.pick_cap", tuple(range(MAX_POINTS)))
    with pytest.raises(ConfigError, match=rf"the grid has {MAX_POINTS**2} points; at most {MAX_POINTS}"):
        grid([big, SweepParam("rules.first_card_to", tuple(range(MAX_POINTS)))])
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("spec", ["1:inf:1", "-inf:1:1", "1:nan:1", "1:5:inf", f"1:{'9' * 400}:1"])
def test_a_sweep_range_that_is_not_finite_is_a_one_line_error(spec):
    with pytest.raises(ConfigError) as exc:
        parse_param(f"rules.pick_cap={spec}", CFG)
    assert "\n" not in str(exc.value) and "rules.pick_cap" in str(exc.value)


@pytest.mark.parametrize("spec", ["1:inf:1", "1:1e18:1"])
def test_cli_sweep_refuses_an_endless_range(tmp_path, spec):
    line = one_line_error(["sweep", GAME, "--param", f"rules.pick_cap={spec}", "--n", "100"], tmp_path)
    assert f"rules.pick_cap={spec}" in line
