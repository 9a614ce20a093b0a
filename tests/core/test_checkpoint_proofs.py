"""A checkpoint proves itself before a resume uses it (issue 54 item 3): a checksum over the records
and over the state and statistics, the state checked against a schema, the engine version and the
config compared, a FIFO refused before it is opened; every refusal one line naming the file and
what is wrong, exit 2, nothing written. Each test was run on the code before the change (e4f74bc),
where it fails (a resume that exits 0 with other games, a traceback, or a process that blocks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from one_line import interrupted_run, one_line_error
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core import execution
from simbalance.report.run_folder import partial_dir

runner = CliRunner()
GAME = "find-dr-evil"
RUN = ["run", GAME, "--n", "5000", "--chunk-size", "1000", "--seed", "3"]


def _interrupt(tmp_path: Path, monkeypatch) -> Path:
    """A run of 5,000 games stopped (as by Ctrl-C) after two chunks: its ``.partial`` holds 2,000."""
    interrupted_run(monkeypatch, [*RUN, "--out", str(tmp_path / "r")], chunks=2)
    return partial_dir(tmp_path / "r")


@pytest.fixture
def interrupted(tmp_path, monkeypatch) -> Path:
    return _interrupt(tmp_path, monkeypatch)


def resume(state: Path):
    return runner.invoke(app, ["run", "--resume", str(state), "--quiet"])


def refused_and_nothing_written(state: Path, res) -> str:
    message = one_line_error(res)
    assert not (state.parent / "r").exists()
    return message


def edit_state(state: Path, change) -> None:
    """Rewrite the state inside ``checkpoint.npz`` (every other array as it was): a hand edit."""
    path = state / execution.CHECKPOINT
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    edited = change(json.loads(arrays["state"].tobytes().decode()))
    arrays["state"] = np.frombuffer(json.dumps(edited).encode(), dtype=np.uint8)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


def forge_state(state: Path, change) -> None:
    """``edit_state`` with the checksum made again as simbalance makes it: a forged checkpoint, not
    a damaged one (only the state's own checks can refuse it)."""
    edit_state(state, change)
    path = state / execution.CHECKPOINT
    with np.load(path, allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files if name != execution.CHECKSUM}
    with open(path, "wb") as fh:
        np.savez(fh, **arrays, **{execution.CHECKSUM: np.array(execution._arrays_digest(arrays))})


def test_an_edited_record_is_refused_by_the_checksum(interrupted):
    records = interrupted / "records.bin"
    games = np.frombuffer(records.read_bytes(), dtype=_record_dtype()).copy()
    games["length"][:10] += 1  # plausible games: only a checksum tells them from the played ones
    records.write_bytes(games.tobytes())
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {records}: its checksum does not match" in message
    assert "resume with" not in message and records.is_file()  # kept, and never offered for a resume


def test_flipped_bytes_in_the_records_are_refused_before_the_play(interrupted):
    records = interrupted / "records.bin"
    raw = bytearray(records.read_bytes())
    for k in range(0, len(raw), 997):
        raw[k] ^= 0xFF
    records.write_bytes(bytes(raw))
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {records}: its checksum does not match" in message


def test_an_edited_state_is_refused_by_the_checksum(interrupted):
    edit_state(interrupted, lambda s: {**s, "play_seconds": 1e6})  # a state the schema accepts
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {interrupted / 'checkpoint.npz'}: its checksum does not match its content" in message


@pytest.mark.parametrize(("edit", "words"), [
    (lambda s: {k: v for k, v in s.items() if k != "args"}, "its state has no 'args'"),
    (lambda s: list(s), "its state is a list, not an object"),
    (lambda s: {k: v for k, v in s.items() if k != "chunks_done"}, "its state has no 'chunks_done'"),
    (lambda s: {**s, "chunks_done": "2"}, "its state: 'chunks_done' is \"2\", not a whole number"),
    (lambda s: {**s, "play_seconds": float("nan")}, "its state: 'play_seconds' is NaN, not a number of at least 0"),
    (lambda s: {**s, "play_seconds": -5}, "its state: 'play_seconds' is -5, not a number of at least 0"),
], ids=["no args", "a list", "no chunks_done", "chunks_done a string", "play_seconds NaN", "play_seconds negative"])
def test_a_state_that_does_not_fit_the_schema_is_one_line(interrupted, edit, words):
    edit_state(interrupted, edit)
    checkpoint = interrupted / "checkpoint.npz"
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {checkpoint}: {words}" in message
    again = runner.invoke(app, [*RUN, "--out", str(interrupted.parent / "r")])  # a fresh run to that --out
    assert words in refused_and_nothing_written(interrupted, again)
    assert checkpoint.is_file()  # kept: a checkpoint is never discarded for being unreadable


@pytest.mark.parametrize("n", [1000, 9000], ids=["n below games_done", "n other than its arguments"])
def test_a_states_n_edited_with_its_checksum_redone_is_refused(interrupted, n):
    """qa54b: the state's ``n`` set below ``games_done`` (1,000 of 2,000 played) and the checksum
    redone was resumed without a word; ``n`` is checked against games_done and against the run its
    arguments make."""
    path = interrupted / execution.CHECKPOINT
    forge_state(interrupted, lambda s: {**s, "n": n})
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    words = ("'n' 1,000, 'chunks_done' 2 and 'games_done' 2,000 do not fit together" if n < 2000 else
             "the checkpoint is inconsistent (its state says 9,000 games, its arguments 5,000)")
    assert words in message, message
    assert path.is_file()


def test_a_state_that_says_the_play_is_over_with_games_left_is_refused(interrupted):
    """qa54c: ``played_all`` set (a kill while the output is written) on a checkpoint with games left,
    the checksum redone, resumed to a run of the games played so far, exit 0; only a precision run
    stops before its n."""
    path = interrupted / execution.CHECKPOINT
    forge_state(interrupted, lambda s: {**s, "played_all": True})
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert "the checkpoint is inconsistent (it says the play is over after 2,000 of 5,000 games)" in message, message
    assert path.is_file()


def test_a_checkpoint_of_another_engine_version_is_refused(tmp_path, monkeypatch):
    """The checkpoint is genuine (its checksums match) but was played by another version of the
    engine: its games would not be this version's."""
    real = execution.Checkpoint._commit

    def as_next_version(self, *args, **kwargs):
        plan = self.plan
        self.plan = _with_engine_version(plan, plan.engine.version + 1)
        try:
            return real(self, *args, **kwargs)
        finally:
            self.plan = plan

    monkeypatch.setattr(execution.Checkpoint, "_commit", as_next_version)
    state = _interrupt(tmp_path, monkeypatch)
    monkeypatch.setattr(execution.Checkpoint, "_commit", real)
    message = refused_and_nothing_written(state, resume(state))
    assert "engine version" in message and "run it again from the start" in message


@pytest.mark.parametrize("name", ["checkpoint.npz", "records.bin"])
def test_a_fifo_in_the_checkpoint_is_refused_without_blocking(interrupted, name):
    target = interrupted / name
    target.unlink()
    os.mkfifo(target)
    proc = subprocess.run([sys.executable, "-m", "simbalance.cli.main", "run", "--resume", str(interrupted),
                           "--quiet"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"checkpoint {target}: is not a regular file" in " ".join(proc.stderr.split())
    assert not (interrupted.parent / ".r.lock").exists() and not (interrupted.parent / "r").exists()


@pytest.mark.parametrize("name", ["checkpoint.npz", "records.bin"])
def test_a_link_in_the_checkpoint_is_refused_and_its_target_left_alone(interrupted, tmp_path, name):
    """A checkpoint file that is a symbolic link (to a file of the user's): a resume wrote the rest of
    the run's records through it, into that file, and exited 0."""
    target = interrupted / name
    elsewhere = tmp_path / f"users-{name}"
    target.rename(elsewhere)
    target.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {target}: is not a regular file" in message
    assert elsewhere.read_bytes() == before and target.is_symlink()


def test_random_bytes_are_not_called_pickled_data(interrupted):
    (interrupted / "checkpoint.npz").write_bytes(np.random.default_rng(1).bytes(4096))
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert "not a checkpoint archive" in message and "pickled" not in message


def test_missing_records_are_named_as_missing(interrupted):
    (interrupted / "records.bin").unlink()
    message = refused_and_nothing_written(interrupted, resume(interrupted))
    assert f"checkpoint {interrupted / 'records.bin'}: is missing" in message and "writing" not in message


def test_an_intact_checkpoint_resumes_to_the_uninterrupted_run(interrupted, tmp_path):
    """The checks refuse only what is wrong: an untouched checkpoint resumes to the same games. (A
    guard of the other side: it passed on the code before the change too.)"""
    assert resume(interrupted).exit_code == 0
    whole = runner.invoke(app, [*RUN, "--out", str(tmp_path / "whole"), "--quiet"])
    assert whole.exit_code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "r" / "games.parquet"),
                                  pd.read_parquet(tmp_path / "whole" / "games.parquet"))


def _record_dtype():
    from simbalance.api import plan_run

    return plan_run(GAME, 1).engine.record_dtype


def _with_engine_version(plan, version: int):
    from dataclasses import replace

    return replace(plan, engine=replace(plan.engine, version=version))




def test_a_damaged_shard_of_a_streamed_run_is_refused(tmp_path, monkeypatch):
    """A streamed run's games are its Parquet shards: each one's SHA-256 is in the state."""
    interrupted_run(monkeypatch, [*RUN, "--stream", "--out", str(tmp_path / "r")], chunks=2)
    state = partial_dir(tmp_path / "r")
    shard = state / "games" / "part-000001.parquet"
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0x01  # one bit of the compressed games
    shard.write_bytes(bytes(raw))
    message = refused_and_nothing_written(state, resume(state))
    assert f"checkpoint {shard}: its checksum does not match" in message


def test_a_users_file_among_the_shards_is_named_and_left_alone(tmp_path, monkeypatch):
    """A file in a streamed run's games/ that simbalance did not write (qa54: ``part-xyz.parquet``
    made the resume's shard trimming raise a ValueError traceback) is named in one line and kept."""
    interrupted_run(monkeypatch, [*RUN, "--stream", "--out", str(tmp_path / "r")], chunks=2)
    state = partial_dir(tmp_path / "r")
    mine = state / "games" / "part-xyz.parquet"
    mine.write_text("thesis")
    message = refused_and_nothing_written(state, resume(state))
    assert f"{mine} is not a file simbalance wrote" in message
    assert mine.read_text() == "thesis"
