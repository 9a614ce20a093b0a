"""Every study writes its folder with `run`'s guarantees, through the shared writer
(report/run_folder.hold_out_dir and atomic_folder; issue 54 item 2): one command per ``--out`` at a
time, the output checked before the first game, the temporary folders a kill left removed on the
next start (only simbalance's), a full disk's line naming the folder, and Ctrl-C inside a compiled
kernel an exit 130, not a SystemError. Each test was run on the code before the change (e4f74bc),
where it fails."""

from __future__ import annotations

import errno
import subprocess
import sys
import time

from one_line import one_line_error
from typer.testing import CliRunner

import simbalance.api
from simbalance.cli.main import app

runner = CliRunner()
COMPARE = ["compare", "find-dr-evil", "--arm", "short:rules.pick_cap=5", "--n", "2000"]


def test_two_compares_into_one_folder_the_second_is_refused(tmp_path):
    out = tmp_path / "o"
    first = subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", "compare", "find-dr-evil", "--arm",
                              "short:rules.pick_cap=5", "--n", "1e8", "--threads", "1", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while not (tmp_path / ".o.lock").exists():  # the first holds the folder from before its first game
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < end, "the first compare took no lock on its --out"
            time.sleep(0.1)
        message = one_line_error(runner.invoke(app, [*COMPARE, "--out", str(out)]))
        assert f"--out {out}: another simbalance run is writing this folder" in message
        assert not out.exists()
    finally:
        first.kill()
        first.communicate()


def test_an_unwritable_out_is_refused_before_any_game(tmp_path, monkeypatch):
    played = []
    monkeypatch.setattr(simbalance.api, "compare", lambda *a, **k: played.append(1))
    message = one_line_error(runner.invoke(app, [*COMPARE, "--out", "/proc/simbalance-compare"]))
    assert "--out /proc/simbalance-compare: cannot write there" in message and played == []


def test_a_half_written_folder_a_kill_left_is_removed_by_the_next_study(tmp_path):
    from simbalance.core.owned import WRITING, mark

    left = tmp_path / ".o.writing-k1ll3d00"  # what a SIGKILL while compare wrote leaves
    left.mkdir()
    mark(left, WRITING)
    (left / "comparison.parquet").write_bytes(b"half")
    res = runner.invoke(app, [*COMPARE, "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    assert not left.exists() and (tmp_path / "o" / "compare.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]  # and the lock file went with the command


def test_a_full_disk_names_the_folder(tmp_path, monkeypatch):
    from simbalance.report import run_folder

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")  # write() names no file

    monkeypatch.setattr(run_folder, "write_json", full)
    out = tmp_path / "o"
    message = one_line_error(runner.invoke(app, [*COMPARE, "--out", str(out)]))
    assert "No space left on device" in message and str(out) in message
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no half-written folder, no lock file


def test_ctrl_c_inside_a_kernel_is_exit_130_not_a_system_error(tmp_path, monkeypatch):
    """numba's dispatcher turns a KeyboardInterrupt raised while its kernel ran into
    ``SystemError: CPUDispatcher(...) returned a result with an exception set`` (planted here as
    numba raises it: a SystemError whose cause is the KeyboardInterrupt)."""

    def interrupted_kernel(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function _chunk_sums>) returned a result with an exception set") \
                from exc

    monkeypatch.setattr(simbalance.studies.compare, "play", interrupted_kernel)  # inside the first arm
    res = runner.invoke(app, [*COMPARE, "--out", str(tmp_path / "o")])
    assert res.exit_code == 130 and "aborted" in res.output, (res.exit_code, res.output, res.exception)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
