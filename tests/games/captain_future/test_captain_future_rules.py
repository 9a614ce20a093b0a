"""captain-future: scripted positions with exact outcomes for every rule (docs/rules/captain-future.md)."""

from __future__ import annotations

import numpy as np
import pytest
from captain_future_helpers import Table

from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future.rules_nb import (
    attack_cost,
    attackable,
    body_points,
    can_attack,
    can_exchange,
    can_land,
    deal,
    draw_card,
    exchange,
    grag,
    grag_ok,
    land,
    majority_holder,
    move_stone,
    otto,
    otto_ok,
    pay_named_cheapest,
    play_event_card,
    recall_ship,
    refill_hand,
    resolve_attack,
    scores_recomputed,
    stone_place,
)
from simbalance.games.captain_future.state_nb import (
    CAT_ABSENT,
    CAT_MAJORITY,
    CAT_PRESENT,
    STONE_BODY,
    STONE_COL,
    STONE_ROW,
)
from simbalance.games.captain_future.strategies_nb import do_recall, random_pay

# ---- the map ----------------------------------------------------------------------------------

def test_default_map_has_72_landing_spaces_6_per_row_and_column():
    t = Table()
    assert int(t.bd[X.NL]) == 72
    assert np.all(np.bincount(t.lay.space_row) == 6)
    assert np.all(np.bincount(t.lay.space_col) == 6)
    sizes = {bid: int(t.bd[X.BODY_SIZE + b]) for b, bid in enumerate(t.lay.body_ids)}
    assert sizes == {"uranus": 8, "neptune": 8, "saturn": 8, "jupiter": 8, "mercury": 6, "venus": 6,
                     "earth": 6, "mars": 6, "luna": 4, "phobos": 4, "io": 4, "titan": 4}
    bonus = {bid: int(t.bd[X.BODY_BONUS + b]) for b, bid in enumerate(t.lay.body_ids)}
    assert bonus["jupiter"] == 5 and bonus["earth"] == 4 and bonus["titan"] == 3
    assert int(t.bd[X.NCARDS]) == 66
    with pytest.raises(KeyError):
        t.space("A5")  # '.' is not a landing space


# ---- landing ----------------------------------------------------------------------------------

def test_landing_legality_row_column_body_joker():
    t = Table()
    A, c1, ura, J = t.row_card("A"), t.col_card("1"), t.body_card("uranus"), t.joker
    for k in (A, c1, ura, J):
        t.give(0, k)
    bd, st = t.bd, t.st
    assert can_land(bd, st, 0, A, t.space("A1"))
    assert can_land(bd, st, 0, A, t.space("A12"))  # row A also crosses Neptune
    assert not can_land(bd, st, 0, A, t.space("B1"))
    assert can_land(bd, st, 0, c1, t.space("B1"))
    assert can_land(bd, st, 0, c1, t.space("L1"))  # column 1 crosses Luna
    assert not can_land(bd, st, 0, c1, t.space("A2"))
    assert can_land(bd, st, 0, ura, t.space("B4"))
    assert not can_land(bd, st, 0, ura, t.space("A11"))
    assert can_land(bd, st, 0, J, t.space("H9"))
    assert not can_land(bd, st, 1, A, t.space("A1"))  # not in seat 1's hand
    assert int(st[X.EMPTY_K + A]) == 6


def test_landing_places_a_ship_and_spends_the_card():
    t = Table()
    A = t.row_card("A")
    t.give(0, A)
    land(t.bd, t.st, 0, A, t.space("A2"))
    assert t.owner("A2") == 0 and t.cnt("uranus", 0) == 1 and t.supply(0) == 29
    assert t.hand(0, A) == 0 and int(t.st[X.NDISC]) == 1 and int(t.st[X.DISCARD]) == A
    assert int(t.st[X.EMPTY_K + A]) == 5
    assert int(t.st[X.EMPTY_K + t.joker]) == 63  # 72 minus Jupiter (stone) minus A2
    t.give(1, t.joker)
    assert not can_land(t.bd, t.st, 1, t.joker, t.space("A2"))  # taken


def test_stone_on_a_body_blocks_landing_there_on_a_row_it_does_not():
    t = Table(stone=(STONE_BODY, "uranus"))
    t.give(0, t.joker)
    t.give(0, t.row_card("A"))
    assert not can_land(t.bd, t.st, 0, t.joker, t.space("A1"))
    assert not can_land(t.bd, t.st, 0, t.row_card("A"), t.space("A1"))
    assert int(t.st[X.EMPTY_K + t.row_card("A")]) == 2  # only A11, A12 (Neptune)
    t2 = Table(stone=(STONE_ROW, "A"))
    t2.give(0, t2.row_card("A"))
    assert can_land(t2.bd, t2.st, 0, t2.row_card("A"), t2.space("A1"))


def test_no_ship_in_supply_no_landing():
    t = Table(overrides={"ships.4": 1})
    t.give(0, t.joker, 2)
    t.put(0, "A1")
    assert t.supply(0) == 0
    assert not can_land(t.bd, t.st, 0, t.joker, t.space("A2"))


# ---- conquest and attacks -----------------------------------------------------------------------

def luna_table(**kw):
    """Luna (K1 K2 L1 L2) held 2-1-1 by seats 0, 1, 2 (conquered); seat 3 has no ship there."""
    t = Table(**kw)
    t.put(0, "K1", "K2")
    t.put(1, "L1")
    t.put(2, "L2")
    return t


def test_conquest_needs_every_space_taken():
    t = Table()
    t.put(0, "K1", "K2")
    t.put(1, "L1")
    t.give(1, t.joker, 3)
    assert not attackable(t.bd, t.st, 1, t.space("K1"))  # Luna still has a free space
    t.put(2, "L2")
    assert attackable(t.bd, t.st, 1, t.space("K1"))
    assert not attackable(t.bd, t.st, 1, t.space("L1"))  # his own ship


def test_attack_costs_by_majority_presence_absence():
    t = luna_table()
    b = t.body("luna")
    assert majority_holder(t.bd, t.st, b) == 0
    assert [attack_cost(t.bd, t.st, p, b) for p in range(4)] == [1, 2, 2, 3]
    # no definite majority: everybody pays 2 or 3
    t2 = Table()
    t2.put(0, "K1")
    t2.put(1, "K2")
    t2.put(2, "L1", "L2")
    t2.put(1, "G1")  # elsewhere
    assert majority_holder(t2.bd, t2.st, b) == 2
    t3 = Table()
    t3.put(0, "K1", "K2")
    t3.put(1, "L1", "L2")
    assert majority_holder(t3.bd, t3.st, b) == -1
    assert [attack_cost(t3.bd, t3.st, p, b) for p in range(4)] == [2, 2, 3, 3]


def test_attack_needs_cards_naming_the_space():
    t = luna_table()
    K1 = t.space("K1")
    t.give(3, t.row_card("K"))
    t.give(3, t.col_card("1"))
    assert not can_attack(t.bd, t.st, 3, K1, False)  # costs 3, holds 2 naming cards
    t.give(3, t.row_card("A"))  # does not name K1
    assert not can_attack(t.bd, t.st, 3, K1, False)
    t.give(3, t.body_card("luna"))
    assert can_attack(t.bd, t.st, 3, K1, False)
    assert not can_attack(t.bd, t.st, 3, K1, True)  # no 3-card attacks in the final round


def test_attack_replaces_the_ship_which_leaves_the_game():
    t = luna_table()
    K1 = t.space("K1")
    t.give(1, t.row_card("K"))
    t.give(1, t.joker)
    assert can_attack(t.bd, t.st, 1, K1, False)
    pay_named_cheapest(t.bd, t.st, 1, K1, 2)
    resolve_attack(t.bd, t.st, 1, K1)
    assert t.owner("K1") == 1 and t.cnt("luna", 0) == 1 and t.cnt("luna", 1) == 2
    assert t.removed(0) == 1 and t.supply(0) == 28  # not back in supply
    assert t.supply(1) == 28
    assert t.hand(1, t.row_card("K")) == 0 and t.hand(1, t.joker) == 0
    assert int(t.st[X.ATT + 1 * 4 + CAT_PRESENT]) == 1


def test_double_attack_that_gains_the_majority_makes_the_second_cost_one_card():
    t = luna_table()
    b = t.body("luna")
    t.give(1, t.body_card("luna"), 2)
    t.give(1, t.joker)
    assert attack_cost(t.bd, t.st, 1, b) == 2
    pay_named_cheapest(t.bd, t.st, 1, t.space("K1"), 2)
    resolve_attack(t.bd, t.st, 1, t.space("K1"))
    assert majority_holder(t.bd, t.st, b) == 1  # recomputed after the attack
    assert attack_cost(t.bd, t.st, 1, b) == 1
    assert can_attack(t.bd, t.st, 1, t.space("K2"), False)  # one joker left
    pay_named_cheapest(t.bd, t.st, 1, t.space("K2"), 1)
    resolve_attack(t.bd, t.st, 1, t.space("K2"))
    assert t.cnt("luna", 1) == 3 and t.removed(0) == 2
    assert int(t.st[X.ATT + 4 + CAT_PRESENT]) == 1 and int(t.st[X.ATT + 4 + CAT_MAJORITY]) == 1


def test_stone_on_row_column_or_body_blocks_attacks_there():
    for stone, blocked, free in (((STONE_ROW, "K"), "K1", "L2"), ((STONE_COL, "2"), "L2", "K1"),
                                 ((STONE_BODY, "luna"), "K1", None)):
        t = luna_table(stone=stone)
        t.give(3, t.joker, 3)
        assert not can_attack(t.bd, t.st, 3, t.space(blocked), False), stone
        if free is not None:
            assert can_attack(t.bd, t.st, 3, t.space(free), False), stone


def test_cheapest_payment_keeps_jokers_and_random_payment_uses_naming_cards_only():
    t = luna_table()
    for k in (t.joker, t.body_card("luna"), t.row_card("K"), t.row_card("A")):
        t.give(3, k)
    pay_named_cheapest(t.bd, t.st, 3, t.space("K1"), 2)
    assert t.hand(3, t.joker) == 1 and t.hand(3, t.row_card("K")) == 0 and t.hand(3, t.body_card("luna")) == 0
    t2 = luna_table()
    for k in (t2.joker, t2.body_card("luna"), t2.row_card("K"), t2.row_card("A")):
        t2.give(3, k)
    random_pay(t2.bd, t2.st, t2.rng, 3, t2.space("K1"), 3)
    assert t2.hand(3, t2.row_card("A")) == 1 and int(t2.st[X.HAND_N + 3]) == 1


# ---- cards ------------------------------------------------------------------------------------

def test_deal_and_draw_order_and_reshuffle():
    t = Table(overrides={"rules.hand_size": 3}, players=2)
    order = np.array(t.bd[X.DECK:X.DECK + 66])[::-1].copy()  # GRAG, GRAG, Otto, ... row A last
    deal(t.bd, t.st, order)
    # card k goes to seat k % 2: seat 0 gets cards 0, 2, 4; seat 1 gets 1, 3, 5
    g, o = t.event("grag"), t.event("otto")
    assert t.hand(0, g) == 1 and t.hand(0, o) == 2 and t.hand(1, g) == 1 and t.hand(1, o) == 1
    assert t.hand(1, t.event("recall")) == 1 and int(t.st[X.HAND_N]) == 3
    assert int(t.st[X.NSTACK]) == 60
    assert draw_card(t.bd, t.st, t.rng, 0) and t.hand(0, t.event("recall")) == 1  # the top is order[6]
    # empty the stack into the discard pile, then a draw reshuffles it
    while int(t.st[X.NSTACK]) > 0:
        draw_card(t.bd, t.st, t.rng, 1)
    hand1 = t.st[X.HANDS + X.MK:X.HANDS + 2 * X.MK].copy()
    for k in np.flatnonzero(hand1):
        for _ in range(int(hand1[k])):
            exchange(t.bd, t.st, t.rng, 1, int(k))  # discard + draw (reshuffles)
    total = int(t.st[X.HAND_N] + t.st[X.HAND_N + 1] + t.st[X.NSTACK] + t.st[X.NDISC])
    assert total == 66


def test_no_reshuffle_variant_stops_drawing():
    t = Table(overrides={"rules.reshuffle_discards": False, "rules.hand_size": 5}, players=2)
    order = np.array(t.bd[X.DECK:X.DECK + 66])
    deal(t.bd, t.st, order)
    while draw_card(t.bd, t.st, t.rng, 0):
        pass
    assert int(t.st[X.NSTACK]) == 0
    t.st[X.HAND_N + 1] = 0  # (seat 1 pretends to have nothing)
    assert not can_exchange(t.bd, t.st, 1)
    assert can_exchange(t.bd, t.st, 0) is False  # no card to draw back
    refill_hand(t.bd, t.st, t.rng, 1)
    assert int(t.st[X.HAND_N + 1]) == 0


# ---- events -----------------------------------------------------------------------------------

def test_simon_wright_moves_the_stone_and_landing_follows():
    t = Table(stone=(STONE_BODY, "jupiter"))
    assert int(t.st[X.EMPTY_K + t.joker]) == 64
    ura = stone_place(t.bd, STONE_BODY, t.body("uranus"))
    t.give(0, t.event("simon_wright"))
    play_event_card(t.bd, t.st, 0, t.event("simon_wright"))
    move_stone(t.bd, t.st, ura)
    assert int(t.st[X.STONE_T]) == STONE_BODY and int(t.st[X.STONE_I]) == t.body("uranus")
    assert int(t.st[X.EMPTY_K + t.joker]) == 64  # Jupiter open again, Uranus closed
    assert int(t.st[X.EV]) == 1
    move_stone(t.bd, t.st, stone_place(t.bd, STONE_COL, 4))
    assert int(t.st[X.EMPTY_K + t.joker]) == 72  # a column blocks attacks, not landings


def test_recall_every_player_returns_one_ship_to_supply():
    t = Table(strategies=(0, 1, 2, 0))
    t.put(0, "A1", "A2")
    t.put(1, "K1")
    t.put(2, "G1", "G2", "H1")
    do_recall(t.bd, t.st, t.fs, t.rng, 1, np.zeros((4, 10)) + 0.5)
    assert [int(t.st[X.ONBOARD + q]) for q in range(4)] == [1, 0, 2, 0]
    assert [t.supply(q) for q in range(4)] == [29, 30, 28, 30]  # seat 3 had none: skipped
    assert sum(t.removed(q) for q in range(4)) == 0


def test_recall_of_the_last_ship_keeps_the_end_triggered():
    t = Table(overrides={"ships.4": 1})
    t.put(0, "A1")
    assert int(t.st[X.END_SEAT]) == 0
    recall_ship(t.bd, t.st, t.space("A1"))
    assert t.supply(0) == 1 and int(t.st[X.END_SEAT]) == 0


def test_otto_swaps_or_moves_and_respects_the_stone():
    t = Table(stone=(STONE_ROW, "B"))
    t.put(0, "A1")
    t.put(1, "K1")
    assert otto_ok(t.bd, t.st, 0, t.space("A1"), t.space("K1"))
    otto(t.bd, t.st, 0, t.space("A1"), t.space("K1"))
    assert t.owner("A1") == 1 and t.owner("K1") == 0
    assert t.cnt("uranus", 1) == 1 and t.cnt("luna", 0) == 1 and t.cnt("uranus", 0) == 0
    otto(t.bd, t.st, 0, t.space("K1"), t.space("K5"))  # to an empty space: K1 is left empty
    assert t.owner("K1") == -1 and t.owner("K5") == 0 and int(t.st[X.FILLED + t.body("luna")]) == 0
    assert not otto_ok(t.bd, t.st, 0, t.space("K5"), t.space("B1"))  # row B: the stone
    assert not otto_ok(t.bd, t.st, 1, t.space("A1"), t.space("A1"))
    t.put(0, "A2")
    assert not otto_ok(t.bd, t.st, 0, t.space("K5"), t.space("A2"))  # his own ship there
    assert sum(int(t.st[X.SUPPLY + q] + t.st[X.ONBOARD + q]) for q in range(4)) == 120


def test_grag_takes_any_space_and_sends_the_ship_home():
    t = Table(stone=(STONE_COL, "3"))
    t.put(1, "K1")
    assert grag_ok(t.bd, t.st, 0, t.space("K1"))
    grag(t.bd, t.st, 0, t.space("K1"))
    assert t.owner("K1") == 0 and t.supply(1) == 30 and t.removed(1) == 0 and t.supply(0) == 29
    assert not grag_ok(t.bd, t.st, 0, t.space("K1"))  # his own ship
    assert not grag_ok(t.bd, t.st, 0, t.space("E3"))  # column 3: the stone
    grag(t.bd, t.st, 0, t.space("K2"))  # an empty space
    assert t.owner("K2") == 0
    t2 = Table(overrides={"ships.4": 1})
    grag(t2.bd, t2.st, 2, t2.space("A1"))
    assert int(t2.st[X.END_SEAT]) == 2  # GRAG emptied his supply: the end is triggered
    assert not grag_ok(t2.bd, t2.st, 2, t2.space("A2"))


# ---- scoring ----------------------------------------------------------------------------------

def test_scoring_ships_full_control_and_majority():
    t = Table()
    t.put(0, "K1", "K2", "L1", "L2")  # Luna, full control: 4 + 3
    t.put(1, "G1", "G2")  # Io: 2 vs 1, not full: majority +1
    t.put(2, "H1")
    t.put(2, "G6")  # Titan: 1 vs 1 tie: no bonus
    t.put(3, "H6")
    t.put(3, "A1", "A2", "A3", "A4", "B1", "B2", "B3")  # Uranus 7 of 8: majority
    t.put(1, "B4")  # Uranus 7-1: seat 3 majority, nobody in full control
    out = np.zeros(4, np.int64)
    scores_recomputed(t.bd, t.st, out)
    assert list(out) == [4 + 3, 2 + 1 + 1, 1 + 1, 1 + 7 + 1]
    assert [t.score(q) for q in range(4)] == list(out)  # the live scores agree
    body_points(t.bd, t.st, t.body("luna"))
    assert int(t.st[X.PTS]) == 7


def test_scoring_values_come_from_config():
    t = Table(overrides={"scoring.majority": 2, "board.classes.moon": 10, "scoring.ship": 3})
    t.put(0, "K1", "K2", "L1", "L2")
    t.put(1, "G1", "G2")
    t.put(2, "H1")
    out = np.zeros(4, np.int64)
    scores_recomputed(t.bd, t.st, out)
    assert list(out) == [4 * 3 + 10, 2 * 3 + 2, 3, 0]


def test_attack_categories_are_recorded_by_cost_kind():
    t = luna_table()
    assert CAT_MAJORITY == 0 and CAT_PRESENT == 1 and CAT_ABSENT == 2
    t.give(3, t.joker, 3)
    pay_named_cheapest(t.bd, t.st, 3, t.space("L1"), 3)
    resolve_attack(t.bd, t.st, 3, t.space("L1"))
    assert int(t.st[X.ATT + 3 * 4 + CAT_ABSENT]) == 1


# ---- heuristic decisions ------------------------------------------------------------------------

# opp, leader, full, card, exchange, otto, grag, simon, recall, play_events, hold_events, cheap_cost
BUILDER_PARAMS = np.array([0.5, 0.5, 0.6, 0.45, 0.1, 2.0, 2.0, 1.5, 3.0, 1.0, 1.0, 0.0])


def test_heuristic_moves_the_stone_onto_its_conquered_majority():
    from simbalance.games.captain_future.strategies_nb import heuristic_event

    t = Table(stone=(STONE_BODY, "jupiter"), strategies=(1, 1, 1, 1))
    t.put(0, "K1", "K2", "L1")
    t.put(1, "L2")  # Luna conquered, seat 0 holds 3 of 4
    t.give(0, t.event("simon_wright"))
    prm = np.tile(BUILDER_PARAMS, (4, 1))
    assert not heuristic_event(1, BUILDER_PARAMS, t.bd, t.st, t.fs, t.rng, 0, prm, 0)  # not before the slots
    assert heuristic_event(1, BUILDER_PARAMS, t.bd, t.st, t.fs, t.rng, 0, prm, 1)
    assert int(t.st[X.STONE_T]) == STONE_BODY and int(t.st[X.STONE_I]) == t.body("luna")
    assert int(t.st[X.EV]) == 1 and t.hand(0, t.event("simon_wright")) == 0


def test_heuristic_keeps_a_small_grag_for_its_last_turn():
    from simbalance.games.captain_future.strategies_nb import heuristic_event

    t = Table(strategies=(1, 1, 1, 1))
    t.give(0, t.event("grag"))
    mine = BUILDER_PARAMS.copy()
    mine[6] = 3.0  # grag_min
    prm = np.tile(mine, (4, 1))
    # the best GRAG on an empty board: 1 ship + a majority + progress on a moon = 2.45 < 3
    assert not heuristic_event(1, mine, t.bd, t.st, t.fs, t.rng, 0, prm, 1)
    t.st[X.END_SEAT] = 2  # the end is triggered: this is seat 0's last turn
    assert heuristic_event(1, mine, t.bd, t.st, t.fs, t.rng, 0, prm, 1)
    assert int(t.st[X.EV + 3]) == 1 and int(t.st[X.ONBOARD]) == 1 and t.supply(0) == 29
    s = int(np.flatnonzero(t.st[X.OWNER:X.OWNER + 72] == 0)[0])
    assert t.lay.body_classes[t.lay.space_body[s]] == "moon"
