"""aquaman's seat compensation (docs/rules/aquaman.md, "Seat compensation"): ``compensation.cards.K``
deals seat K more (fewer) cards than rules.start_hand, ``compensation.hand_limit.K`` lets it keep
more (fewer) at the rest phase; in every kernel path; 0 is the rules as printed; a bad value is one line."""

from __future__ import annotations

import numpy as np
import pytest
from aquaman_helpers import NO_PARAMS, RUNNER, arrange, discard_pile, hand, make, rest

import simbalance
from simbalance.api import plan_run
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID
from simbalance.core.rng import seed_game
from simbalance.games.aquaman.replay import trace
from simbalance.games.aquaman.rules_nb import setup_game
from simbalance.games.aquaman.state_nb import C_DECK, S_RANDOM, S_RUNNER, V_HAND_N
from simbalance.games.aquaman.validate_nb import check

CARDS = ["A1", "A2", "A3", "A4", "C5", "X6", "P7", "F8", "O9", "S10", "L11", "L12"]


def dealt(**overrides) -> tuple[list[int], int, int]:
    G, S = make(**overrides)
    seed_game(S.rng, 5, 0)
    setup_game(G, S)
    return [int(S.seat[s, V_HAND_N]) for s in range(4)], int(S.ctr[C_DECK]), int(check(G, S))


def test_a_seat_dealt_more_or_fewer_holds_them_and_every_card_is_kept():
    hands, deck, bad = dealt()
    assert hands == [3, 3, 3, 3] and deck == 128 - 64 - 12 and bad == 0
    hands, deck, bad = dealt(compensation__cards__1=-2, compensation__cards__4=3)
    assert hands == [1, 3, 3, 6] and deck == 128 - 64 - 13 and bad == 0  # the deck gave one more in all


@pytest.mark.parametrize(("limit", "kept"), [(0, 10), (-3, 7), (1, 11)])
def test_the_rest_phase_keeps_the_seats_own_limit(limit, kept):
    G, S = make(compensation__hand_limit__1=limit)
    arrange(G, S, hands={0: CARDS})
    rest(G, S, 0, S_RUNNER, RUNNER)
    assert len(hand(G, S, 0)) == kept and len(discard_pile(G, S)) == 12 - kept
    G, S = make(compensation__hand_limit__2=-4)  # another seat's limit leaves seat 1's alone
    arrange(G, S, hands={0: CARDS, 1: CARDS[:1]})
    rest(G, S, 0, S_RANDOM, NO_PARAMS)
    assert len(hand(G, S, 0)) == 10


COMPENSATED = {"compensation.cards.1": -1, "compensation.cards.3": 2, "compensation.hand_limit.1": -2,
               "compensation.hand_limit.4": 3}


@pytest.mark.parametrize("strategies", [["runner"], ["random", "raider", "runner", "raider"]])
def test_validate_passes_and_changes_no_game_with_compensation(strategies):
    plain = simbalance.simulate("aquaman", 200, seed=7, strategies=strategies, overrides=COMPENSATED).records
    checked = simbalance.simulate("aquaman", 200, seed=7, strategies=strategies, overrides=COMPENSATED,
                                  validate=True).records
    assert np.array_equal(plain, checked) and not (checked["end"] == END_INVALID).any()


def test_fewer_cards_win_less():
    base = simbalance.simulate("aquaman", 1500, seed=1).games
    fewer = simbalance.simulate("aquaman", 1500, seed=1, overrides={"compensation.cards.1": -2}).games
    assert (fewer["winner"] == 0).mean() < (base["winner"] == 0).mean() - 0.1


def test_the_replay_and_a_search_seat_play_the_same():
    setup = dict(players=4, strategies=["runner"], overrides=COMPENSATED)
    res = simbalance.simulate("aquaman", 6, seed=11, **setup)
    plan = plan_run("aquaman", 6, seed=11, **setup)
    for game in (0, 5):
        out, _ = trace(plan, game)
        for field in res.records.dtype.names:
            assert np.array_equal(out[0][field], res.records[game][field]), (game, field)
    search = simbalance.simulate("aquaman", 2, seed=2, strategies=["mcts", "runner", "runner", "runner"],
                                 overrides={**COMPENSATED, "strategies.mcts.iterations": 8.0}, validate=True).games
    assert (search["end"] != END_INVALID).all()


@pytest.mark.parametrize(("overrides", "message"), [
    ({"compensation.cards.2": -4}, r"^compensation.cards.2 = -4: allowed -3 to 52$"),
    ({"compensation.cards.1": 30, "compensation.cards.2": 30},
     r"^compensation.cards.1 = 30: the hands and the board would need 136 cards .*; the deck has 128$"),
    ({"compensation.hand_limit.3": -11}, r"^compensation.hand_limit.3 = -11: allowed -10 to 990$"),
])
def test_bad_compensation_is_a_one_line_error(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("aquaman", 1, overrides=overrides)
