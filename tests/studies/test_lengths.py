"""The lengths study (studies/lengths.py): its quantiles and counts on planted lengths whose answer
is known, and the same lengths as the run's own records for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from simbalance.api import lengths, simulate
from simbalance.studies.lengths import LengthsResult


def test_planted_lengths_give_their_quantiles_and_counts():
    res = LengthsResult("planted", 2, 10, 0, np.array([5, 1, 2, 2, 3, 3, 3, 4, 9, 2]))
    q = dict(zip(res.quantiles()["quantile"], res.quantiles()["length"], strict=True))
    assert q == {"0%": 1, "10%": 1, "25%": 2, "50%": 3, "75%": 4, "90%": 5, "100%": 9}
    counts = res.counts()
    assert counts["length"].tolist() == [1, 2, 3, 4, 5, 9]
    assert counts["games"].tolist() == [1, 3, 3, 1, 1, 1]
    assert counts["share"].sum() == pytest.approx(1.0)
    assert res.numbers()["mean"] == pytest.approx(3.4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lengths_are_the_run_s_own_for_the_same_seed(seed):
    res = lengths("find-dr-evil", 500, seed=seed, threads=1)
    run = simulate("find-dr-evil", 500, seed=seed, threads=1)
    assert np.array_equal(res.lengths, run.games["length"].to_numpy())
    assert res.counts()["games"].sum() == 500
