"""Mergeable statistics: chunks merged in any order give the in-memory numbers exactly."""

import numpy as np
import pandas as pd
import pytest

import simbalance
from simbalance.core.aggregate import RunAggregate


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


def planted(players: int, rows: list[tuple[int, int]]) -> RunAggregate:
    """Games from (winners mask, end code) pairs: end 0 a win, 1 a timeout."""
    winners = np.array([w for w, _ in rows], np.uint8)
    end = np.array([e for _, e in rows])
    n = len(rows)
    return RunAggregate(players, 1).add(winners, np.zeros((n, players), np.int64), end, np.full(n, 10))


def test_first_player_advantage_and_balance_are_over_decided_games():
    """Issue 17: seat 0 wins 40 % of the games that end, but 60 % of the games time out; over all
    games its 16 % looked below the fair 25 % (a negative advantage for the best seat)."""
    rows = [(0b0001, 0)] * 40 + [(0b0010, 0)] * 20 + [(0b0100, 0)] * 20 + [(0b1000, 0)] * 20 + [(0, 1)] * 150
    agg = planted(4, rows)
    summary = agg.summary(("x",))
    fpa = summary["first_player_advantage"]
    assert summary["seats"][0]["win_rate"] == 40 / 250  # over all games: 16 %
    assert summary["seats"][0]["win_rate_decided"] == 0.4
    assert fpa["value"] == pytest.approx(0.4 - 0.25) and fpa["over"] == "decided games"
    assert fpa["ci_low"] > 0  # a real advantage, not a bookkeeping one
    assert summary["balance"] == pytest.approx(1 - (0.4 - 0.2))
    # the same decided games without the timeouts: the same advantage and balance
    no_timeouts = planted(4, rows[:100]).summary(("x",))
    assert no_timeouts["first_player_advantage"]["value"] == pytest.approx(fpa["value"])
    assert no_timeouts["balance"] == pytest.approx(summary["balance"])


def test_ties_share_the_win_in_every_rate():
    # a 2-way tie of seats 0 and 1, and seat 1 alone: seat 0 holds 0.5 of 2 decided games
    agg = planted(2, [(0b11, 0), (0b10, 0), (0, 1)])
    s = agg.summary(("x",))
    assert s["seats"][0]["win_rate_decided"] == 0.25 and s["seats"][1]["win_rate_decided"] == 0.75
    assert s["first_player_advantage"]["value"] == pytest.approx(0.25 - 0.5)
    assert s["balance"] == pytest.approx(0.5)
    assert s["outcomes"]["ties"] == pytest.approx(1 / 3)


def test_no_decided_game_gives_no_advantage_rather_than_a_number():
    s = planted(3, [(0, 1)] * 5).summary(("x",))
    assert s["first_player_advantage"]["value"] is None and s["balance"] is None


def test_whole_game_metrics_merge_alike_whatever_the_chunking():
    """The whole-game metrics' sums and the stalemates by reason are integers: any chunking, any
    merge order, the in-memory games and a streamed run give the same summary to the last bit."""
    res = simbalance.simulate("find-dr-evil", 30_000, seed=4, players=3)
    whole = res.aggregate
    for cuts in (((0, 30_000),), ((20_000, 30_000), (0, 7), (7, 20_000)), tuple((a, a + 1000) for a in range(0, 30_000, 1000))):
        parts = [RunAggregate.from_records(res.records[a:b], 3, 1) for a, b in cuts]
        merged = parts[0]
        for part in parts[1:]:
            merged = merged.merge(part)
        assert np.array_equal(merged.lead_sums, whole.lead_sums)
        assert np.array_equal(merged.stalemate_reasons, whole.stalemate_reasons)
        assert merged.lead("x") == whole.lead("x")
    from_games = RunAggregate.from_games(res.games, 3, 1)
    assert np.array_equal(from_games.lead_sums, whole.lead_sums)
    streamed = simbalance.api.plan_run("find-dr-evil", 30_000, seed=4, players=3, chunk_size=4096)
    from simbalance.core.execution import RunOptions
    from simbalance.studies.run import SimulationResult

    stream = SimulationResult.from_plan(streamed, options=RunOptions(keep_games=False))
    assert stream.summary()["lead"] == res.summary()["lead"]
    assert stream.summary()["stalemates"] == res.summary()["stalemates"]


def test_whole_game_metrics_in_the_summary_are_the_records_means():
    res = simbalance.simulate("find-dr-evil", 5_000, seed=9, players=4)
    lead, g = res.summary()["lead"], res.games
    assert lead["progress"] == res.plan.engine.progress and lead["games"] == 5_000
    assert lead["lead_changes_mean"] == pytest.approx(g["lead_changes"].mean())
    single = g[(g["end"] == 0) & (g["winner"] >= 0)]
    assert lead["single_winner_games"] == len(single)
    assert lead["comeback_wins"] == pytest.approx((single["comeback"] == 1).mean())
    assert lead["decisiveness"] == pytest.approx((single["led_from"] / single["length"].clip(lower=1)).where(
        single["length"] > 0, 0).mean(), abs=1e-6)
    assert lead["drama"] == pytest.approx((single["winner_deficit"] / single["checkpoints"]).mean(), abs=1e-6)
    r3 = lead["rounds"][2]
    reached = g[g["leader_round_3"] != -2]
    assert r3["games"] == len(reached)
    led = reached[(reached["end"] == 0) & (reached["leader_round_3"] >= 0)]
    assert r3["decided_with_sole_leader"] == len(led)
    assert r3["leader_wins"] == pytest.approx((led["leader_round_3"] == led["winner"]).mean())
    assert res.summary()["stalemates"] == []


def test_stalemates_are_counted_by_reason():
    rows = [(0, 2)] * 3 + [(0, 2)] * 2 + [(1, 0)] * 5
    n = len(rows)
    progress = {name: np.zeros(n, np.int64) for name in (
        "checkpoints", "lead_changes", "leader_set_changes", "led_from", "comeback", "winner_deficit", "margin_sum",
        "final_margin", "leader_round_1", "leader_round_2", "leader_round_3", "margin_round_1", "margin_round_2",
        "margin_round_3")}
    progress["stalemate_reason"] = np.array([2, 2, 2, 5, 5] + [0] * 5)
    agg = RunAggregate(2, 1).add(np.array([w for w, _ in rows], np.uint8), np.zeros((n, 2), np.int64),
                                 np.array([e for _, e in rows]), np.full(n, 10), progress)
    reasons = {2: ("chain", "a chain"), 5: ("loop", "a loop")}
    assert agg.stalemates(reasons) == [
        {"code": 2, "reason": "chain", "description": "a chain", "games": 3, "share": 0.3},
        {"code": 5, "reason": "loop", "description": "a loop", "games": 2, "share": 0.2}]
    assert agg.summary(("x",))["stalemates"][0]["reason"] == "unspecified"  # no names given


def test_contiguous_columns_copies_strided_columns_whole_in_blocks():
    """contiguous_columns (issue 56) copies a frame's strided columns block by block: the same values,
    contiguous, whatever the block size against the number of rows (fewer, equal, more, not a
    multiple); categorical columns are left out unless named."""
    import pandas as pd

    from simbalance.core import aggregate

    rng = np.random.default_rng(5)
    records = np.zeros(10_007, dtype=[("a", "i1"), ("b", "<u8"), ("c", "i2", (3,))])
    records["a"] = rng.integers(-100, 100, len(records))
    records["b"] = rng.integers(0, 2**63, len(records), dtype=np.uint64)
    records["c"] = rng.integers(-3000, 3000, (len(records), 3))
    frame = pd.DataFrame({"a": records["a"], "b": records["b"], "c_1": records["c"][:, 1],
                          "kind": pd.Categorical.from_codes(records["a"] % 2 + 0, ["x", "y"])}, copy=False)
    assert not frame["a"].to_numpy().flags["C_CONTIGUOUS"]  # the planted case: strided views
    for block in (1, 4096, 10_007, 1 << 20):
        aggregate.COLUMN_BLOCK, before = block, aggregate.COLUMN_BLOCK
        try:
            got = aggregate.contiguous_columns(frame)
        finally:
            aggregate.COLUMN_BLOCK = before
        assert list(got) == ["a", "b", "c_1"]
        for name, values in got.items():
            assert values.flags["C_CONTIGUOUS"] and values.dtype == frame[name].dtype
            assert np.array_equal(values, frame[name].to_numpy())
    assert list(aggregate.contiguous_columns(frame.iloc[:0], ["b"])["b"]) == []
