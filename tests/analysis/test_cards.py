"""Card impact: the jitted sums agree with a direct pandas computation, and Dr. Ling stands out."""

import numpy as np
import pandas as pd

import simbalance
from simbalance.analysis.cards import card_impact
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
        se = np.sqrt(share[has].var(ddof=1) / has.sum() + share[~has].var(ddof=1) / (~has).sum())
        assert np.isclose(row["ci_high"] - row["difference"], 1.959963984540054 * se)


def test_dr_ling_is_the_card_that_wins_find_dr_evil():
    res = simbalance.simulate("find-dr-evil", 50_000, seed=2)
    table = card_table(res.plan, res.stats_games)
    ling = table[table["subject"] == "Dr. Ling wildcard"].iloc[0]
    assert ling["ci_low"] > 0.08
    assert np.isclose(ling["win_rate_with"], res.summary()["game"]["share_won_by_seat_dealt_dr_ling"])
    others = table[(table["level"] == "card") & (table["subject"] != "Dr. Ling wildcard")]
    assert (others["difference"] < 0.02).all()
    assert "cards" in res.summary() and len(res.summary()["cards"]) == len(table)
