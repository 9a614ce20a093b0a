"""captain-action rules on scripted deals with exact outcomes.

Cards are named by printed number (0: a Captain Action wildcard). ``order_for``
(captain_action_deals) arranges the deck so the deal gives the chosen hands, Countdown Deck (top
first) and face-up card. Scripted players (strategy id -1) play one code per turn: source (0
Countdown, 1 discard pile) + 2 x the slot to discard (the drawn card is slot 8) + 100 to call.
"""

import numpy as np
import pytest
from captain_action_deals import CFG, COUNTDOWN, DECK, FACE_UP, HAND_A, HAND_B, HAND_C, order_for

from simbalance.core.config import apply_overrides
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN
from simbalance.games.captain_action import score_hand
from simbalance.games.captain_action.deck import game_deck
from simbalance.games.captain_action.engine import RECORD_DTYPE, prepare
from simbalance.games.captain_action.play_nb import play_scripted
from simbalance.games.captain_action.state_nb import INFO_CH, NO_SET, SCRIPTED, WILD


def play(hands, countdown, face_up, scripts, overrides=None):
    cfg = apply_overrides(CFG, overrides or {})
    players = len(hands)
    prepared = prepare(cfg, players)
    width = max(len(s) for s in scripts)
    params = np.zeros((players, width), dtype=np.float64)
    for s, script in enumerate(scripts):
        params[s, : len(script)] = script
    out = np.zeros(1, RECORD_DTYPE)
    play_scripted(order_for(hands, countdown, face_up), np.full(players, SCRIPTED, np.int64), params,
                  *prepared[:3], np.uint64(0), np.int64(0), out)
    return out[0]


def test_hand_scores_used_below():
    assert score_hand(HAND_A) == 68
    assert score_hand(HAND_B) == 12
    assert score_hand(HAND_C) == 68


def test_call_after_discarding_earns_the_countdown_bonus():
    # Seat 0 draws 37 (Action Boy), discards it again and calls: 9 Countdown cards left.
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, [[0 + 2 * 8 + 100], [0]])
    assert rec["end"] == END_WIN and rec["length"] == 1
    assert rec["caller"] == 0 and rec["countdown_left"] == 9 and rec["countdown_out"] == 0
    assert list(rec["hand_score"][:2]) == [68, 12]
    assert list(rec["score"][:2]) == [77, 12]
    assert rec["winner"] == 0 and rec["winners"] == 0b01


def test_the_bonus_can_decide_the_game():
    # Equal hands (68 each): seat 1 calls after one turn each, with 8 Countdown cards left.
    rec = play([HAND_A, HAND_C], COUNTDOWN, FACE_UP, [[16, 16], [116]])
    assert rec["caller"] == 1 and rec["countdown_left"] == 8 and rec["length"] == 2
    assert list(rec["score"][:2]) == [68, 76] and rec["winner"] == 1


def test_countdown_running_out_ends_the_game_without_bonus():
    # Nobody calls; every turn draws from the Countdown Deck and discards the drawn card. The tenth
    # turn (seat 1) draws the last Countdown card: attack, no bonus.
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, [[16] * 5, [16] * 5])
    assert rec["end"] == END_WIN and rec["length"] == 10
    assert rec["caller"] == -1 and rec["countdown_out"] == 1 and rec["countdown_left"] == 0
    assert list(rec["score"][:2]) == [68, 12] and rec["winner"] == 0


def test_countdown_penalty_variants():
    scripts = [[16] * 5, [16] * 5]
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, scripts, {"rules.countdown_penalty": 5})
    assert list(rec["score"][:2]) == [63, 7]
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, scripts,
               {"rules.countdown_penalty": 5, "rules.penalty_to": "last_drawer"})
    assert list(rec["score"][:2]) == [68, 7]  # seat 1 drew the last Countdown card


def test_taking_the_discard_pile_card():
    # Seat 0 takes the face-up 21 (periwinkle Action Boy) for 9 (periwinkle Lady Action, slot 6):
    # CA 12 + AB 4 x 8 + periwinkle 4 + 8 + 8 + crimson 4 + 8 + 4 = 80, and calls with 10 left.
    rec = play([HAND_A, HAND_B], COUNTDOWN, 21, [[1 + 2 * 6 + 100], [0]])
    assert rec["takes"][0] == 1 and rec["countdown_left"] == 10
    assert rec["hand_score"][0] == score_hand([1, 2, 3, 5, 6, 7, 21, 10]) == 80
    assert rec["score"][0] == 90
    kept = [int(DECK.number[c]) for c in range(DECK.size) if (int(rec["hand_mask"][0]) >> c) & 1]
    assert sorted(kept) == [1, 2, 3, 5, 6, 7, 10, 21]


def test_a_card_taken_from_the_discard_pile_cannot_go_straight_back():
    scripts = [[1 + 2 * 8], [16]]  # take the face-up card and discard it again
    assert play([HAND_A, HAND_B], COUNTDOWN, 21, scripts)["end"] == END_INVALID
    rec = play([HAND_A, HAND_B], COUNTDOWN, 21, scripts, {"rules.take_back": True, "rules.turn_cap": 1})
    assert rec["end"] == END_TIMEOUT and rec["takes"][0] == 1


def test_call_before_drawing_variant():
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, [[100], [0]], {"rules.call_timing": "before_draw"})
    assert rec["length"] == 0 and rec["caller"] == 0 and rec["countdown_left"] == 10
    assert rec["score"][0] == 78


def test_turn_cap_ends_runaway_games_as_timeouts():
    # Both players keep taking the discard pile's top and discarding a hand card: the Countdown Deck
    # never runs down.
    rec = play([HAND_A, HAND_B], COUNTDOWN, FACE_UP, [[1 + 2 * 7] * 3, [1 + 2 * 7] * 3], {"rules.turn_cap": 5})
    assert rec["end"] == END_TIMEOUT and rec["length"] == 5
    assert rec["winner"] == -1 and rec["winners"] == 0 and rec["caller"] == -1


def test_a_tie_shares_the_win():
    rec = play([HAND_A, HAND_C], COUNTDOWN, FACE_UP, [[16] * 5, [16] * 5])
    assert rec["countdown_out"] == 1 and list(rec["score"][:2]) == [68, 68]
    assert rec["winner"] == -1 and rec["winners"] == 0b11


def test_dr_ling_variants():
    assert DECK.size == 52
    cfg = apply_overrides(CFG, {"rules.dr_ling": "wild"})
    assert game_deck(cfg).size == 53
    card_info = prepare(cfg, 4)[0]
    assert (card_info[:, INFO_CH] == WILD).sum() == 5  # Dr. Ling is a fifth wildcard
    cfg = apply_overrides(CFG, {"rules.dr_ling": "dr_evil"})
    card_info = prepare(cfg, 4)[0]
    assert (card_info[:, INFO_CH] == WILD).sum() == 4
    assert card_info[52, INFO_CH] == NO_SET  # a plain Dr. Evil: in no set


@pytest.mark.parametrize("overrides, players, key", [
    ({}, 6, "rules.hand_size"),  # 6 x 8 + 10 + 1 = 59 > 52
    ({"rules.countdown": 30}, 4, "rules.countdown"),
    ({"rules.naturals_per_set": 4}, 4, "rules.naturals_per_set"),
    ({"rules.call_timing": "never"}, 4, "rules.call_timing"),
    ({"rules.dr_ling": "maybe"}, 4, "rules.dr_ling"),
    ({"rules.turn_cap": 0}, 4, "rules.turn_cap"),
])
def test_configs_the_deck_cannot_serve_are_clear_errors(overrides, players, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        prepare(apply_overrides(CFG, overrides), players)


def test_six_players_fit_with_smaller_hands():
    prepare(apply_overrides(CFG, {"rules.hand_size": 6}), 6)  # 36 + 10 + 1 = 47 cards
