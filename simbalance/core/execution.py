"""Carry out a planned run: keep or stream the records, checkpoint, resume, stop at a precision.

Chunks arrive in game-index order (see runner.py); each is merged into the run's ``RunAggregate``
and, when the run keeps its games, copied into one records array. A streaming run keeps only the
aggregate and a sample of its first games (for the engine's own statistics and figures), so its
memory stays flat at any n.

A checkpoint is the state of a finished prefix of chunks. Its one commit point is ``checkpoint.npz``
(the state, the merged aggregate and a streaming run's sample in one file, written under a temporary
name and renamed): whatever else a run writes (``records.bin``, the games' Parquet shards) is
written before that rename and, on resume, cut back to what the committed state vouches for. So a
run killed at any instant resumes from the last commit, never from a mix of two. A fresh run commits
an empty checkpoint first (its folder appears by a rename, complete), so a checkpoint folder can
always be resumed. Checkpoints are then written once a run has taken longer than a few seconds, and
whenever the run is stopped; a resumed run replays nothing it has and merges in the same order, so
it ends with exactly the result of an uninterrupted run.

A checkpoint proves itself before a resume uses it (issue 54): its folder holds simbalance's marker
(core/owned.py); its files are regular files (a FIFO would block the read); ``checkpoint.npz`` is a
zip of plain arrays whose SHA-256 (``checksum``) covers the state and every array; the state is
checked against ``STATE_SCHEMA``; ``records.bin``'s prefix the state vouches for has the SHA-256
the state stores; and the game, its engine version and its config digest are the run's. Each
refusal is one line naming the file and what is wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import shutil
import stat
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simbalance.core import runner
from simbalance.core.aggregate import RunAggregate, wilson
from simbalance.core.errors import CheckpointError, RunInterrupted, SimbalanceError, ctrl_c_kept
from simbalance.core.faults import fault
from simbalance.core.owned import (
    CHECKPOINT_FOLDER,
    MARKER,
    file_sha256,
    mark,
    marker_of,
    remove_written_folder,
)
from simbalance.core.plugin_guard import plugin_label
from simbalance.core.records import END_INVALID
from simbalance.core.runner import (
    ProgressFn,
    chunk_bounds,
    chunk_size_for,
    games_in_chunks,
    play_chunk,
    play_chunks,
)

if TYPE_CHECKING:
    from simbalance.core.plan import RunPlan

SAMPLE_GAMES = 200_000  # a streaming run keeps this many first games for engine statistics
CHECKPOINT_AFTER_S = 5.0
CHECKPOINT = "checkpoint.npz"  # the one commit point: state, aggregate and sample together
RECORDS = "records.bin"
LEGACY = ("state.json", "aggregate.npz", "sample.npz")  # before one-file checkpoints
STATE = "state"  # the array of checkpoint.npz holding the state's JSON
CHECKSUM = "checksum"  # the array holding the SHA-256 of the state and every other array
AGGREGATE_FIELDS = ("seat_win_units", "slot_win_units", "slot_seat_games", "outcomes", "length_hist", "undecided_hist",
                    "slot_decided_games", "lead_sums", "stalemate_reasons")


def _fault(step: str) -> None:
    """Called before and after every write of a checkpoint or shard: the tests' place to kill a run
    (core/faults.py; in-process tests replace this function). A no-op otherwise."""
    fault(step)


@dataclass
class RunOptions:
    keep_games: bool = True  # False: stream (aggregate + sample only)
    precision: float | None = None  # stop once every win-rate CI half-width is below this
    state_dir: Path | None = None  # where checkpoints go (None: no checkpoints)
    resume: bool = False  # continue from the checkpoint in state_dir
    args: dict = field(default_factory=dict)  # how the run was asked for: stored in the checkpoint
    stop: object = None  # callable () -> bool, asked between chunks (Ctrl-C, SIGTERM)
    shards: bool = False  # streaming runs: write each chunk's games to state_dir/games/ as it finishes
    # the caller removes the checkpoint once its own output is in place (the CLI: a kill while the
    # report is written then loses no game); False: removed as soon as the play ends
    keep_checkpoint: bool = False
    # held while the kernel compiles or loads: a context manager factory () -> ...; None: the
    # process's default notice (runner.default_compile_notice, the CLI's spinner), False: none
    compiling: object = None


class EngineInvariantError(RuntimeError):
    """A validated run found a game that broke an engine invariant: a bug, not a user error."""


@dataclass
class Outcome:
    records: np.ndarray | None
    aggregate: RunAggregate
    sample: np.ndarray
    n_played: int
    elapsed: float  # seconds of play: the clock starts once the kernel is compiled (or loaded)
    compile_seconds: float = 0.0  # compiling or loading the kernel, before the first game


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# What a checkpoint's state holds, and of which type (a whole number: an int that is not a bool).
WHOLE, NUMBER = "a whole number", "a number"
STATE_SCHEMA: dict[str, object] = {
    "args": dict, "game": str, "n": WHOLE, "seed": WHOLE, "chunk_size": WHOLE, "ramp": bool,
    "chunks_done": WHOLE, "games_done": WHOLE, "keep_games": bool, "config": dict, "config_digest": str,
    "engine_version": WHOLE, "play_seconds": NUMBER, "played_all": bool, "records_sha256": (str, type(None)),
    "shards_sha256": list,
}
_TYPE_WORDS = {dict: "an object", str: "a string", bool: "true or false", list: "a list", type(None): "null",
               int: "a whole number", float: "a number"}


def _type_word(kind) -> str:
    if isinstance(kind, tuple):
        return " or ".join(_type_word(k) for k in kind)
    return kind if isinstance(kind, str) else _TYPE_WORDS.get(kind, kind.__name__)


def _fits(value, kind) -> bool:
    if isinstance(kind, tuple):
        return any(_fits(value, k) for k in kind)
    if kind == WHOLE:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == NUMBER:  # seconds: NaN or infinity would reach the manifest as JSON that is not JSON
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    return isinstance(value, kind)


def check_state(state: object, path: Path) -> dict:
    """The checkpoint's state, checked against STATE_SCHEMA: one line naming the key and what it holds."""
    where = f"checkpoint {path}: its state"
    if not isinstance(state, dict):
        raise CheckpointError(f"{where} is {_type_word(type(state))}, not an object; it was not written by this "
                              "simbalance: delete the folder and run again from the start")
    for key, kind in STATE_SCHEMA.items():
        if key not in state:
            raise CheckpointError(f"{where} has no {key!r} (a checkpoint of an older simbalance, or edited): "
                                  "delete the folder and run again from the start")
        if not _fits(state[key], kind):
            raise CheckpointError(f"{where}: {key!r} is {json.dumps(state[key])[:60]}, not {_type_word(kind)}"
                                  + (" of at least 0" if kind in (WHOLE, NUMBER) else "") + "; the checkpoint was edited: "
                                  "delete the folder and run again from the start")
    # the counts against each other (a state edited with its checksum redone passed: n below games_done, qa54b)
    if state["games_done"] > state["n"] or state["chunks_done"] > state["games_done"]:
        raise CheckpointError(f"{where}: 'n' {state['n']:,}, 'chunks_done' {state['chunks_done']:,} and 'games_done' "
                              f"{state['games_done']:,} do not fit together (games_done at most n, chunks_done at most "
                              "games_done); the checkpoint was edited: delete the folder and run again from the start")
    return state


def config_digest(config: dict) -> str:
    """SHA-256 of a config as canonical JSON: what a checkpoint compares a resumed run's config with."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()


def _arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over every array of a checkpoint (name, type, shape and bytes), in name order."""
    digest = hashlib.sha256()
    for name in sorted(arrays):
        value = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{value.dtype.str}:{value.shape};".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def _regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (False when missing); a FIFO, a device, a socket, a
    folder or a symbolic link is refused before anything opens it (opening a FIFO blocks; a resume
    writes records.bin, and through a link it wrote into the file the link names, outside the folder)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise CheckpointError(f"checkpoint {path}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise CheckpointError(f"checkpoint {path}: is not a regular file (a FIFO, a device, a folder or a link); a checkpoint "
                              "holds regular files only: delete the folder and run again from the start")
    return True


def read_checkpoint(state_dir: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """The checked state and the arrays of the checkpoint in ``state_dir``; one line naming the file
    and what is wrong when the folder is not simbalance's, a file is not a regular file, the archive
    is not one, its checksum does not match or its state does not fit STATE_SCHEMA."""
    folder = Path(state_dir)
    path = folder / CHECKPOINT
    if not folder.is_dir():
        raise CheckpointError(f"--resume {folder}: no such folder" if not folder.exists()
                              else f"--resume {folder}: not a folder; give the run's .partial folder")
    if not _regular_file(path):
        if (folder / LEGACY[0]).exists():
            raise CheckpointError(f"--resume {folder}: the checkpoint was written by an older simbalance "
                                  "(state.json); run it again from the start")
        raise CheckpointError(f"--resume {folder}: no checkpoint there ({CHECKPOINT} is missing)")
    body = marker_of(folder)
    if body is None or body["kind"] != CHECKPOINT_FOLDER:
        raise CheckpointError(f"--resume {folder}: not a checkpoint folder simbalance wrote (it has no .simbalance "
                              "marker of a checkpoint): run again from the start")
    broken = f"checkpoint {path}: cannot be read"
    if not zipfile.is_zipfile(path):
        raise CheckpointError(f"{broken} (not a checkpoint archive: damaged or replaced); delete the folder and run "
                              "again from the start")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise CheckpointError(f"{broken} ({exc}); delete the folder and run again from the start") from None
    missing = [name for name in (STATE, CHECKSUM, "n", "sample", *AGGREGATE_FIELDS) if name not in arrays]
    if missing:
        raise CheckpointError(f"{broken} (it has no {missing[0]!r}: written by an older simbalance, or damaged); "
                              "delete the folder and run again from the start")
    stored = arrays.pop(CHECKSUM)
    try:
        state = json.loads(arrays[STATE].tobytes().decode())
    except (ValueError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{broken} (its state is not JSON: {exc}); delete the folder and run again from "
                              "the start") from None
    check_state(state, path)
    if stored.dtype.kind != "U" or stored.shape != () or str(stored) != _arrays_digest(arrays):
        raise CheckpointError(f"checkpoint {path}: its checksum does not match its content (damaged or edited); "
                              "delete the folder and run again from the start")
    return state, arrays


class Checkpoint:
    def __init__(self, state_dir: Path, plan: RunPlan, options: RunOptions, chunk: int):
        self.dir = Path(state_dir)
        self.plan, self.options, self.chunk = plan, options, chunk
        self.ramp = options.precision is not None  # a precision run's chunks grow (runner.chunk_sizes)
        self.saved_games = 0
        self.records_hash = hashlib.sha256()  # of records.bin's first saved_games records
        self.shard_digests: list[str] = []  # a streamed run's shards, chunk by chunk (write_shard)

    def begin(self, agg: RunAggregate, sample: np.ndarray) -> None:
        """Commit the empty checkpoint of a fresh run. A new folder is built under a hidden name and
        renamed, so a folder of that name always holds a checkpoint (a kill leaves only the hidden one,
        which the next run of that name clears)."""
        if self.dir.exists():
            mark(self.dir, CHECKPOINT_FOLDER)
            self.save(0, 0, agg, None, sample)
            return
        staging = self.dir.with_name(f".{self.dir.name}.new")
        remove_written_folder(staging)
        staging.mkdir(parents=True)
        try:
            mark(staging, CHECKPOINT_FOLDER)  # the folder is simbalance's: the marker says so, not its name
            self._commit(staging, 0, 0, agg, sample)
        except OSError:  # a full disk: the folder this made goes with it (a kill: the next start removes it)
            shutil.rmtree(staging, ignore_errors=True)
            raise
        _fault("before rename folder")
        os.rename(staging, self.dir)
        _fsync_dir(self.dir.parent)
        _fault("after rename folder")

    def save(self, chunks_done: int, games_done: int, agg: RunAggregate, records: np.ndarray | None,
             sample: np.ndarray, seconds: float = 0.0, played_all: bool = False) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        records_hash = self.records_hash.copy()  # becomes the checkpoint's only once committed
        if records is not None:
            # Append what is new, before the commit; a resumed run reads only what the commit vouches for.
            _fault("before records")
            new = records[self.saved_games:games_done].tobytes()
            with open(self.dir / RECORDS, "ab") as fh:
                fh.truncate(self.saved_games * records.dtype.itemsize)
                fh.seek(0, os.SEEK_END)
                fh.write(new)
                fh.flush()
                os.fsync(fh.fileno())
            _fault("after records")
            records_hash.update(new)
        self._commit(self.dir, chunks_done, games_done, agg, sample, seconds, played_all, records_hash)
        self.saved_games, self.records_hash = games_done, records_hash

    def _commit(self, folder: Path, chunks_done: int, games_done: int, agg: RunAggregate,
                sample: np.ndarray, seconds: float = 0.0, played_all: bool = False,
                records_hash=None) -> None:
        # play_seconds: the play's time over every session of the run, so that a resumed run's
        # games/s is its own; played_all: the play is over (a kill while the output was written
        # left it), a resume only writes the output.
        state = {"args": self.options.args, "game": self.plan.spec.id, "n": self.plan.n, "seed": self.plan.seed,
                 "chunk_size": self.chunk, "ramp": self.ramp, "chunks_done": chunks_done, "games_done": games_done,
                 "keep_games": self.options.keep_games, "config": self.plan.config,
                 "config_digest": config_digest(self.plan.config), "engine_version": self.plan.engine.version,
                 "play_seconds": seconds, "played_all": played_all,
                 # a kept run's records.bin, as far as this commit vouches for it (streamed: none)
                 "records_sha256": (records_hash or self.records_hash).hexdigest() if self.options.keep_games else None,
                 "shards_sha256": self.shard_digests[:chunks_done] if self.options.shards else []}
        blob = np.frombuffer((json.dumps(state, indent=2, default=str) + "\n").encode(), dtype=np.uint8)
        # A kept run's sample is a view of its records (records.bin has it); a streamed run stores its own.
        part = sample[:0] if self.options.keep_games else sample[: min(len(sample), games_done)]
        arrays = {STATE: blob, "n": np.array(agg.n), "sample": part,
                  **{name: getattr(agg, name) for name in AGGREGATE_FIELDS}}
        tmp = folder / f".{CHECKPOINT}.tmp"
        _fault("before checkpoint")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays, **{CHECKSUM: np.array(_arrays_digest(arrays))})
            fh.flush()
            os.fsync(fh.fileno())
        _fault("before rename checkpoint")
        os.replace(tmp, folder / CHECKPOINT)  # the commit
        _fsync_dir(folder)
        _fault("after rename checkpoint")

    def load(self, records: np.ndarray | None, sample: np.ndarray, players: int, n_slots: int):
        state, arrays = read_checkpoint(self.dir)
        path = self.dir / CHECKPOINT
        plan = self.plan
        if state["game"] != plan.spec.id:
            raise CheckpointError(f"--resume {self.dir}: the checkpoint is of {state['game']}, not {plan.spec.id}")
        if state["engine_version"] != plan.engine.version:
            raise CheckpointError(f"--resume {self.dir}: the checkpoint was played by {plan.spec.id}'s engine version "
                                  f"{state['engine_version']}, this simbalance plays version {plan.engine.version} "
                                  "(its games differ): run it again from the start")
        if (state["config"] != json.loads(json.dumps(plan.config, default=str)) or state["seed"] != plan.seed
                or state["config_digest"] != config_digest(plan.config)):
            # the checkpoint is sound, today's config is not the run's (its file edited since): once it
            # is restored, the run resumes (a SimbalanceError, not a CheckpointError)
            raise SimbalanceError(f"--resume {self.dir}: the config or seed differs from the interrupted run")
        if (state["chunk_size"] != self.chunk or state["ramp"] != self.ramp
                or state["keep_games"] != self.options.keep_games):
            raise SimbalanceError(f"--resume {self.dir}: the run was checkpointed with other chunking or storage")
        chunks, games = state["chunks_done"], state["games_done"]
        broken = f"--resume {self.dir}: the checkpoint is inconsistent"
        if state["n"] != plan.n:  # its own count against the run its arguments make
            raise CheckpointError(f"{broken} (its state says {state['n']:,} games, its arguments {plan.n:,})")
        if games != games_in_chunks(plan.n, self.chunk, chunks, self.ramp):
            raise CheckpointError(f"{broken} ({chunks} chunks but {games:,} games)")
        if state["played_all"] and games < plan.n and not self.ramp:  # only a precision run stops early
            raise CheckpointError(f"{broken} (it says the play is over after {games:,} of {plan.n:,} games)")
        try:
            agg = RunAggregate(players, n_slots, int(arrays["n"]), *(arrays[name] for name in AGGREGATE_FIELDS))
        except (ValueError, TypeError) as exc:
            raise CheckpointError(f"checkpoint {path}: its statistics do not fit this run ({exc})") from None
        part = arrays["sample"]
        if agg.n != games:
            raise CheckpointError(f"{broken} (its statistics hold {agg.n:,} games, its state {games:,})")
        if records is not None:
            self.records_hash = self._read_records(records, games, state["records_sha256"])
        else:
            if len(part) != min(len(sample), games) or part.dtype != sample.dtype:
                raise CheckpointError(f"{broken} (its sample holds {len(part):,} games)")
            sample[: len(part)] = part
        if self.options.shards:
            self._trim_shards(chunks)
            self._check_shards(chunks, state["shards_sha256"])
        self.saved_games = games
        return chunks, games, agg, float(state["play_seconds"]), state["played_all"]

    def check_writable(self) -> None:
        """Refuse, in one line, a checkpoint folder this run cannot write its next commit into (made
        read-only or immutable since it was left): it would play every game and fail at the first
        save (qa54c: 13 s of play, then the line)."""
        probe = self.dir / f".{CHECKPOINT}.tmp"  # the commit's own temporary name
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
            os.close(fd)
            probe.unlink()
        except OSError as exc:  # (the command adds what is kept and how to resume)
            why = (f"{probe.name} is a symbolic link, which simbalance does not write through" if probe.is_symlink()
                   else exc.strerror or str(exc))
            raise SimbalanceError(f"--resume {self.dir}: cannot write its next checkpoint there ({why})") from None

    def _read_records(self, records: np.ndarray, games: int, expected: str | None):
        """Read the first ``games`` records of records.bin into ``records``, checked against the
        SHA-256 the state stores; returns the hash, to be continued by the next save."""
        path = self.dir / RECORDS
        size = games * records.dtype.itemsize
        digest = hashlib.sha256()
        if games and not _regular_file(path):
            raise CheckpointError(f"checkpoint {path}: is missing, and the checkpoint holds {games:,} games; delete "
                                  "the folder and run again from the start")
        raw = b""
        if games:
            with open(path, "rb") as fh:
                raw = fh.read(size)
        if len(raw) != size:
            raise CheckpointError(f"--resume {self.dir}: the checkpoint is inconsistent ({RECORDS} holds fewer "
                                  f"than {games:,} games)")
        digest.update(raw)
        if expected is None or digest.hexdigest() != expected:
            raise CheckpointError(f"checkpoint {path}: its checksum does not match the checkpoint's (damaged or edited); "
                                  "delete the folder and run again from the start")
        records[:games] = np.frombuffer(raw, dtype=records.dtype)
        return digest

    def _trim_shards(self, chunks: int) -> None:
        """Drop shards (and half-written ones) of chunks after the commit; the resumed run writes them again."""
        folder = self.dir / "games"
        if not folder.is_dir():
            folder.mkdir()
        for path in folder.iterdir():
            name = path.name
            if name.startswith(".part-") and name.endswith(".tmp"):
                path.unlink()
            elif shard := _SHARD_NAME.fullmatch(name):
                if int(shard.group(1)) >= chunks:
                    path.unlink()  # a shard of ours past the commit
            else:  # not a name simbalance writes: never removed, never read as games
                raise CheckpointError(f"--resume {self.dir}: {path} is not a file simbalance wrote; move it out of "
                                      "the folder and resume again")
        missing = [i for i in range(chunks) if not (folder / f"part-{i:06d}.parquet").exists()]
        if missing:
            raise CheckpointError(f"--resume {self.dir}: the games of chunk {missing[0]} are missing from {folder}")

    def _check_shards(self, chunks: int, digests: list) -> None:
        """Every shard the commit vouches for has the SHA-256 the state stores for it."""
        if len(digests) != chunks or not all(isinstance(d, str) for d in digests):
            raise CheckpointError(f"checkpoint {self.dir / CHECKPOINT}: its state holds {len(digests)} shard "
                                  f"checksums for {chunks} chunks; delete the folder and run again from the start")
        for index, expected in enumerate(digests):
            path = self.dir / "games" / shard_name(index)
            if not _regular_file(path) or file_sha256(path) != expected:
                raise CheckpointError(f"checkpoint {path}: its checksum does not match the checkpoint's (damaged or "
                                      "edited); delete the folder and run again from the start")
        self.shard_digests = list(digests)

    def remove(self) -> None:
        """Delete the checkpoint files; shards written beside them stay for the caller to move."""
        for name in (CHECKPOINT, f".{CHECKPOINT}.tmp", RECORDS, *LEGACY):
            (self.dir / name).unlink(missing_ok=True)
        if all(path.name == MARKER for path in self.dir.iterdir()):  # the marker stays with the shards
            (self.dir / MARKER).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                self.dir.rmdir()


def read_state(state_dir: Path) -> dict:
    """The checked state of the checkpoint in ``state_dir`` (read_checkpoint)."""
    return read_checkpoint(state_dir)[0]


_SHARD_NAME = re.compile(r"part-([0-9]{6,})\.parquet")  # shard_name's form, ASCII digits only


def shard_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def write_shard(folder: Path, index: int, part: np.ndarray, players: int,
                strategy_names: tuple[str, ...] | None = None) -> str:
    """One chunk's games as a Parquet file, written under a temporary name and renamed; returns the
    file's SHA-256 (the checkpoint stores it: a resume checks the shard against it)."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    from simbalance.core.records import records_to_frame

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / shard_name(index)
    tmp = folder / f".{shard_name(index)}.tmp"
    frame = records_to_frame(part, players, strategy_names)
    buffer = io.BytesIO()  # one chunk's games, compressed: a few MB; hashed as written
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), buffer, compression="zstd")
    data = buffer.getvalue()
    _fault("before shard")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    _fault("before rename shard")
    os.replace(tmp, path)
    _fault("after rename shard")
    return hashlib.sha256(data).hexdigest()


def precision_reached(agg: RunAggregate, target: float) -> bool:
    lo, hi = wilson(agg.seat_wins, agg.n)
    widths = list((hi - lo) / 2)
    played = agg.slot_seat_games > 0
    if played.sum() > 1:
        slo, shi = wilson(agg.slot_wins[played], agg.slot_seat_games[played])
        widths += list((shi - slo) / 2)
    return bool(max(widths) < target)


@ctrl_c_kept()  # a Ctrl-C while a chunk is merged is a KeyboardInterrupt, never a SystemError
def execute(plan: RunPlan, options: RunOptions, progress: ProgressFn | None = None) -> Outcome:
    engine, lineup = plan.engine, plan.lineup
    chunk = chunk_size_for(engine, plan.chunk_size)
    n_slots = len(lineup.slot_names)
    records = np.zeros(plan.n, dtype=engine.record_dtype) if options.keep_games else None
    # Kept runs sample their own first games (a view); streamed runs copy them as they pass.
    sample = (records[: min(plan.n, SAMPLE_GAMES)] if records is not None
              else np.zeros(min(plan.n, SAMPLE_GAMES), dtype=engine.record_dtype))
    agg = RunAggregate(plan.players, n_slots)
    checkpoint = Checkpoint(options.state_dir, plan, options, chunk) if options.state_dir else None
    first_chunk, done, before, played_all = 0, 0, 0.0, False
    if options.resume:
        if checkpoint is None:
            raise SimbalanceError("resume needs the checkpoint folder")
        first_chunk, done, agg, before, played_all = checkpoint.load(records, sample, plan.players, n_slots)
        checkpoint.check_writable()  # before any game: a .partial that cannot be written is one line now
    elif checkpoint is not None:
        checkpoint.begin(agg, sample)
    compile_seconds = 0.0
    if plan.backend == "local" and not played_all:
        with _compile_notice(plan, options):
            compile_seconds = _compile(plan)
    start = time.perf_counter()
    stop = options.stop if callable(options.stop) else None
    index = first_chunk
    # lazy: flat memory at any n; a precision run's chunks grow from small ones (runner.chunk_sizes)
    chunks = chunk_bounds(plan.n, chunk, first_chunk=first_chunk, ramp=options.precision is not None)
    # played_all: a kill came after the play, while the output was written: nothing is left to play
    stopped_early = played_all and done < plan.n  # (a precision run that had stopped early)
    in_chunk = [0]  # games done in the chunk in play, so that the display moves within a long chunk

    def games_done_in_chunk(k: int) -> None:
        in_chunk[0] += k
        progress(done + in_chunk[0], plan.n, time.perf_counter() - start)

    parts = iter(()) if played_all else play_chunks(
        engine, lineup, plan.prepared_for(), plan.seed, chunks, threads=plan.threads, backend=plan.backend,
        scheduler=plan.scheduler, stop=stop, kernel=plan.kernel, target=records, timeout=plan.dask_timeout,
        on_games=games_done_in_chunk if progress is not None else None,
        label=plugin_label(plan.spec, plan.strategy_file))  # a plug-in's chunks are watched (runner.contained)
    for part in parts:
        shown, in_chunk[0] = in_chunk[0], 0  # every game of the chunk shown already (locally)?
        size = len(part)
        broken = np.flatnonzero(part["end"] == END_INVALID)
        if len(broken):
            raise EngineInvariantError(
                f"{plan.spec.id}: game {int(part['game'][broken[0]])} of seed {plan.seed} broke an engine invariant; "
                f"see it with: simbalance replay {plan.spec.id} --seed {plan.seed} --game {int(part['game'][broken[0]])}"
            )
        if records is None and done < len(sample):
            take = min(size, len(sample) - done)
            sample[done : done + take] = part[:take]
        agg = agg.merge(RunAggregate.from_records(part, plan.players, n_slots))
        if options.shards and options.state_dir is not None:
            digest = write_shard(Path(options.state_dir) / "games", index, part, plan.players, plan.lineup.slot_names)
            checkpoint.shard_digests[index:] = [digest]  # (a resumed run writes its chunks again from here)
        done += size
        index += 1
        elapsed = time.perf_counter() - start
        if progress is not None and shown != size:
            progress(done, plan.n, elapsed)
        if options.precision is not None and precision_reached(agg, options.precision):
            stopped_early = True
            break
        if checkpoint is not None and elapsed > CHECKPOINT_AFTER_S:
            checkpoint.save(index, done, agg, records, sample, before + elapsed)
    elapsed = before + time.perf_counter() - start
    if done < plan.n and not stopped_early:
        if checkpoint is not None:
            checkpoint.save(index, done, agg, records, sample, elapsed)
        raise RunInterrupted(done, plan.n, checkpoint.dir if checkpoint else None)
    if checkpoint is not None and options.keep_checkpoint:
        if not played_all:  # every game, until the caller's output is in place (then it removes it)
            checkpoint.save(index, done, agg, records, sample, elapsed, played_all=True)
    elif checkpoint is not None:
        checkpoint.remove()
    if records is not None and done < plan.n:
        records = records[:done]
    return Outcome(records, agg, sample[: min(done, len(sample))], done, elapsed, compile_seconds)


def _compile_notice(plan: RunPlan, options: RunOptions):
    """What shows while the run's kernel compiles: the run's own notice, the process's default, or none."""
    if options.compiling is False:
        return contextlib.nullcontext()
    if options.compiling is not None:
        return options.compiling()
    notice = runner.default_compile_notice
    return notice(plan.spec.id) if notice is not None else contextlib.nullcontext()


def _compile(plan: RunPlan) -> float:
    """Compile (or load from the cache) the run's kernel by playing no game with it, so that games/s
    counts play only; returns the seconds it took."""
    begin = time.perf_counter()
    play_chunk(plan.engine, plan.lineup, plan.prepared_for(), plan.seed, 0, 0, 1, plan.kernel,
               np.zeros(0, plan.engine.record_dtype))
    return time.perf_counter() - begin
