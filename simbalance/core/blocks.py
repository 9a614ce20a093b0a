"""Play a study's block jobs: card-value's states, fit-eval's games, on threads or on Dask.

The other half of the one executor (core/execution.py plays a run's chunks; this plays everything
else that is cut in blocks). A **block job** is a callable ``job(lo, hi)`` that does items
``lo .. hi - 1`` (states valued, games recorded) and returns their results as a dict of numpy
arrays. It must be pure: item ``k`` draws its randomness from ``(seed, k)`` and depends on nothing
but the job's inputs, so a block's results are the same whichever thread, process or machine plays
it, and whatever the block size around it. ``execute_blocks`` then gives the same results for the
same seed on any thread count and on either backend.

What every block job gets here, as a chunked run gets it from core/execution.py:

- **threads**: the first block is played alone (it compiles or loads the kernel), the rest on the
  process's kernel pool (runner._thread_pool), a few blocks queued ahead of the one waited for;
- **Dask** (``backend="dask"``): the job is pickled once to every worker (it must be picklable: a
  module-level function or a dataclass whose state is arrays and names; it imports what it needs
  there) and its blocks are submitted a window at a time; ``timeout`` as a run's (--dask-timeout);
- **progress**: ``progress(items done, total, seconds)`` after each block, in block order;
- **Ctrl-C**: ``stop()`` is asked before each block is queued (and while a Dask block is waited
  for); a stopped job finishes the blocks in play, saves its checkpoint and raises RunInterrupted;
- **checkpoints** (``checkpoint=BlockCheckpoint(...)``): the results of the finished prefix of
  blocks, appended in parts each committed by a rename, saved every few seconds and when stopped; a
  job started again with the same checkpoint plays only the blocks after it, so it ends with exactly
  the results of an uninterrupted one. The checkpoint is removed once every block is done.

Results come back in block order: ``execute_blocks`` returns each key's arrays concatenated over
the blocks (the block's first axis is its items, or anything the job returns per block).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import time
import zipfile
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simbalance.core import plugin_guard
from simbalance.core.errors import RunInterrupted, SimbalanceError, ctrl_c_kept
from simbalance.core.runner import BACKENDS, DASK_TIMEOUT_S, ProgressFn

BlockJob = Callable[[int, int], dict[str, np.ndarray]]  # (lo, hi) -> the block's results by key
CHECKPOINT_AFTER_S = 5.0  # as a run's: the first save once the job has taken this long, then as often
AHEAD = 2  # blocks queued per thread (or per Dask worker) beyond those in play


def cache_root() -> Path:
    """simbalance's own cache: ``$SIMBALANCE_CACHE_DIR``, else ``$XDG_CACHE_HOME/simbalance``, else
    ``~/.cache/simbalance`` (refits of the fitted evaluation in ``eval/``, the command line's block
    checkpoints in ``blocks/``)."""
    root = os.environ.get("SIMBALANCE_CACHE_DIR")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "simbalance"


def block_spans(total: int, block: int) -> list[tuple[int, int]]:
    """The blocks ``(lo, hi)`` of a job of ``total`` items, ``block`` each (the last what is left)."""
    if block < 1:
        raise SimbalanceError(f"block = {block!r}: must be at least 1")
    return [(lo, min(total, lo + block)) for lo in range(0, total, block)]


def concatenate(parts: list[dict[str, np.ndarray]], empty: dict[str, np.ndarray] | None = None) -> dict:
    """Each key's arrays over ``parts`` (blocks in order), or ``empty`` when there is none."""
    if not parts:
        return dict(empty or {})
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


class BlockCheckpoint:
    """The finished prefix of a block job's blocks (module doc), append-only: each save writes the
    blocks finished since the last one as ``part-<first block>.npz`` in the job's own folder under
    ``root`` (``<name>-<digest of key>``: the same job asked again finds it), written under a
    temporary name and renamed, so a kill at any instant leaves whole parts only, and the writes
    over a job are its results once (never the whole prefix again). ``key``: what the job is (study,
    seed, inputs, block size), stored in every part: a part of another job is refused in one line,
    never mixed in."""

    def __init__(self, root: Path, name: str, key: dict):
        self.key = json.loads(json.dumps({**key, "name": name}, sort_keys=True, default=str))
        self.digest = hashlib.sha256(json.dumps(self.key, sort_keys=True).encode()).hexdigest()[:16]
        self.folder = Path(root) / f"{name}-{self.digest}"
        self.saved = 0  # blocks on disk

    def _parts(self) -> list[Path]:
        return sorted(self.folder.glob("part-*.npz")) if self.folder.is_dir() else []

    def load(self) -> list[dict[str, np.ndarray]]:
        """The blocks saved, in order (none when nothing is saved yet)."""
        parts: list[dict[str, np.ndarray]] = []
        for path in self._parts():
            broken = f"{path}: a block checkpoint that cannot be read"
            try:
                with np.load(path, allow_pickle=False) as z:
                    state = json.loads(z["state"].tobytes().decode())
                    if state.get("digest") != self.digest:
                        raise SimbalanceError(f"{path}: a checkpoint of another job (other seed, inputs or block "
                                              "size); remove it to start again")
                    if state["first"] != len(parts):
                        raise SimbalanceError(f"{broken} (it starts at block {state['first']}, the blocks before "
                                              f"end at {len(parts)}); remove {self.folder} to start again")
                    pieces = {key: np.split(z[f"data:{key}"], np.cumsum(z[f"sizes:{key}"])[:-1])
                              for key in state["keys"]}
            except SimbalanceError:
                raise
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
                raise SimbalanceError(f"{broken} ({exc}); remove {self.folder} to start again") from None
            parts += [{key: pieces[key][b] for key in pieces} for b in range(state["blocks"])]
        self.saved = len(parts)
        return parts

    def save(self, parts: list[dict[str, np.ndarray]]) -> None:
        """Write the blocks of ``parts`` not on disk yet."""
        new = parts[self.saved:]
        if not new:
            return
        keys = list(new[0])
        state = {"digest": self.digest, "key": self.key, "first": self.saved, "blocks": len(new), "keys": keys}
        arrays = {"state": np.frombuffer(json.dumps(state).encode(), np.uint8)}
        for key in keys:
            arrays[f"sizes:{key}"] = np.array([len(part[key]) for part in new], np.int64)
            arrays[f"data:{key}"] = np.concatenate([part[key] for part in new])
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"part-{self.saved:08d}.npz"
        tmp = self.folder / f".{name}.tmp"
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.folder / name)  # the commit
        plugin_guard.keeps_parts(self.folder)  # a plug-in that ends the process abruptly: the guard's line names it
        self.saved = len(parts)

    def remove(self) -> None:
        """Delete the parts this checkpoint wrote (and their temporary files), then the folder if empty."""
        for path in [*self._parts(), *self.folder.glob(".part-*.npz.tmp")] if self.folder.is_dir() else []:
            path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.folder.rmdir()  # only when nothing else is left


class KernelJob:
    """The base of a block job that calls a game's resumable kernels (card-value's, fit-eval's):
    the engine, the lineup and the game's prepared tables, held by name and arrays so that a Dask
    worker gets them pickled and imports the engine there; the engine and its kernel context are
    made once per process, on first use. A subclass's ``__call__(lo, hi)`` plays a block."""

    def __init__(self, engine, lineup, prepared: tuple, seed: int):
        self.module, self.prepared, self.seed = engine.module, prepared, seed
        self.seats = lineup.seats.astype(np.int64)
        self.strategy = lineup.slot_strategy.astype(np.int64)
        self.params = np.ascontiguousarray(lineup.slot_params, dtype=np.float64)
        self._engine, self._ctx = engine, None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_engine": None, "_ctx": None}  # made again where it is unpickled

    def kernel_inputs(self):
        """The engine and its kernel context (every block reads them, none writes them)."""
        if self._engine is None:
            self._engine = importlib.import_module(self.module).ENGINE
        if self._ctx is None:
            self._ctx = self._engine.resumable.context(*self.prepared)
        return self._engine, self._ctx


@dataclass(frozen=True)
class BlockSettings:
    """How a study's block jobs are played: its run settings' threads and backend, the Ctrl-C flag
    (``stop``) and the folder its finished blocks are kept in (``checkpoints``; None: none)."""

    threads: int = 1
    backend: str = "local"
    scheduler: str | None = None
    timeout: float = DASK_TIMEOUT_S
    stop: Callable[[], bool] | None = None
    checkpoints: Path | None = None
    # the checkpoints of the study's jobs, kept until the whole study is done (finish()): a Ctrl-C in
    # a later job of the study loses none of an earlier one's blocks
    kept: list = field(default_factory=list, compare=False)

    @classmethod
    def of(cls, plan, stop: Callable[[], bool] | None = None, checkpoints: str | Path | None = None) -> BlockSettings:
        """The block settings of a study planned as ``plan`` (core/plan.RunPlan)."""
        return cls(plan.threads, plan.backend, plan.scheduler, plan.dask_timeout, stop,
                   Path(checkpoints) if checkpoints is not None else None)

    def play(self, job: BlockJob, total: int, block: int, progress, label: str, unit: str,
             name: str | None = None, key: dict | None = None) -> dict[str, np.ndarray]:
        """``job`` over ``total`` items in blocks of ``block``, shown as ``label`` by the progress
        factory ``progress``; with ``checkpoints``, its finished blocks are kept in a folder
        there named by ``name`` and a digest of ``key`` (what the job is: BlockCheckpoint)."""
        shown = progress(label) if progress is not None else None
        checkpoint = (BlockCheckpoint(self.checkpoints, name or "blocks", {**(key or {}), "block": block,
                                                                            "total": total})
                      if self.checkpoints is not None else None)
        if checkpoint is not None:
            self.kept.append(checkpoint)
        try:
            return execute_blocks(job, total, block, threads=self.threads, backend=self.backend,
                                  scheduler=self.scheduler, timeout=self.timeout, progress=shown, stop=self.stop,
                                  checkpoint=checkpoint, unit=unit, keep_checkpoint=True)
        finally:
            if shown is not None and hasattr(shown, "close"):
                shown.close()

    def finish(self) -> None:
        """The study is done: remove its jobs' checkpoints."""
        for checkpoint in self.kept:
            checkpoint.remove()
        self.kept.clear()


def check_not_stopped(stop: Callable[[], bool] | None, total: int, unit: str, checkpoints: Path | None) -> None:
    """A study's last word before it returns its result: a Ctrl-C that came as its last block
    finished (no block was left to stop before) is not ignored (issue 54: card-value once wrote its
    full report and exited 0). It raises RunInterrupted (the command writes nothing), and the blocks saved
    along the way stay for the same command again (call it before BlockSettings.finish)."""
    if stop is not None and stop():
        where = f" in {checkpoints}" if checkpoints is not None else ""
        raise RunInterrupted(total, total, unit=unit,
                             resume="every part was played (a result now would hide the Ctrl-C); the blocks "
                                    f"saved along the way are kept{where}: the same command again plays only the "
                                    "rest")


@dataclass
class _Shown:
    """The progress of a job: items done, shown after each block in order."""

    total: int
    progress: ProgressFn | None
    begin: float
    done: int = 0

    def block(self, lo: int, hi: int) -> None:
        self.done += hi - lo
        if self.progress is not None:
            self.progress(self.done, self.total, time.perf_counter() - self.begin)


@ctrl_c_kept()  # a Ctrl-C while a compiled job returns is a KeyboardInterrupt, never a SystemError
def execute_blocks(job: BlockJob, total: int, block: int, *, threads: int = 1, backend: str = "local",
                   scheduler: str | None = None, timeout: float = DASK_TIMEOUT_S, progress: ProgressFn | None = None,
                   stop: Callable[[], bool] | None = None, checkpoint: BlockCheckpoint | None = None,
                   unit: str = "items", empty: dict[str, np.ndarray] | None = None,
                   keep_checkpoint: bool = False) -> dict[str, np.ndarray]:
    """Play ``job`` over ``total`` items in blocks of ``block`` (module doc) and return each key's
    results concatenated in block order (``empty`` when there is no item). Stopped by ``stop``: the
    blocks in play are finished, the checkpoint saved, and RunInterrupted says how many ``unit`` were done.
    The checkpoint is removed once every block is done, or, with ``keep_checkpoint``, saved whole
    for the caller to remove when its own result is in place (BlockSettings.finish); a job that
    finished before its first save (shorter than CHECKPOINT_AFTER_S) writes none."""
    if backend not in BACKENDS:
        raise SimbalanceError(f"backend = {backend!r}: allowed {', '.join(BACKENDS)}")
    spans = block_spans(total, block)
    parts = checkpoint.load() if checkpoint is not None else []
    if len(parts) > len(spans):
        raise SimbalanceError(f"{checkpoint.folder}: the checkpoint holds more blocks than the job has")
    shown = _Shown(total, progress, time.perf_counter(), spans[len(parts) - 1][1] if parts else 0)
    todo = spans[len(parts):]
    saved_at = time.perf_counter()
    play = _play_dask(job, todo, scheduler, timeout, stop) if backend == "dask" else _play_local(job, todo, threads,
                                                                                                   stop)
    try:
        for (lo, hi), result in zip(todo, play, strict=False):
            parts.append(result)
            shown.block(lo, hi)
            if checkpoint is not None and time.perf_counter() - saved_at > CHECKPOINT_AFTER_S:
                checkpoint.save(parts)
                saved_at = time.perf_counter()
    finally:
        with contextlib.suppress(Exception):
            play.close()  # a generator stopped early: its queued blocks are dropped, those in play finished
    if len(parts) < len(spans):
        if checkpoint is not None:
            checkpoint.save(parts)
        raise RunInterrupted(shown.done, total, unit=unit,
                             resume=f"the finished blocks are kept in {checkpoint.folder}: the same command "
                                                "again plays only the rest" if checkpoint else None)
    if checkpoint is not None and keep_checkpoint:
        if checkpoint.saved:  # (a job that never lasted CHECKPOINT_AFTER_S is not worth a write)
            checkpoint.save(parts)
    elif checkpoint is not None:
        checkpoint.remove()
    return concatenate(parts, empty)


def _play_local(job: BlockJob, spans: list[tuple[int, int]], threads: int, stop):
    """The blocks' results in order: the first alone (it compiles the kernel), the rest on the
    kernel pool with ``AHEAD`` blocks per thread queued beyond those in play."""
    from simbalance.core.runner import _abandon, _thread_pool

    todo = iter(spans)
    if threads <= 1:
        for lo, hi in todo:
            if stop is not None and stop():
                return
            yield job(lo, hi)
        return
    first = next(todo, None)
    if first is None or (stop is not None and stop()):
        return
    yield job(*first)
    pool = _thread_pool(threads)
    queued: deque = deque()
    more = True
    try:
        while True:
            while more and len(queued) < threads * (1 + AHEAD):
                nxt = None if stop is not None and stop() else next(todo, None)
                if nxt is None:
                    more = False
                else:
                    queued.append(pool.submit(job, *nxt))
            if not queued:
                return
            yield queued.popleft().result()
    finally:
        _abandon({future: 0 for future in queued})


def _play_dask(job: BlockJob, spans: list[tuple[int, int]], scheduler: str | None, timeout: float, stop):
    """The blocks' results in order, played on Dask workers (the job sent to each worker once)."""
    from simbalance.core.runner import _dask_client, _wait_for, dask_lost, dask_place

    if not spans:
        return
    client, cluster = _dask_client(scheduler, timeout)
    try:
        try:
            [shared] = client.scatter([job], broadcast=True, hash=False)
            workers = max(1, len(client.scheduler_info().get("workers", {})))
        except Exception as exc:  # a worker lost before any block: one line
            raise dask_lost(exc, dask_place(scheduler)) from None
        pending: deque = deque()
        todo = iter(spans)

        def submit() -> None:
            nxt = next(todo, None)
            if nxt is not None and not (stop is not None and stop()):
                pending.append(client.submit(_call, shared, *nxt, pure=False))

        for _ in range(workers * (1 + AHEAD)):
            submit()
        while pending:
            result = _wait_for(pending.popleft(), scheduler, timeout, stop)
            if result is None:
                return
            yield result
            submit()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _call(job: BlockJob, lo: int, hi: int) -> dict[str, np.ndarray]:
    """What a Dask worker runs: one block of the job."""
    return job(lo, hi)
