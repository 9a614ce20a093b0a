"""Operating a run (issue "Reliability"): one run per output folder, a second Ctrl-C that aborts at
once, a ``.partial`` that never blocks with advice that fails, a Dask run that cannot hang, and
statistics that are the same to the last bit however the run is chunked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tiers import exhaustive
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError
from simbalance.core.execution import read_state
from simbalance.report.run_folder import claim_out_dir, lock_file, partial_dir

runner = CliRunner()


def unwrapped(text: str) -> str:
    """``text`` without its whitespace: the terminal wraps a long path anywhere, even mid-name."""
    return "".join(text.split())
LONG_RUN = ["run", "find-dr-evil", "--n", "1e9", "--chunk-size", "10000000", "--threads", "1"]
# One chunk (the most --chunk-size allows) that keeps a compiled kernel busy for most of a minute: no
# Python runs in the main thread meanwhile.
KERNEL_BOUND_RUN = ["run", "captain-action", "--n", "1e9", "--chunk-size", "10000000", "--threads", "1"]


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.1)


def test_a_second_run_into_the_same_folder_stops_at_once(tmp_path):
    out = tmp_path / "run"
    first = _start([*LONG_RUN, "--out", str(out)], tmp_path)
    try:
        _wait_for(partial_dir(out) / "checkpoint.npz", first)
        res = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--out", str(out)])
        assert res.exit_code == 2 and "another simbalance run is writing this folder" in res.output, res.output
    finally:
        first.kill()
        first.wait()


def test_default_folders_are_unique_even_within_one_second(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with claim_out_dir(None, "find-dr-evil") as first, claim_out_dir(None, "find-dr-evil") as second:
        assert first != second and lock_file(first).exists() and lock_file(second).exists()
    assert not lock_file(first).exists() and not lock_file(second).exists()  # released with the run
    a = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--quiet"])
    b = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--quiet"])
    assert a.exit_code == b.exit_code == 0 and a.output != b.output
    assert len(list((tmp_path / "reports").iterdir())) == 2


def test_a_second_ctrl_c_aborts_at_once_and_keeps_the_checkpoint(tmp_path):
    out = tmp_path / "run"
    proc = _start([*KERNEL_BOUND_RUN, "--out", str(out)], tmp_path)
    _wait_for(partial_dir(out) / "checkpoint.npz", proc)
    time.sleep(0.5)  # inside the first chunk: a compiled kernel that runs for a long time
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("a second Ctrl-C did not abort the run")
    assert time.monotonic() - start < 20 and proc.returncode != 0
    assert read_state(partial_dir(out))["games_done"] == 0  # the last checkpoint is intact and readable


def test_a_partial_folder_with_nothing_to_resume_does_not_block(tmp_path):
    out = tmp_path / "run"
    partial_dir(out).mkdir()  # a run killed before its first checkpoint
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert unwrapped(f"discarded {partial_dir(out)}") in unwrapped(res.output) and not partial_dir(out).exists()
    assert (out / "report.html").is_file()


def test_a_resumable_partial_folder_gives_advice_that_works(tmp_path):
    out = tmp_path / "run"
    proc = _start([*LONG_RUN[:3], "2e6", "--chunk-size", "1000", "--threads", "1", "--out", str(out)], tmp_path)
    _wait_for(partial_dir(out) / "checkpoint.npz", proc)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)  # stops after the chunk in progress, with a checkpoint
    proc.wait(timeout=60)
    again = runner.invoke(app, ["run", "find-dr-evil", "--n", "2e6", "--out", str(out)])
    assert again.exit_code == 2 and unwrapped(f"simbalance run --resume {partial_dir(out)}") in unwrapped(again.output)
    done = runner.invoke(app, ["run", "--resume", str(partial_dir(out)), "--quiet"])
    assert done.exit_code == 0, done.output
    assert json.loads((out / "manifest.json").read_text())["n"] == 2_000_000 and not partial_dir(out).exists()


def test_a_failed_run_leaves_no_partial_folder(tmp_path, monkeypatch):
    from simbalance.studies import run as run_study

    def broken(*args, **kwargs):
        raise SimbalanceError("the disk is full (planted)")

    monkeypatch.setattr(run_study.SimulationResult, "from_plan", classmethod(lambda cls, *a, **k: broken()))
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--out", str(out)])
    assert res.exit_code == 2 and "planted" in res.output
    assert list(tmp_path.iterdir()) == []


def test_a_run_that_fails_after_some_chunks_names_the_resume(tmp_path, monkeypatch):
    """A stop with chunks done (a Dask cluster whose chunks stop coming back) keeps them and names the
    command that resumes (issue 42 item 7)."""
    from simbalance.core import execution
    from simbalance.core import runner as core_runner

    real = core_runner.play_chunks

    def two_then_silence(*args, **kwargs):
        for k, part in enumerate(real(*args, **kwargs)):
            if k == 2:
                raise SimbalanceError("the local Dask cluster: no chunk came back within 2 s (planted)")
            yield part

    monkeypatch.setattr(execution, "CHECKPOINT_AFTER_S", -1.0)
    monkeypatch.setattr(execution, "play_chunks", two_then_silence)
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "5000", "--chunk-size", "1000", "--out", str(out)])
    assert res.exit_code == 2 and "planted" in res.output, res.output
    assert unwrapped(f"resume with simbalance run --resume {partial_dir(out)}") in unwrapped(res.output)
    assert read_state(partial_dir(out))["games_done"] == 2000


@exhaustive  # waits for a scheduler and a 2 s time-out
def test_dask_without_workers_times_out_in_one_line(tmp_path):
    pytest.importorskip("distributed")
    port = 8700 + os.getpid() % 200
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", str(port),
                                  "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(5)
        res = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--backend", "dask", "--scheduler",
                                  f"tcp://127.0.0.1:{port}", "--dask-timeout", "2", "--out", str(tmp_path / "r")])
        assert res.exit_code == 2 and "no Dask worker joined within 2 s" in res.output, res.output
        assert list(tmp_path.iterdir()) == []
    finally:
        scheduler.kill()
        scheduler.wait()


def test_summaries_are_the_same_to_the_last_bit_whatever_the_chunking():
    """Shared wins (captain-future ties often) are summed in whole units, not floats."""
    base = simbalance.simulate("captain-future", 600, seed=3, players=3).summary()
    for chunk in (7, 64, 250):
        other = simbalance.simulate("captain-future", 600, seed=3, players=3, chunk_size=chunk).summary()
        assert json.dumps(other, sort_keys=True) == json.dumps(base, sort_keys=True), chunk
    assert base["outcomes"]["ties"] > 0  # the case that used to differ in the last digits
