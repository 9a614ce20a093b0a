"""What a non-author's hostile re-check of issue 54 found (qa54c, 2026-12-07), each case as it was met:

- a kill between a temporary folder's making and its marker's rename left the marker's temporary
  file alone in it (``.o.writing-XXXXXXXX/.simbalance.tmp``), which no later start removed;
- a full disk while a marker was written left it, and a run's checkpoint staging
  (``.o.partial.new``) that the next run then refused as "not a folder simbalance wrote";
- a study on a full disk played every game before its one line (run refused at once);
- an error line with a newline in the value the user gave was two lines;
- a resume into a checkpoint folder that cannot be written played every game before its line;
- a checkpoint whose state says the play is over with games left was resumed to a short run, exit 0
  (tests/core/test_checkpoint_proofs.py).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core import execution, owned

runner = CliRunner()
GAME = "find-dr-evil"


def one_line(res) -> str:
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (res.exit_code, res.output)
    return lines[0]


@pytest.mark.parametrize("marker_text", ["", '{"written_by": "simbal', '{"written_by": "simbalance", "kind": "writing"}'])
@pytest.mark.parametrize("command", ["run", "compare"])
def test_a_kill_before_the_markers_rename_leaves_nothing_the_next_start_keeps(tmp_path, command, marker_text):
    """A leftover holding only the marker's temporary file (whole, half or empty: the kill may come
    while it is written) is simbalance's, and the next start into that --out removes it."""
    leftover = tmp_path / ".o.writing-abcd1234"
    leftover.mkdir()
    (leftover / ".simbalance.tmp").write_text(marker_text)
    args = {"run": ["run", GAME, "--n", "500", "--quiet"],
            "compare": ["compare", GAME, "--arm", "big:rules.pick_cap=500", "--n", "500"]}[command]
    res = runner.invoke(app, [*args, "--threads", "1", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_a_leftover_that_also_holds_a_users_file_is_kept(tmp_path):
    leftover = tmp_path / ".o.writing-abcd1234"
    leftover.mkdir()
    (leftover / ".simbalance.tmp").write_text("")
    (leftover / "mine.txt").write_text("thesis")
    res = runner.invoke(app, ["run", GAME, "--n", "500", "--quiet", "--threads", "1", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    assert (leftover / "mine.txt").read_text() == "thesis"


def _full_disk_at(name: str):
    real = Path.write_text

    def write_text(self, data, *args, **kwargs):
        if self.name == name:
            real(self, data[: len(data) // 2], *args, **kwargs)  # half of it, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data, *args, **kwargs)
    return write_text


def test_a_full_disk_while_a_marker_is_written_leaves_no_half_marker(tmp_path, monkeypatch):
    monkeypatch.setattr(Path, "write_text", _full_disk_at(".simbalance.tmp"))
    with pytest.raises(OSError):
        owned.mark(tmp_path, owned.WRITING)
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_at_a_runs_first_checkpoint_leaves_nothing_and_the_same_command_runs_again(tmp_path, monkeypatch):
    """The staging folder of the first checkpoint (.o.partial.new) went with the error; the same
    command, once there is room, runs (it was refused: "not a folder simbalance wrote")."""
    args = ["run", GAME, "--n", "2000", "--quiet", "--threads", "1", "--out", str(tmp_path / "o")]
    with monkeypatch.context() as patch:
        patch.setattr(Path, "write_text", _full_disk_at(".simbalance.tmp"))
        line = one_line(runner.invoke(app, args))
    assert "No space left on device" in line, line
    assert list(tmp_path.iterdir()) == []
    assert runner.invoke(app, args).exit_code == 0


def test_a_study_on_a_full_disk_is_refused_before_any_game(tmp_path, monkeypatch):
    """The first bytes a command writes beside --out are its lock's (who holds it): a full disk is
    one line there, before the play, as run's first checkpoint is."""
    played = []
    monkeypatch.setattr(execution, "play_chunks", lambda *a, **k: played.append(1) or iter(()))
    real_write = os.write

    def write(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".o.lock"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)
    monkeypatch.setattr(os, "write", write)
    line = one_line(runner.invoke(app, ["compare", GAME, "--arm", "big:rules.pick_cap=500", "--n", "3000",
                                        "--threads", "1", "--out", str(tmp_path / "o")]))
    assert line == f"error: --out {tmp_path / 'o'}: cannot write there (No space left on device)", line
    assert not played and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, shown", [
    (["run", GAME, "--n", "100", "--set", "rules.pick_cap=5\nerror: all fine"], "rules.pick_cap=5\\nerror: all fine"),
    (["solve", GAME, "--budget", "20s\nx"], "--budget 20s\\nx"),
    (["run", GAME, "--n", "100", "--set", "rules.pick_cap=\x01"], "rules.pick_cap=\\x01"),
], ids=["a newline in a --set value", "a newline in --budget", "a control character in a --set value"])
def test_a_control_character_in_a_value_is_written_as_an_escape_on_the_one_line(tmp_path, args, shown):
    line = one_line(runner.invoke(app, [*args, "--out", str(tmp_path / "o")]))
    assert shown in line, line
    assert not (tmp_path / "o").exists()


def _interrupted(tmp_path, monkeypatch) -> Path:
    """A run stopped after its first chunks: its .partial, resumable."""
    from simbalance.core.errors import RunInterrupted

    monkeypatch.setattr(execution, "CHECKPOINT_AFTER_S", -1.0)  # a checkpoint at every chunk
    seen = {"n": 0}
    real = execution.Checkpoint.save

    def save(self, *args, **kwargs):
        real(self, *args, **kwargs)
        seen["n"] += 1
        if seen["n"] == 3:
            raise RunInterrupted(6000, 20000, self.dir)
    with monkeypatch.context() as patch:
        patch.setattr(execution.Checkpoint, "save", save)
        res = runner.invoke(app, ["run", GAME, "--n", "20000", "--chunk-size", "2000", "--quiet", "--threads", "1",
                                  "--seed", "4", "--out", str(tmp_path / "r")])
    assert res.exit_code == 130, res.output
    return tmp_path / "r.partial"


def test_a_resume_into_a_folder_it_cannot_write_is_refused_before_any_game(tmp_path, monkeypatch):
    partial = _interrupted(tmp_path, monkeypatch)
    played = []
    monkeypatch.setattr(execution, "play_chunks", lambda *a, **k: played.append(1) or iter(()))
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if str(path).startswith(str(partial)) and flags & os.O_CREAT:
            raise OSError(errno.EPERM, "Operation not permitted", str(path))
        return real_open(path, flags, *args, **kwargs)
    monkeypatch.setattr(os, "open", refusing_open)
    line = one_line(runner.invoke(app, ["run", "--resume", str(partial)]))
    assert "cannot write its next checkpoint there (Operation not permitted)" in line, line
    assert not played and partial.is_dir() and not (tmp_path / "r").exists()



# ---- qa56 (a second non-author re-check): what sits at the lock's name is the user's -------------
LOCK_KINDS = ["a link to a user's file", "a dangling link", "a FIFO", "a user's file", "a folder"]


@pytest.mark.parametrize("kind", LOCK_KINDS)
def test_what_sits_at_the_locks_name_is_kept_and_the_command_is_one_line(tmp_path, kind):
    """The lock was opened through a link (the linked file got the pid, then the link was removed;
    a dangling link made a file outside --out's folder), a FIFO there was removed, a user's file
    there was emptied and removed."""
    lock = tmp_path / ".o.lock"
    (tmp_path / "precious.txt").write_text("thesis")
    if kind == "a link to a user's file":
        lock.symlink_to(tmp_path / "precious.txt")
    elif kind == "a dangling link":
        lock.symlink_to(tmp_path / "elsewhere" / "made.txt")
    elif kind == "a FIFO":
        os.mkfifo(lock)
    elif kind == "a user's file":
        lock.write_text("my notes")
    else:
        lock.mkdir()
    line = one_line(runner.invoke(app, ["run", GAME, "--n", "500", "--quiet", "--threads", "1",
                                        "--out", str(tmp_path / "o")]))
    assert str(lock) in line and ("move it away" in line or "remove the link" in line), line
    assert (tmp_path / "precious.txt").read_text() == "thesis"
    assert lock.is_symlink() or lock.exists(), "what was at the lock's name is kept"
    if kind == "a user's file":
        assert lock.read_text() == "my notes"
    assert not (tmp_path / "elsewhere").exists() and not (tmp_path / "o").exists()


def test_a_lock_a_killed_command_left_is_taken(tmp_path):
    (tmp_path / ".o.lock").write_text("12345\n")  # the pid of a command that is gone
    res = runner.invoke(app, ["run", GAME, "--n", "500", "--quiet", "--threads", "1", "--out", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_a_strategy_file_is_imported_without_writing_into_its_folder(tmp_path, monkeypatch):
    """Python writes an imported file's bytecode beside it (__pycache__/) unless told not to: a
    user's strategy file's folder got one (hidden where PYTHONDONTWRITEBYTECODE is set)."""
    import sys

    from simbalance.core.user_strategy import load_user_strategy

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "mine.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef choose(hand):\n    return 0\n")
    load_user_strategy(f"{path}:choose")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.py"]
    assert sys.dont_write_bytecode is False
