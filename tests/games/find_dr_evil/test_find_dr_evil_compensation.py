"""find-dr-evil's seat compensation (docs/rules/find-dr-evil.md, "Seat compensation"):
``compensation.cards.K`` deals seat K that many cards more (negative: fewer) than the printed deal,
the difference going to (coming from) the seats without compensation; every card is still dealt."""

from __future__ import annotations

import numpy as np
import pytest

import simbalance
from simbalance.api import plan_run
from simbalance.core.compensation import spread
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID
from simbalance.games.find_dr_evil.replay import trace


def dealt(games, players=4) -> list[set]:
    return [set(bin(int(m)).count("1") for m in games[f"dealt_mask_{s}"]) for s in range(players)]


def test_spread_gives_the_difference_to_the_seats_without_compensation():
    # 37 cards from seat 1 (index 1): 9, 10, 9, 9; seat 4 two fewer: seats 2 and 3 (from index 1) one more each
    assert spread([9, 10, 9, 9], [0, 0, 0, -2], 37, 1) == [9, 11, 10, 7]
    assert spread([9, 10, 9, 9], [2, 0, 0, 0], 37, 1) == [11, 9, 8, 9]
    assert spread([9, 10, 9, 9], [1, 1, 1, 1], 37, 1) == [9, 10, 9, 9]  # every seat one more: the same deal


def test_a_seat_dealt_fewer_holds_fewer_and_every_card_is_dealt():
    plain = simbalance.simulate("find-dr-evil", 400, seed=4, overrides={"compensation.cards.4": -2})
    checked = simbalance.simulate("find-dr-evil", 400, seed=4, overrides={"compensation.cards.4": -2}, validate=True)
    assert np.array_equal(plain.records, checked.records)  # validate: every card in exactly one hand or discarded
    g = checked.games
    assert (g["end"] != END_INVALID).all()
    assert dealt(g) == [{9}, {11}, {10}, {7}]
    masks = np.bitwise_or.reduce(np.stack([g[f"dealt_mask_{s}"].to_numpy() for s in range(4)]), axis=0)
    assert set(masks) == {np.uint64((1 << 37) - 1)}  # every card of the 37 dealt, none twice (counts add up)
    assert dealt(simbalance.simulate("find-dr-evil", 50, seed=4).games) == [{9}, {10}, {9}, {9}]


def test_the_replay_deals_the_same():
    setup = dict(players=4, overrides={"compensation.cards.2": -3})
    res = simbalance.simulate("find-dr-evil", 20, seed=11, **setup)
    plan = plan_run("find-dr-evil", 20, seed=11, **setup)
    for game in (0, 13):
        out, _ = trace(plan, game)
        for field in res.records.dtype.names:
            assert np.array_equal(out[0][field], res.records[game][field]), (game, field)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"compensation.cards.2": -10}, r"^compensation.cards.2 = -10: seat 2 would be dealt 0 cards of 37"),
        ({"compensation.cards.1": 30}, r"^compensation.cards.1 = 30: seat \d would be dealt -?\d+ cards of 37"),
        ({"compensation.cards.3": 38}, r"^compensation.cards.3 = 38: allowed -37 to 37$"),
    ],
)
def test_bad_compensation_is_a_one_line_error(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("find-dr-evil", 1, overrides=overrides)
