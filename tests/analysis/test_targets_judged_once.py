"""Issue 52 item 3: sweep's --target, check's [bounds] and solve's targets are judged by one function
of the statistics core (stats.judge), so the same balance_min on the same games is met in all three,
or in none. Before, sweep and check read the point estimate: a balance just above balance_min within
noise was "on target" in sweep and in check, and "not settled" in solve."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from claims import check_claims

from simbalance.analysis.check import BOUND_HOLDS, BOUND_OPEN, BOUND_VIOLATED, check_bounds
from simbalance.analysis.findings import thresholds
from simbalance.analysis.solve import default_targets
from simbalance.analysis.stats import (
    ALPHA,
    FAILS,
    JUDGED,
    MEETS,
    OPEN,
    Comparison,
    decide,
    judge,
    judgement,
    recheck,
    words,
)
from simbalance.analysis.sweep import judged, sweep_findings, sweep_table, targets_of
from simbalance.core.aggregate import WIN_UNITS, RunAggregate
from simbalance.core.config import FINDINGS_DEFAULTS

SAME = {MEETS: BOUND_HOLDS, FAILS: BOUND_VIOLATED, OPEN: BOUND_OPEN}


def planted(wins: np.ndarray, length: int = 10) -> RunAggregate:
    """A run of decided games, each won by one seat (``wins`` per seat), all ``length`` long."""
    agg = RunAggregate(len(wins), 1)
    agg.n = int(wins.sum())
    agg.outcomes[0] = agg.n
    agg.seat_win_units = np.asarray(wins, np.int64) * WIN_UNITS
    agg.length_hist = np.zeros(length + 1, np.int64)
    agg.length_hist[length] = agg.n
    return agg


def verdicts(agg: RunAggregate, balance_min: float) -> tuple[str, str, str]:
    """The verdict of sweep, solve and check on one run against one balance_min."""
    cfg = {"targets": {"balance_min": balance_min}}
    sweep = judged(agg, targets_of(cfg))["verdict"]
    solve = judge(agg, default_targets(cfg))["verdict"]
    (check,) = check_bounds(agg, {"balance_min": balance_min})
    return sweep, solve, check.status


@pytest.mark.parametrize("games, expected", [
    (400_000, MEETS),  # balance 0.96 with a narrow interval: comfortably above 0.9
    (400, OPEN),  # the same shares from 400 games: the point estimate is above 0.9, the interval is not
])
def test_one_balance_min_gets_one_verdict_in_sweep_solve_and_check(games, expected):
    agg = planted(np.array([0.27, 0.25, 0.25, 0.23]) * games)
    sweep, solve, check = verdicts(agg, 0.90)
    assert (sweep, solve, check) == (expected, expected, SAME[expected])
    assert verdicts(planted(np.array([0.40, 0.20, 0.20, 0.20]) * 100_000), 0.90) == (FAILS, FAILS, BOUND_VIOLATED)


def test_the_verdicts_agree_on_sampled_runs_near_the_bound():
    rng = np.random.default_rng(52)
    seen = set()
    for _ in range(60):
        shares = [[0.28, 0.24, 0.24, 0.24], [0.31, 0.23, 0.23, 0.23]][int(rng.integers(2))]  # balance 0.96, 0.92
        agg = planted(rng.multinomial(int(rng.integers(200, 20_000)), shares))
        sweep, solve, check = verdicts(agg, 0.95)
        assert sweep == solve and check == SAME[solve]
        seen.add(solve)
    assert seen == {MEETS, OPEN, FAILS}  # the sample reaches every verdict: the agreement is not vacuous


def test_sweep_names_a_point_on_target_by_its_estimate_alone_not_settled():
    """Before: a point whose estimate met the targets within noise was "on target" and no finding
    spoke; now no point is shown to meet them, and the finding says so with the interval."""
    agg = planted(np.array([0.27, 0.25, 0.25, 0.23]) * 400)
    targets = targets_of({"targets": {"balance_min": 0.9}})
    row = {"rules.k": 1, "balance": 0.96, "length_median": 10.0, "shortfall": 0.0} | judged(agg, targets)
    table, judgements = sweep_table([row])
    found = sweep_findings(table, ["rules.k"], {"rules.k": [1]}, thresholds(None), targets,
                           lambda t: "balance at least 90.00%", judgements=judgements)
    assert [f.kind for f in found] == ["no_point_on_target"]
    assert "not settled" in found[0].text and "95% CI" in found[0].text
    # the finding keeps each point's judgement: the core makes its verdict again, and none is "meets"
    (decided,) = found[0].decided_by
    assert decided.rule == JUDGED and decided.verdict == OPEN and recheck(decided)
    check_claims(found[0])


def test_a_judgement_kept_on_a_finding_is_made_again_from_its_inputs_and_a_changed_input_shows():
    """Issue 52 item 4: solve's, sweep's and check's "meets" are kept as the comparison that decides
    them (stats.judgement), like every other finding's; the core's decide reads it again."""
    agg = planted(np.array([0.27, 0.25, 0.25, 0.23]) * 400_000)
    result = judge(agg, default_targets({"targets": {"balance_min": 0.9}}))
    kept = judgement(result, "already meet")
    assert kept.verdict == MEETS == result["verdict"] and recheck(kept) and words(kept) == "already meet"
    tampered = Comparison.from_dict(kept.to_dict())
    tampered.inputs["tests"][0]["p"] = 0.5  # the balance's interval no longer inside the range
    assert not recheck(tampered) and decide(tampered.rule, tampered.inputs) == OPEN
    # looked at 10^6 times, a test just outside its range at 0.05 is no longer refuted: the looks are kept
    out = judge(planted(np.array([0.30, 0.24, 0.24, 0.22]) * 40_000), default_targets({"targets": {"balance_min": 0.95}}))
    assert out["verdict"] == FAILS and recheck(judgement(out))
    many = judgement(out)
    many.inputs["tests"][0]["p_out"] = 0.01  # refuted at 0.05 looked at once, not looked at 100 times
    assert decide(many.rule, many.inputs) == FAILS
    many.inputs["looks"] = 100
    assert decide(many.rule, many.inputs) == OPEN


@pytest.mark.parametrize("games", [400, 400_000])
def test_each_bound_keeps_the_judgement_its_status_is_read_from(games):
    agg = planted(np.array([0.27, 0.25, 0.25, 0.23]) * games)
    bounds = check_bounds(agg, {"balance_min": 0.9, "seat_win_rate_max": 0.4, "first_player_advantage_max": 0.01})
    for b in bounds:
        assert b.decided_by is not None and recheck(b.decided_by)
        assert SAME[b.decided_by.verdict] == b.status
        assert len(b.decided_by.inputs["tests"]) == sum(len(x.decided_by.inputs.get("of", [])) for x in bounds)


def test_check_bounds_warn_when_not_settled_and_fail_only_when_violated():
    """docs/ci.md: a bound met by its point estimate inside noise is a warning, not a failure; one
    comfortably met still holds; one the games show missed fails."""
    bounds = {"balance_min": 0.9, "seat_win_rate_min": 0.2, "length_median": [5, 15]}
    noisy = check_bounds(planted(np.array([0.27, 0.25, 0.25, 0.23]) * 400), bounds, "turns")
    assert [b.status for b in noisy] == [BOUND_OPEN, BOUND_OPEN, BOUND_HOLDS] and all(b.ok for b in noisy)
    sure = check_bounds(planted(np.array([0.27, 0.25, 0.25, 0.23]) * 100_000), bounds, "turns")
    assert [b.status for b in sure] == [BOUND_HOLDS] * 3
    missed = check_bounds(planted(np.array([0.40, 0.20, 0.25, 0.15]) * 100_000), bounds, "turns")
    assert [b.status for b in missed] == [BOUND_VIOLATED, BOUND_VIOLATED, BOUND_HOLDS]
    assert [b.ok for b in missed] == [False, False, True]
    assert "lowest 15.00% (95% CI" in missed[1].measured


def test_one_alpha():
    """The run's seat test, compare's table, check's gate, solve's meets and the core read one level."""
    from simbalance.analysis import solve
    from simbalance.analysis.check import DEFAULT_ALPHA

    assert ALPHA == FINDINGS_DEFAULTS["alpha"] == thresholds(None)["alpha"] == DEFAULT_ALPHA == solve.ALPHA == 0.05


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_balance_exactly_at_balance_min_is_said_met_at_most_alpha_of_the_time(seed):
    """The judged target's interval on a planted case: seats at 0.28/0.24/0.24/0.24 have balance 0.96
    exactly, so "meets balance_min 0.96" is wrong and must be said at most ALPHA of the time (the
    point estimate alone says it about half the time)."""
    rng = np.random.default_rng(seed)
    runs = 400
    said = sum(judge(planted(rng.multinomial(4000, [0.28, 0.24, 0.24, 0.24])),
                     default_targets({"targets": {"balance_min": 0.96}}))["verdict"] == MEETS for _ in range(runs))
    assert said / runs <= ALPHA + 2 * np.sqrt(ALPHA * (1 - ALPHA) / runs)


def test_the_best_point_of_a_sweep_is_named_best_only_when_told_apart():
    """Issue 52: "the best of N" only when told apart after the multiplicity rule (stats.standout).
    Before, a sweep named its closest point "the best point" whatever the noise between the points."""
    def table(balance, half):
        values = [4, 6, 8, 10]
        return pd.DataFrame({"rules.countdown": values, "balance": balance, "length_median": [9.0] * 4,
                             "shortfall": [0.9 - b for b in balance], "balance_ci_low": [b - half for b in balance],
                             "balance_ci_high": [b + half for b in balance]})

    def edge(t):
        found = sweep_findings(t, ["rules.countdown"], {"rules.countdown": [4, 6, 8, 10]}, thresholds(None),
                               {"balance_min": 0.9}, lambda t: "balance at least 90.00%")
        return next(f.text for f in found if f.kind == "best_at_edge")

    noisy = edge(table([0.80, 0.84, 0.85, 0.86], 0.03))
    assert noisy.startswith("The point closest to the targets by its estimates (its balance not told apart")
    assert edge(table([0.70, 0.74, 0.75, 0.86], 0.01)).startswith("The best point, rules.countdown = 10, is at the top")
