"""The replay's event log, written by the engines' jitted games.

A log is an int64 array of one row per event: ``(kind, a, b, c)`` or, for games that need more,
``(kind, a, b, c, d, e)``. The kernels pass ``log=None`` and numba compiles every logging call
away; ``core.replay.trace_with_log`` passes a log and plays the game again when it was too small.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def log_event(log, log_n, kind, a, b, c, d=0, e=0):
    """Append one event, as many of its values as the log has columns (4 or 6). ``log_n[0]`` counts
    every event, also those that did not fit, so the caller can size the log and play again."""
    k = log_n[0]
    if k < log.shape[0]:
        log[k, 0] = kind
        log[k, 1] = a
        log[k, 2] = b
        log[k, 3] = c
        if log.shape[1] > 4:
            log[k, 4] = d
            log[k, 5] = e
    log_n[0] = k + 1
