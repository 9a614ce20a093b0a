"""Run N games: chunks, threads, progress, one record per game.

The runner knows nothing about any game. It hands each chunk of game indices to the engine's
``parallel=True`` kernel and copies the records into one array. Chunking only bounds the time
between progress updates: game ``g`` is the same game whatever the chunk size or thread count,
because its randomness is keyed by ``(seed, g)``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from types import ModuleType

import numba
import numpy as np

from simbalance.core.errors import SimbalanceError
from simbalance.core.lineup import Lineup

DEFAULT_CHUNK = 1 << 16
SHOW_BAR_OVER_S = 1.0  # a bar only for runs projected to take longer than this

ProgressFn = Callable[[int, int, float], None]  # (games done, total, elapsed seconds)


def max_threads() -> int:
    return int(numba.config.NUMBA_NUM_THREADS)


def check_threads(threads: int | None) -> int:
    limit = max_threads()
    if threads is None:
        return limit
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise SimbalanceError(f"threads = {threads!r}: allowed 1 to {limit} on this machine")
    return threads


def run_games(
    engine: ModuleType,
    lineup: Lineup,
    prepared: tuple,
    n: int,
    seed: int,
    *,
    first_game: int = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: ProgressFn | None = None,
) -> np.ndarray:
    """Play games ``first_game .. first_game + n - 1`` and return their records."""
    threads = check_threads(threads)
    chunk = int(chunk_size or getattr(engine, "CHUNK_SIZE", DEFAULT_CHUNK))
    if chunk < 1:
        raise SimbalanceError(f"chunk_size = {chunk_size!r}: must be at least 1")
    out = np.zeros(n, dtype=engine.RECORD_DTYPE)
    # Kernels write `out[i].field`; as plain Python (NUMBA_DISABLE_JIT=1) that needs a recarray view.
    target = out.view(np.recarray) if numba.config.DISABLE_JIT else out
    seed64 = np.uint64(seed)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    # As plain Python, numpy warns on the uint64 wrap-around the generator relies on.
    quiet_overflow = np.errstate(over="ignore") if numba.config.DISABLE_JIT else contextlib.nullcontext()
    try:
        with quiet_overflow:
            start = time.perf_counter()
            done = 0
            while done < n:
                size = min(chunk, n - done)
                engine.kernel(
                    target[done : done + size],
                    np.int64(first_game + done),
                    seed64,
                    lineup.seats,
                    lineup.slot_strategy,
                    lineup.slot_params,
                    *prepared,
                )
                done += size
                if progress is not None:
                    progress(done, n, time.perf_counter() - start)
    finally:
        numba.set_num_threads(previous)
    return out


class RichProgress:
    """A rich progress bar with games/s and ETA that appears only for runs longer than a moment."""

    def __init__(self, label: str):
        self.label = label
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        if self._bar is None:
            projected = elapsed * total / max(done, 1)
            if done >= total or projected < SHOW_BAR_OVER_S:
                return
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed:,}/{task.total:,} games"),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total, rate="")
        rate = done / elapsed if elapsed > 0 else 0.0
        self._bar.update(self._task, completed=done, rate=f"{rate:,.0f} games/s")
        if done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
