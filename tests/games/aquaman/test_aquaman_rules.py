"""Scripted aquaman situations with exact outcomes, one rule at a time (docs/rules/aquaman.md)."""

from __future__ import annotations

import numpy as np
import pytest
from aquaman_helpers import (
    NO_PARAMS,
    RAIDER,
    RUNNER,
    activate,
    arrange,
    board_at,
    card,
    cell,
    deck_top_first,
    discard_pile,
    fight,
    hand,
    land,
    make,
    play_game,
    play_mission,
    play_turn,
    rest,
)

from simbalance.games.aquaman.rules_nb import can_mission, location_shows, setup_game
from simbalance.games.aquaman.state_nb import (
    C_DECK,
    C_DICE,
    C_REFILLS,
    C_TURN,
    FOE,
    P_POWER_BAR,
    PLOT,
    R_COLS,
    S_RAIDER,
    S_RANDOM,
    S_RUNNER,
    ST_FIGHTS,
    ST_FOE_HITS,
    ST_STOLEN,
    ST_TAKEN,
    ST_USE,
    ST_WON,
    V_MISSIONS,
    V_POS,
    X_REACH,
    draw,
    reachable,
)
from simbalance.games.aquaman.strategies_nb import choose_swim, random_swim


def seats_params(*rows):
    return np.array(rows, dtype=np.float64)


# ---------------------------------------------------------------- swim


def reach(G, S, start, dice):
    for k, d in enumerate(dice):
        S.ctr[C_DICE + k] = d
    n = reachable(G, S, cell(G, *start))
    full = (1 << len(dice)) - 1
    cols = int(G.rules[R_COLS])
    return {divmod(int(x) // 3, cols) for x in S.scratch[X_REACH + full, :n]}


def test_both_orders_of_the_dice_from_a_corner():
    G, S = make()
    arrange(G, S)
    # 3 then 5: (3,0)->(3,5), (0,3)->(5,3); 5 then 3: (5,0)->(2,0)|(5,3), (0,5)->(0,2)|(3,5)
    assert reach(G, S, (0, 0), (3, 5)) == {(3, 5), (5, 3), (2, 0), (0, 2)}


def test_right_angle_legs_variant():
    G, S = make(rules__legs="turn")
    arrange(G, S)
    # down 3 then right 5, right 3 then down 5, down 5 then right 3, right 5 then down 3
    assert reach(G, S, (0, 0), (3, 5)) == {(3, 5), (5, 3)}
    # a skipped leg does not fix a direction: the 1 may go any way
    assert reach(G, S, (3, 3), (6, 1)) == {(2, 3), (4, 3), (3, 2), (3, 4)}
    cols = int(G.rules[R_COLS])
    seen = set()
    for seed in range(200):
        arrange(G, S, seed=seed)
        S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
        seen.add(divmod(int(random_swim(G, S, cell(G, 0, 0))), cols))
    assert seen == {(3, 5), (5, 3)}


def test_a_leg_that_would_leave_the_board_everywhere_is_skipped():
    G, S = make()
    arrange(G, S)
    # a 6 from row 3 / column 3 leaves the board in every direction: only the 1 moves
    assert reach(G, S, (3, 3), (6, 1)) == {(2, 3), (4, 3), (3, 2), (3, 4)}
    # both legs skipped: the pawn stays (and still lands on its own square)
    assert reach(G, S, (3, 3), (6, 6)) == {(3, 3)}


def test_board_edges_skip_and_clamp_variant():
    G, S = make()
    arrange(G, S)
    assert reach(G, S, (0, 0), (6, 6)) == {(0, 0), (6, 6)}
    G, S = make(rules__leg_off_board="clamp")
    arrange(G, S)
    assert reach(G, S, (0, 0), (6, 6)) == {(0, 0), (7, 0), (6, 6), (0, 7)}


def test_random_swim_is_legal_and_uses_both_orders():
    G, S = make()
    arrange(G, S)
    legal = reach(G, S, (0, 0), (3, 5))
    seen = set()
    cols = int(G.rules[R_COLS])
    for seed in range(300):
        arrange(G, S, seed=seed)
        S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
        seen.add(divmod(int(random_swim(G, S, cell(G, 0, 0))), cols))
    assert seen == legal


def test_runner_swims_to_a_missing_suit_and_avoids_fights():
    G, S = make()
    board = {(3, 5): "X9", (5, 3): "A16", (2, 0): "C14", (0, 2): "O1"}
    arrange(G, S, board=board, hands={0: ["A2", "C2"]}, pos={1: (7, 7), 2: (7, 6), 3: (6, 7)})
    S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
    assert choose_swim(G, S, 0, S_RUNNER, RUNNER) == cell(G, 3, 5)
    arrange(G, S, board=board, hands={0: ["A2", "C2"]}, pos={1: (3, 5), 2: (7, 6), 3: (6, 7)})
    S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
    assert choose_swim(G, S, 0, S_RUNNER, RUNNER) == cell(G, 0, 2)


# ---------------------------------------------------------------- action: board cards


def test_landing_takes_the_card_and_refills_from_the_deck():
    G, S = make()
    arrange(G, S, deck=["A1", "A2"], board={(3, 3): "X9"}, pos={0: (3, 3)})
    land(G, S, 0, np.zeros(4, np.int64), seats_params(*[NO_PARAMS] * 4))
    assert hand(G, S, 0) == ["X9"]
    assert board_at(G, S, 3, 3) == "A1"
    assert deck_top_first(G, S) == ["A2"]
    assert S.seat[0, ST_TAKEN] == 1


def test_refill_from_the_discard_pile_and_from_nothing():
    G, S = make()
    arrange(G, S, discard=["C4"], board={(3, 3): "X9"}, pos={0: (3, 3)})
    land(G, S, 0, np.zeros(4, np.int64), seats_params(*[NO_PARAMS] * 4))
    assert board_at(G, S, 3, 3) == "C4" and S.ctr[C_REFILLS] == 1 and discard_pile(G, S) == []
    arrange(G, S, board={(3, 3): "X9"}, pos={0: (3, 3)})
    land(G, S, 0, np.zeros(4, np.int64), seats_params(*[NO_PARAMS] * 4))
    assert hand(G, S, 0) == ["X9"] and board_at(G, S, 3, 3) is None
    land(G, S, 0, np.zeros(4, np.int64), seats_params(*[NO_PARAMS] * 4))  # an empty square gives nothing
    assert hand(G, S, 0) == ["X9"] and S.seat[0, ST_TAKEN] == 1


def test_draw_refills_an_empty_deck_by_shuffling_the_discard_pile():
    G, S = make()
    arrange(G, S, discard=["A1", "A2", "A3"])
    got = draw(G, S)
    assert got in {card(G, "A1"), card(G, "A2"), card(G, "A3")}
    assert S.ctr[C_REFILLS] == 1 and S.ctr[C_DECK] == 2 and discard_pile(G, S) == []
    G, S = make(rules__reshuffle=False)
    arrange(G, S, discard=["A1"])
    assert draw(G, S) == -1 and discard_pile(G, S) == ["A1"]


# ---------------------------------------------------------------- powers


def test_aquaman_draws_a_third_card_when_the_two_sum_below_its_rank():
    G, S = make()
    arrange(G, S, deck=["C3", "X4", "P9", "F1"], hands={0: ["A10"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 0) == ["C3", "P9", "X4"] and deck_top_first(G, S) == ["F1"]
    assert discard_pile(G, S) == ["A10"] and S.seat[0, ST_USE + 0] == 1
    arrange(G, S, deck=["C3", "X4", "P9", "F1"], hands={0: ["A7"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # 3 + 4 = 7 is not below 7
    assert hand(G, S, 0) == ["C3", "X4"] and deck_top_first(G, S) == ["P9", "F1"]


def test_aquaman_draws_through_a_deck_refill():
    G, S = make()
    arrange(G, S, deck=["C3"], discard=["L1", "L2"], hands={0: ["A10"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 0) == ["C3", "L1", "L2"] and S.ctr[C_REFILLS] == 1
    assert discard_pile(G, S) == ["A10"]  # the activated card is discarded after the refill
    G, S = make(rules__reshuffle=False)
    arrange(G, S, deck=["C3"], discard=["L1", "L2"], hands={0: ["A10"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 0) == ["C3"] and discard_pile(G, S) == ["L1", "L2", "A10"]


def test_companion_keeps_one_lower_card_and_discards_the_rest():
    G, S = make()
    arrange(G, S, deck=["A5", "X3", "P12", "F6", "L1"], hands={0: ["C8", "A1"]})
    activate(G, S, 0, S_RUNNER, RUNNER, 0)  # lower than 8: A5 (suit held), X3, F6 (missing): F6
    assert hand(G, S, 0) == ["A1", "F6"]
    assert discard_pile(G, S) == ["A5", "X3", "P12", "C8"] and deck_top_first(G, S) == ["L1"]
    arrange(G, S, deck=["A5", "X3", "P12", "F6", "L1"], hands={0: ["C2", "A1"]})
    activate(G, S, 0, S_RUNNER, RUNNER, 0)  # nothing lower than 2: all four go
    assert hand(G, S, 0) == ["A1"] and discard_pile(G, S) == ["A5", "X3", "P12", "F6", "C2"]


def test_sea_creature_takes_the_top_discard_before_its_own_card_lands_there():
    G, S = make()
    arrange(G, S, discard=["L2", "O4"], hands={0: ["X9"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 0) == ["O4"] and discard_pile(G, S) == ["L2", "X9"]
    arrange(G, S, discard=["L2", "O4"], hands={0: ["X4"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # O4 is not lower than 4: fizzles, card still spent
    assert hand(G, S, 0) == [] and discard_pile(G, S) == ["L2", "O4", "X4"]
    G, S = make(rules__activated_card="before")
    arrange(G, S, discard=["L2", "O4"], hands={0: ["X9"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # its own card is on top now, and not lower
    assert hand(G, S, 0) == [] and discard_pile(G, S) == ["L2", "O4", "X9"]


def test_plot_targets_only_free_squares_with_a_lower_card():
    G, S = make()
    board = {(2, 2): "A3", (4, 4): "C2", (5, 5): "X7"}
    arrange(G, S, board=board, hands={0: ["P5"]}, pos={1: (4, 4)})
    assert activate(G, S, 0, S_RANDOM, NO_PARAMS, 0) == cell(G, 2, 2)
    assert S.seat[0, ST_USE + PLOT] == 1
    arrange(G, S, board=board, hands={0: ["P2"]}, pos={1: (4, 4)})
    assert activate(G, S, 0, S_RANDOM, NO_PARAMS, 0) == -1  # nothing lower than 2: fizzles


def test_plot_moves_the_pawn_without_a_roll_in_a_whole_turn():
    G, S = make()
    cards = ["A1", "C1", "X1", "F1", "O1", "S1", "P16", "P15"]  # missing Location
    arrange(G, S, deck=["A9"], board={(2, 2): "L14"}, hands={0: cards})
    par = np.array([RUNNER] * 4)
    par[0, P_POWER_BAR] = 0.0
    strat = np.full(4, S_RUNNER, np.int64)
    play_turn(G, S, 0, strat, par)
    assert S.seat[0, V_POS] == cell(G, 2, 2)  # P15 took the pawn to the L14
    assert S.seat[0, V_MISSIONS] == 1 and hand(G, S, 0) == []
    assert board_at(G, S, 2, 2) == "A9"
    assert discard_pile(G, S)[0] == "P15"


def test_foe_discards_a_lower_card_of_an_orthogonally_adjacent_opponent():
    G, S = make()
    arrange(G, S, hands={0: ["F10"], 1: ["A3"]}, pos={0: (3, 3), 1: (3, 4)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 1) == [] and discard_pile(G, S) == ["A3", "F10"] and S.seat[0, ST_FOE_HITS] == 1
    arrange(G, S, hands={0: ["F3"], 1: ["A3"]}, pos={0: (3, 3), 1: (3, 4)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # not lower: kept
    assert hand(G, S, 1) == ["A3"] and S.seat[0, ST_USE + FOE] == 1
    for where in ((4, 4), (3, 3), (3, 5)):  # diagonal, same square, two away: not adjacent
        arrange(G, S, hands={0: ["F10"], 1: ["A3"]}, pos={0: (3, 3), 1: where})
        activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
        assert hand(G, S, 1) == ["A3"]
    G, S = make(rules__adjacency="king")
    arrange(G, S, hands={0: ["F10"], 1: ["A3"]}, pos={0: (3, 3), 1: (4, 4)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 1) == []


def test_power_swaps_chosen_cards_not_above_its_rank():
    G, S = make()
    arrange(G, S, deck=["L5", "L6", "L7"], hands={0: ["O6", "A3", "A4", "C9", "A2"]})
    activate(G, S, 0, S_RUNNER, RUNNER, 0)
    # the runner swaps the spare Aquamans and keeps the highest of the suit; C9 is above 6
    assert hand(G, S, 0) == ["A4", "C9", "L5", "L6"]
    assert sorted(discard_pile(G, S)[:2]) == ["A2", "A3"] and discard_pile(G, S)[2] == "O6"
    assert deck_top_first(G, S) == ["L7"]


def test_strangeness_takes_an_adjacent_lower_card_even_under_a_pawn():
    G, S = make()
    board = {(2, 3): "X5", (3, 5): "C2", (4, 4): "A1"}
    arrange(G, S, deck=["P1"], board=board, hands={0: ["S8"]}, pos={0: (3, 3), 1: (2, 3)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # (3,5) is two away, (4,4) diagonal: only X5
    assert hand(G, S, 0) == ["X5"] and board_at(G, S, 2, 3) == "P1"
    arrange(G, S, deck=["P1"], board={(2, 3): "X8"}, hands={0: ["S8"]}, pos={0: (3, 3)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)  # not lower
    assert hand(G, S, 0) == [] and board_at(G, S, 2, 3) == "X8"
    G, S = make(rules__adjacency="king")
    arrange(G, S, deck=["P1"], board={(4, 4): "A1"}, hands={0: ["S8"]}, pos={0: (3, 3)})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert hand(G, S, 0) == ["A1"] and board_at(G, S, 4, 4) == "P1"


def test_location_only_shows_cards():
    G, S = make()
    arrange(G, S, deck=["A1", "A2", "A3"], hands={0: ["L10"]})
    assert location_shows(G, S, 10) == 3 and location_shows(G, S, 2) == 2
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert deck_top_first(G, S) == ["A1", "A2", "A3"] and discard_pile(G, S) == ["L10"]
    assert hand(G, S, 0) == [] and S.ctr[C_REFILLS] == 0


# ---------------------------------------------------------------- fights


def raiders():
    return np.full(4, S_RAIDER, np.int64), np.array([RAIDER] * 4)


def test_fight_tie_makes_both_reveal_again_and_the_winner_steals():
    G, S = make()
    arrange(G, S, hands={0: ["A9", "C7"], 1: ["X9", "F3", "O2"]})
    strat, par = raiders()  # raiders reveal their highest card
    assert fight(G, S, 0, 1, strat, par) == 0  # 9 = 9, then 7 > 3
    assert hand(G, S, 0) == ["O2"] and hand(G, S, 1) == []
    assert discard_pile(G, S) == ["A9", "X9", "C7", "F3"]
    assert list(S.seat[:2, ST_FIGHTS]) == [1, 1] and list(S.seat[:2, ST_WON]) == [1, 0]
    assert S.seat[0, ST_STOLEN] == 1


def test_fight_ties_once_variant_and_repeat_default():
    hands = {0: ["A9", "C7", "O5"], 1: ["X9", "F7", "S2"]}
    G, S = make()
    arrange(G, S, hands=hands)
    assert fight(G, S, 0, 1, *raiders()) == 0  # 9 = 9, 7 = 7, 5 > 2; nothing left to steal
    assert hand(G, S, 0) == [] and hand(G, S, 1) == []
    G, S = make(rules__fight_ties="once")
    arrange(G, S, hands=hands)
    assert fight(G, S, 0, 1, *raiders()) == -1  # the second tie ends it: nobody wins
    assert hand(G, S, 0) == ["O5"] and hand(G, S, 1) == ["S2"] and S.seat[0, ST_WON] == 0


def test_fight_with_an_empty_hand_ends_before_the_reveal():
    G, S = make()  # default rules.cannot_reveal = "ends": hand sizes are public, nobody reveals
    for hands in ({0: ["A5"], 1: []}, {0: [], 1: ["A5"]}, {0: [], 1: []}):
        arrange(G, S, hands=hands)
        assert fight(G, S, 0, 1, *raiders()) == -1
        assert hand(G, S, 0) == sorted(hands[0]) and hand(G, S, 1) == sorted(hands[1])
        assert discard_pile(G, S) == [] and list(S.seat[:2, ST_WON]) == [0, 0]
        assert list(S.seat[:2, ST_FIGHTS]) == [1, 1]  # it still counts as a fight
    # after a tie: the next reveal does not happen when one of them has no card left
    arrange(G, S, hands={0: ["A9", "C7"], 1: ["X9"]})
    assert fight(G, S, 0, 1, *raiders()) == -1
    assert hand(G, S, 0) == ["C7"] and hand(G, S, 1) == [] and discard_pile(G, S) == ["A9", "X9"]


def test_fight_with_an_empty_hand_loses_and_draws_readings():
    G, S = make(rules__cannot_reveal="loses")
    arrange(G, S, hands={0: ["A5"], 1: []})
    assert fight(G, S, 0, 1, *raiders()) == 0  # b cannot reveal: loses, gives nothing
    assert discard_pile(G, S) == ["A5"] and S.seat[0, ST_STOLEN] == 0
    arrange(G, S, hands={0: [], 1: ["A5"]})
    assert fight(G, S, 0, 1, *raiders()) == 1 and discard_pile(G, S) == ["A5"] and hand(G, S, 1) == []
    arrange(G, S, hands={0: ["A9", "C7"], 1: ["X9"]})  # a tie, then b cannot reveal
    assert fight(G, S, 0, 1, *raiders()) == 0 and discard_pile(G, S) == ["A9", "X9", "C7"]
    arrange(G, S, hands={0: [], 1: []})
    assert fight(G, S, 0, 1, *raiders()) == -1
    assert list(S.seat[:2, ST_FIGHTS]) == [1, 1]
    G, S = make(rules__cannot_reveal="draws")
    arrange(G, S, hands={0: ["A5"], 1: []})
    assert fight(G, S, 0, 1, *raiders()) == -1 and discard_pile(G, S) == ["A5"] and S.seat[0, ST_WON] == 0


def test_empty_hand_variants_restore_the_other_readings():
    from simbalance.api import plan_run

    for variant, reading in (("empty-hand-loses", "loses"), ("empty-hand-draws", "draws")):
        assert plan_run("aquaman", 1, variants=[variant]).config["rules"]["cannot_reveal"] == reading
    assert plan_run("aquaman", 1).config["rules"]["cannot_reveal"] == "ends"


def test_landing_on_a_pawn_fights_and_takes_no_card():
    G, S = make()
    arrange(G, S, board={(3, 3): "L9"}, hands={0: ["A9"], 1: ["C3"], 2: ["X1", "X2", "X3"]},
            pos={0: (3, 3), 1: (3, 3), 2: (3, 3)})
    strat = np.full(4, S_RUNNER, np.int64)
    land(G, S, 0, strat, np.array([RUNNER] * 4))
    # the runner fights the opponent with more cards (seat 2): A9 beats its X3 and steals
    assert S.seat[2, ST_FIGHTS] == 1 and S.seat[1, ST_FIGHTS] == 0 and S.seat[0, ST_WON] == 1
    assert board_at(G, S, 3, 3) == "L9" and S.seat[0, ST_TAKEN] == 0
    assert len(hand(G, S, 0)) == 1 and len(hand(G, S, 2)) == 1


# ---------------------------------------------------------------- mission, rest, win


def test_mission_needs_every_suit_and_discards_one_of_each():
    G, S = make()
    seven = ["A1", "C2", "X3", "P4", "F5", "O6", "S7"]
    arrange(G, S, hands={0: seven})
    assert not can_mission(G, S, 0)
    arrange(G, S, hands={0: ["A1", "A5", "C2", "X3", "P4", "F5", "O6", "S7", "L8", "L2"]})
    assert can_mission(G, S, 0)
    play_mission(G, S, 0, S_RUNNER, RUNNER)  # the runner gives the lowest card of each suit
    assert hand(G, S, 0) == ["A5", "L8"] and S.seat[0, V_MISSIONS] == 1
    assert sorted(discard_pile(G, S)) == sorted(["A1", "C2", "X3", "P4", "F5", "O6", "S7", "L2"])


def test_mission_of_fewer_suits_variant():
    G, S = make(rules__mission_suits=6)
    arrange(G, S, hands={0: ["A1", "A5", "C2", "X3", "P4", "F5", "O6", "S7", "L8", "L2"]})
    play_mission(G, S, 0, S_RUNNER, RUNNER)  # most-held suits first (A, L), then 4 of the 6 others
    left = hand(G, S, 0)  # (uniformly: tests/games/aquaman/test_aquaman_players.py)
    assert {"A5", "L8"} < set(left) and len(left) == 4
    assert set(left) - {"A5", "L8"} < {"C2", "X3", "P4", "F5", "O6", "S7"} and S.seat[0, V_MISSIONS] == 1


def test_rest_discards_down_to_the_hand_limit():
    G, S = make()
    cards = ["A1", "A2", "A3", "A4", "C5", "X6", "P7", "F8", "O9", "S10", "L11", "L12"]
    arrange(G, S, hands={0: cards})
    rest(G, S, 0, S_RUNNER, RUNNER)
    assert hand(G, S, 0) == sorted(cards[2:]) and discard_pile(G, S) == ["A1", "A2"]
    G, S = make(rules__hand_limit=4)
    arrange(G, S, hands={0: cards})
    rest(G, S, 0, S_RANDOM, NO_PARAMS)
    assert len(hand(G, S, 0)) == 4 and len(discard_pile(G, S)) == 8


def test_third_mission_wins_at_once():
    G, S = make(players=2, rules__power_min_hand=1000)
    cards = ["A1", "C2", "X3", "P4", "F5", "O6", "S7", "L8"]
    arrange(G, S, deck=["A1"] * 0, hands={0: cards}, pos={1: (4, 4)})
    S.seat[0, V_MISSIONS] = 2
    S.ctr[C_TURN] = 0
    strat = np.full(2, S_RUNNER, np.int64)
    assert play_game(G, S, strat, np.array([RUNNER] * 2)) == 0
    assert S.ctr[C_TURN] == 1 and S.seat[0, V_MISSIONS] == 3
    arrange(G, S, hands={0: cards[:7]}, pos={1: (4, 4)})  # no mission possible: no win
    S.seat[0, V_MISSIONS] = 2
    assert not play_turn(G, S, 0, strat, np.array([RUNNER] * 2))


def test_setup_deals_the_board_and_three_cards_each():
    G, S = make()
    S.rng[0] = 99
    setup_game(G, S)
    cells = G.move_to.shape[0]
    assert (S.cards[3, :cells] >= 0).all()
    assert S.ctr[C_DECK] == 128 - 64 - 12
    assert [len(hand(G, S, s)) for s in range(4)] == [3, 3, 3, 3]
    corners = [cell(G, 0, 0), cell(G, 7, 7), cell(G, 0, 7), cell(G, 7, 0)]
    assert list(S.seat[:, V_POS]) == corners


@pytest.mark.parametrize("players,corners", [(2, [(0, 0), (7, 7)]), (3, [(0, 0), (7, 7), (0, 7)])])
def test_corners_by_seat(players, corners):
    G, S = make(players=players)
    S.rng[0] = 1
    setup_game(G, S)
    assert list(S.seat[:, V_POS]) == [cell(G, *rc) for rc in corners]
