"""captain-action set scoring: the public score_hand and the engine's jitted scorer against a brute
force over every joint identity of the wildcards, written straight from the rule text."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simbalance.core.config import apply_overrides, load_config
from simbalance.decks.captain_action import load_deck
from simbalance.games.captain_action import score_hand
from simbalance.games.captain_action.deck import game_deck, scoring_arrays
from simbalance.games.captain_action.scoring_nb import hand_score
from simbalance.games.captain_action.state_nb import INFO_CH, WILD

CFG = load_config("captain-action")
DECK = load_deck(CFG["deck"])
BY_NUMBER = {int(DECK.number[c]): c for c in range(DECK.size) if DECK.number[c] > 0}
EVIL = DECK.characters.index("Dr. Evil")
AB = DECK.characters.index("Action Boy")
IDENTITIES = [(ch, bg) for ch in range(len(DECK.characters)) for bg in range(len(DECK.backgrounds))]


def brute_force(numbers, set_size=3, naturals=2, max_wilds=None, points=4, ab_points=8):
    """Best score over every joint identity of the wilds (a wild may be any character, Dr. Evil
    included, on any background)."""
    naturals_cards = [(int(DECK.character[BY_NUMBER[n]]), int(DECK.background[BY_NUMBER[n]]), True)
                      for n in numbers if n != 0]
    n_wild = sum(1 for n in numbers if n == 0)
    best = 0
    for ids in itertools.combinations_with_replacement(IDENTITIES, n_wild):
        cards = naturals_cards + [(ch, bg, False) for ch, bg in ids]
        cards = [c for c in cards if c[0] != EVIL]  # Dr. Evil is in no set at all
        total = 0
        kinds = [("bg", b) for b in range(len(DECK.backgrounds))]
        kinds += [("ch", c) for c in range(len(DECK.characters)) if c != EVIL]
        for what, value in kinds:
            members = [c for c in cards if (c[1] if what == "bg" else c[0]) == value]
            nat = sum(1 for c in members if c[2])
            wild = len(members) - nat
            if len(members) >= set_size and nat >= naturals and (max_wilds is None or wild <= max_wilds):
                total += sum(ab_points if c[0] == AB else points for c in members)
        best = max(best, total)
    return best


def engine_scorer(overrides):
    cfg = apply_overrides(CFG, overrides)
    deck = game_deck(cfg)
    card_info, srules = scoring_arrays(cfg, deck)
    wild = int(np.flatnonzero(card_info[:, INFO_CH] == WILD)[0])

    def score(numbers):
        hand = np.array([[wild if n == 0 else BY_NUMBER[n] for n in numbers]], dtype=np.int64)
        cnt = np.zeros((3, 4), dtype=np.int64)
        scratch = np.zeros(64, dtype=np.int64)
        return hand_score(hand, 0, hand.shape[1], card_info, srules, cnt, scratch)

    return score


@pytest.mark.parametrize("numbers, expected", [
    ([1, 2, 3, 5, 6, 7, 0, 0], 92),  # CA 12 + AB set 5 x 8 + periwinkle and crimson sets of 20
    ([13, 14, 15, 16, 25, 26, 27, 28], 0),  # Dr. Evil is in no set, not even a background set
    ([1, 5, 9], 16),  # a periwinkle set: 4 + 8 + 4
    ([1, 5, 0], 20),  # two naturals and a wild Action Boy
    ([1, 0, 0], 0),  # wilds cannot make a set with one natural
    ([0, 0, 0, 0], 0),
    ([5, 6, 21], 24),  # the Action Boy set: 3 x 8
    ([5, 6, 21, 0], 56),  # the wild: Action Boy 4 x 8 + periwinkle 8 + 8 + 8
    ([5, 21, 1, 2], 20),  # periwinkle 8 + 8 + 4; two Captain Actions are not a set
])
def test_scripted_hands(numbers, expected):
    assert brute_force(numbers) == expected
    assert score_hand(numbers) == expected


def test_score_hand_matches_brute_force_on_random_hands():
    rng = np.random.default_rng(7)
    numbered = np.arange(1, 49)
    for trial in range(400):
        n_wild = [0, 1, 1, 2, 2, 3][trial % 6]
        numbers = list(rng.choice(numbered, 8 - n_wild, replace=False)) + [0] * n_wild
        assert score_hand(numbers) == brute_force(numbers), numbers


def test_four_wilds():
    rng = np.random.default_rng(11)
    for _ in range(4):
        numbers = list(rng.choice(np.arange(1, 49), 4, replace=False)) + [0, 0, 0, 0]
        assert score_hand(numbers) == brute_force(numbers), numbers


@pytest.mark.parametrize("overrides, kwargs", [
    ({"rules.max_wilds_per_set": 1}, {"max_wilds": 1}),
    ({"rules.naturals_per_set": 1}, {"naturals": 1}),
    ({"rules.set_size": 4}, {"set_size": 4}),
    ({"rules.points_per_action_boy": 4}, {"ab_points": 4}),
])
def test_variant_scoring_matches_brute_force(overrides, kwargs):
    score = engine_scorer(overrides)
    rng = np.random.default_rng(3)
    for trial in range(120):
        n_wild = [0, 1, 2, 3][trial % 4]
        numbers = list(rng.choice(np.arange(1, 49), 8 - n_wild, replace=False)) + [0] * n_wild
        assert score(numbers) == brute_force(numbers, **kwargs), numbers


def test_at_most_one_wild_per_set_changes_the_score():
    numbers = [5, 21, 0, 0]  # two periwinkle Action Boys and two wilds
    assert score_hand(numbers) == 64  # AB set 4 x 8 + periwinkle set 4 x 8
    assert engine_scorer({"rules.max_wilds_per_set": 1})(numbers) == brute_force(numbers, max_wilds=1) == 24 + 24


def test_score_hand_rejects_unknown_cards():
    with pytest.raises(ValueError):
        score_hand([49])
    with pytest.raises(ValueError):
        score_hand(["x"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 48), min_size=0, max_size=10), st.integers(0, 48), st.randoms())
def test_adding_a_card_never_lowers_the_score_and_order_does_not_matter(numbers, extra, rnd):
    # Sets only grow when a card is added (default rules: no cap on wilds per set).
    before = score_hand(numbers)
    assert score_hand(numbers + [extra]) >= before
    shuffled = list(numbers)
    rnd.shuffle(shuffled)
    assert score_hand(shuffled) == before
