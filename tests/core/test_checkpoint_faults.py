"""Fault injection: a run killed before or after any single write of a checkpoint or shard resumes to
exactly the result of an uninterrupted run (issue 23: a kill between two checkpoint files merged a
chunk twice, or left a checkpoint folder nothing could use)."""

from collections import Counter

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.api import SimulationResult, plan_run
from simbalance.cli.main import app
from simbalance.core import execution
from simbalance.core.errors import RunInterrupted, SimbalanceError
from simbalance.core.execution import CHECKPOINT, RunOptions, read_state

GAME, N, CHUNK = "find-dr-evil", 5000, 1000


class Killed(BaseException):
    """Stands for SIGKILL: nothing catches it and no cleanup writes anything."""


def run(state=None, keep=True, resume=False, stop=None):
    plan = plan_run(GAME, N, seed=4, chunk_size=CHUNK)
    options = RunOptions(keep_games=keep, state_dir=state, resume=resume, shards=not keep and state is not None,
                         stop=stop)
    return SimulationResult.from_plan(plan, options=options)


@pytest.fixture(autouse=True)
def checkpoint_every_chunk(monkeypatch):
    monkeypatch.setattr(execution, "CHECKPOINT_AFTER_S", -1.0)


def steps_of_a_run(monkeypatch, tmp_path, keep):
    """Every write step, in order, of a checkpointed run (each chunk checkpoints)."""
    seen = []
    monkeypatch.setattr(execution, "_fault", seen.append)
    run(tmp_path / "record", keep=keep)
    monkeypatch.setattr(execution, "_fault", lambda step: None)
    return seen


def kill_at(monkeypatch, call):
    count = {"n": 0}

    def fault(step):
        if count["n"] == call:
            raise Killed(step)
        count["n"] += 1

    monkeypatch.setattr(execution, "_fault", fault)


def kill_at_step(monkeypatch, name):
    def fault(step):
        if step == name:
            raise Killed(step)

    monkeypatch.setattr(execution, "_fault", fault)


def shard_games(state):
    parts = sorted((state / "games").glob("part-*.parquet"))
    assert [p.name for p in parts] == [f"part-{i:06d}.parquet" for i in range(N // CHUNK)]
    return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)


@pytest.mark.parametrize("keep", [True, pytest.param(False, marks=pytest.mark.exhaustive)], ids=["keep-games", "stream"])
def test_a_kill_at_any_write_step_resumes_to_the_uninterrupted_result(monkeypatch, tmp_path, keep):
    whole = run(keep=keep)
    whole_games = run().games
    steps = steps_of_a_run(monkeypatch, tmp_path, keep)
    kinds = Counter(steps)
    # before and after every write: the first commit's folder, records, checkpoint file, shards
    assert kinds["before rename folder"] == kinds["after rename folder"] == 1
    assert kinds["before checkpoint"] == kinds["after rename checkpoint"] == N // CHUNK + 1
    assert kinds["before records"] == kinds["after records"] == (N // CHUNK if keep else 0)
    assert kinds["before shard"] == kinds["after rename shard"] == (0 if keep else N // CHUNK)

    for call, step in enumerate(steps):
        state = tmp_path / f"kill-{call}"
        kill_at(monkeypatch, call)
        with pytest.raises(Killed):
            run(state, keep=keep)
        monkeypatch.setattr(execution, "_fault", lambda step: None)
        if state.exists():  # a checkpoint folder can always be resumed
            done = read_state(state)["games_done"]
            assert done % CHUNK == 0
            resumed = run(state, keep=keep, resume=True)
        else:  # killed before the first commit: nothing to resume, and nothing in the way of a new run
            assert call < steps.index("after rename folder"), step
            resumed = run(state, keep=keep)
        assert resumed.n_played == N and resumed.aggregate.n == N, step
        assert resumed.summary() == whole.summary(), step
        assert np.array_equal(resumed.sample, whole.sample), step
        if keep:
            assert np.array_equal(resumed.records, whole.records), step
            assert not state.exists(), step
        else:
            pd.testing.assert_frame_equal(shard_games(state), whole_games)
            # only the shards stay for the caller, with the marker that says the folder is simbalance's
            assert sorted(p.name for p in state.iterdir()) == [".simbalance", "games"], step


def test_a_kill_during_a_resumed_run_resumes_again(monkeypatch, tmp_path):
    whole = run()
    state = tmp_path / "state"
    asked = {"n": 0}

    def stop_after_2_chunks():
        asked["n"] += 1
        return asked["n"] > 2

    with pytest.raises(RunInterrupted):
        run(state, stop=stop_after_2_chunks)
    assert read_state(state)["games_done"] == 2 * CHUNK
    commits = {"n": 0}

    def fault(step):  # the resumed run commits chunk 3, then is killed mid-commit of chunk 4
        if step == "before rename checkpoint":
            commits["n"] += 1
            if commits["n"] == 2:
                raise Killed(step)

    monkeypatch.setattr(execution, "_fault", fault)
    with pytest.raises(Killed):
        run(state, resume=True)
    monkeypatch.setattr(execution, "_fault", lambda step: None)
    assert read_state(state)["games_done"] == 3 * CHUNK
    resumed = run(state, resume=True)
    assert resumed.summary() == whole.summary() and np.array_equal(resumed.records, whole.records)


def test_load_refuses_records_the_commit_does_not_have(tmp_path):
    state = tmp_path / "state"
    asked = {"n": 0}

    def stop_after_1_chunk():
        asked["n"] += 1
        return asked["n"] > 1

    with pytest.raises(RunInterrupted):
        run(state, stop=stop_after_1_chunk)
    assert read_state(state)["games_done"] == CHUNK
    records = state / "records.bin"
    records.write_bytes(records.read_bytes()[:-1])
    with pytest.raises(SimbalanceError, match="inconsistent"):
        run(state, resume=True)


def test_cli_rerun_after_a_kill_before_the_first_commit(monkeypatch, tmp_path):
    out = tmp_path / "r"
    cmd = ["run", GAME, "--n", str(N), "--chunk-size", str(CHUNK), "--stream", "--out", str(out), "--quiet"]
    kill_at_step(monkeypatch, "before rename folder")  # the first commit is built, its folder not there yet
    with pytest.raises(Killed, match="before rename folder"):
        CliRunner().invoke(app, cmd, catch_exceptions=False)
    monkeypatch.setattr(execution, "_fault", lambda step: None)
    assert not (tmp_path / "r.partial").exists()
    res = CliRunner().invoke(app, cmd)
    assert res.exit_code == 0, res.output
    assert len(list((out / "games").glob("part-*.parquet"))) == N // CHUNK
    assert not (tmp_path / "r.partial").exists() and not (tmp_path / ".r.partial.new").exists()


def test_cli_resume_after_a_kill_right_after_the_first_commit(monkeypatch, tmp_path):
    out = tmp_path / "r"
    cmd = ["run", GAME, "--n", str(N), "--chunk-size", str(CHUNK), "--stream", "--out", str(out), "--quiet"]
    kill_at_step(monkeypatch, "after rename folder")  # the folder holds the empty checkpoint, no shard yet
    with pytest.raises(Killed, match="after rename folder"):
        CliRunner().invoke(app, cmd, catch_exceptions=False)
    monkeypatch.setattr(execution, "_fault", lambda step: None)
    state = tmp_path / "r.partial"
    assert (state / CHECKPOINT).exists() and read_state(state)["games_done"] == 0
    res = CliRunner().invoke(app, ["run", "--resume", str(state), "--quiet"])
    assert res.exit_code == 0, res.output
    assert not state.exists()
    games = pd.concat([pd.read_parquet(p) for p in sorted((out / "games").glob("part-*.parquet"))],
                      ignore_index=True)
    pd.testing.assert_frame_equal(games, simbalance.simulate(GAME, N, chunk_size=CHUNK).games)  # the CLI's seed


def test_a_resumed_runs_speed_counts_the_play_of_every_session(tmp_path):
    """games/s of a resumed run: all its games over the seconds of every session's play, not over the
    last session's alone (issue 41: 435,908 games/s reported where the run played at 114,599)."""
    state = tmp_path / "state"
    asked = {"n": 0}

    def stop_after_3_chunks():
        asked["n"] += 1
        return asked["n"] > 3

    with pytest.raises(RunInterrupted):
        run(state, stop=stop_after_3_chunks)
    first = read_state(state)["play_seconds"]
    assert first > 0
    resumed = run(state, resume=True)
    assert resumed.elapsed > first  # the first session's play and the second's
    assert resumed.games_per_second < N / first
