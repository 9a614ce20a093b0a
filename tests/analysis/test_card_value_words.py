"""card-value's words follow its numbers (issue 52, "Words drift"), on planted tables whose truth is
known: a strongest or weakest card only when told apart from the rest after a multiplicity
adjustment, never the same card for both; "overstates"/"understates" by which estimate is further
from 0; "who gets to hold it" only where the game's players can link holding a card to winning; a
card whose swap changed no play-out never shown as a measured +0.0 (+0.0 to +0.0)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simbalance.analysis.card_value import beside_verdict, card_value_findings, card_values, with_observed
from simbalance.analysis.findings import thresholds
from simbalance.analysis.stats import Interval
from simbalance.report.card_value_page import UNCHANGED, _value_cells

TH = thresholds(None)
CARDS = [f"card {i}" for i in range(40)]


def planted_pairs(effects: dict[str, float], seed: int, states: int = 200, noise: float = 0.3,
                  still: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per (state, card): the holder's share with minus without, the card's planted effect
    plus noise; the ``still`` cards' swaps change nothing (0 in every play-out)."""
    rng = np.random.default_rng(seed)
    rows = []
    for card in CARDS:
        diff = np.zeros(states) if card in still else effects.get(card, 0.0) + rng.normal(0, noise, states)
        rows.append(pd.DataFrame({"state": np.arange(states), "phase": "early", "label": card, "diff": diff,
                                  "playouts": 4}))
    return pd.concat(rows, ignore_index=True)


def findings_of(pairs: pd.DataFrame, observed: pd.DataFrame | None = None, selection="players choose"):
    values = card_values(pairs, ["early"], CARDS)
    beside = with_observed(values, observed)
    return values, beside, card_value_findings(values, beside, None, TH, "planted", "held at the end", selection)


def kinds(found) -> list[str]:
    return [f.kind for f in found]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_interchangeable_cards_name_no_strongest_and_no_weakest(seed):
    """40 cards that do the same thing: picking the largest of 40 noisy values is noise (two seeds'
    values correlate at about 0), so no card is named; the finding says none stands out."""
    _, _, found = findings_of(planted_pairs({}, seed))
    assert "card_value_strongest" not in kinds(found) and "card_value_weakest" not in kinds(found)
    (none,) = [f for f in found if f.kind == "card_value_none_stands_out"]
    assert none.text.startswith("No card stands out: none of the 40 cards' values is told apart")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_card_planted_apart_is_named_and_never_both(seed):
    _, _, found = findings_of(planted_pairs({"card 7": 0.4, "card 9": -0.4}, seed))
    strongest = next(f for f in found if f.kind == "card_value_strongest")
    weakest = next(f for f in found if f.kind == "card_value_weakest")
    assert "is card 7, told apart from each of the 39 others" in strongest.text
    assert "is card 9," in weakest.text
    _, _, found = findings_of(planted_pairs({"card 7": 0.4, "card 8": 0.4}, seed))  # two as strong: neither
    assert "card_value_strongest" not in kinds(found)


def test_a_card_whose_swap_changes_nothing_is_not_shown_as_a_measured_interval():
    values, beside, found = findings_of(planted_pairs({}, 1, still=("card 3",)), observed=observed_table(
        {"card 3": (0.06, 0.04, 0.08)}))
    row = values.set_index("card").loc["card 3"]
    assert row["unchanged"] and row["value"] == 0 and row["ci_low"] == row["ci_high"] == 0
    assert _value_cells(row) == UNCHANGED and UNCHANGED[1] == "none: no play-out changed"
    assert not values.set_index("card").drop("card 3")["unchanged"].any()
    assert beside.set_index("card").loc["card 3", "verdict"] == ""  # nothing measured to set beside the table's
    (same,) = [f for f in found if f.kind == "card_value_unchanged"]
    assert same.text.startswith("card 3: swapping it out changed no play-out") and "by construction" in same.text
    assert all("card 3" not in f.text for f in found if f.kind in ("card_value_null", "card_value_confounded"))


def test_the_terminal_shows_no_zero_width_interval_for_a_card_whose_swap_changes_nothing():
    """The terminal's table says what the page says (UNCHANGED) of a card whose swap changed no
    play-out, never "+0.0 pp" and "+0.0 .. +0.0" beside measured intervals (issue 52, words drift:
    the command printed them before)."""
    from types import SimpleNamespace

    from rich.console import Console

    from simbalance.cli.card_value_cmd import show

    _, beside, _ = findings_of(planted_pairs({"card 7": 0.3}, 1, still=("card 3",)))
    console = Console(record=True, width=200)
    show(SimpleNamespace(game="planted", beside=beside, decisions=None, note=""), console)
    text = console.export_text()
    (line,) = [row for row in text.splitlines() if "card 3 " in row]
    assert "none: no play-out changed" in line and "+0.0" not in line
    (measured,) = [row for row in text.splitlines() if "card 7 " in row]
    assert " pp" in measured and " .. " in measured


def observed_table(rows: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"kind": "held at the end", "level": "card", "subject": card, "difference": d,
                          "ci_low": lo, "ci_high": hi} for card, (d, lo, hi) in rows.items()])


@pytest.mark.parametrize("observed, value, verdict", [
    ((0.10, 0.08, 0.12), (-0.01, -0.02, 0.0), "overstates"),  # the table's figure further from 0, the other side
    ((0.10, 0.08, 0.12), (0.02, 0.01, 0.03), "overstates"),
    ((-0.10, -0.12, -0.08), (-0.02, -0.03, -0.01), "overstates"),
    ((0.02, 0.01, 0.03), (0.10, 0.08, 0.12), "understates"),
    ((0.01, -0.01, 0.03), (-0.10, -0.12, -0.08), "understates"),
    ((0.05, 0.03, 0.07), (0.04, 0.02, 0.06), "agrees"),
])
def test_overstates_and_understates_by_which_estimate_is_further_from_0(observed, value, verdict):
    assert beside_verdict(Interval(*observed), Interval(*value), comparisons=1) == verdict


def test_the_confounding_words_follow_the_game():
    """"hides part of what it does" and "who gets to hold it" only where the game's players can link
    holding a card to winning: never for find-dr-evil's blind deal (selection None)."""
    pairs = planted_pairs({"card 2": 0.1}, 3, noise=0.05)
    observed = observed_table({"card 2": (0.0, -0.005, 0.005), "card 5": (0.08, 0.07, 0.09)})
    _, beside, linked = findings_of(pairs, observed, "players choose which cards to keep")
    assert set(beside.set_index("card").loc[["card 2", "card 5"], "verdict"]) == {"understates", "overstates"}
    (said,) = [f.text for f in linked if f.kind == "card_value_confounded"]
    assert "(players choose which cards to keep)" in said and "1 more card too" in said
    _, _, blind = findings_of(pairs, observed, None)
    (said,) = [f.text for f in blind if f.kind == "card_value_confounded"]
    assert "hides part of what it does" not in said and "most of the difference is who" not in said
    assert "not because of who gets to hold it (the game hands cards out blind)" in said


@pytest.mark.exhaustive  # 60 planted tables: about 9 s
def test_a_table_that_agrees_within_noise_is_rarely_said_to_differ():
    """40 cards whose table figure is the value plus its noise, 60 planted tables: the comparison is
    adjusted for the 40 cards, so at most about ALPHA of the tables set any card apart by chance
    (95% CIs compared one card at a time would set one apart in most of them)."""
    rng = np.random.default_rng(11)
    apart = 0
    for seed in range(60):
        values = card_values(planted_pairs({}, seed, states=60, noise=0.2), ["early"], CARDS).set_index("card")
        half = (values["ci_high"] - values["ci_low"]) / 2
        rows = {}
        for card in CARDS:
            d = values.loc[card, "value"] + rng.normal(0, np.hypot(half[card], 0.01) / 1.96)
            rows[card] = (d, d - 0.01, d + 0.01)
        beside = with_observed(values.reset_index(), observed_table(rows))
        apart += set(beside["verdict"]) != {"agrees"}
    assert apart <= 6
