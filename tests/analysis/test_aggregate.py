"""Mergeable statistics: chunks merged in any order give the in-memory numbers exactly."""

import numpy as np
import pandas as pd

import simbalance
from simbalance.analysis.aggregate import RunAggregate


def test_percentiles_from_the_histogram_match_numpy():
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 1000):
        lengths = rng.integers(0, 50, n)
        agg = RunAggregate(2, 1).add(np.ones(n, np.uint8), np.zeros((n, 2), np.int64), np.zeros(n), lengths)
        for q in (0, 5, 25, 50, 75, 95, 100):
            assert agg.percentile(q) == np.percentile(lengths, q)


def test_merged_chunks_equal_the_whole_run():
    res = simbalance.simulate("find-dr-evil", 30_000, seed=4, players=3)
    whole = res.aggregate.summary(("random",), "picks")
    parts = [RunAggregate.from_records(res.records[a:b], 3, 1) for a, b in ((20_000, 30_000), (0, 7), (7, 20_000))]
    merged = parts[0].merge(parts[1]).merge(parts[2]).summary(("random",), "picks")
    pd.testing.assert_frame_equal(pd.DataFrame(whole["seats"]), pd.DataFrame(merged["seats"]))
    assert whole["length"] == merged["length"] and whole["outcomes"] == merged["outcomes"]
    lengths = res.games["length"].to_numpy()
    assert whole["length"]["p25"] == np.percentile(lengths, 25)
    assert abs(whole["length"]["sd"] - lengths.std(ddof=1)) < 1e-9


def test_equal_seats_chi_square_matches_scipy_stats():
    from scipy import stats

    for players, seed in ((2, 1), (4, 2), (6, 3)):
        res = simbalance.simulate("find-dr-evil", 3_000, seed=seed, players=players)
        chi = res.summary()["equal_seats_chi_square"]
        wins = res.aggregate.seat_table()["wins"].to_numpy()
        expected = stats.chisquare(wins)
        assert abs(chi["statistic"] - expected.statistic) < 1e-9
        assert abs(chi["p_value"] - expected.pvalue) < 1e-12 + 1e-9 * expected.pvalue
        assert chi["dof"] == players - 1
