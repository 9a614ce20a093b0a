"""captain-action heuristics on chosen positions: ties broken uniformly at random from the game's own
stream, the collector's patience, and the report's caller metric on planted records."""

import numpy as np
import pandas as pd

import simbalance
from simbalance.core.config import load_config
from simbalance.core.rng import seed_game
from simbalance.games.captain_action.deck import game_deck
from simbalance.games.captain_action.engine import STRATEGY_PARAMS, prepare
from simbalance.games.captain_action.report import summarize
from simbalance.games.captain_action.state_nb import (
    BUILDER,
    COLLECTOR,
    P_CALL_SCORE,
    P_CALL_SLOPE,
    P_MIN_TURNS,
    P_PAIR_WEIGHT,
    P_TAKE_GAIN,
)
from simbalance.games.captain_action.strategies_nb import decide_call, decide_discard, decide_source

CFG = load_config("captain-action")
DECK = game_deck(CFG)
ID = {int(DECK.number[c]): c for c in range(DECK.size) if DECK.number[c] > 0}
CARD_INFO, SRULES, _, _ = prepare(CFG, 4)
HAND = 8


def builder_params():
    params = np.zeros(16)
    table = CFG["strategies"]["builder"]
    params[P_TAKE_GAIN] = table["take_gain"]
    params[P_PAIR_WEIGHT] = table["pair_weight"]
    params[P_CALL_SCORE] = table["call_score"]
    params[P_CALL_SLOPE] = table["call_slope"]
    return params


def work():
    n_bg, n_ch = len(DECK.backgrounds), len(DECK.characters)
    return np.zeros((3, max(n_bg, n_ch)), np.int64), np.zeros(n_bg + n_ch + DECK.size + 1, np.int64)


def hand_of(numbers):
    hand = np.zeros((1, HAND + 1), np.int64)
    hand[0, :] = [ID[n] for n in numbers]
    return hand


def test_parameter_constants_follow_the_declared_names():
    for name in ("builder", "collector"):
        names = STRATEGY_PARAMS[name]
        assert names.index("take_gain") == P_TAKE_GAIN and names.index("pair_weight") == P_PAIR_WEIGHT
        assert names.index("call_score") == P_CALL_SCORE and names.index("call_slope") == P_CALL_SLOPE
    assert STRATEGY_PARAMS["collector"].index("min_turns") == P_MIN_TURNS
    assert list(CFG["strategies"]["collector"])[1:] == list(STRATEGY_PARAMS["collector"])


def test_equal_discards_are_chosen_uniformly_at_random():
    # CA 1 2 3 (12) + AB 5 6 7 (24) + periwinkle 1 5 9 (16): every one of these cards is in a set.
    # Dr. Evil 13 (slot 7) and 25 (the drawn card, slot 8) are in no set: discarding either leaves the
    # same hand value. The old scan always kept the first (slot 7).
    cnt, scratch = work()
    state = np.zeros(1, np.uint64)
    chosen = []
    for game in range(2000):
        seed_game(state, 3, game)
        hand = hand_of([1, 2, 3, 5, 6, 7, 9, 13, 25])
        chosen.append(decide_discard(BUILDER, builder_params(), state, 0, hand, 0, HAND, -1, CARD_INFO, SRULES,
                                     cnt, scratch))
    chosen = np.array(chosen)
    assert set(chosen.tolist()) == {7, 8}
    assert abs((chosen == 7).mean() - 0.5) < 0.04  # 2000 streams: the standard error is 0.011


def test_three_equal_discards_are_each_chosen_a_third_of_the_time():
    cnt, scratch = work()
    state = np.zeros(1, np.uint64)
    chosen = []
    for game in range(3000):
        seed_game(state, 4, game)
        hand = hand_of([1, 2, 3, 5, 6, 7, 13, 25, 41])
        chosen.append(decide_discard(BUILDER, builder_params(), state, 0, hand, 0, HAND, -1, CARD_INFO, SRULES,
                                     cnt, scratch))
    shares = np.bincount(np.array(chosen), minlength=HAND + 1)[6:] / 3000
    assert np.all(np.abs(shares - 1 / 3) < 0.04), shares


def test_a_forbidden_slot_is_never_chosen_even_in_a_tie():
    cnt, scratch = work()
    state = np.zeros(1, np.uint64)
    for game in range(300):
        seed_game(state, 5, game)
        hand = hand_of([1, 2, 3, 5, 6, 7, 9, 13, 25])
        assert decide_discard(BUILDER, builder_params(), state, 0, hand, 0, HAND, 8, CARD_INFO, SRULES, cnt,
                              scratch) == 7


def test_judging_the_discard_pile_draws_nothing_from_the_stream():
    # decide_source only needs the best value after taking the card, not which card would go.
    cnt, scratch = work()
    state = np.zeros(1, np.uint64)
    seed_game(state, 6, 0)
    before = state.copy()
    hand = hand_of([1, 2, 3, 5, 6, 7, 9, 13, 25])
    decide_source(BUILDER, builder_params(), state, 0, hand, 0, HAND, ID[41], CARD_INFO, SRULES, cnt, scratch)
    assert state[0] == before[0]


def test_collector_does_not_call_before_its_min_turns_th_turn():
    params = builder_params()
    params[P_MIN_TURNS] = 3
    state = np.zeros(1, np.uint64)
    # A hand worth 100 with a full Countdown Deck: builder calls at once, collector waits.
    assert decide_call(BUILDER, params, state, 0, 100, 9, 1)
    assert not decide_call(COLLECTOR, params, state, 0, 100, 9, 1)  # its first turn (step 0)
    assert not decide_call(COLLECTOR, params, state, 1, 100, 8, 2)
    assert decide_call(COLLECTOR, params, state, 2, 100, 7, 3)  # its third turn
    assert not decide_call(COLLECTOR, params, state, 2, 20, 7, 3)  # ... with builder's bar


def test_collectors_never_call_on_their_first_turn_and_play_longer_games_than_builders():
    n = 3000
    col = simbalance.simulate("captain-action", n, seed=8, strategies=["collector"], validate=True).games
    bld = simbalance.simulate("captain-action", n, seed=8, strategies=["builder"]).games
    players = 4
    called = col["caller"] >= 0
    # The caller's own turn number: turns are dealt round-robin from seat 0.
    own_turn = (col["length"] - 1) // players + 1
    assert (own_turn[called] >= 2).all()
    assert col["length"].min() > players  # nobody calls during the first round
    assert col["length"].mean() > bld["length"].mean() + 2
    assert col["length"].median() > bld["length"].median()


def planted(rows):
    """Records with only the fields summarize reads."""
    g = pd.DataFrame(rows, columns=["caller", "winners", "countdown_left", "countdown_out"])
    for s in range(2):
        g[f"score_{s}"] = 0
        g[f"hand_score_{s}"] = 0
        g[f"takes_{s}"] = 0
    return g


def test_a_tied_caller_counts_one_over_k_as_a_win():
    # Game 0: seat 0 calls and wins alone; game 1: seat 0 calls and ties with seat 1 (1/2);
    # game 2: seat 1 calls and loses; game 3: nobody calls (not counted).
    g = planted([[0, 0b01, 5, 0], [0, 0b11, 4, 0], [1, 0b01, 3, 0], [-1, 0b10, 0, 1]])
    assert summarize(g, 2, {})["share_caller_wins"] == (1 + 0.5 + 0) / 3
