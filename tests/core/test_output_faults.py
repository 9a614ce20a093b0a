"""A SIGKILL at every write of a run's *output* (issue 42 item 1): the checkpoint, holding every
game, stays until the run folder is complete and renamed into place; a resume then writes the same
folder as an uninterrupted run, and removes the half-written one the kill left, with a line.

The kill is real: ``SIMBALANCE_KILL_AT=<step>`` (core/faults.py) makes the run's process SIGKILL
itself at that step, so no ``finally`` or cleanup runs after it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

GAME, N, CHUNK = "find-dr-evil", 5000, 1000
OUTPUT_STEPS = ["after summary.json", "after findings.json", "after the figures", "after report.html",
                "after games.parquet", "before the rename", "after the rename", "after the checkpoint's removal"]
STREAM_STEPS = ["after the shards"] + [s for s in OUTPUT_STEPS if s != "after games.parquet"]


def simbalance(*args, kill_at=None):
    env = {k: v for k, v in os.environ.items() if k != "SIMBALANCE_KILL_AT"}
    if kill_at is not None:
        env["SIMBALANCE_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "simbalance.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def run_args(out, stream):
    return ["run", GAME, "--n", str(N), "--chunk-size", str(CHUNK), "--seed", "3", "--threads", "1",
            "--out", str(out), *(["--stream"] if stream else [])]


def games_of(folder, stream):
    if stream:
        parts = sorted((folder / "games").glob("part-*.parquet"))
        return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    return pd.read_parquet(folder / "games.parquet")


def kill_and_resume(tmp_path, step, stream, whole):
    tmp_path.mkdir(exist_ok=True)
    out = tmp_path / "run"
    state = tmp_path / "run.partial"
    killed = simbalance(*run_args(out, stream), kill_at=step)
    assert killed.returncode == -9, (step, killed.stderr)
    if step == "after the checkpoint's removal":  # the run was over: nothing lost, nothing left
        assert not state.exists() and (out / "manifest.json").exists()
    else:
        assert (state / "checkpoint.npz").exists(), step  # every game, kept for the resume
        if step != "after the rename":
            assert not out.exists(), step  # never a half-written final folder
            assert list(tmp_path.glob(".run.writing-*")), step  # what the kill left
        resumed = simbalance("run", "--resume", str(state))
        assert resumed.returncode == 0, (step, resumed.stderr)
        if step != "after the rename":
            assert "a half-written report a killed run left" in resumed.stderr, step
        assert not state.exists() and not list(tmp_path.glob(".run.writing-*")), step
    assert json.loads((out / "summary.json").read_text()) == json.loads((whole / "summary.json").read_text()), step
    pd.testing.assert_frame_equal(games_of(out, stream), games_of(whole, stream))
    assert json.loads((out / "findings.json").read_text()) == json.loads((whole / "findings.json").read_text())


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    folders = {}
    for stream in (False, True):
        whole = tmp_path_factory.mktemp("whole") / "run"
        done = simbalance(*run_args(whole, stream))
        assert done.returncode == 0, done.stderr
        folders[stream] = whole
    return folders


def test_a_kill_while_the_report_is_written_loses_no_game(tmp_path, uninterrupted):
    """The case of the issue, in make test: killed after the figures, resumed to the same folder."""
    kill_and_resume(tmp_path, "after the figures", False, uninterrupted[False])


@pytest.mark.exhaustive
@pytest.mark.parametrize("stream", [False, True], ids=["keep-games", "stream"])
def test_a_kill_at_every_write_of_the_output_resumes_to_the_same_folder(tmp_path, uninterrupted, stream):
    for k, step in enumerate(STREAM_STEPS if stream else OUTPUT_STEPS):
        kill_and_resume(tmp_path / f"kill-{k}", step, stream, uninterrupted[stream])
