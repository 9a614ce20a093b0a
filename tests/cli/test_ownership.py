"""simbalance removes only what it wrote (issue 54 item 1): a folder is simbalance's by the marker
only it writes (core/owned.py), never by a file name; a ``.partial`` it did not write, or that holds
a finished run, is never removed; ``--out`` is stored absolute, so a resume from another working
directory writes to, and locks, the same folder. Each test was run on the code before the change
(e4f74bc), where it fails: the folder was deleted, or the run written elsewhere."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time

import pytest
from one_line import interrupted_run, one_line_error
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.report.run_folder import partial_dir
from simbalance.studies.check import BASELINE_DIR

runner = CliRunner()
GAME = "find-dr-evil"
SMALL = ["run", GAME, "--n", "1000", "--quiet"]


def test_a_folder_with_a_manifest_json_of_its_own_is_not_replaced(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "manifest.json").write_text('{"name": "my web app"}')
    (mine / "precious.txt").write_text("thesis")
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(mine)]))
    assert f"--out {mine}" in message and "not a run folder simbalance wrote" in message
    assert (mine / "precious.txt").read_text() == "thesis" and sorted(p.name for p in mine.iterdir()) == [
        "manifest.json", "precious.txt"]


@pytest.mark.parametrize("marker", ["nested", "folder"])
def test_a_marker_simbalance_did_not_write_is_not_taken_for_one(tmp_path, marker):
    """A ``.simbalance`` of the user's in their folder: JSON nested too deep for Python's parser (a
    RecursionError traceback, exit 1) or a folder. The folder is the user's: one line, nothing removed."""
    mine = tmp_path / "mine"
    mine.mkdir()
    if marker == "nested":
        (mine / ".simbalance").write_text("[" * 100_000 + "]" * 100_000)
    else:
        (mine / ".simbalance").mkdir()
    (mine / "precious.txt").write_text("thesis")
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(mine)]))
    assert f"--out {mine}" in message and "not a run folder simbalance wrote" in message
    assert (mine / "precious.txt").read_text() == "thesis" and (mine / ".simbalance").exists()


def test_a_file_added_to_a_run_folder_stops_its_replacement(tmp_path):
    out = tmp_path / "r"
    assert runner.invoke(app, [*SMALL, "--out", str(out)]).exit_code == 0
    (out / "notes.txt").write_text("what I saw")
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(out), "--seed", "2"]))
    assert "'notes.txt', which simbalance did not write" in message
    assert (out / "notes.txt").read_text() == "what I saw"
    (out / "notes.txt").unlink()  # without it, the folder is simbalance's own again: replaced
    assert runner.invoke(app, [*SMALL, "--out", str(out), "--seed", "2"]).exit_code == 0
    assert json.loads((out / "manifest.json").read_text())["seed"] == 2


def test_a_run_folder_whose_manifest_was_edited_is_not_replaced(tmp_path):
    """The marker names simbalance's folder with its own manifest's content (its SHA-256): a manifest
    edited since (here, the same size) is the user's now."""
    out = tmp_path / "r"
    assert runner.invoke(app, [*SMALL, "--out", str(out)]).exit_code == 0
    manifest = out / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"seed": 0', '"seed": 9'))
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(out)]))
    assert "'manifest.json' was changed since simbalance wrote it" in message
    assert '"seed": 9' in manifest.read_text()


def test_a_partial_folder_simbalance_did_not_write_is_kept(tmp_path):
    data = tmp_path / "data.partial"
    data.mkdir()
    (data / "precious.txt").write_text("thesis")
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(tmp_path / "data")]))
    assert f"{data}: not a folder simbalance wrote" in message
    assert (data / "precious.txt").read_text() == "thesis" and not (tmp_path / "data").exists()


def test_a_finished_run_named_partial_is_kept(tmp_path):
    res_partial = tmp_path / "res.partial"
    assert runner.invoke(app, [*SMALL, "--out", str(res_partial)]).exit_code == 0
    before = sorted(p.name for p in res_partial.iterdir())
    message = one_line_error(runner.invoke(app, [*SMALL, "--out", str(tmp_path / "res")]))
    assert f"{res_partial}: holds a finished run folder, not a checkpoint" in message
    assert sorted(p.name for p in res_partial.iterdir()) == before and (res_partial / "report.html").is_file()


def test_a_half_written_folder_without_the_marker_is_not_removed(tmp_path):
    """``.<out>.writing-XXXXXXXX`` is removed by the next run only when simbalance's marker says it
    made it (tests/core/test_output_faults.py: the ones a kill leaves are removed)."""
    lookalike = tmp_path / ".r.writing-abcd1234"
    lookalike.mkdir()
    (lookalike / "precious.txt").write_text("thesis")
    assert runner.invoke(app, [*SMALL, "--out", str(tmp_path / "r")]).exit_code == 0
    assert (lookalike / "precious.txt").read_text() == "thesis"


def test_resume_from_another_working_directory_writes_where_the_run_was_asked(tmp_path, monkeypatch):
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(here)
    interrupted_run(monkeypatch, ["run", GAME, "--n", "5000", "--chunk-size", "1000", "--out", "r"], chunks=2)
    monkeypatch.chdir(elsewhere)
    res = runner.invoke(app, ["run", "--resume", str(here / "r.partial"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert (here / "r" / "report.html").is_file() and not (elsewhere / "r").exists()
    assert not partial_dir(here / "r").exists()
    assert json.loads((here / "r" / "manifest.json").read_text())["n"] == 5000


def test_a_partial_moved_to_another_folder_finishes_beside_it(tmp_path, monkeypatch):
    """A ``.partial`` moved elsewhere and resumed there (`--resume /new/r.partial`) ran to its OLD
    --out. The run now finishes beside the checkpoint it was given, with a line saying so; the old
    place, where the user has put something else since, is not touched; the games are those of an
    uninterrupted run."""
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    args = ["run", GAME, "--n", "5000", "--chunk-size", "1000"]
    interrupted_run(monkeypatch, [*args, "--out", str(old / "r")], chunks=2)
    (old / "r.partial").rename(new / "r.partial")
    (old / "r").mkdir()
    (old / "r" / "mine.txt").write_text("the user's")
    res = runner.invoke(app, ["run", "--resume", str(new / "r.partial")])
    assert res.exit_code == 0, res.output
    assert f"the run finishes beside it, in {new / 'r'}" in " ".join(res.output.split())
    assert (new / "r" / "report.html").is_file() and not (new / "r.partial").exists()
    assert sorted(p.name for p in (old / "r").iterdir()) == ["mine.txt"]
    assert sorted(p.name for p in old.iterdir()) == ["r"]  # no lock, no leftover at the old place
    whole = runner.invoke(app, [*args, "--out", str(tmp_path / "whole"), "--quiet"])
    assert whole.exit_code == 0, whole.output
    assert (json.loads((new / "r" / "summary.json").read_text())
            == json.loads((tmp_path / "whole" / "summary.json").read_text()))


def test_a_checkpoint_folder_renamed_without_partial_is_refused_naming_both(tmp_path, monkeypatch):
    """A checkpoint folder whose name no longer ends in `.partial` says nothing of where its run goes:
    one line naming it and the folder the run was asked to write, exit 2; nothing written anywhere."""
    out = tmp_path / "r"
    interrupted_run(monkeypatch, ["run", GAME, "--n", "5000", "--chunk-size", "1000", "--out", str(out)], chunks=2)
    (tmp_path / "r.partial").rename(tmp_path / "saved")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    message = one_line_error(runner.invoke(app, ["run", "--resume", str(tmp_path / "saved")]))
    assert f"--resume {tmp_path / 'saved'}" in message and f"asked to write {out}" in message, message
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_files_of_the_user_in_a_partial_folder_outlive_the_resume(tmp_path, monkeypatch):
    out = tmp_path / "r"
    interrupted_run(monkeypatch, ["run", GAME, "--n", "5000", "--chunk-size", "1000", "--out", str(out)], chunks=2)
    (partial_dir(out) / "notes.txt").write_text("why I stopped it")
    res = runner.invoke(app, ["run", "--resume", str(partial_dir(out))])
    assert res.exit_code == 0, res.output
    assert (out / "report.html").is_file()
    assert sorted(p.name for p in partial_dir(out).iterdir()) == ["notes.txt"]  # the checkpoint's files went


def test_two_resumes_of_one_partial_from_two_directories(tmp_path, monkeypatch):
    """The first resume (a process of its own, started from one directory) holds the lock; the
    second, from another directory, is refused in one line."""
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()
    monkeypatch.chdir(tmp_path)
    interrupted_run(monkeypatch, ["run", GAME, "--n", "3e7", "--chunk-size", "1000000", "--threads", "1",
                                  "--stream", "--no-games", "--out", "r"], chunks=0)
    partial = (tmp_path / "r.partial").resolve()
    proc = subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", "run", "--resume", str(partial), "--quiet"],
                            cwd=first_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lock = tmp_path / ".r.lock"
        end = time.monotonic() + 120
        while not lock.exists():  # the first resume has taken the run folder
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < end, "the first resume never took its lock"
            time.sleep(0.1)
        monkeypatch.chdir(second_dir)
        message = one_line_error(runner.invoke(app, ["run", "--resume", str(partial), "--quiet"]))
        # the --resume typed, not an --out the user did not give (qa54b)
        assert message.startswith(f"error: --resume {partial}: another simbalance run is writing its run folder "
                                  f"{tmp_path / 'r'}"), message
        assert not (second_dir / "r").exists()
    finally:
        proc.kill()
        proc.communicate()


def test_a_partial_folder_of_simbalance_with_no_checkpoint_is_discarded(tmp_path):
    """The other side of the rule: a ``.partial`` simbalance marked that holds no checkpoint (a kill
    while it was being removed) holds nothing to keep: the new run discards it, saying so. (It
    passed on the code before the change too, which removed any such folder: it guards the rule
    from refusing too much.)"""
    from simbalance.core.owned import CHECKPOINT_FOLDER, mark

    out = tmp_path / "r"
    partial_dir(out).mkdir()
    mark(partial_dir(out), CHECKPOINT_FOLDER)
    (partial_dir(out) / "games").mkdir()
    res = runner.invoke(app, ["run", GAME, "--n", "100", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"discarded{partial_dir(out)}" in "".join(res.output.split()) and not partial_dir(out).exists()


# ---------------------------------------------------------------- fit-eval's one file (qa54b)

FIT = ["fit-eval", "captain-action", "--games", "20", "--threads", "1"]


def test_fit_eval_never_replaces_a_file_the_user_wrote(tmp_path):
    """``fit-eval --out notes.json`` replaced the user's notes.json (exit 0): an eval.json is replaced
    only when simbalance wrote it (its marker, or a fit's own keys); anything else is one line,
    exit 2, before any game."""
    notes = tmp_path / "notes.json"
    notes.write_text('{"my": "notes"}')
    message = one_line_error(runner.invoke(app, [*FIT, "--out", str(notes)]))
    assert f"--out {notes}: a file simbalance did not write" in message, message
    assert notes.read_text() == '{"my": "notes"}' and sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]


def test_fit_eval_replaces_its_own_eval_json_and_no_file_of_a_temporary_name(tmp_path):
    """The fit was written to ``<out>.tmp`` first, a fixed name: a user's file of that name was
    overwritten, and a folder of that name stopped the command after the play. The temporary name
    is ``.<name>.writing-XXXXXXXX``, its own; a leftover of a killed fit-eval (a fit's first bytes)
    is removed at the next start, a user's file of such a name is not; an eval.json simbalance
    wrote is replaced."""
    out = tmp_path / "eval.json"
    (tmp_path / "eval.json.tmp").write_text("mine")
    (tmp_path / "eval.json.tmp.d").mkdir()
    mine_named_so = tmp_path / ".eval.json.writing-abcd1234"
    mine_named_so.write_text("my own file")
    killed = tmp_path / ".eval.json.writing-zz99zz99"
    killed.write_text('{\n "written_by": "simb')
    for _ in range(2):  # the second replaces the first's eval.json
        res = runner.invoke(app, [*FIT, "--out", str(out)])
        assert res.exit_code == 0, res.output
        assert json.loads(out.read_text())["written_by"] == "simbalance"
    assert (tmp_path / "eval.json.tmp").read_text() == "mine" and mine_named_so.read_text() == "my own file"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".eval.json.writing-abcd1234", "eval.json", "eval.json.tmp",
                                                          "eval.json.tmp.d"]


def test_fit_eval_into_an_out_another_holds_stops_at_once(tmp_path):
    """Two fit-evals into one --out both exited 0, one fit silently replacing the other: the file is
    locked like a folder (``.<name>.lock``); the second stops before any game."""
    import fcntl
    import os

    from simbalance.report.run_folder import lock_file

    out = tmp_path / "eval.json"
    fd = os.open(lock_file(out), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        message = one_line_error(runner.invoke(app, [*FIT, "--out", str(out)]))
    finally:
        os.close(fd)
    assert f"--out {out}: another simbalance command is writing this file" in message, message
    assert not out.exists()


def test_fit_eval_on_a_file_size_limit_names_the_file_and_leaves_nothing_half(tmp_path):
    """``ulimit -f`` (EFBIG) in a real process: "error: File too large", no path, and a half
    ``<out>.tmp`` left. One line naming the file; nothing half-written left."""
    import os
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4000, 4000))  # an eval.json is about 4,700 bytes

    out = tmp_path / "eval.json"
    env = {**os.environ, "COLUMNS": "400", "SIMBALANCE_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-m", "simbalance.cli.main", *FIT, "--out", str(out)], capture_output=True,
                          text=True, env=env, preexec_fn=limit, timeout=600, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and lines[-1] == (f"error: --out {out}: cannot be written (File too large); nothing "
                                                  "written, what was there is kept"), (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert len(lines) == 1 and not done.stdout.strip(), (done.stdout, done.stderr)
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == []


def test_a_report_file_is_written_through_a_temporary_name_of_its_own(tmp_path):
    """A baseline, --junit or --markdown file is written whole through ``.<name>.writing-XXXXXXXX``:
    the fixed ``.<name>.tmp`` it used replaced (then renamed away) a user's file of that name."""
    from simbalance.report.files import write_file_whole

    users = tmp_path / ".check.md.tmp"
    users.write_text("my notes")
    write_file_whole(tmp_path / "check.md", "# verdict\n", lambda _path: False, "a report", "--markdown")
    assert users.read_text() == "my notes"
    assert (tmp_path / "check.md").read_text() == "# verdict\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".check.md.tmp", "check.md"]


# ------------------------------------------- baseline --out, check --markdown, check --junit (own54)

SHIPPED = str(BASELINE_DIR / "find-dr-evil.json")
# Each command with an output file, and the option that names it (the path is given last).
REPORT_COMMANDS = {
    "baseline --out": ["baseline", GAME, "--n", "2000", "--threads", "1", "--out"],
    "check --markdown": ["check", SHIPPED, "--n", "1000", "--markdown"],
    "check --junit": ["check", SHIPPED, "--n", "1000", "--junit"],
}
# What a user may have at that path, none of it simbalance's.
NOT_OURS = {
    "a user's JSON": lambda path: path.write_text('{"my": "notes"}\n'),
    "a user's text": lambda path: path.write_text("my notes\n"),
    "a FIFO": lambda path: os.mkfifo(path),
    "a link to a user's file": lambda path: (path.with_name("mine.txt").write_text("my notes\n"),
                                             path.symlink_to(path.with_name("mine.txt"))),
}


def _kind(path):
    info = path.lstat()
    return stat.S_IFMT(info.st_mode), path.read_text() if stat.S_ISREG(info.st_mode) else None


@pytest.mark.parametrize("command", REPORT_COMMANDS)
@pytest.mark.parametrize("what", NOT_OURS)
def test_an_output_file_simbalance_did_not_write_is_kept_and_no_game_is_played(tmp_path, monkeypatch, command, what):
    """``baseline --out t.json``, ``check --markdown t.json`` and ``check --junit t.json`` replaced a
    user's t.json (a FIFO became a regular file, a link a file), exit 0, after the whole play. Now:
    one line naming the option, the path and what to do, exit 2, before any game; the path as it
    was, nothing else written (a FIFO is never opened: the command does not block)."""
    from simbalance.studies import check as check_study

    played = []
    monkeypatch.setattr(check_study, "play", lambda *args, **kw: played.append(args) or pytest.fail("a game was played"))
    path = tmp_path / "t.json"
    NOT_OURS[what](path)
    before, names = _kind(path), sorted(p.name for p in tmp_path.iterdir())
    option = REPORT_COMMANDS[command][-1]
    message = one_line_error(runner.invoke(app, [*REPORT_COMMANDS[command], str(path)]))
    assert message.startswith(f"error: {option} {path}: ") and f"choose another {option}" in message, message
    assert "simbalance did not write" in message or "symbolic link" in message, message
    assert not played and _kind(path) == before and sorted(p.name for p in tmp_path.iterdir()) == names


# The first bytes of each file: what simbalance knows its own by (a baseline by its content, which
# begins so; a report by the comment it starts with).
HEADS = {"baseline --out": '{\n  "format": 1,\n  "setup": {',
         "check --markdown": "<!-- written by simbalance check -->\n",
         "check --junit": '<?xml version="1.0" encoding="utf-8"?>\n<!-- written by simbalance check -->\n'}


@pytest.mark.parametrize("command", REPORT_COMMANDS, ids=[
    "baseline --out again replaces its own baseline, not a user's file of a temporary name",
    "check --markdown again replaces its own report, not a user's file of a temporary name",
    "check --junit again replaces its own report, not a user's file of a temporary name"])
def test_an_output_file_simbalance_wrote_is_replaced(tmp_path, command):
    """The same command again replaces the file it wrote; a temporary file a killed command left
    beside it (its first bytes are the file's) is removed, a user's file of such a name is kept.
    The reports stay valid Markdown and XML."""
    import xml.etree.ElementTree as ET

    from simbalance.studies.check import read_baseline

    path = tmp_path / "t.json"
    res = runner.invoke(app, [*REPORT_COMMANDS[command], str(path)])
    assert res.exit_code == 0, res.output
    first = path.read_text()
    assert first.startswith(HEADS[command]), first[:200]
    stale = first.replace('"n": 2000', '"n": 2001') if command == "baseline --out" else first + "<!-- stale -->\n"
    assert stale != first
    path.write_text(stale)  # still simbalance's: a baseline of another n, a report of an older check
    (tmp_path / ".t.json.writing-zz99zz99").write_text(HEADS[command][:12])  # as a kill after the first write leaves it
    (tmp_path / ".t.json.writing-abcd1234").write_text("my own file")
    res = runner.invoke(app, [*REPORT_COMMANDS[command], str(path)])
    assert res.exit_code == 0, res.output
    assert path.read_text().startswith(HEADS[command]) and "stale" not in path.read_text() and '"n": 2001' not in path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".t.json.writing-abcd1234", "t.json"]
    assert (tmp_path / ".t.json.writing-abcd1234").read_text() == "my own file"
    if command == "baseline --out":
        assert read_baseline(path)["setup"]["game"] == GAME and read_baseline(path)["n"] == 2000
    elif command == "check --junit":
        assert ET.parse(path).getroot().tag == "testsuite"
    else:
        assert path.read_text().splitlines()[1] == "# simbalance check"


@pytest.mark.parametrize("command", REPORT_COMMANDS, ids=[
    "baseline --out into a file another command holds", "check --markdown into a file another command holds",
    "check --junit into a file another command holds"])
def test_an_output_file_another_command_holds_stops_at_once(tmp_path, monkeypatch, command):
    """Two commands into one output file both played and exited 0, one file silently replacing the
    other: the file is locked (``.<name>.lock``, as fit-eval's); the second stops before any game."""
    import fcntl

    from simbalance.report.run_folder import lock_file
    from simbalance.studies import check as check_study

    monkeypatch.setattr(check_study, "play", lambda *args, **kw: pytest.fail("a game was played"))
    path = tmp_path / "t.json"
    fd = os.open(lock_file(path), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        message = one_line_error(runner.invoke(app, [*REPORT_COMMANDS[command], str(path)]))
    finally:
        os.close(fd)
    option = REPORT_COMMANDS[command][-1]
    assert f"{option} {path}: another simbalance command is writing this file" in message, message
    assert not path.exists()
