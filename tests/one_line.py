"""Helpers of the tests of issue 54 (tests/cli/test_ownership.py, test_study_outputs.py,
tests/core/test_checkpoint_proofs.py): a command's one-line error, and a run stopped as by Ctrl-C
after a number of chunks, in this process."""

from __future__ import annotations

import contextlib

from typer.testing import CliRunner

from simbalance.cli import interrupts
from simbalance.cli.main import app


def one_line_error(res) -> str:
    """The command's error, its white space folded: exit 2 with one line ``error: ...``, no traceback."""
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return " ".join(res.output.split())


def interrupted_run(monkeypatch, args: list[str], chunks: int) -> None:
    """``simbalance ARGS`` (a run) stopped as by Ctrl-C after ``chunks`` chunks: exit 130, its
    ``.partial`` holding those chunks."""

    @contextlib.contextmanager
    def stop_after():
        asked = {"n": 0}

        def stop():
            asked["n"] += 1
            return asked["n"] > chunks

        yield stop

    with monkeypatch.context() as patch:
        patch.setattr(interrupts, "interruptible", stop_after)
        res = CliRunner().invoke(app, args)
    assert res.exit_code == 130, (res.output, res.exception)
