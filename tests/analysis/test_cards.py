"""Card impact: the jitted sums agree with a direct pandas computation, and Dr. Ling stands out."""

import numpy as np
import pandas as pd

import simbalance
from simbalance.analysis.cards import card_impact
from simbalance.analysis.stats import clustered_difference
from simbalance.studies.cards import card_table


def test_matches_a_direct_computation():
    rng = np.random.default_rng(1)
    n, players = 3000, 3
    winners = (1 << rng.integers(0, players, n)).astype(np.uint8)
    winners[:50] = 0b011  # some ties
    games = pd.DataFrame({"winners": winners, "length": rng.integers(5, 40, n)})
    masks = rng.integers(0, 16, (n, players)).astype(np.uint64)
    table = card_impact(games, players, {"held": masks}, ["a", "b", "c", "d"], {"a or b": [0, 1]})
    share = np.stack([((winners >> s) & 1) / np.bitwise_count(winners) for s in range(players)], axis=1).ravel()
    flat = masks.ravel()
    for subject, bits in (("c", 4), ("a or b", 3)):
        has = (flat & np.uint64(bits)) != 0
        row = table[table["subject"] == subject].iloc[0]
        assert np.isclose(row["win_rate_with"], share[has].mean())
        assert np.isclose(row["win_rate_without"], share[~has].mean())
        # the CI is clustered by game (issue 52): a game's seat-games are not independent rows
        clustered = clustered_difference(share, has, np.repeat(np.arange(n), players))
        assert np.isclose(row["difference"], clustered.estimate)
        assert np.isclose(row["ci_low"], clustered.low) and np.isclose(row["ci_high"], clustered.high)


def test_the_card_impact_ci_is_clustered_by_game_and_covers():
    """A planted game where a game's seats move together (every game a tie of all seats or no
    winner) and a card in every hand or none, independent of the outcome: its true effect is 0.
    Seat-games taken as independent rows make the CI about half as wide as it should be; clustered
    by game it covers at its nominal rate."""
    players, games, hits = 4, 400, 0
    rng = np.random.default_rng(5)
    for _ in range(300):
        winners = np.where(rng.random(games) < 0.5, 0b1111, 0).astype(np.uint8)
        held = np.where(rng.random(games) < 0.5, 1, 0).astype(np.uint64)
        frame = pd.DataFrame({"winners": winners, "length": rng.integers(5, 40, games)})
        row = card_impact(frame, players, {"held": np.repeat(held[:, None], players, axis=1)}, ["a"]).iloc[0]
        hits += row["ci_low"] <= 0.0 <= row["ci_high"]
    assert abs(hits / 300 - 0.95) < 0.04


def test_dr_ling_is_the_card_that_wins_find_dr_evil():
    res = simbalance.simulate("find-dr-evil", 50_000, seed=2)
    table = card_table(res.plan, res.stats_games)
    ling = table[table["subject"] == "Dr. Ling wildcard"].iloc[0]
    assert ling["ci_low"] > 0.08
    assert np.isclose(ling["win_rate_with"], res.summary()["game"]["share_won_by_seat_dealt_dr_ling"])
    others = table[(table["level"] == "card") & (table["subject"] != "Dr. Ling wildcard")]
    assert (others["difference"] < 0.02).all()
    assert "cards" in res.summary() and len(res.summary()["cards"]) == len(table)
