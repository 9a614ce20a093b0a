"""Which tier a test's cases run in (docs/architecture.md, "Tests").

``make test`` keeps one case of each behaviour; a behaviour's further cases that cost seconds each
(a watchdog's wait, a probe's time-out, a subprocess per case, another seed of the same planted
answer) run in the exhaustive tier, which CI runs on every change (``make test-all``). Nothing is
dropped: the same cases, another tier.
"""

from __future__ import annotations

import pytest

exhaustive = pytest.mark.exhaustive


def everyday_first(cases, keep: int = 1) -> list:
    """``cases`` for ``pytest.mark.parametrize``: the first ``keep`` in ``make test``, the others in
    the exhaustive tier. A case that is a tuple stands for several arguments (as parametrize takes it)."""
    marked = []
    for i, case in enumerate(cases):
        if i < keep:
            marked.append(case)
        elif isinstance(case, tuple):
            marked.append(pytest.param(*case, marks=exhaustive))
        else:
            marked.append(pytest.param(case, marks=exhaustive))
    return marked
