"""Carry out a planned run: keep or stream the records, checkpoint, resume, stop at a precision.

Chunks arrive in game-index order (see runner.py); each is merged into the run's ``RunAggregate``
and, when the run keeps its games, copied into one records array. A streaming run keeps only the
aggregate and a sample of its first games (for the engine's own statistics and figures), so its
memory stays flat at any n.

A checkpoint is the state of a finished prefix of chunks: ``state.json``, the merged aggregate, the
sample and, for runs that keep their games, the records so far. It is written (each file under a
temporary name, then renamed) once a run has taken longer than a few seconds, and whenever the run
is stopped; a resumed run replays nothing it has and merges in the same order, so it ends with
exactly the result of an uninterrupted run.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simbalance.analysis.aggregate import RunAggregate, wilson
from simbalance.core.errors import RunInterrupted, SimbalanceError
from simbalance.core.records import END_INVALID
from simbalance.core.runner import ProgressFn, chunk_bounds, chunk_size_for, play_chunks

if TYPE_CHECKING:
    from simbalance.api import RunPlan

SAMPLE_GAMES = 200_000  # a streaming run keeps this many first games for engine statistics
CHECKPOINT_AFTER_S = 5.0
STATE = "state.json"


@dataclass
class RunOptions:
    keep_games: bool = True  # False: stream (aggregate + sample only)
    backend: str = "local"
    scheduler: str | None = None
    precision: float | None = None  # stop once every win-rate CI half-width is below this
    state_dir: Path | None = None  # where checkpoints go (None: no checkpoints)
    resume: bool = False  # continue from the checkpoint in state_dir
    args: dict = field(default_factory=dict)  # how the run was asked for: stored in the checkpoint
    stop: object = None  # callable () -> bool, asked between chunks (Ctrl-C, SIGTERM)
    shards: bool = False  # streaming runs: write each chunk's games to state_dir/games/ as it finishes


class EngineInvariantError(RuntimeError):
    """A validated run found a game that broke an engine invariant: a bug, not a user error."""


@dataclass
class Outcome:
    records: np.ndarray | None
    aggregate: RunAggregate
    sample: np.ndarray
    n_played: int
    elapsed: float


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _save_npz(path: Path, **arrays) -> None:
    tmp = path.with_name(f".{path.name}.tmp.npz")
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


class Checkpoint:
    def __init__(self, state_dir: Path, plan: RunPlan, options: RunOptions, chunk: int):
        self.dir = Path(state_dir)
        self.plan, self.options, self.chunk = plan, options, chunk
        self.saved_games = 0

    def save(self, chunks_done: int, games_done: int, agg: RunAggregate, records: np.ndarray | None,
             sample: np.ndarray) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        if records is not None:
            # Append what is new; a resumed run truncates to the games state.json vouches for.
            with open(self.dir / "records.bin", "ab") as fh:
                fh.truncate(self.saved_games * records.dtype.itemsize)
                fh.seek(0, os.SEEK_END)
                fh.write(records[self.saved_games:games_done].tobytes())
        _save_npz(self.dir / "aggregate.npz", seat_wins=agg.seat_wins, slot_wins=agg.slot_wins,
                  slot_seat_games=agg.slot_seat_games, outcomes=agg.outcomes, length_hist=agg.length_hist,
                  undecided_hist=agg.undecided_hist, slot_decided_games=agg.slot_decided_games,
                  n=np.array(agg.n))
        _save_npz(self.dir / "sample.npz", sample=sample[: min(len(sample), games_done)])
        state = {"args": self.options.args, "game": self.plan.spec.id, "n": self.plan.n, "seed": self.plan.seed,
                 "chunk_size": self.chunk, "chunks_done": chunks_done, "games_done": games_done,
                 "keep_games": self.options.keep_games, "config": self.plan.config,
                 "engine_version": self.plan.engine.ENGINE_VERSION}
        _atomic_write(self.dir / STATE, (json.dumps(state, indent=2, default=str) + "\n").encode())
        self.saved_games = games_done

    def load(self, records: np.ndarray | None, sample: np.ndarray, players: int, n_slots: int):
        state = read_state(self.dir)
        if state["config"] != json.loads(json.dumps(self.plan.config, default=str)) or state["seed"] != self.plan.seed:
            raise SimbalanceError(f"--resume {self.dir}: the config or seed differs from the interrupted run")
        if state["chunk_size"] != self.chunk or state["keep_games"] != self.options.keep_games:
            raise SimbalanceError(f"--resume {self.dir}: the run was checkpointed with other chunking or storage")
        games = state["games_done"]
        if records is not None:
            raw = (self.dir / "records.bin").read_bytes()[: games * records.dtype.itemsize]
            records[:games] = np.frombuffer(raw, dtype=records.dtype)
        with np.load(self.dir / "aggregate.npz") as z:
            agg = RunAggregate(players, n_slots, int(z["n"]), z["seat_wins"], z["slot_wins"], z["slot_seat_games"],
                               z["outcomes"], z["length_hist"], z["undecided_hist"], z["slot_decided_games"])
        with np.load(self.dir / "sample.npz") as z:
            part = z["sample"]
            sample[: len(part)] = part
        self.saved_games = games
        return state["chunks_done"], games, agg

    def remove(self) -> None:
        """Delete the checkpoint files; shards written beside them stay for the caller to move."""
        for name in (STATE, "records.bin", "aggregate.npz", "sample.npz"):
            (self.dir / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.dir.rmdir()  # only when nothing else is left


def read_state(state_dir: Path) -> dict:
    path = Path(state_dir) / STATE
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise SimbalanceError(f"--resume {state_dir}: no checkpoint there ({STATE} is missing)") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise SimbalanceError(f"--resume {state_dir}: the checkpoint cannot be read ({exc})") from None


def write_shard(folder: Path, index: int, part: np.ndarray, players: int) -> None:
    """One chunk's games as a Parquet file, written under a temporary name and renamed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simbalance.core.records import records_to_frame

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"part-{index:06d}.parquet"
    tmp = folder / f".part-{index:06d}.parquet.tmp"
    pq.write_table(pa.Table.from_pandas(records_to_frame(part, players), preserve_index=False), tmp,
                   compression="zstd")
    os.replace(tmp, path)


def precision_reached(agg: RunAggregate, target: float) -> bool:
    lo, hi = wilson(agg.seat_wins, agg.n)
    widths = list((hi - lo) / 2)
    played = agg.slot_seat_games > 0
    if played.sum() > 1:
        slo, shi = wilson(agg.slot_wins[played], agg.slot_seat_games[played])
        widths += list((shi - slo) / 2)
    return bool(max(widths) < target)


def execute(plan: RunPlan, options: RunOptions, progress: ProgressFn | None = None) -> Outcome:
    engine, lineup = plan.engine, plan.lineup
    chunk = chunk_size_for(engine, plan.chunk_size)
    chunks = chunk_bounds(plan.n, chunk)
    n_slots = len(lineup.slot_names)
    records = np.zeros(plan.n, dtype=engine.RECORD_DTYPE) if options.keep_games else None
    # Kept runs sample their own first games (a view); streamed runs copy them as they pass.
    sample = (records[: min(plan.n, SAMPLE_GAMES)] if records is not None
              else np.zeros(min(plan.n, SAMPLE_GAMES), dtype=engine.RECORD_DTYPE))
    agg = RunAggregate(plan.players, n_slots)
    checkpoint = Checkpoint(options.state_dir, plan, options, chunk) if options.state_dir else None
    first_chunk, done = 0, 0
    if options.resume:
        if checkpoint is None:
            raise SimbalanceError("resume needs the checkpoint folder")
        first_chunk, done, agg = checkpoint.load(records, sample, plan.players, n_slots)
    start = time.perf_counter()
    stop = options.stop if callable(options.stop) else None
    index = first_chunk
    stopped_early = False
    for part in play_chunks(engine, lineup, plan.prepared, plan.seed, chunks[first_chunk:], threads=plan.threads,
                            backend=options.backend, scheduler=options.scheduler, stop=stop, kernel=plan.kernel,
                            target=records):
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
            write_shard(Path(options.state_dir) / "games", index, part, plan.players)
        done += size
        index += 1
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(done, plan.n, elapsed)
        if options.precision is not None and precision_reached(agg, options.precision):
            stopped_early = True
            break
        if checkpoint is not None and elapsed > CHECKPOINT_AFTER_S:
            checkpoint.save(index, done, agg, records, sample)
    elapsed = time.perf_counter() - start
    if done < plan.n and not stopped_early:
        if checkpoint is not None:
            checkpoint.save(index, done, agg, records, sample)
        raise RunInterrupted(done, plan.n, checkpoint.dir if checkpoint else None)
    if checkpoint is not None:
        checkpoint.remove()
    if records is not None and done < plan.n:
        records = records[:done]
    return Outcome(records, agg, sample[: min(done, len(sample))], done, elapsed)
