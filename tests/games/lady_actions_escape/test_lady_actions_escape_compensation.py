"""lady-actions-escape's seat compensation (docs/rules/lady-actions-escape.md, "Seat compensation"):
``compensation.cards.K`` deals seat K that many cards more (negative: fewer) than rules.hand_size,
from the draw pile; in every kernel path; 0 is the rules as printed; a bad value is one line."""

from __future__ import annotations

import numpy as np
import pytest

import simbalance
from simbalance.api import plan_run
from simbalance.core.compensation import deal_order
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID
from simbalance.games.lady_actions_escape.replay import trace

COMPENSATED = {"compensation.cards.1": -1, "compensation.cards.3": 2}


def popcount(masks) -> np.ndarray:
    return np.array([bin(int(m)).count("1") for m in masks])


def test_the_printed_deal_is_the_round_robin():
    assert deal_order([5, 5, 5, 5]).tolist() == [0, 1, 2, 3] * 5
    assert deal_order([2, 1, 3]).tolist() == [0, 1, 2, 0, 2, 2]


@pytest.mark.parametrize("strategies", [["random"], ["blocker", "flexible", "steer", "random"]])
def test_a_seat_dealt_fewer_holds_fewer_and_every_card_is_kept(strategies):
    """Dealt 4, 5, 7, 5 cards; validate checks every turn that every card is in one place (a hand,
    the draw pile or the discard pile) and changes no game."""
    plain = simbalance.simulate("lady-actions-escape", 300, seed=3, strategies=strategies, overrides=COMPENSATED)
    checked = simbalance.simulate("lady-actions-escape", 300, seed=3, strategies=strategies, overrides=COMPENSATED,
                                  validate=True)
    assert np.array_equal(plain.records, checked.records)
    g = checked.games
    assert (g["end"] != END_INVALID).all()
    assert [set(popcount(g[f"dealt_mask_{s}"])) for s in range(4)] == [{4}, {5}, {7}, {5}]
    default = simbalance.simulate("lady-actions-escape", 300, seed=3, strategies=strategies).games
    assert [set(popcount(default[f"dealt_mask_{s}"])) for s in range(4)] == [{5}] * 4


def test_a_card_less_wins_more_often():
    """The compensation is what it says in play too: a seat dealt 2 cards fewer wins more often."""
    base = simbalance.simulate("lady-actions-escape", 3000, seed=1).games
    helped = simbalance.simulate("lady-actions-escape", 3000, seed=1, overrides={"compensation.cards.4": -2}).games
    assert (helped["winner"] == 3).mean() > (base["winner"] == 3).mean() + 0.05


def test_the_replay_and_a_search_seat_deal_the_same():
    setup = dict(players=4, strategies=["blocker"], overrides=COMPENSATED)
    res = simbalance.simulate("lady-actions-escape", 8, seed=11, **setup)
    plan = plan_run("lady-actions-escape", 8, seed=11, **setup)
    for game in (0, 5):
        out, _ = trace(plan, game)
        for field in res.records.dtype.names:
            assert np.array_equal(out[0][field], res.records[game][field]), (game, field)
    search = simbalance.simulate("lady-actions-escape", 2, seed=2, strategies=["mcts", "blocker", "blocker", "blocker"],
                                 overrides={**COMPENSATED, "strategies.mcts.iterations": 8.0}).games
    assert (search["end"] != END_INVALID).all()
    assert [set(popcount(search[f"dealt_mask_{s}"])) for s in range(4)] == [{4}, {5}, {7}, {5}]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"compensation.cards.2": -5}, r"^compensation.cards.2 = -5: allowed -4 to 33$"),
        ({"compensation.cards.1": 30, "compensation.cards.2": 30},
         r"^compensation.cards.1 = 30: the hands would need 80 cards .*; the deck has 53$"),
    ],
)
def test_bad_compensation_is_a_one_line_error(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("lady-actions-escape", 1, overrides=overrides)
