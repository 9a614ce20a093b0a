"""Issue 52 item 4: the sentences that state a comparison come from one rule (stats.weigh) and one
function (stats.say): "overstates"/"understates" by which estimate is further from 0, "goes the
other way" only when the two intervals exclude 0 on opposite sides."""

from __future__ import annotations

import pytest

from simbalance.analysis.card_value import beside_verdict
from simbalance.analysis.stats import AGREES, OVERSTATES, REVERSED, UNDERSTATES, Interval, say, weigh


def around(estimate: float, half: float) -> Interval:
    return Interval(estimate, estimate - half, estimate + half)


@pytest.mark.parametrize("figure, reference, verdict", [
    (around(0.10, 0.01), around(0.03, 0.01), OVERSTATES),  # the figure further from 0
    (around(-0.10, 0.01), around(-0.03, 0.01), OVERSTATES),  # ... on either side of it
    (around(0.03, 0.01), around(0.10, 0.01), UNDERSTATES),
    (around(-0.03, 0.01), around(-0.10, 0.01), UNDERSTATES),
    (around(0.10, 0.01), around(-0.05, 0.01), REVERSED),  # both clear of 0, on opposite sides
    (around(0.10, 0.01), around(-0.01, 0.02), OVERSTATES),  # opposite estimates, the reference's CI across 0
    (around(0.02, 0.03), around(0.05, 0.03), AGREES),  # not told apart
])
def test_weigh_by_distance_from_zero_and_opposite_sides(figure, reference, verdict):
    assert weigh(figure, reference) == verdict


def test_the_card_impact_table_against_a_value_of_the_other_sign_goes_the_other_way():
    """Before: a table's +10 points against a value of -5 (both clear of 0) was "overstates" (the
    larger magnitude), though the two disagree on the card's direction."""
    assert beside_verdict(around(0.10, 0.01), around(-0.05, 0.01), 40) == REVERSED


def test_a_table_of_rows_reads_its_differences_at_the_bonferroni_level():
    figure, reference = around(0.05, 0.01), around(0.03, 0.01)  # apart alone, not among 40 rows
    assert weigh(figure, reference) == OVERSTATES and weigh(figure, reference, comparisons=40) == AGREES


def test_say_gives_each_verdict_its_words():
    assert say("the table", OVERSTATES) == "the table overstates it"
    assert say("the table", UNDERSTATES) == "the table understates it"
    assert say("the heuristics", OVERSTATES, plural=True) == "the heuristics overstate it"
    assert say("the table", AGREES) == "the table agrees with it"
    assert say("the heuristics", REVERSED, plural=True) == "it goes the other way"
    with pytest.raises(ValueError, match="verdict 'smaller'"):
        say("the table", "smaller")


@pytest.mark.parametrize("rates, claim", [
    ([0.40, 0.20, 0.20, 0.20], "player 1 wins the most of the games with a winner, more than player 2"),
    ([0.30, 0.29, 0.29, 0.12], "player 4 wins the least of the games with a winner, less than player 1"),
    ([0.35, 0.35, 0.15, 0.15], "player 1 wins more than player 3 of the games with a winner"),
    ([0.45, 0.25, 0.20, 0.10], "player 1 wins the most and player 4 the least of the games with a winner"),
])
def test_the_seat_finding_says_the_most_or_the_least_only_of_a_seat_told_apart(rates, claim):
    """Issue 52: "the strongest/weakest of N" is named only when told apart from the rest after the
    multiplicity adjustment (stats.told_apart). Before, the seat finding's claim always said "player
    1 wins the most and player 2 the least", of two seats tied at the top or at the bottom."""
    from simbalance.analysis.findings import seat_imbalance, thresholds

    summary = {"seats": [{"seat": s, "win_rate_decided": r, "decided_games": 4000} for s, r in enumerate(rates)],
               "balance": 1 - (max(rates) - min(rates)), "equal_seats_chi_square": {"p_value": 1e-30}}
    (found,) = seat_imbalance(summary, thresholds(None))
    assert found.claim == claim
