"""Replays: play one game of a run again with the engine's own code and an event log."""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np


def trace_with_log(play: Callable[[np.ndarray, np.ndarray, np.ndarray], None], record_dtype: np.dtype,
                   columns: int, rows: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """Run ``play(record, log, log_n)`` (an engine's jitted ``trace_game`` with its other arguments
    bound) and return the one-game record array and the logged rows. ``log_n`` counts every event,
    also those that did not fit: then the game is played once more with a log of the right size."""
    out = np.zeros(1, record_dtype)
    # Games write `out[i].field`; as plain Python (NUMBA_DISABLE_JIT=1) that needs a recarray view.
    target = out.view(np.recarray) if numba.config.DISABLE_JIT else out
    log = np.zeros((rows, columns), np.int64)
    log_n = np.zeros(1, np.int64)
    for _ in range(2):
        play(target, log, log_n)
        if log_n[0] <= len(log):
            break
        log = np.zeros((int(log_n[0]), columns), np.int64)
    return out, log[: int(log_n[0])]
