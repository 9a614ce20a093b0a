"""Issue 52 item 4: the sentences that state a comparison come from one rule (stats.weigh) and one
function (stats.say): "overstates"/"understates" by which estimate is further from 0, "goes the
other way" only when the two intervals exclude 0 on opposite sides."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from simbalance.analysis.card_value import beside_verdict
from simbalance.analysis.stats import (
    AGREES,
    NOT_APART,
    OVERSTATES,
    REVERSED,
    UNDERSTATES,
    Comparison,
    Interval,
    ranked,
    recheck,
    say,
    weigh,
    weighed,
    words,
)


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


# ------------------------------------------------ planted cases, several seeds (issue 52 item 4)
# Each word on samples whose truth is planted: two effects measured from normal draws (a figure and
# the reference that decides it), 4,000 draws each, sd 1 (a 95% half-width of about 0.031).

def measured(truth: float, rng: np.random.Generator, n: int = 4000, sd: float = 1.0) -> Interval:
    draws = rng.normal(truth, sd, n)
    half = 1.96 * draws.std(ddof=1) / np.sqrt(n)
    return Interval(float(draws.mean()), float(draws.mean() - half), float(draws.mean() + half))


SEEDS = range(8)


@pytest.mark.parametrize("figure, reference, verdict", [
    (0.30, 0.10, OVERSTATES), (-0.30, -0.10, OVERSTATES),  # the figure further from 0 than the truth
    (0.10, 0.30, UNDERSTATES), (-0.10, -0.30, UNDERSTATES),  # nearer
    (0.20, -0.20, REVERSED), (-0.20, 0.20, REVERSED),  # both clear of 0, on opposite sides
])
def test_each_verdict_on_planted_effects_over_seeds(figure, reference, verdict):
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        found = weighed(measured(figure, rng), measured(reference, rng), "the table")
        assert found.verdict == verdict and recheck(found)
        assert words(found) == say("the table", verdict)


def test_equal_effects_mostly_agree_and_a_true_zero_never_goes_the_other_way():
    """Equal planted effects agree but for about ALPHA of the seeds; a reference whose truth is 0
    beside a clear figure is "goes the other way" only when its own interval excludes 0 on the other
    side (about ALPHA / 2 of the seeds), else overstates or agrees, never by the estimates alone."""
    agree = other_way = 0
    for seed in range(200):
        rng = np.random.default_rng(seed)
        agree += weigh(measured(0.05, rng), measured(0.05, rng)) == AGREES
        figure, zero = measured(0.20, rng), measured(0.0, rng)
        verdict = weigh(figure, zero)
        other_way += verdict == REVERSED
        assert (verdict == REVERSED) == zero.below_zero
        assert verdict in (REVERSED, OVERSTATES)  # a figure of +0.2 against 0 is never "understates"
    assert agree >= 180 and other_way <= 12


def test_goes_the_other_way_needs_both_intervals_clear_of_0():
    """Before the core: `run --robust` said "it goes the other way" when both estimates were
    positive. Opposite estimates with one interval across 0 are weighed by size, not reversed."""
    assert weigh(around(0.10, 0.02), around(-0.01, 0.02)) == OVERSTATES
    assert weigh(around(0.01, 0.02), around(-0.10, 0.02)) == UNDERSTATES
    assert weigh(around(0.10, 0.02), around(0.04, 0.02)) != REVERSED


def card_summary(effects: list[float], seed: int, half: float = 0.02) -> dict:
    """A run's summary with one card-impact row per planted effect (its estimate the effect plus
    noise, its 95% CI +-``half``)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i, effect in enumerate(effects):
        d = float(effect + rng.normal(0, half / 1.96))
        rows.append({"kind": "dealt", "level": "card", "subject": f"card {i}", "copies": 1, "seat_games_with": 4000,
                     "win_rate_with": 0.25 + d, "win_rate_without": 0.25, "difference": d,
                     "ci_low": d - half, "ci_high": d + half})
    return {"seats": [{"decided_games": 1000}], "cards": rows}


@pytest.mark.parametrize("seed", SEEDS)
def test_interchangeable_cards_name_no_card_that_helps_most(seed):
    """40 cards with the same planted effect (+8 points, past card_effect_min): the largest estimate is
    noise, so the finding names it only as "the largest such difference, not told apart"; the run
    page says "No card stands out" (issue 52: it named the extreme point estimates)."""
    from claims import check_claims

    from simbalance.analysis.findings import cards, thresholds
    from simbalance.report.run_page import _extremes_words

    summary = card_summary([0.08] * 40, seed)
    (helps,) = cards(summary, thresholds(None))
    check_claims(helps)
    assert helps.decided_by[0].verdict == NOT_APART and "helps its holder most" not in helps.text
    assert "No card stands out" in _extremes_words(summary["cards"])


@pytest.mark.parametrize("seed", SEEDS)
def test_a_card_planted_apart_helps_most_and_one_planted_below_hurts_most(seed):
    from claims import check_claims

    from simbalance.analysis.findings import cards, thresholds
    from simbalance.report.run_page import _extremes_words

    summary = card_summary([0.30, -0.30] + [0.0] * 38, seed)
    found = {f.kind: f for f in cards(summary, thresholds(None))}
    for f in found.values():
        check_claims(f)
    assert found["card_helps"].text.startswith("card 0 helps its holder most")
    assert found["card_hurts"].text.startswith("card 1 hurts its holder most")
    said = _extremes_words(summary["cards"])
    assert "<b>card 0</b> helps its holder most" in said and "<b>card 1</b> hurts its holder most" in said


def test_a_claim_its_comparison_does_not_allow_fails_the_check():
    """The check cannot pass by construction: a sentence that says "most" of a card its comparison
    does not tell apart, a verdict its intervals do not give, or words the sentence lacks, each fail."""
    from claims import check_claims

    from simbalance.analysis.findings import Finding

    rank = ranked([0.10, 0.09, 0.0], [0.01, 0.01, 0.01], 0, "most", "card", claim="card 0 helps its holder most")
    assert rank.verdict == NOT_APART
    with pytest.raises(AssertionError):
        check_claims(Finding("card_helps", "low", "card 0 helps its holder most, not told apart from every other card",
                             decided_by=(rank,)))
    weighed_up = weighed(around(0.10, 0.01), around(0.03, 0.01), "the table")
    with pytest.raises(AssertionError):  # a stored verdict its intervals do not give
        check_claims(Finding("x", "low", "the table understates it", decided_by=(replace(weighed_up, verdict=UNDERSTATES),)))
    with pytest.raises(AssertionError):  # the words missing from the sentence
        check_claims(Finding("x", "low", "the table and the value differ", decided_by=(weighed_up,)))
    check_claims(Finding("x", "low", "the table overstates it", decided_by=(weighed_up,)))


def test_a_finding_s_comparisons_reach_findings_json_and_read_back():
    from claims import check_claims

    from simbalance.analysis.findings import cards, thresholds

    (helps,) = [f for f in cards(card_summary([0.30] + [0.0] * 9, 1), thresholds(None)) if f.kind == "card_helps"]
    stored = json.loads(json.dumps(helps.to_dict()))
    assert stored["decided_by"][0]["rule"] == "standout" and stored["decided_by"][0]["verdict"] == "told apart"
    check_claims(stored)
    assert Comparison.from_dict(stored["decided_by"][0]) == helps.decided_by[0]


@pytest.mark.parametrize("seed", SEEDS)
def test_strong_play_words_follow_the_effect_verdict(seed):
    """The run's seat gap under strong play, planted: a gap of 20 points under the run's players and
    the same seats 20 points apart under strong play holds; under strong play alike, it is smaller
    ("the heuristics overstate it"); its words come from the comparison the finding keeps."""
    from claims import check_claims

    from simbalance.analysis.findings import seat_imbalance, thresholds
    from simbalance.analysis.robustness import StrongPlay, strong_play_findings

    rng = np.random.default_rng(seed)
    run = rng.multinomial(8000, [0.35, 0.25, 0.25, 0.15]) / 8000
    summary = {"seats": [{"seat": s, "win_rate_decided": r, "decided_games": 8000} for s, r in enumerate(run)],
               "balance": 1 - (run.max() - run.min()), "equal_seats_chi_square": {"p_value": 1e-30}}
    (seat,) = seat_imbalance(summary, thresholds(None))
    for shares, verdict in (([0.35, 0.25, 0.25, 0.15], "holds"), ([0.25] * 4, "smaller")):
        wins = rng.multinomial(4000, shares).astype(float)
        sample = StrongPlay("mcts@100", 4000, 4000, tuple(wins), 0.02, 5000, True)
        (checked,) = strong_play_findings([seat], summary, sample, "heuristics: ...", None)
        check_claims(checked)
        assert checked.decided_by[-1].rule == "effect" and checked.decided_by[-1].verdict == verdict


def test_hides_part_of_what_it_does_only_where_the_game_can_link_holding_to_winning():
    """card-value's "who holds it hides part of what it does" only where the game's own deal or play
    can link holding a card to winning (core/spec.CardSwap.selection): never for find-dr-evil's blind
    deal, whatever the verdict; the built-in games that let players choose their cards say so."""
    from simbalance.analysis.card_value import why_apart
    from simbalance.games.captain_action.engine import CARD_SELECTION as CAPTAIN_ACTION
    from simbalance.games.find_dr_evil.engine import CARD_SELECTION as FIND_DR_EVIL

    assert FIND_DR_EVIL is None and CAPTAIN_ACTION
    for verdict in (OVERSTATES, UNDERSTATES, REVERSED):
        blind = why_apart(verdict, FIND_DR_EVIL, "dealt")
        assert "hides part" not in blind and "who gets to hold it" in blind and "not because" in blind
    assert "hides part of what it does" in why_apart(UNDERSTATES, CAPTAIN_ACTION, None)
    assert "hides part" not in why_apart(OVERSTATES, CAPTAIN_ACTION, None)


def decision_table(spreads: list[float], seed: int, half: float = 0.02):
    import pandas as pd

    from simbalance.analysis.card_value import ALL, DECISION_COLUMNS

    rng = np.random.default_rng(seed)
    rows = []
    for i, spread in enumerate(spreads):
        s = float(spread + rng.normal(0, half / 1.96))
        rows.append({"kind": f"kind {i}", "phase": ALL, "spread": s, "ci_low": s - half, "ci_high": s + half,
                     "raw_spread": s, "unchanged": 0.0, "decisions": 500, "options": 3.0, "playouts": 2000})
    return pd.DataFrame(rows, columns=DECISION_COLUMNS)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_decision_kind_matters_most_only_when_told_apart(seed):
    """Before: card-value said "The X decision matters most" of the largest spread among the kinds
    clear of 0, picked by noise among kinds alike (issue 52's multiplicity rule was not applied)."""
    from claims import check_claims

    from simbalance.analysis.card_value import card_value_findings, card_values, with_observed
    from simbalance.analysis.findings import thresholds

    pairs = __import__("pandas").DataFrame({"state": np.arange(40).repeat(2), "phase": "early",
                                            "label": ["a", "b"] * 40, "diff": np.random.default_rng(seed).normal(0, 0.1, 80),
                                            "playouts": 4})
    values = card_values(pairs, ["early"], ["a", "b"])
    beside = with_observed(values, None)
    for spreads, most in (([0.10, 0.10, 0.10], False), ([0.30, 0.10, 0.10], True)):
        found = card_value_findings(values, beside, decision_table(spreads, seed), thresholds(None), "planted")
        (kind,) = [f for f in found if f.kind == "decision_matters_most"]
        check_claims(kind)
        assert ("decision matters most" in kind.text) == most
        assert most or "has the largest spread, not told apart from every other decision kind" in kind.text
