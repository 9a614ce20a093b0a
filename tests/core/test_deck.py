"""The Captain Action deck as data: the default composition and clear errors for broken ones."""

import copy

import numpy as np
import pytest

from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError
from simbalance.decks.captain_action import KIND_CAPTAIN_WILD, KIND_DR_LING, load_deck

POSE_CHARACTERS = ["Captain Action", "Action Boy", "Lady Action", "Dr. Evil", "Captain Action", "Action Boy",
                   "Dr. Evil", "Captain Action", "Lady Action", "Action Boy", "Dr. Evil", "Lady Action"]


@pytest.fixture
def table():
    return copy.deepcopy(load_config("find-dr-evil")["deck"])


def test_default_deck_is_the_pinned_53_cards(table):
    deck = load_deck(table)
    assert deck.size == 53
    numbered = deck.kind == 0
    assert deck.number[numbered].tolist() == list(range(1, 49))
    n = deck.number[numbered]
    assert (deck.background[numbered] == (n - 1) % 4).all()  # periwinkle, crimson, gold, emerald
    assert (deck.pose[numbered] == (n - 1) // 4).all()
    names = [deck.characters[c] for c in deck.character[numbered][::4]]
    assert names == POSE_CHARACTERS
    assert (deck.kind == KIND_CAPTAIN_WILD).sum() == 4
    ling = np.flatnonzero(deck.kind == KIND_DR_LING)
    assert len(ling) == 1 and deck.characters[deck.character[ling[0]]] == "Dr. Evil"
    assert deck.label(8) == "Lady Action 9 (periwinkle)"


def test_unknown_character(table):
    table["poses"]["3"]["character"] = "Batman"
    with pytest.raises(ConfigError, match=r"deck.poses.3.character = 'Batman': unknown character"):
        load_deck(table)


def test_card_number_twice(table):
    table["poses"]["2"]["cards"]["gold"] = 1
    with pytest.raises(ConfigError, match="card number 1 appears twice"):
        load_deck(table)


def test_count_below_zero(table):
    table["wildcards"]["captain_action"] = -1
    with pytest.raises(ConfigError, match=r"deck.wildcards.captain_action = -1: expected a whole number >= 0"):
        load_deck(table)


def test_pose_with_undeclared_background(table):
    table["poses"]["4"]["cards"]["teal"] = 99
    with pytest.raises(ConfigError, match="unknown background 'teal'; declared: periwinkle"):
        load_deck(table)


def test_removed_cards_leave_the_deck(table):
    table["removed"] = [9, 37]
    deck = load_deck(table)
    assert deck.size == 51 and 9 not in deck.number and 37 not in deck.number


def test_removing_an_unknown_card(table):
    table["removed"] = [99]
    with pytest.raises(ConfigError, match="deck.removed: no card numbered 99"):
        load_deck(table)
