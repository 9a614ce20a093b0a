"""Fault points: the places where the tests kill a run to check that a kill at any instant loses
nothing finished (tests/core/test_checkpoint_faults.py; docs/operations.md).

Every write of a checkpoint, a shard and the run folder calls ``fault(step)`` before and after it.
It does nothing unless the environment names a step: ``SIMBALANCE_KILL_AT=step`` (or ``step#k``,
the k-th time the step is reached) makes the process SIGKILL itself there: a real kill, with no
cleanup, ``finally`` or ``except`` running after it.
"""

from __future__ import annotations

import os
import signal

_KILL_AT = os.environ.get("SIMBALANCE_KILL_AT")
_reached: dict[str, int] = {}


def fault(step: str) -> None:
    if _KILL_AT is None:
        return
    name, _, times = _KILL_AT.partition("#")
    if step == name:
        _reached[step] = _reached.get(step, 0) + 1
        if _reached[step] == int(times or 1):
            os.kill(os.getpid(), signal.SIGKILL)
