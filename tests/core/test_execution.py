"""Streaming, checkpoints and resume, precision targets, validation, and the Dask backend."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from tiers import exhaustive
from typer.testing import CliRunner

import simbalance
from simbalance.api import SimulationResult, plan_run
from simbalance.cli.main import app
from simbalance.core.errors import RunInterrupted, SimbalanceError
from simbalance.core.execution import RunOptions, read_state
from simbalance.core.runner import chunk_sizes

GAME = "find-dr-evil"


def run(n=20_000, options=None, **kw):
    plan = plan_run(GAME, n, seed=9, chunk_size=1000, **kw)
    return SimulationResult.from_plan(plan, options=options or RunOptions())


def test_streamed_run_has_the_same_summary_without_records():
    kept, streamed = run(), run(options=RunOptions(keep_games=False))
    assert streamed.records is None and len(streamed.sample) == 20_000
    assert kept.summary()["seats"] == streamed.summary()["seats"]
    assert kept.summary()["length"] == streamed.summary()["length"]
    with pytest.raises(SimbalanceError, match="streamed"):
        _ = streamed.games


@pytest.mark.parametrize("keep", [True, False])
def test_interrupted_run_resumes_to_exactly_the_uninterrupted_result(tmp_path, keep):
    whole = run(options=RunOptions(keep_games=keep))
    asked = {"n": 0}

    def stop_after_7_chunks():
        asked["n"] += 1
        return asked["n"] > 7

    state = tmp_path / "state"
    with pytest.raises(RunInterrupted, match="interrupted after 7,000 of 20,000 games"):
        run(options=RunOptions(keep_games=keep, state_dir=state, stop=stop_after_7_chunks))
    assert read_state(state)["games_done"] == 7000
    resumed = run(options=RunOptions(keep_games=keep, state_dir=state, resume=True))
    assert resumed.summary() == whole.summary()
    if keep:
        assert np.array_equal(resumed.records, whole.records)
    assert not state.exists()  # a finished run leaves no checkpoint behind


def test_an_interrupted_precision_run_resumes_on_its_growing_chunks(tmp_path):
    """A precision run's chunks grow (runner.chunk_sizes): its checkpoint says so, and the resumed run
    stops where the uninterrupted one did, with the same games."""
    whole = run(n=1_000_000, options=RunOptions(precision=0.01))
    asked = {"n": 0}

    def stop_after_7_chunks():
        asked["n"] += 1
        return asked["n"] > 7

    state = tmp_path / "state"
    with pytest.raises(RunInterrupted):
        run(n=1_000_000, options=RunOptions(precision=0.01, state_dir=state, stop=stop_after_7_chunks))
    assert read_state(state)["ramp"] and read_state(state)["games_done"] == 700  # seven chunks of 100
    resumed = run(n=1_000_000, options=RunOptions(precision=0.01, state_dir=state, resume=True))
    assert resumed.n_played == whole.n_played and np.array_equal(resumed.records, whole.records)


def test_resume_refuses_another_config(tmp_path):
    state = tmp_path / "state"
    with pytest.raises(RunInterrupted):
        run(options=RunOptions(state_dir=state, stop=lambda: True))
    with pytest.raises(SimbalanceError, match="config or seed differs"):
        run(options=RunOptions(state_dir=state, resume=True), overrides=["rules.pick_cap=99"])


def test_precision_target_stops_early_and_says_when():
    res = run(n=1_000_000, options=RunOptions(precision=0.01))
    assert res.n_played < 1_000_000
    widths = [(s["ci_high"] - s["ci_low"]) / 2 for s in res.summary()["seats"]]
    assert max(widths) < 0.01
    sizes = list(chunk_sizes(1_000_000, 1000, ramp=True))
    last = sizes[np.searchsorted(np.cumsum(sizes), res.n_played)]
    smaller = run(n=res.n_played - last, options=RunOptions(precision=0.01))
    assert smaller.n_played == res.n_played - last  # one chunk less was not enough


def test_a_precision_run_stops_within_a_tenth_of_the_games_it_needs():
    """Issue 41 item 6: captain-future --precision 0.01 stopped at 65,536 games, its first chunk, where
    about 9,000 were enough. A precision run's chunks now start small and grow by a tenth of the games
    before each; its games are the same games, whatever the chunks (same seed, same records)."""
    from simbalance.core.aggregate import wilson
    from simbalance.core.records import seat_share

    target, most = 0.01, 200_000
    plain = simbalance.simulate(GAME, 30_000, seed=9)  # one chunk of the engine's own 262,144
    winners = plain.records["winners"]
    shares = np.cumsum(np.stack([seat_share(winners, s) for s in range(4)], axis=1), axis=0)
    games = np.arange(1, len(winners) + 1)
    lo, hi = wilson(shares, games[:, None])
    needed = int(games[np.argmax(((hi - lo) / 2).max(axis=1) < target)])  # the first n that meets it
    assert 5_000 < needed < 20_000
    res = SimulationResult.from_plan(plan_run(GAME, most, seed=9), options=RunOptions(precision=target))
    assert needed <= res.n_played <= 1.1 * needed, (needed, res.n_played)
    assert np.array_equal(res.records, plain.records[: res.n_played])


def test_validate_flag_checks_invariants():
    res = simbalance.simulate(GAME, 5000, validate=True)
    assert (res.games["end"] == 0).all()


@pytest.mark.exhaustive  # a whole run of 2 x 10^7 games in subprocesses
def test_sigterm_then_resume_from_the_command_line(tmp_path):
    out, n = tmp_path / "run", 20_000_000
    cmd = [sys.executable, "-m", "simbalance.cli.main", "run", GAME, "--n", str(n), "--chunk-size", "100000",
           "--threads", "1", "--out", str(out), "--quiet", "--stream", "--no-games"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    state = tmp_path / "run.partial"
    # SIGTERM once a chunk is saved, not after a fixed sleep: on a loaded machine five seconds can
    # end before the first chunk, and the test would then test nothing of the resume.
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(Exception):
            if read_state(state)["games_done"] > 0:
                break
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert f"resume with: simbalance run --resume {state}" in err
    done = read_state(state)["games_done"]
    assert 0 < done < n and not out.exists()

    resumed = subprocess.run([sys.executable, "-m", "simbalance.cli.main", "run", "--resume", str(state), "--quiet"],
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert not state.exists()
    summary = json.loads((out / "summary.json").read_text())
    direct = simbalance.simulate(GAME, n, chunk_size=100_000).summary()
    assert summary["seats"] == json.loads(json.dumps(direct["seats"]))
    assert summary["length"] == json.loads(json.dumps(direct["length"]))


def test_cli_stream_writes_shards(tmp_path):
    out = tmp_path / "r"
    res = CliRunner().invoke(app, ["run", GAME, "--n", "5000", "--chunk-size", "2000", "--stream", "--out", str(out),
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    parts = sorted((out / "games").glob("part-*.parquet"))
    assert len(parts) == 3
    games = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(games, simbalance.simulate(GAME, 5000).games)
    assert not (tmp_path / "r.partial").exists()


def test_dask_local_cluster_plays_the_same_games():
    pytest.importorskip("dask.distributed")
    dask = simbalance.simulate(GAME, 6000, seed=2, chunk_size=1500, backend="dask")
    local = simbalance.simulate(GAME, 6000, seed=2)
    assert np.array_equal(dask.records, local.records)
    # a study plays on the backend of its settings too: the same table as on local threads
    arms = {"cap": ["rules.pick_cap=60"]}
    on_dask = simbalance.compare(GAME, [], 3000, arms=arms, seed=4, backend="dask")
    on_threads = simbalance.compare(GAME, [], 3000, arms=arms, seed=4)
    pd.testing.assert_frame_equal(on_dask.table, on_threads.table)


@exhaustive  # waits for a connection time-out
def test_unknown_backend_and_unreachable_scheduler():
    res = CliRunner().invoke(app, ["run", GAME, "--n", "10", "--backend", "spark"])
    assert res.exit_code == 2 and "allowed local, dask" in res.output
    if os.environ.get("SIMBALANCE_SKIP_NETWORK") is None:
        pytest.importorskip("dask.distributed")
        res = CliRunner().invoke(app, ["run", GAME, "--n", "10", "--backend", "dask", "--scheduler",
                                       "tcp://127.0.0.1:9"])
        assert res.exit_code == 2 and "cannot reach the Dask scheduler" in res.output


def test_a_run_leaves_its_plan_as_it_was():
    """The plan is the request; what the run did is in its result (a precision stop plays fewer)."""
    plan = plan_run("find-dr-evil", 1_000_000, seed=3, chunk_size=1000)
    res = SimulationResult.from_plan(plan, options=RunOptions(precision=0.05))
    assert plan.n == 1_000_000 and res.plan is plan
    assert res.n_played < plan.n and len(res.games) == res.n_played == res.aggregate.n


def test_games_per_second_counts_play_only():
    """Compiling (or loading) the kernel happens before the clock starts: a cold first run must not
    report a fraction of the engine's speed. A kernel that takes a second to 'compile' shows it."""
    import dataclasses

    plan = plan_run("find-dr-evil", 2000, seed=3)
    real, calls = plan.kernel, []

    def slow_first_call(out, *args):
        if not calls:
            time.sleep(1.0)  # stands for the compile of a cold cache
        calls.append(len(out))
        real(out, *args)

    plan = dataclasses.replace(plan, kernel=slow_first_call)
    res = SimulationResult.from_plan(plan)
    assert res.compile_seconds >= 1.0 and res.elapsed < 1.0 and calls[0] == 0
    assert np.array_equal(res.records, simbalance.simulate("find-dr-evil", 2000, seed=3).records)


def test_a_slow_compile_shows_a_notice_and_a_fast_one_none(monkeypatch):
    """The spinner starts only when compiling takes longer than a warm cache's load, and is gone
    when the compile ends (no spinner left running over the run's output)."""
    from simbalance.cli import terminal

    started = []
    monkeypatch.setattr(terminal, "COMPILE_NOTICE_AFTER_S", 0.05)
    import rich.status

    real_start, real_stop = rich.status.Status.start, rich.status.Status.stop
    monkeypatch.setattr(rich.status.Status, "start", lambda self: (started.append("start"), real_start(self)))
    monkeypatch.setattr(rich.status.Status, "stop", lambda self: (started.append("stop"), real_stop(self)))
    with terminal.compile_notice("find-dr-evil"):
        pass
    assert started == []
    with terminal.compile_notice("find-dr-evil"):
        time.sleep(0.3)
    assert started == ["start", "stop"]


def _recording_notice(calls):
    @contextlib.contextmanager
    def notice(game):
        calls.append(game)
        yield

    return notice


def test_every_command_announces_a_compile_and_the_python_api_stays_quiet(monkeypatch, tmp_path):
    """The command line's spinner is the default of every run it starts (compare, sweep, check...,
    not only `run`); a notebook's simulate() shows none, and `run --quiet` asks for none."""
    from simbalance.cli import terminal
    from simbalance.core import runner

    calls = []
    monkeypatch.setattr(terminal, "compile_notice", _recording_notice(calls))
    simbalance.simulate("find-dr-evil", 10)
    assert calls == []
    with runner.announcing_compiles(terminal.compile_notice):
        SimulationResult.from_plan(plan_run("find-dr-evil", 10))
        SimulationResult.from_plan(plan_run("find-dr-evil", 10), options=RunOptions(compiling=False))
    assert calls == ["find-dr-evil"]
    assert runner.default_compile_notice is None  # the block restores the quiet default
    res = CliRunner().invoke(app, ["compare", "find-dr-evil", "--arm", "a:rules.repeat_min_holders=2", "--n", "50",
                                   "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    assert calls == ["find-dr-evil"] * 3  # the baseline arm and the inline arm
    res = CliRunner().invoke(app, ["run", "find-dr-evil", "--n", "50", "--quiet", "--out", str(tmp_path / "r")])
    assert res.exit_code == 0 and calls == ["find-dr-evil"] * 3


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_moves_within_a_chunk_and_changes_no_game(threads):
    """A run of one chunk (every run below the engine's chunk size: captain-future and aquaman up
    to 65,536 games) reports its progress block by block, not once at the end; the blocks change
    no record."""
    seen = []
    plan = plan_run("find-dr-evil", 20_000, seed=4, threads=threads)
    assert plan.engine.chunk_size > 20_000  # one chunk
    res = SimulationResult.from_plan(plan, progress=lambda done, total, elapsed: seen.append((done, total)))
    assert len(seen) >= 16 and seen[-1] == (20_000, 20_000)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len({d for d, _ in seen}) == len(seen)
    assert np.array_equal(res.records, simbalance.simulate("find-dr-evil", 20_000, seed=4, threads=threads).records)
    chunked = []
    SimulationResult.from_plan(plan_run("find-dr-evil", 20_000, seed=4, threads=threads, chunk_size=5000),
                               progress=lambda done, total, elapsed: chunked.append(done))
    assert {5000, 10_000, 15_000, 20_000} <= set(chunked) and len(chunked) > 4
