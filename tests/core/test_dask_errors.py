"""A Dask worker lost mid-run is one line (exit 2), not a traceback; a chunk's own error is raised as
on threads (core/runner.dask_lost). CI's dask-vs-threads case once ended with no folder and exit 1:
an exception of Dask's own that nothing turned into a line."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simbalance.core.errors import SimbalanceError
from simbalance.core.runner import dask_lost


def test_dask_s_own_errors_become_one_line_and_a_game_s_error_stays_itself():
    pytest.importorskip("distributed")
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    for exc in (KilledWorker("chunk-3", SimpleNamespace(address="tcp://127.0.0.1:1"), 3), CommClosedError("in <TCP...>: Stream is closed")):
        lost = dask_lost(exc, "the local Dask cluster")
        assert isinstance(lost, SimbalanceError)
        line = str(lost)
        assert len(line.splitlines()) == 1 and line.startswith("the local Dask cluster: Dask lost the work (")
        assert type(exc).__name__ in line and "run the command again" in line
    mine = ValueError("my game gave up")
    assert dask_lost(mine, "x") is mine
