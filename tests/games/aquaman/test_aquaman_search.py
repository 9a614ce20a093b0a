"""aquaman's part of the search players (search_nb; the generic checks of every game with search
players are in tests/players/test_search.py and simbalance.testing): what each seat learns of where cards are, and a
determinization that keeps it, shuffles the rest uniformly (chi-square) and hides the first
fighter's chosen card from the second; the search's choice there does not depend on that card."""

from __future__ import annotations

import numpy as np
import pytest
from aquaman_helpers import NO_PARAMS, RAIDER, RUNNER, activate, all_card_ids, arrange, card, fight, land
from scipy.stats import binomtest, chisquare

from simbalance.core.rng import seed_game
from simbalance.games.aquaman.play_nb import advance, context, resolve
from simbalance.games.aquaman.search_nb import determinize
from simbalance.games.aquaman.state_nb import (
    C_DECISION,
    C_DECK,
    C_DISC,
    C_MOVER,
    C_REVEAL_A,
    C_TO_MOVE,
    D_OPPONENT,
    D_REVEAL,
    K_DECK,
    K_DISC,
    K_HAND,
    K_KNOWN,
    KNOWN_ALL,
    S_RAIDER,
    S_RANDOM,
    V_HAND_N,
    V_SUIT,
    clone,
    new_state,
)
from simbalance.players import MCTS
from simbalance.studies.run import plan_run


def known(S, c) -> set[int]:
    """The seats that know where card ``c`` is."""
    bits = int(S.cards[K_KNOWN, c])
    return {s for s in range(4) if (bits >> s) & 1}


def held(S, seat) -> list[int]:
    return [int(c) for c in S.cards[K_HAND + seat, :S.seat[seat, V_HAND_N]]]


def new_rng(seed: int) -> np.ndarray:
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(seed), np.int64(0))
    return rng


@pytest.fixture(scope="module")
def plan():
    """mcts in seat 0 (the other seats: runners), a small budget: the tests check what it sees."""
    return plan_run("aquaman", 10, players=4, seed=7, strategies="mcts,runner,runner,runner",
                    overrides=["strategies.mcts.iterations=40"])


def game_of(plan):
    G = context(*plan.prepared)
    return G, new_state(G)


# ---------------------------------------------------------------- what each seat learns


def test_cards_taken_face_up_are_known_to_all_and_drawn_cards_to_nobody(plan):
    G, S = game_of(plan)
    arrange(G, S, deck=["P1", "P2"], board={(0, 0): "A5"}, hands={0: ["C3"]})
    land(G, S, 0, np.zeros(4, np.int64), np.array([RUNNER] * 4))
    assert known(S, card(G, "A5")) == {0, 1, 2, 3}  # taken from the board
    assert known(S, card(G, "C3")) == set() and known(S, card(G, "P1")) == set()  # dealt, refilled face up


def test_a_strangeness_take_is_known_to_all(plan):
    G, S = game_of(plan)
    arrange(G, S, deck=["P1"], board={(1, 0): "A1"}, hands={0: ["S8"]})
    activate(G, S, 0, S_RANDOM, NO_PARAMS, 0)
    assert held(S, 0) == [card(G, "A1")] and known(S, card(G, "A1")) == {0, 1, 2, 3}


def test_location_shows_its_player_the_deck_top_and_a_reshuffle_hides_it_again(plan):
    G, S = game_of(plan)
    arrange(G, S, deck=["A1", "A2", "A3", "A4"], hands={2: ["L3"]})
    activate(G, S, 2, S_RANDOM, NO_PARAMS, 0)
    assert [known(S, card(G, x)) for x in ["A1", "A2", "A3", "A4"]] == [{2}, {2}, {2}, set()]
    G, S = game_of(plan)
    arrange(G, S, discard=["A1", "A2"], board={(0, 0): "A5"}, hands={0: ["C3"]})
    S.cards[K_KNOWN, card(G, "A1")] = KNOWN_ALL
    land(G, S, 0, np.zeros(4, np.int64), np.array([RUNNER] * 4))  # the refill reshuffles the pile
    assert known(S, card(G, "A1")) == set() and known(S, card(G, "A2")) == set()


def test_the_fights_winner_sees_the_losers_hand_and_only_both_know_the_stolen_card(plan):
    G, S = game_of(plan)
    arrange(G, S, hands={0: ["A9", "C7"], 1: ["X3", "F2", "O2", "L1"]})
    strat, par = np.full(4, S_RAIDER, np.int64), np.array([RAIDER] * 4)
    assert fight(G, S, 0, 1, strat, par) == 0
    stolen = [c for c in held(S, 0) if c not in (card(G, "A9"), card(G, "C7"))]
    assert len(stolen) == 1 and known(S, stolen[0]) == {0, 1}
    assert held(S, 1) and all(known(S, c) == {0} for c in held(S, 1))


# ---------------------------------------------------------------- determinization


def test_a_determinization_keeps_what_the_seat_knows_and_spreads_the_rest_uniformly(plan):
    """Seat 0 holds 2 cards and knows one card of seat 1 (taken face up) and the deck's top card
    (Location); 14 other cards are hidden in 4 places. Each hidden card lands in each place at the
    rate of its size (chi-square per card; the real places are never favoured)."""
    G, S = game_of(plan)
    deck = ["A1", "A2", "A3", "A4", "A5", "A6", "A7"]
    arrange(G, S, deck=deck, discard=["P9"], board={(3, 3): "P10"},
            hands={0: ["C1", "C2"], 1: ["X1", "X2", "X3"], 2: ["F1", "F2", "F3"], 3: ["O1", "O2"]})
    S.cards[K_KNOWN, card(G, "X2")] = KNOWN_ALL
    S.cards[K_KNOWN, card(G, "A1")] = 1  # seat 0 looked at the deck's top card
    slot_x2 = held(S, 1).index(card(G, "X2"))
    places = {"hand 1": 2, "hand 2": 3, "hand 3": 2, "deck": 6}
    hidden = sorted(card(G, x) for x in ["X1", "X3", "F1", "F2", "F3", "O1", "O2", *deck[1:]])
    counts = {c: dict.fromkeys(places, 0) for c in hidden}
    rng = new_rng(3)
    samples = 4000
    for _ in range(samples):
        W = clone(S)
        determinize(G, W, 0, rng)
        assert held(W, 0) == held(S, 0) and W.cards[K_HAND + 1, slot_x2] == card(G, "X2")
        top = int(W.ctr[C_DECK]) - 1  # the deck's top card stays where seat 0 saw it
        assert W.cards[K_DECK, top] == card(G, "A1")
        for s in (1, 2, 3):
            for c in held(W, s):
                if c != card(G, "X2"):
                    counts[c][f"hand {s}"] += 1
        for c in W.cards[K_DECK, :top]:
            counts[int(c)]["deck"] += 1
    W = clone(S)
    determinize(G, W, 0, rng)
    assert sorted(all_card_ids(G, W)) == sorted(all_card_ids(G, S))  # every card still in one place
    assert [list(W.seat[s, V_SUIT:]) for s in range(4)] == [
        list(np.bincount(G.card[0, held(W, s)], minlength=8)) for s in range(4)]
    total = sum(places.values())
    expected = [samples * n / total for n in places.values()]
    p_values = [chisquare([counts[c][k] for k in places], expected).pvalue for c in hidden]
    assert min(p_values) > 1e-4 / len(hidden), p_values  # Bonferroni over the cards


def reveal_pending(plan, first_card: str):
    """Seat 0 (the mover) fights seat 1 and has chosen ``first_card``; seat 1 is to reveal. Seat 1
    knows seat 0's C7 (taken face up)."""
    G, S = game_of(plan)
    arrange(G, S, deck=["A1", "A2", "A3", "A4"], hands={0: ["A9", "C7", "O5"], 1: ["X3", "F2", "S12"]})
    S.cards[K_KNOWN, card(G, "C7")] = KNOWN_ALL
    S.ctr[C_MOVER] = 0
    S.ctr[C_TO_MOVE] = 0
    S.ctr[C_DECISION] = D_OPPONENT
    resolve(G, S, 1)
    advance(G, S)
    assert S.ctr[C_DECISION] == D_REVEAL and S.ctr[C_TO_MOVE] == 0
    resolve(G, S, held(S, 0).index(card(G, first_card)))
    advance(G, S)
    assert S.ctr[C_DECISION] == D_REVEAL and S.ctr[C_TO_MOVE] == 1
    return G, S


def test_the_second_fighter_cannot_see_the_first_fighters_card(plan):
    G, S = reveal_pending(plan, "A9")
    rng = new_rng(5)
    c7, chosen = card(G, "C7"), []
    for _ in range(3000):
        W = clone(S)
        determinize(G, W, 1, rng)
        assert held(W, 1) == held(S, 1) and W.seat[0, V_HAND_N] == 2
        pending = int(W.ctr[C_REVEAL_A])
        assert W.cards[K_DISC, W.ctr[C_DISC] - 1] == pending  # the engine holds it on the pile
        assert c7 in held(W, 0) + [pending]  # the known card stays with seat 0, chosen or not
        chosen.append(pending)
    # C7 is the chosen card in a third of them (one of seat 0's three cards), never always nor never
    assert binomtest(chosen.count(c7), len(chosen), 1 / 3).pvalue > 1e-3
    assert len(set(chosen)) > 3  # the others: any card seat 1 has not seen


def test_the_second_fighters_search_does_not_depend_on_the_first_fighters_card(plan):
    """Seat 1 searches (mcts) while seat 0 has chosen A9 or O5: the same options, tree and choice."""
    sid = np.array([0, MCTS, 0, 0], np.int64)  # seats 0, 2, 3 play random in the play-outs
    prm = np.zeros((4, plan.lineup.slot_params.shape[1]))
    prm[1] = plan.lineup.slot_params[0]
    res, search = plan.engine.resumable, plan.engine.search
    trees = []
    for first_card in ("A9", "O5"):
        G, S = reveal_pending(plan, first_card)
        scratch = search.new_scratch(G, plan.lineup.slot_strategy, plan.lineup.slot_params, plan.evaluation_weights)
        option = search.choose(G, S, sid, prm, np.uint64(7), np.int64(0), np.int64(0), scratch)
        trees.append((option, scratch[2].copy()))
        assert res.to_move(G, S) == 1
    assert trees[0][0] == trees[1][0] and np.array_equal(trees[0][1], trees[1][1])
