"""Findings (analysis/findings.py): each one planted is found, and a clean game raises none.

Runs are planted as games (winners, strategy slots, end codes, lengths) through the real
aggregator, so the summaries have exactly the shape and the statistics of a real run's.
"""

import numpy as np
import pandas as pd
import pytest
from claims import check_claims

from simbalance.analysis import findings as F
from simbalance.analysis.compare import compare_findings
from simbalance.analysis.metrics import jsonable
from simbalance.analysis.skill import skill_findings
from simbalance.analysis.sweep import describe_targets, sweep_findings
from simbalance.analysis.tournament import tournament_findings
from simbalance.analysis.tune import tune_findings
from simbalance.core.aggregate import RunAggregate
from simbalance.core.config import FINDINGS_DEFAULTS, apply_overrides
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN

TH = F.thresholds({})


def planted(n=40_000, players=4, seat_p=None, ties=0.0, timeouts=0.0, stalemates=0.0, length=20.0,
            slot_edge=None, seed=1):
    """A run's summary and length histogram from planted games. ``slot_edge``: two strategies in
    rotated seats, the first winning ``slot_edge`` times as often per seat."""
    rng = np.random.default_rng(seed)
    seat_p = np.full(players, 1 / players) if seat_p is None else np.asarray(seat_p, dtype=float)
    slots = np.zeros((n, players), dtype=np.int8)
    if slot_edge is not None:
        slots = (np.arange(players)[None, :] + np.arange(n)[:, None]) % 2
    weights = seat_p[None, :] * np.where(slots == 0, slot_edge or 1.0, 1.0)
    weights /= weights.sum(axis=1, keepdims=True)
    winner = (rng.random(n)[:, None] > np.cumsum(weights, axis=1)).sum(axis=1)
    winners = (1 << winner).astype(np.uint8)
    u = rng.random(n)
    end = np.full(n, END_WIN, np.uint8)
    end[u < timeouts] = END_TIMEOUT
    end[(u >= timeouts) & (u < timeouts + stalemates)] = END_STALEMATE
    tie = (u >= timeouts + stalemates) & (u < timeouts + stalemates + ties)
    winners[tie] = 0b11
    winners[end != END_WIN] = 0
    lengths = np.maximum(1, rng.normal(length, max(1.0, length / 5), n).round()).astype(np.int64)
    lengths[end == END_TIMEOUT] = 5000
    agg = RunAggregate(players, int(slots.max()) + 1).add(winners, slots, end, lengths)
    names = ("builder", "random")[: int(slots.max()) + 1]
    return jsonable(agg.summary(names, "turns")), agg.length_histogram()


def kinds(found):
    return [f.kind for f in found]


def test_a_clean_game_raises_nothing():
    summary, hist = planted()
    assert F.run_findings(summary, TH, 4, targets={"length_median": [15.0, 25.0]}, hist=hist) == []


def test_seat_imbalance_in_a_designers_words():
    summary, hist = planted(seat_p=[1 / 6, 1 / 4, 1 / 4, 1 / 3])
    found = F.run_findings(summary, TH, 4, hist=hist)
    assert kinds(found) == ["seat_imbalance"]
    f = found[0]
    assert f.text.startswith("Player 4 wins 1 game in 3 (33.")
    assert "player 1 one in 6 (16." in f.text and "fair: 1 game in 4 (25.0%)" in f.text
    assert f.severity == F.HIGH and f.ci[0] < f.number < f.ci[1] and f.number == pytest.approx(1 / 6, abs=0.02)
    assert f.dig_in == "#win-rates"


def test_seats_too_close_for_words_are_told_in_percent():
    summary, _ = planted(n=200_000, seat_p=[0.272, 0.25, 0.235, 0.243])
    f = F.seat_imbalance(summary, TH)[0]
    assert f.text.startswith("Player 1 wins 27.") and "player 3 23." in f.text and "fair: 25.0%" in f.text


def test_a_small_or_noisy_seat_gap_is_not_a_finding():
    summary, _ = planted(seat_p=[0.24, 0.25, 0.25, 0.26])  # 2 points: below seat_gap_min
    assert F.seat_imbalance(summary, TH) == []
    summary, _ = planted(n=300, seat_p=[0.2, 0.25, 0.25, 0.3])  # a real gap, too few games to tell
    assert F.seat_imbalance(summary, TH) == []


def test_games_over_at_once():
    summary, hist = planted(length=1.0)
    found = F.run_findings(summary, TH, 4, hist=hist, examples={"short_games": "simbalance replay x --game 3"})
    assert kinds(found) == ["short_games"]
    assert "within 1 turn (median 1, 95% CI 1 to 1" in found[0].text
    assert found[0].dig_in == "simbalance replay x --game 3" and found[0].severity == F.HIGH


def test_games_far_longer_than_the_targets():
    summary, hist = planted(length=60.0)
    found = F.run_findings(summary, TH, 4, targets={"length_median": [15.0, 25.0]}, hist=hist)
    assert kinds(found) == ["long_games"] and "target of 15 to 25" in found[0].text
    assert F.run_findings(summary, TH, 4, hist=hist) == []  # no intent given: nothing to hold it against


@pytest.mark.parametrize("kind, share", [("timeouts", 0.05), ("stalemates", 0.02)])
def test_runaway_games(kind, share):
    summary, hist = planted(**{kind: share})
    found = F.run_findings(summary, TH, 4, hist=hist, examples={kind: "simbalance replay g --game 9"})
    assert kinds(found) == [kind]
    f = found[0]
    assert f.ci[0] < share < f.ci[1] and f.dig_in == "simbalance replay g --game 9"
    if kind == "timeouts":
        assert "hit the cap (5,000 turns)" in f.text
    clean, _ = planted(**{kind: 0.002})
    assert F.no_end(clean, TH) == []


def test_most_games_never_ending_is_high():
    summary, _ = planted(timeouts=0.627)
    f = F.no_end(summary, TH)[0]
    assert f.severity == F.HIGH and f.text.startswith("62.")


def test_ties():
    summary, _ = planted(ties=0.17)
    found = F.ties(summary, TH, "#outcomes")
    # 17% of games with a CI from 16.7%: past twice ties_max (5%) at its CI's low end
    assert kinds(found) == ["ties"] and "1 game in 6" in found[0].text and found[0].severity == F.HIGH
    assert F.ties(planted(ties=0.01)[0], TH) == []


def test_thresholds_come_from_the_config_and_set():
    summary, _ = planted(ties=0.07)
    assert kinds(F.ties(summary, TH)) == ["ties"]
    cfg = apply_overrides({"game": {}}, ["findings.ties_max=0.1"])
    assert cfg["findings"] == {"ties_max": 0.1}
    assert F.ties(summary, F.thresholds(cfg)) == []
    assert F.thresholds(cfg)["timeouts_max"] == FINDINGS_DEFAULTS["timeouts_max"]


@pytest.mark.parametrize("table, message", [
    ({"tie_max": 0.1}, "unknown config key 'findings.tie_max' (did you mean findings.ties_max?)"),
    ({"ties_max": "high"}, "findings.ties_max = 'high': expected a number >= 0"),
    ({"ties_max": -1}, "expected a number >= 0"),
    ({"alpha": 2}, "findings.alpha = 2.0: allowed between 0 and 1"),
])
def test_bad_thresholds_are_one_clear_error(table, message):
    with pytest.raises(ConfigError) as err:
        F.thresholds({"findings": table})
    assert message in str(err.value)


def test_set_refuses_an_unknown_threshold():
    with pytest.raises(ConfigError, match="findings.ties_max"):
        apply_overrides({"game": {}}, ["findings.tie_max=0.1"])


def card(subject, diff, half, seat_games=10_000, copies=1, kind="dealt"):
    return {"kind": kind, "subject": subject, "level": "card", "copies": copies, "seat_games_with": seat_games,
            "win_rate_with": 0.25 + diff / 2, "win_rate_without": 0.25 - diff / 2, "difference": diff,
            "ci_low": diff - half, "ci_high": diff + half, "difference_length_adjusted": diff}


def test_cards_that_swing_the_game_and_cards_that_never_matter():
    summary = {"seats": [{"seat": 0, "decided_games": 1000}], "cards": [
        card("Dr. Ling wildcard", 0.30, 0.01), card("Dr. Evil 13", -0.17, 0.01), card("Dr. Evil 14", -0.09, 0.01),
        card("Captain Action wildcard 0", 0.0005, 0.002, copies=4), card("Lady Action 9", 0.0, 0.0, seat_games=0),
        card("Action Boy 5", 0.01, 0.03),  # noise: nothing to say
        {**card("any Dr. Evil", -0.5, 0.01), "level": "group"},  # groups are not cards
    ]}
    found = {f.kind: f for f in F.cards(summary, TH)}
    assert set(found) == {"card_helps", "card_hurts", "card_never_held", "card_never_matters"}
    assert found["card_helps"].text.startswith("Dr. Ling wildcard helps its holder most")
    assert found["card_hurts"].text.startswith("Dr. Evil 13 hurts") and "1 more card too" in found["card_hurts"].text
    assert found["card_never_held"].text.startswith("Lady Action 9 never reached a hand")
    assert found["card_never_matters"].text.startswith("Captain Action wildcard 0 (x4) never matters")
    # two cards alike at the top: the larger is not told apart, so no card "helps its holder most" (issue 52)
    close = {"seats": summary["seats"], "cards": [card("Dr. Ling wildcard", 0.30, 0.02), card("Dr. Ling twin", 0.29, 0.02),
                                                  *[card(f"Action Boy {i}", 0.0, 0.01) for i in range(10)]]}
    (helps,) = F.cards(close, TH)
    assert helps.text.startswith("Dr. Ling wildcard helps its holder: win rate")
    assert "the largest such difference, not told apart from every other card; 1 more card too" in helps.text
    clean = {"seats": summary["seats"], "cards": [card("Action Boy 5", 0.01, 0.03), card("Action Boy 6", -0.02, 0.03)]}
    assert F.cards(clean, TH) == []
    # no decided game: no card can change who wins, so nothing is said of any (issue 41 item 7)
    assert F.cards({**summary, "seats": [{"seat": 0, "decided_games": 0}]}, TH) == []


def test_a_dominant_strategy_in_a_run():
    summary, _ = planted(slot_edge=2.0)
    found = F.strategies(summary, TH, 4)
    assert kinds(found) == ["dominant_strategy"] and found[0].text.startswith("builder wins more than every")
    even, _ = planted(slot_edge=1.0)
    assert F.strategies(even, TH, 4) == []


def test_the_loop_diagnosis_and_the_whole_game_metrics():
    """Stalemates by reason (``summary["stalemates"]``) and the whole-game metrics
    (``summary["lead"]``), as core/aggregate.RunAggregate.summary() writes them."""
    summary, _ = planted(stalemates=0.3)
    summary["stalemates"] = [{"code": 1, "reason": "dr-evil-chain", "description": "Dr. Evil answered with Dr. Evil",
                              "games": 9000, "share": 0.225, "example_game": 17},
                             {"code": 2, "reason": "no-play", "description": "", "games": 3000, "share": 0.075}]

    def rnd(k, rate, lo, hi):
        return {"round": k, "games": 40000, "decided_with_sole_leader": 30000, "leader_wins": rate,
                "ci_low": lo, "ci_high": hi, "fair_share": 0.25, "mean_margin": 1.0}

    summary["lead"] = {"rounds": [rnd(1, 0.45, 0.44, 0.46), rnd(2, 0.86, 0.85, 0.87), rnd(3, 0.95, 0.94, 0.96)],
                       "comeback_wins": 0.02, "single_winner_games": 40000, "lead_changes_mean": 0.4}
    found = {f.kind: f for f in F.run_findings(summary, TH, 4)}
    assert {"stalemates", "loop", "decided_early", "no_comebacks"} <= set(found)
    assert found["loop"].text == ("Why games do not end: dr-evil-chain (Dr. Evil answered with Dr. Evil): 22.50% of "
                                  "games; no-play: 7.50% of games.")
    assert found["loop"].dig_in.endswith("--game 17")
    assert "leader after round 2 goes on to win 86.0%" in found["decided_early"].text
    assert found["no_comebacks"].ci[1] < TH["comeback_min"]
    clean, _ = planted()
    clean["stalemates"] = []
    clean["lead"] = {"rounds": [rnd(1, 0.4, 0.39, 0.41), {"round": 2, "games": 0, "decided_with_sole_leader": 0,
                                                          "leader_wins": None, "ci_low": None, "ci_high": None}],
                     "comeback_wins": 0.3, "single_winner_games": 40000}
    assert F.run_findings(clean, TH, 4) == []


def compare_table(rows):
    return pd.DataFrame([{"variant": v, "metric": m, "kind": k, "baseline": 0.5 if k == "share" else 100.0, "diff": d,
                          "ci_low": d - h, "ci_high": d + h, "p_holm": p} for v, m, k, d, h, p in rows])


def test_a_variant_that_changes_nothing_says_so_and_why():
    table = compare_table([("take-back", "balance", "share", 0.0, 0.0, 1.0),
                           ("take-back", "win rate seat 0", "share", 0.0, 0.0, 1.0),
                           ("big", "balance", "share", -0.04, 0.01, 1e-6),
                           ("big", "length", "turns", 3.0, 0.5, 1e-9)])
    found = compare_findings(table, TH, identical={"take-back": True, "big": False},
                               same_plan={"take-back": False}, changes={"take-back": "rules.take_back=true"},
                               games=1000, strategies="builder")
    by_kind = {f.kind: f for f in found}
    f = by_kind["variant_changes_nothing"]
    assert f.text.startswith("Variant take-back changed nothing: all 1,000 games were identical")
    assert "it changes rules.take_back=true, but no game went differently" in f.text and "(builder)" in f.text
    assert by_kind["variant_effect"].text.startswith("Variant big changes balance by -4.0 pp")
    clean = compare_table([("x", "balance", "share", 0.001, 0.01, 0.8)])
    assert compare_findings(clean, TH, identical={"x": False}, same_plan={}, changes={}, games=10,
                              strategies="a") == []


def test_an_arm_that_brings_a_new_problem():
    table = compare_table([("cap", "timeouts", "share", 0.0, 0.0, 1.0)])
    timeouts = F.Finding("timeouts", F.HIGH, "12% of games never end.", 0.12)
    found = compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10, strategies="a",
                               baseline=[], arms={"cap": [timeouts]})
    assert [f.text for f in found] == ["With variant cap: 12% of games never end."]
    # a finding without a claim is never summed up across arms: each arm says it in its own words
    assert [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10,
                                             strategies="a", baseline=[timeouts], arms={"cap": [timeouts]})] == \
        ["With variant cap: 12% of games never end.", "In the baseline: 12% of games never end."]
    assert compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10, strategies="a",
                              baseline=[timeouts], arms={"cap": []})[0].text == \
        "In the baseline: 12% of games never end. Not with cap."
    claimed = F.Finding("timeouts", F.HIGH, "12% of games never end.", 0.12, claim="games never end",
                        figure="12% of games")
    also = F.Finding("timeouts", F.HIGH, "30% of games never end.", 0.3, claim="games never end",
                     figure="30% of games")
    assert [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10,
                                             strategies="a", baseline=[claimed], arms={"cap": [also]})] == \
        ["In the baseline and in every arm, games never end: 12% of games in the baseline; 30% of games with cap."]


def seat_summary(rates, n=10_000):
    """A run's summary with these seat shares of the decided games (p of equal seats far below alpha)."""
    return {"seats": [{"seat": s, "win_rate_decided": r, "decided_games": n} for s, r in enumerate(rates)],
            "balance": 1 - (max(rates) - min(rates)), "equal_seats_chi_square": {"p_value": 1e-30}}


def test_in_every_arm_only_when_every_arms_own_figure_says_so():
    """Issue 41: compare read "In the baseline and every arm: Player 2 wins 6 games in 10 (59.9%)" while
    both arms had player 1 winning 61.5% and 83.5%: the check only asked for a finding of the same kind."""
    table = compare_table([("start", "balance", "share", 0.0, 0.0, 1.0), ("bigger", "balance", "share", 0.0, 0.0, 1.0)])
    base = F.seat_imbalance(seat_summary([0.401, 0.599]), TH)
    flipped = {"start": F.seat_imbalance(seat_summary([0.615, 0.385]), TH),
               "bigger": F.seat_imbalance(seat_summary([0.835, 0.165]), TH)}
    texts = [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10_000,
                                              strategies="a", baseline=base, arms=flipped)]
    assert not any("every arm" in t for t in texts), texts
    assert any(t.startswith("In the baseline: Player 2 wins 6 games in 10 (59.9%") for t in texts), texts
    assert any(t.startswith("With variant start: Player 1 wins 6 games in 10 (61.5%") for t in texts), texts
    assert any(t.startswith("With variant bigger: Player 1 wins 8 games in 10 (83.5%") for t in texts), texts
    # an arm that says otherwise has its own sentence whatever its severity: the baseline's leaves it out
    weak = F.seat_imbalance(seat_summary([0.52, 0.48], n=2000), TH)
    assert weak[0].severity == F.LOW
    texts = [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=2000,
                                              strategies="a", baseline=base, arms={"start": weak, "bigger": []})]
    assert any(t.startswith("With variant start: Player 1 wins") for t in texts), texts
    assert any(t.startswith("In the baseline: Player 2") and t.endswith("Not with bigger.") for t in texts), texts
    # one arm agrees, one does not: the agreeing one with its own figure, the other its own sentence
    mixed = {"start": F.seat_imbalance(seat_summary([0.38, 0.62]), TH), "bigger": flipped["bigger"]}
    texts = [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10_000,
                                              strategies="a", baseline=base, arms=mixed)]
    assert any(t.startswith("In the baseline: Player 2") and t.endswith(
        "The same with start (62.0% and 38.0%).") for t in texts), texts
    assert any(t.startswith("With variant bigger: Player 1") for t in texts), texts
    # every arm agrees: one sentence, each arm's own figure
    same = {"start": mixed["start"], "bigger": F.seat_imbalance(seat_summary([0.3, 0.7]), TH)}
    texts = [f.text for f in compare_findings(table, TH, identical={}, same_plan={}, changes={}, games=10_000,
                                              strategies="a", baseline=base, arms=same)]
    assert ("In the baseline and in every arm, player 2 wins the most and player 1 the least of the games with a "
            "winner: 59.9% and 40.1% in the baseline; 62.0% and 38.0% with start; 70.0% and 30.0% with bigger.") \
        in texts, texts


def sweep_table(values, balance, median):
    table = pd.DataFrame({"rules.countdown": values, "balance": balance, "length_median": median})
    targets = {"balance_min": 0.9, "length_median": [10.0, 20.0]}
    from simbalance.analysis.sweep import shortfall
    table["shortfall"] = shortfall(table, targets)
    return table, targets


def test_sweep_best_at_the_edge_and_no_point_on_target():
    table, targets = sweep_table([4, 6, 8, 10], [0.8, 0.85, 0.88, 0.89], [5, 8, 9, 9])
    found = {f.kind: f for f in sweep_findings(table, ["rules.countdown"], {"rules.countdown": [4, 6, 8, 10]},
                                                 TH, targets, describe_targets, game="captain-action")}
    assert set(found) == {"no_point_on_target", "best_at_edge"}
    assert "No point of the grid meets the targets (balance at least 90.00%, median length 10 to 20)" in \
        found["no_point_on_target"].text
    assert found["best_at_edge"].text.startswith("The best point, rules.countdown = 10, is at the top edge of the "
                                                 "grid for rules.countdown (4 to 10)")
    assert found["best_at_edge"].dig_in == "simbalance sweep captain-action --param rules.countdown=10:18:2"
    inside, targets = sweep_table([4, 6, 8, 10], [0.8, 0.95, 0.85, 0.8], [12, 15, 12, 12])
    inside["timeouts"] = [0.0, 0.0, 0.001, 0.0]
    assert sweep_findings(inside, ["rules.countdown"], {"rules.countdown": [4, 6, 8, 10]}, TH, targets,
                            describe_targets) == []


def test_sweep_points_where_games_never_end():
    table, targets = sweep_table([2, 4, 6], [float("nan"), 0.97, 0.96], [2, 12, 12])
    table["timeouts"] = [1.0, 0.0, 0.002]
    found = sweep_findings(table, ["rules.countdown"], {"rules.countdown": [2, 4, 6]}, TH, targets, describe_targets)
    assert kinds(found) == ["timeouts"] and "at 1 of 3 points (rules.countdown = 2): up to 100.0%" in found[0].text
    table["balance"] = float("nan")
    table["shortfall"] = float("nan")
    found = sweep_findings(table, ["rules.countdown"], {"rules.countdown": [2, 4, 6]}, TH, targets, describe_targets)
    assert kinds(found) == ["timeouts", "no_point_on_target"] and "has a game with a winner" in found[1].text


def matchups(shares):
    rows = []
    for (a, b), s in shares.items():
        for x, y, v in ((a, b, s), (b, a, 1 - s)):
            rows.append({"strategy": x, "opponent": y, "h2h_share": v, "h2h_ci_low": v - 0.02,
                         "h2h_ci_high": v + 0.02})
    return pd.DataFrame(rows)


def test_a_dominant_strategy_in_a_tournament():
    found = tournament_findings(matchups({("builder", "bold"): 0.6, ("builder", "random"): 0.8,
                                            ("bold", "random"): 0.7}), ["builder", "bold", "random"], TH)
    assert kinds(found) == ["dominant_strategy"] and found[0].text.startswith("builder beats every other")
    assert "lowest 60.0% against bold" in found[0].text
    assert tournament_findings(matchups({("builder", "bold"): 0.5, ("builder", "random"): 0.8,
                                           ("bold", "random"): 0.7}), ["builder", "bold", "random"], TH) == []


def skill_rows(rows):
    return pd.DataFrame(rows, columns=["strategy", "against", "win_rate", "ci_low", "ci_high"])


def test_a_restricted_strategy_that_beats_the_full_one():
    agency = skill_rows([["builder", "random", 0.4, 0.39, 0.41]])
    restricted = skill_rows([["builder-no-events", "builder", 0.31, 0.30, 0.32]])
    found = skill_findings(agency, restricted, 4, TH)
    assert kinds(found) == ["restricted_wins"]
    assert found[0].text.startswith("builder-no-events (builder with one ability taken away) beats the full builder")
    check_claims(found[0])
    fair = skill_rows([["builder-no-events", "builder", 0.22, 0.21, 0.23]])
    assert kinds(skill_findings(agency, fair, 4, TH)) == ["skill_matters"]


def test_decisions_that_do_not_matter():
    agency = skill_rows([["builder", "random", 0.25, 0.24, 0.26], ["bold", "random", 0.24, 0.23, 0.25]])
    found = skill_findings(agency, skill_rows([]), 4, TH)
    assert kinds(found) == ["decisions_do_not_matter"]
    check_claims(found[0])  # "no strategy beats random players": none of the intervals clear of 25%


def test_a_tuned_strategy_that_dominates():
    dominance = pd.DataFrame({"against": ["random", "builder"], "win_rate": [0.6, 0.3], "ci_low": [0.58, 0.28],
                              "ci_high": [0.62, 0.32], "edge": [0.35, 0.05], "dominates": [True, True]})
    gain = {"diff": 0.04, "ci_low": 0.03, "ci_high": 0.05}
    found = tune_findings("builder", dominance, 4, gain, TH, 0.02)
    assert kinds(found) == ["dominant_strategy", "tuned_better"]
    check_claims(found[0])  # "dominates": each matchup's interval clear of the fair share plus the margin
    assert [c.verdict for c in found[0].decided_by] == ["told apart", "told apart"]
    check_claims(found[1])
    assert "against builder" in found[0].text
    dominance["dominates"] = [True, False]
    none = {"diff": 0.0, "ci_low": -0.01, "ci_high": 0.01}
    assert tune_findings("builder", dominance, 4, none, TH, 0.02) == []


@pytest.mark.parametrize("rate, words", [(1 / 3, "1 game in 3"), (1 / 6, "1 game in 6"), (0.25, "1 game in 4"),
                                         (0.52, "1 game in 2"), (0.7, "7 games in 10"), (0.0, "no game"),
                                         (1.0, "every game"), (0.35, "1 game in 3")])
def test_one_in(rate, words):
    assert F.one_in(rate) == words


def test_findings_are_json_ready_and_ordered():
    low = F.Finding("ties", F.LOW, "t", 0.1, (0.09, 0.11))
    high = F.Finding("timeouts", F.HIGH, "x")
    assert F.ordered([low, high]) == [high, low]
    assert low.to_dict() == {"kind": "ties", "severity": "low", "text": "t", "number": 0.1, "ci": [0.09, 0.11],
                             "dig_in": None}


def test_severity_is_the_effect_at_its_ci_end_nearest_zero_against_its_threshold():
    assert F.severity(0.21, (0.19, 0.23), 0.03) == F.HIGH  # past twice the size, CI included
    assert F.severity(0.05, (0.035, 0.065), 0.03) == F.MEDIUM  # past the size, not twice
    assert F.severity(0.07, (0.01, 0.13), 0.03) == F.LOW  # a large estimate, a CI that reaches 1 point
    assert F.severity(-0.21, (-0.23, -0.19), 0.03) == F.HIGH  # either way
    assert F.severity(0.2, (-0.01, 0.41), 0.03) == F.LOW  # a CI across 0 is no sure effect
    assert F.severity(0.12, None, 0.05) == F.HIGH


def test_a_seat_swing_of_20_points_is_high_and_a_small_length_change_low():
    """Issue 41: a +21-point seat swing was graded low (a share that is not balance) while a 0.16-trick
    change of length was medium (a count): severity came from the metric's kind, not its size."""
    table = pd.DataFrame([
        {"variant": "start", "metric": "win rate seat 0", "kind": "share", "baseline": 0.4, "diff": 0.214,
         "ci_low": 0.2, "ci_high": 0.228, "p_holm": 1e-12},
        {"variant": "tricks", "metric": "length", "kind": "tricks", "baseline": 12.5, "diff": 0.16,
         "ci_low": 0.1, "ci_high": 0.22, "p_holm": 1e-6}])
    found = {f.text.split()[1]: f for f in compare_findings(table, TH, identical={}, same_plan={}, changes={},
                                                            games=10_000, strategies="a")}
    assert found["start"].severity == F.HIGH and found["tricks"].severity == F.LOW


def test_sweep_shortfall_is_solves_rule():
    """A sweep ranks its points by the solver's shortfall (stats.shortfall): a miss relative to the edge
    missed, so a range's far edge (length 4 to 99) does not shrink a miss of its near one. The old rule
    divided by the range's upper edge: a median of 1 against 4:99 missed by 0.03, ranked above a balance
    miss of 0.05."""
    from simbalance.analysis.stats import shortfall as solve_shortfall
    from simbalance.analysis.sweep import shortfall

    table = pd.DataFrame({"balance": [0.95, 0.90, float("nan")], "length_median": [1.0, 10.0, 10.0]})
    got = shortfall(table, {"balance_min": 0.95, "length_median": [4.0, 99.0]})
    assert got[0] == pytest.approx(0.75)  # (4 - 1) / 4
    assert got[1] == pytest.approx(0.05 / 0.95)
    assert got[2] == float("inf")  # no game with a winner: no balance to meet
    assert got[1] == pytest.approx(solve_shortfall([{"value": 0.90, "low": 0.95, "high": 1.0}]))
    assert got[0] > got[1]  # the point that misses its length by three quarters is the further one
