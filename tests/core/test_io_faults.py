"""A full disk, an I/O error or a refused permission at any write of a run (issue 42 item 2): one line
naming the path and what is kept (with the ``--resume`` command when games are), exit 2, never a
half-written final folder; once fixed, the resume gives the folder of an uninterrupted run.

The errors are injected at the fault points of core/faults.py (every write of a checkpoint, a shard
and the run folder), in this process: an OSError raised there is what the write itself would raise."""

from __future__ import annotations

import errno
import json

import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core import execution
from simbalance.report import run_folder

GAME, N, CHUNK = "find-dr-evil", 5000, 1000
ERRORS = {errno.ENOSPC: "No space left on device", errno.EIO: "Input/output error", errno.EACCES: "Permission denied"}
OUTPUT_STEPS = ["after summary.json", "after findings.json", "after the figures", "after report.html",
                "after games.parquet", "before the rename"]
PLAY_STEPS = ["before records", "before checkpoint", "before rename checkpoint"]
runner = CliRunner()


def command(out):
    return ["run", GAME, "--n", str(N), "--chunk-size", str(CHUNK), "--seed", "5", "--threads", "1", "--out",
            str(out)]


def failing_at(step, code, nth=1):
    seen = {"n": 0}

    def fault(name):
        if name == step:
            seen["n"] += 1
            if seen["n"] == nth:
                raise OSError(code, ERRORS[code], f"/planted/{step.replace(' ', '-')}")
    return fault


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "run"
    res = runner.invoke(app, command(out))
    assert res.exit_code == 0, res.output
    return json.loads((out / "summary.json").read_text())


def check(tmp_path, monkeypatch, where, step, code, whole, nth=1):
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "run"
    monkeypatch.setattr(execution, "CHECKPOINT_AFTER_S", -1.0)  # a checkpoint at every chunk
    monkeypatch.setattr(where, "_fault" if where is execution else "fault", failing_at(step, code, nth))
    res = runner.invoke(app, command(out))
    text = res.output.strip()
    assert res.exit_code == 2, (step, res.output, res.exception)
    assert len(text.splitlines()) == 1 and text.startswith("error: "), text
    assert ERRORS[code] in text and "/planted/" in text, text
    assert not out.exists() and not list(tmp_path.glob(".run.writing-*")), step  # no half-written folder
    monkeypatch.setattr(where, "_fault" if where is execution else "fault", lambda name: None)
    state = tmp_path / "run.partial"
    if state.exists():  # games were kept: the line named the resume, and it gives the whole run
        assert f"simbalance run --resume {state}" in " ".join(text.split()), text
        res = runner.invoke(app, ["run", "--resume", str(state), "--quiet"])
    else:  # nothing was kept: the same command runs again
        res = runner.invoke(app, command(out) + ["--quiet"])
    assert res.exit_code == 0, (step, res.output)
    assert json.loads((out / "summary.json").read_text()) == whole, step
    assert not state.exists()


@pytest.mark.parametrize("code", ERRORS, ids=lambda c: errno.errorcode[c])
def test_a_full_disk_while_the_report_is_written(tmp_path, monkeypatch, whole, code):
    check(tmp_path, monkeypatch, run_folder, "after the figures", code, whole)


@pytest.mark.parametrize("code", [errno.ENOSPC])
def test_a_full_disk_while_a_checkpoint_is_written(tmp_path, monkeypatch, whole, code):
    check(tmp_path, monkeypatch, execution, "before checkpoint", code, whole, nth=3)


@pytest.mark.exhaustive
@pytest.mark.parametrize("code", ERRORS, ids=lambda c: errno.errorcode[c])
def test_an_io_error_at_every_write(tmp_path, monkeypatch, whole, code):
    for k, step in enumerate(OUTPUT_STEPS):
        check(tmp_path / f"out-{k}", monkeypatch, run_folder, step, code, whole)
    for k, step in enumerate(PLAY_STEPS):
        for nth in (1, 3):
            check(tmp_path / f"play-{k}-{nth}", monkeypatch, execution, step, code, whole, nth)
