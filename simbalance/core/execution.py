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
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simbalance.core import runner
from simbalance.core.aggregate import RunAggregate, wilson
from simbalance.core.errors import RunInterrupted, SimbalanceError, ctrl_c_kept
from simbalance.core.faults import fault
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


class Checkpoint:
    def __init__(self, state_dir: Path, plan: RunPlan, options: RunOptions, chunk: int):
        self.dir = Path(state_dir)
        self.plan, self.options, self.chunk = plan, options, chunk
        self.ramp = options.precision is not None  # a precision run's chunks grow (runner.chunk_sizes)
        self.saved_games = 0

    def begin(self, agg: RunAggregate, sample: np.ndarray) -> None:
        """Commit the empty checkpoint of a fresh run. A new folder is built under a hidden name and
        renamed, so a folder of that name always holds a checkpoint (a kill leaves only the hidden one,
        which the next run of that name clears)."""
        if self.dir.exists():
            self.save(0, 0, agg, None, sample)
            return
        staging = self.dir.with_name(f".{self.dir.name}.new")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        self._commit(staging, 0, 0, agg, sample)
        _fault("before rename folder")
        os.rename(staging, self.dir)
        _fsync_dir(self.dir.parent)
        _fault("after rename folder")

    def save(self, chunks_done: int, games_done: int, agg: RunAggregate, records: np.ndarray | None,
             sample: np.ndarray, seconds: float = 0.0, played_all: bool = False) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        if records is not None:
            # Append what is new, before the commit; a resumed run reads only what the commit vouches for.
            _fault("before records")
            with open(self.dir / RECORDS, "ab") as fh:
                fh.truncate(self.saved_games * records.dtype.itemsize)
                fh.seek(0, os.SEEK_END)
                fh.write(records[self.saved_games:games_done].tobytes())
                fh.flush()
                os.fsync(fh.fileno())
            _fault("after records")
        self._commit(self.dir, chunks_done, games_done, agg, sample, seconds, played_all)
        self.saved_games = games_done

    def _commit(self, folder: Path, chunks_done: int, games_done: int, agg: RunAggregate,
                sample: np.ndarray, seconds: float = 0.0, played_all: bool = False) -> None:
        # play_seconds: the play's time over every session of the run, so that a resumed run's
        # games/s is its own; played_all: the play is over (a kill while the output was written
        # left it), a resume only writes the output.
        state = {"args": self.options.args, "game": self.plan.spec.id, "n": self.plan.n, "seed": self.plan.seed,
                 "chunk_size": self.chunk, "ramp": self.ramp, "chunks_done": chunks_done, "games_done": games_done,
                 "keep_games": self.options.keep_games, "config": self.plan.config,
                 "engine_version": self.plan.engine.version, "play_seconds": seconds, "played_all": played_all}
        blob = np.frombuffer((json.dumps(state, indent=2, default=str) + "\n").encode(), dtype=np.uint8)
        # A kept run's sample is a view of its records (records.bin has it); a streamed run stores its own.
        part = sample[:0] if self.options.keep_games else sample[: min(len(sample), games_done)]
        tmp = folder / f".{CHECKPOINT}.tmp"
        _fault("before checkpoint")
        with open(tmp, "wb") as fh:
            np.savez(fh, state=blob, n=np.array(agg.n), sample=part,
                     **{name: getattr(agg, name) for name in AGGREGATE_FIELDS})
            fh.flush()
            os.fsync(fh.fileno())
        _fault("before rename checkpoint")
        os.replace(tmp, folder / CHECKPOINT)  # the commit
        _fsync_dir(folder)
        _fault("after rename checkpoint")

    def load(self, records: np.ndarray | None, sample: np.ndarray, players: int, n_slots: int):
        state = read_state(self.dir)
        if state["config"] != json.loads(json.dumps(self.plan.config, default=str)) or state["seed"] != self.plan.seed:
            raise SimbalanceError(f"--resume {self.dir}: the config or seed differs from the interrupted run")
        if (state["chunk_size"] != self.chunk or state.get("ramp", False) != self.ramp
                or state["keep_games"] != self.options.keep_games):
            raise SimbalanceError(f"--resume {self.dir}: the run was checkpointed with other chunking or storage")
        chunks, games = state["chunks_done"], state["games_done"]
        broken = f"--resume {self.dir}: the checkpoint is inconsistent"
        if games != games_in_chunks(self.plan.n, self.chunk, chunks, self.ramp):
            raise SimbalanceError(f"{broken} ({chunks} chunks but {games:,} games)")
        try:
            with np.load(self.dir / CHECKPOINT, allow_pickle=False) as z:
                agg = RunAggregate(players, n_slots, int(z["n"]), *(z[name] for name in AGGREGATE_FIELDS))
                part = z["sample"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise SimbalanceError(f"{broken} ({exc})") from None
        if agg.n != games:
            raise SimbalanceError(f"{broken} (its statistics hold {agg.n:,} games, its state {games:,})")
        if records is not None:
            size = games * records.dtype.itemsize
            raw = b""
            if games:
                with open(self.dir / RECORDS, "rb") as fh:
                    raw = fh.read(size)
            if len(raw) != size:
                raise SimbalanceError(f"{broken} ({RECORDS} holds fewer than {games:,} games)")
            records[:games] = np.frombuffer(raw, dtype=records.dtype)
        else:
            if len(part) != min(len(sample), games):
                raise SimbalanceError(f"{broken} (its sample holds {len(part):,} games)")
            sample[: len(part)] = part
        if self.options.shards:
            self._trim_shards(chunks)
        self.saved_games = games
        return chunks, games, agg, float(state.get("play_seconds", 0.0)), bool(state.get("played_all", False))

    def _trim_shards(self, chunks: int) -> None:
        """Drop shards (and half-written ones) of chunks after the commit; the resumed run writes them again."""
        folder = self.dir / "games"
        if not folder.is_dir():
            folder.mkdir()
        for path in folder.iterdir():
            name = path.name
            if name.startswith(".part-") and name.endswith(".tmp"):
                path.unlink()
            elif name.startswith("part-") and name.endswith(".parquet") and int(name[5:-8]) >= chunks:  # 6+ digits
                path.unlink()
        missing = [i for i in range(chunks) if not (folder / f"part-{i:06d}.parquet").exists()]
        if missing:
            raise SimbalanceError(f"--resume {self.dir}: the games of chunk {missing[0]} are missing from {folder}")

    def remove(self) -> None:
        """Delete the checkpoint files; shards written beside them stay for the caller to move."""
        for name in (CHECKPOINT, f".{CHECKPOINT}.tmp", RECORDS, *LEGACY):
            (self.dir / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.dir.rmdir()  # only when nothing else is left


def read_state(state_dir: Path) -> dict:
    path = Path(state_dir) / CHECKPOINT
    try:
        with np.load(path, allow_pickle=False) as z:
            return json.loads(z["state"].tobytes().decode())
    except FileNotFoundError:
        if (Path(state_dir) / LEGACY[0]).exists():
            raise SimbalanceError(f"--resume {state_dir}: the checkpoint was written by an older simbalance "
                                  "(state.json); run it again from the start") from None
        raise SimbalanceError(f"--resume {state_dir}: no checkpoint there ({CHECKPOINT} is missing)") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise SimbalanceError(f"--resume {state_dir}: the checkpoint cannot be read ({exc}); "
                              "delete the folder and run again from the start") from None


def write_shard(folder: Path, index: int, part: np.ndarray, players: int,
                strategy_names: tuple[str, ...] | None = None) -> None:
    """One chunk's games as a Parquet file, written under a temporary name and renamed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simbalance.core.records import records_to_frame

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"part-{index:06d}.parquet"
    tmp = folder / f".part-{index:06d}.parquet.tmp"
    _fault("before shard")
    with open(tmp, "wb") as fh:
        frame = records_to_frame(part, players, strategy_names)
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), fh, compression="zstd")
        fh.flush()
        os.fsync(fh.fileno())
    _fault("before rename shard")
    os.replace(tmp, path)
    _fault("after rename shard")


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
        on_games=games_done_in_chunk if progress is not None else None)
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
            write_shard(Path(options.state_dir) / "games", index, part, plan.players, plan.lineup.slot_names)
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
