"""lady-actions-escape rules on scripted deals with exact outcomes.

Cards are named by printed number (0: a Captain Action wildcard, "L": Dr. Ling). ``order_for``
arranges the deck so the deal (card k to seat k % P) gives the chosen hands and the draw pile
(listed top first). Scripted players (strategy id SCRIPTED, -2) play the card ids in their parameter row, one
per decision (after a wild: the background, then the character it stands for). Backgrounds:
0 periwinkle, 1 crimson, 2 gold, 3 emerald; characters: 0 Captain Action, 1 Action Boy,
2 Lady Action, 3 Dr. Evil.
"""

import copy

import numpy as np
import pytest

from simbalance.core.config import apply_overrides, load_config
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID, END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.decks.captain_action import KIND_CAPTAIN_WILD, KIND_DR_LING
from simbalance.games.lady_actions_escape.deck import game_deck
from simbalance.games.lady_actions_escape.engine import RECORD_DTYPE, prepare
from simbalance.games.lady_actions_escape.play_nb import play_scripted
from simbalance.games.lady_actions_escape.state_nb import INFO_EFFECT, INFO_WILD, SCRIPTED, top_index

CFG = load_config("lady-actions-escape")
PERIWINKLE, CRIMSON, GOLD, EMERALD = range(4)
CAPTAIN, BOY, LADY, EVIL = range(4)


def small_deck_cfg(poses):
    cfg = copy.deepcopy(CFG)
    cfg["deck"]["poses"] = poses
    cfg["deck"]["wildcards"] = {"captain_action": 0, "dr_ling": 0}
    return cfg


class Table:
    def __init__(self, cfg, players, overrides=None):
        self.cfg = apply_overrides(cfg, overrides or {})
        self.deck = game_deck(self.cfg)
        self.players = players
        self.prepared = prepare(self.cfg, players)

    def id(self, name):
        deck = self.deck
        if name == "L":
            return int(np.flatnonzero(deck.kind == KIND_DR_LING)[0])
        if name == 0:
            return int(np.flatnonzero(deck.kind == KIND_CAPTAIN_WILD)[0])
        return int(np.flatnonzero(deck.number == name)[0])

    def order_for(self, hands, draw_top_first):
        dealt = [self.id(hands[k % self.players][k // self.players]) for k in range(self.players * len(hands[0]))]
        pile = [self.id(c) for c in draw_top_first]
        rest = [c for c in range(self.deck.size) if c not in dealt and c not in pile]
        order = dealt + rest + pile[::-1]
        assert sorted(order) == list(range(self.deck.size))
        return np.array(order, dtype=np.int64)

    def play(self, hands, draw_top_first, scripts):
        width = max(1, max(len(s) for s in scripts))
        params = np.zeros((self.players, width), dtype=np.float64)
        for s, script in enumerate(scripts):
            params[s, : len(script)] = script
        out = np.zeros(1, RECORD_DTYPE)
        play_scripted(self.order_for(hands, draw_top_first), np.full(self.players, SCRIPTED, np.int64), params,
                      *self.prepared[:4], np.uint64(0), np.int64(0), out)
        return out[0]


def seats(rec, field, players):
    return [int(v) for v in rec[field][:players]]


def test_matching_reversal_and_drawing_until_a_card_fits():
    t = Table(CFG, 3, {"rules.hand_size": 2})
    # T1 seat 0 leads Lady Action 9: reversed, seat 2 follows with 5 (periwinkle). T2 seat 1 holds
    # no periwinkle and no Action Boy: draws 7 (Action Boy) and plays it. T4 seat 0 draws 11 (gold
    # Lady Action): reversed again. T5 seat 1 plays 3 (gold). T6 seat 2 draws 18 (Captain Action).
    # T7 seat 0 plays 1 (Captain Action) and escapes.
    rec = t.play([[9, 1], [2, 3], [5, 6]], [7, 11, 18], [[t.id(9), t.id(1)], [t.id(3)], [t.id(5)]])
    assert rec["end"] == END_WIN and rec["winner"] == 0 and rec["winners"] == 0b001
    assert rec["length"] == 7 and rec["reversals"] == 2 and rec["draw_twos"] == 0
    assert seats(rec, "plays", 3) == [3, 2, 2]
    assert seats(rec, "drawn", 3) == [1, 1, 1]
    assert seats(rec, "cards_left", 3) == [0, 1, 1]


def test_a_led_dr_evil_makes_every_other_player_draw_two():
    t = Table(CFG, 3, {"rules.hand_size": 2})
    # Seat 0 leads Dr. Evil 13: seats 1 and 2 draw 2 each. Seat 1 plays 1, seat 2 plays 2, seat 0
    # plays Dr. Evil 14 (crimson) as its last card: the game ends at once, nobody draws.
    rec = t.play([[13, 14], [1, 20], [2, 24]], [29, 30, 31, 32], [[t.id(13), t.id(14)], [t.id(1)], [t.id(2)]])
    assert rec["end"] == END_WIN and rec["winner"] == 0 and rec["length"] == 4
    assert rec["draw_twos"] == 1
    assert seats(rec, "drawn", 3) == [0, 2, 2]
    assert seats(rec, "cards_left", 3) == [0, 3, 3]


def test_draw_penalty_variant():
    t = Table(CFG, 3, {"rules.hand_size": 2, "rules.draw_penalty": 0})
    rec = t.play([[13, 14], [1, 20], [2, 24]], [29, 30, 31, 32], [[t.id(13), t.id(14)], [t.id(1)], [t.id(2)]])
    assert rec["draw_twos"] == 0 and seats(rec, "drawn", 3) == [0, 0, 0]


def test_a_wild_stands_for_what_its_player_names_and_its_name_has_no_effect():
    t = Table(CFG, 2, {"rules.hand_size": 2})
    # Seat 0 leads a Captain Action 0 named (gold, Lady Action): it does not reverse. Seat 1 must
    # follow with Lady Action 33 (5, a periwinkle Action Boy, fits neither): that reverses. Seat 0
    # plays Lady Action 45 and escapes.
    rec = t.play([[0, 45], [5, 33]], [], [[t.id(0), GOLD, LADY, t.id(45)], [t.id(33)]])
    assert rec["end"] == END_WIN and rec["winner"] == 0 and rec["length"] == 3
    assert rec["wilds_played"] == 1 and rec["reversals"] == 1
    # Playing 5 on the named (gold, Lady Action) would break the rules: validation catches it.
    bad = t.play([[0, 45], [5, 33]], [], [[t.id(0), GOLD, LADY, t.id(45)], [t.id(5)]])
    assert bad["end"] == END_INVALID


def test_dr_ling_is_a_wild_that_makes_the_others_draw_captain_action_0_does_not():
    t = Table(CFG, 2, {"rules.hand_size": 2, "rules.turn_cap": 1})
    rec = t.play([["L", 1], [5, 6]], [], [[t.id("L"), PERIWINKLE, CAPTAIN]])
    assert rec["end"] == END_TIMEOUT and rec["draw_twos"] == 1 and rec["wilds_played"] == 1
    assert seats(rec, "drawn", 2) == [0, 2]
    rec = t.play([[0, 1], [5, 6]], [], [[t.id(0), PERIWINKLE, CAPTAIN]])
    assert rec["draw_twos"] == 0 and seats(rec, "drawn", 2) == [0, 0]


TWO_POSES = {
    "1": {"character": "Captain Action", "cards": {"periwinkle": 1, "crimson": 2, "gold": 3}},
    "2": {"character": "Action Boy", "cards": {"crimson": 6, "emerald": 8}},
}


def test_reshuffle_when_the_draw_pile_runs_out():
    t = Table(small_deck_cfg(TWO_POSES), 2, {"rules.hand_size": 2, "rules.turn_cap": 4})
    # T1 seat 0 leads 2, T2 seat 1 plays 6 (crimson). T3 seat 0 draws 3 (no fit), the pile is empty:
    # the discard pile but its top (6) is shuffled into a new pile: draws 2 and plays it. T4 seat 1
    # draws the reshuffled 6 and plays it. Then the turn cap ends the game.
    rec = t.play([[1, 2], [6, 8]], [3], [[t.id(2)], [t.id(6)]])
    assert rec["end"] == END_TIMEOUT and rec["length"] == 4 and rec["winner"] == -1 and rec["winners"] == 0
    assert rec["reshuffles"] == 2
    assert seats(rec, "drawn", 2) == [2, 1]
    assert seats(rec, "plays", 2) == [2, 2]
    assert seats(rec, "cards_left", 2) == [2, 1]


def test_pass_when_nothing_can_be_drawn_and_stalemate():
    poses = {
        "1": {"character": "Captain Action", "cards": {"periwinkle": 1}},
        "2": {"character": "Action Boy", "cards": {"gold": 3, "emerald": 4}},
        "3": {"character": "Lady Action", "cards": {"crimson": 5, "emerald": 6}},
    }
    t = Table(small_deck_cfg(poses), 2, {"rules.hand_size": 2})
    # Seat 0 leads 1; seat 1 draws 6, nothing fits and nothing is left: he passes; seat 0 cannot
    # play either: a full round of passes is a stalemate.
    rec = t.play([[1, 3], [4, 5]], [6], [[t.id(1)], []])
    assert rec["end"] == END_STALEMATE and rec["length"] == 3 and rec["passes"] == 2
    assert rec["winner"] == -1 and rec["winners"] == 0
    assert seats(rec, "drawn", 2) == [0, 1] and seats(rec, "cards_left", 2) == [1, 3]


def test_lady_action_and_dr_evil_on_anything_variant():
    scripts = [[0], [9]]  # seat 0 leads 1 (Captain Action, periwinkle); seat 1 answers Lady Action 10
    t = Table(CFG, 2, {"rules.hand_size": 2, "rules.turn_cap": 2, "rules.effects_play_on_anything": True})
    rec = t.play([[1, 2], [10, 8]], [], scripts)
    assert seats(rec, "plays", 2) == [1, 1] and seats(rec, "drawn", 2) == [0, 0] and rec["reversals"] == 1
    t = Table(CFG, 2, {"rules.hand_size": 2, "rules.turn_cap": 2})
    rec = t.play([[1, 2], [10, 8]], [], scripts)
    assert rec["drawn"][1] >= 1  # by default 10 does not fit: seat 1 draws until something does


def test_no_wildcards_variant_matches_by_character_only():
    t = Table(CFG, 4, {"rules.wildcards": False})
    card_info, match = t.prepared[:2]
    zero, ling = t.id(0), t.id("L")
    assert not card_info[:, INFO_WILD].any()
    has = lambda top, card: (int(match[top]) >> card) & 1 == 1  # noqa: E731
    assert has(top_index(PERIWINKLE, CAPTAIN, 4), zero)
    assert not has(top_index(PERIWINKLE, BOY, 4), zero)
    assert has(top_index(GOLD, EVIL, 4), ling) and not has(top_index(GOLD, BOY, 4), ling)
    # On a Captain Action 0 (no background) only Captain Actions fit.
    assert has(top_index(-1, CAPTAIN, 4), t.id(2)) and not has(top_index(-1, CAPTAIN, 4), t.id(5))
    assert card_info[ling, INFO_EFFECT] != 0  # Dr. Ling still makes the others draw
    t = Table(CFG, 4)
    assert t.prepared[0][zero, INFO_WILD] and t.prepared[0][ling, INFO_WILD]


@pytest.mark.parametrize("overrides, key", [
    ({"rules.hand_size": 14}, "rules.hand_size"),  # 4 x 14 = 56 > 53
    ({"deck.wildcards.captain_action": 20}, "deck"),  # 69 cards: hands are 64-bit masks
    ({"rules.turn_cap": 0}, "rules.turn_cap"),
    ({"rules.draw_penalty": -1}, "rules.draw_penalty"),
])
def test_configs_that_cannot_be_served_are_clear_errors(overrides, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        prepare(apply_overrides(CFG, overrides), 4)


def test_a_deck_where_nothing_can_follow_is_an_error():
    poses = {
        "1": {"character": "Captain Action", "cards": {"periwinkle": 1}},
        "2": {"character": "Action Boy", "cards": {"crimson": 6}},
    }
    with pytest.raises(ConfigError, match="can ever follow"):
        prepare(small_deck_cfg(poses), 2)
