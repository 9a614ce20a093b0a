"""The heuristics are fair to every seat and judge what a move really brings (issue 17).

- Ties: every choice among equally valued options (seats, squares, cards, suits) is uniform, drawn
  from the game's own stream. Each scripted position has two (or more) identical options and is
  decided on many streams; a choice that always goes to the first option (the lowest seat, the
  first square or hand slot) fails the binomial test by a huge margin.
- Power is valued without the activated card (which is discarded first), so a heuristic's Power
  activation always swaps a card.
- A fight or Foe against a player without cards gains nothing: the heuristics do not seek it.
"""

from __future__ import annotations

import numpy as np
import pytest
from aquaman_helpers import (
    LETTERS,
    RAIDER,
    RUNNER,
    activate,
    arrange,
    card,
    cell,
    discard_pile,
    hand,
    make,
    name,
    play_mission,
)
from scipy.stats import binomtest, chisquare

from simbalance.games.aquaman.state_nb import C_DICE, CARD_SUIT, K_BUF, K_HAND, S_RAIDER, S_RUNNER, V_MISSIONS
from simbalance.games.aquaman.strategies_nb import (
    choose_companion_keep,
    choose_fight_card,
    choose_fight_opponent,
    choose_foe_target,
    choose_plot_target,
    choose_power,
    choose_rest_discard,
    choose_steal,
    choose_strangeness_target,
    choose_swim,
)

STREAMS = 400  # random streams per position
HEURISTICS = pytest.mark.parametrize("sid,par", [(S_RUNNER, RUNNER), (S_RAIDER, RAIDER)], ids=["runner", "raider"])


def assert_fair_split(picks, options):
    """Every pick is one of the two options, and they split like a fair coin (a choice that always
    takes the same option gives p ~ 1e-120 with 400 streams)."""
    counts = [sum(p == o for p in picks) for o in options]
    assert sum(counts) == len(picks), (counts, set(picks))
    p = binomtest(counts[0], len(picks), 0.5).pvalue
    assert p > 1e-3, f"options {options} chosen {counts} times: not a fair coin (p = {p:.1e})"


# ---------------------------------------------------------------- choices between seats


@HEURISTICS
def test_fight_opponent_between_two_identical_opponents_is_a_fair_coin(sid, par):
    G, S = make()
    picks = []
    for seed in range(STREAMS):
        arrange(G, S, hands={0: ["A9", "C2"], 1: ["X3", "F4"], 2: ["P3", "O4"]},
                pos={0: (3, 3), 1: (3, 3), 2: (3, 3)}, seed=seed)
        picks.append(int(choose_fight_opponent(G, S, 0, sid, par, cell(G, 3, 3))))
    assert_fair_split(picks, [1, 2])


@HEURISTICS
def test_foe_target_between_two_identical_adjacent_opponents_is_a_fair_coin(sid, par):
    G, S = make()
    picks = []
    for seed in range(STREAMS):
        arrange(G, S, hands={0: ["F12"], 1: ["X3", "A4"], 2: ["P3", "C4"]},
                pos={0: (3, 3), 1: (3, 4), 2: (2, 3)}, seed=seed)
        picks.append(int(choose_foe_target(G, S, 0, sid, par)))
    assert_fair_split(picks, [1, 2])


@HEURISTICS
def test_swim_between_two_identical_opponents_is_a_fair_coin(sid, par):
    # one die: from (3,3) a 4 reaches only (3,7) and (7,3), each with an opponent holding one card
    G, S = make(dice__count=1)
    picks = []
    for seed in range(STREAMS):
        arrange(G, S, hands={0: ["A12", "C2"], 1: ["X5"], 2: ["P5"]},
                pos={0: (3, 3), 1: (3, 7), 2: (7, 3)}, seed=seed)
        S.ctr[C_DICE] = 4
        picks.append(int(choose_swim(G, S, 0, sid, par)))
    assert_fair_split(picks, [cell(G, 3, 7), cell(G, 7, 3)])


# ---------------------------------------------------------------- other ties: squares, cards, suits


@HEURISTICS
def test_equal_squares_cards_and_suits_are_fair_coins(sid, par):
    G, S = make()
    a5, c5 = card(G, "A5"), card(G, "C5")
    plot, strange, keep, steal, reveal, rest = [], [], [], [], [], []
    for seed in range(STREAMS):
        # Plot and Strangeness: two squares whose cards are of two missing suits, same rank
        arrange(G, S, board={(2, 2): "A5", (5, 5): "C5"}, hands={0: ["P9"]}, seed=seed)
        plot.append(int(choose_plot_target(G, S, 0, sid, par, 9)))
        arrange(G, S, board={(2, 3): "A5", (3, 4): "C5"}, hands={0: ["S9"]}, pos={0: (3, 3)}, seed=seed)
        strange.append(int(choose_strangeness_target(G, S, 0, sid, par, 9)))
        # Companion: two seen cards of two missing suits, same rank
        arrange(G, S, hands={0: ["X2"]}, seed=seed)
        S.cards[K_BUF, 0], S.cards[K_BUF, 1] = a5, c5
        keep.append(int(S.cards[K_BUF, choose_companion_keep(G, S, 0, sid, par, 2, 9)]))
        # steal: the loser's only A and only C, same rank
        arrange(G, S, hands={0: ["O9"], 1: ["A5", "C5"]}, seed=seed)
        steal.append(int(S.cards[K_HAND + 1, choose_steal(G, S, 0, sid, par, 1)]))
        # fight card: A5 and C5 are worth the same (X2 less)
        arrange(G, S, hands={0: ["A5", "X2", "C5"]}, seed=seed)
        reveal.append(int(S.cards[K_HAND, choose_fight_card(G, S, 0, sid, par)]))
        # rest: A1 and C1 are the two cards of lowest value (each one of two of its suit)
        cards = ["A1", "A9", "C1", "C9", "X3", "P4", "F5", "O6", "S7", "L8", "L10"]
        arrange(G, S, hands={0: cards}, seed=seed)
        rest.append(name(G, S.cards[K_HAND, choose_rest_discard(G, S, 0, sid, par)]))
    assert_fair_split(plot, [cell(G, 2, 2), cell(G, 5, 5)])
    assert_fair_split(strange, [cell(G, 2, 3), cell(G, 3, 4)])
    for picks in (keep, steal, reveal):
        assert_fair_split(picks, [a5, c5])
    assert_fair_split(rest, ["A1", "C1"])


@HEURISTICS
def test_mission_of_fewer_suits_takes_equally_held_suits_uniformly(sid, par):
    # 6 of 8 suits: A and L (two cards each) first, then 2 of the 6 single suits: each kept 1/3 of the time
    G, S = make(rules__mission_suits=6)
    singles = ["C2", "X3", "P4", "F5", "O6", "S7"]
    kept = {x: 0 for x in singles}
    for seed in range(STREAMS):
        arrange(G, S, hands={0: ["A1", "A5", "L8", "L2"] + singles}, seed=seed)
        play_mission(G, S, 0, sid, par)
        left = hand(G, S, 0)
        assert {"A5", "L8"} <= set(left) and len(left) == 4
        for x in left:
            if x in kept:
                kept[x] += 1
    counts = list(kept.values())
    assert sum(counts) == 2 * STREAMS
    assert chisquare(counts).pvalue > 1e-3, kept


# ---------------------------------------------------------------- Power


@HEURISTICS
def test_power_is_valued_without_the_activated_card(sid, par):
    G, S = make()
    # O3 would be a spare beside O12, but O12 is the card spent: O3 becomes the last of its suit,
    # nothing would be swapped, and Power is not worth a card
    arrange(G, S, hands={0: ["O12", "O3", "L5", "F5", "S5"]})
    assert choose_power(G, S, 0, sid, par) == -1
    # with a third Power card the cheaper one, O5, is spent and swaps O3 (O12, the highest, is kept)
    arrange(G, S, deck=["X7", "X8"], hands={0: ["O12", "O3", "O5", "L5", "F5"]})
    i = choose_power(G, S, 0, sid, par)
    assert i >= 0 and name(G, S.cards[K_HAND, i]) == "O5"
    activate(G, S, 0, sid, par, i)
    assert hand(G, S, 0) == ["F5", "L5", "O12", "X7"] and discard_pile(G, S) == ["O3", "O5"]


@HEURISTICS
def test_every_power_activation_of_a_heuristic_swaps_a_card(sid, par):
    # Random hands with Power cards and cards whose powers bring nothing on an empty board with an
    # empty discard pile (Sea Creature, Plot, Foe, Strangeness, Location): whenever the heuristic
    # activates a Power card, it swaps at least one card (v1: about a quarter of them swapped none).
    G, S = make()
    rng = np.random.default_rng(17)
    others = [f"{x}{r}" for x in "XPFSL" for r in range(1, 17)]
    deck = [f"A{r}" for r in range(1, 17)]
    activations = 0
    for seed in range(300):
        powers = [f"O{r}" for r in rng.choice(np.arange(1, 17), size=rng.integers(1, 4), replace=False)]
        cards = powers + list(rng.choice(others, size=rng.integers(3, 7), replace=False))
        arrange(G, S, deck=deck, hands={0: cards}, seed=seed)
        i = choose_power(G, S, 0, sid, par)
        if i < 0 or G.card[CARD_SUIT, S.cards[K_HAND, i]] != LETTERS.index("O"):
            continue
        spent = name(G, S.cards[K_HAND, i])
        activate(G, S, 0, sid, par, i)
        activations += 1
        swapped = discard_pile(G, S)[:-1]
        assert discard_pile(G, S)[-1] == spent
        assert swapped, f"{sorted(cards)}: {spent} activated and swapped nothing"
    assert activations >= 30, activations  # the check is not vacuous


# ---------------------------------------------------------------- opponents without cards


def test_the_raider_does_not_swim_to_a_fight_it_cannot_win():
    # one die: from (3,3) a 4 reaches (3,7), where seat 1 stands, and (7,3) with a spare A2
    for rules in ("loses", "draws", "ends"):
        G, S = make(dice__count=1, rules__cannot_reveal=rules)
        for opp, expect in ((["X5"], (3, 7)), ([], (7, 3))):
            arrange(G, S, board={(7, 3): "A2"}, hands={0: ["A16", "C9"], 1: opp}, pos={0: (3, 3), 1: (3, 7)})
            S.ctr[C_DICE] = 4
            assert choose_swim(G, S, 0, S_RAIDER, RAIDER) == cell(G, *expect), (rules, opp)


@HEURISTICS
def test_fights_and_foe_go_to_an_opponent_who_holds_cards(sid, par):
    G, S = make()
    # seat 1 has two missions (the raider's deny weighs them) but no card; seat 2 holds one card
    arrange(G, S, hands={0: ["F12", "A2"], 2: ["X3"]}, pos={0: (3, 3), 1: (3, 3), 2: (3, 3)})
    S.seat[1, V_MISSIONS] = 2
    assert choose_fight_opponent(G, S, 0, sid, par, cell(G, 3, 3)) == 2
    arrange(G, S, hands={0: ["F12", "A2"], 2: ["X3"]}, pos={0: (3, 3), 1: (3, 4), 2: (2, 3)})
    S.seat[1, V_MISSIONS] = 2
    assert choose_foe_target(G, S, 0, sid, par) == 2


def test_the_raider_uses_foe_only_against_an_opponent_with_cards():
    G, S = make()
    cards = ["F12", "F3", "L5", "X5", "S5"]
    arrange(G, S, hands={0: cards, 1: ["A3"]}, pos={0: (3, 3), 1: (3, 4)})
    i = choose_power(G, S, 0, S_RAIDER, RAIDER)
    assert i >= 0 and name(G, S.cards[K_HAND, i]) == "F12"
    arrange(G, S, hands={0: cards}, pos={0: (3, 3), 1: (3, 4)})  # the adjacent opponent holds nothing
    assert choose_power(G, S, 0, S_RAIDER, RAIDER) == -1
