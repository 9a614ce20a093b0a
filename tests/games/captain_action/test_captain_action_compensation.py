"""captain-action's seat compensation (docs/rules/captain-action.md, "Seat compensation"): points
added to a seat's total at the attack (``compensation.points.K``, and one key graded by seat order,
``compensation.later_seat_points``), before the winner is decided; in every kernel path; 0 is the
rules as printed; a bad value is one line. Scripted deals as test_captain_action_rules.py's."""

import numpy as np
import pytest
from captain_action_deals import COUNTDOWN, FACE_UP, HAND_A, HAND_C
from test_captain_action_rules import play

import simbalance
from simbalance.api import plan_run
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID
from simbalance.games.captain_action.replay import trace

CALL = [[16, 16], [116]]  # equal hands (68 each); seat 1 calls with 8 Countdown cards left: 68 against 76


@pytest.mark.parametrize(("points", "scores", "winners"), [
    (0, [68, 76], 0b10),  # the rules as printed: seat 0 loses by 8
    (8, [76, 76], 0b11),  # 8 points: a tie, the win shared
    (9, [77, 76], 0b01),  # 9 points: seat 0 wins the game it lost by 8
])
def test_points_are_added_before_the_winner_is_decided(points, scores, winners):
    rec = play([HAND_A, HAND_C], COUNTDOWN, FACE_UP, CALL, {"compensation.points.1": points})
    assert list(rec["score"][:2]) == scores and list(rec["hand_score"][:2]) == [68, 68]
    assert rec["winners"] == winners and rec["winner"] == (-1 if winners == 0b11 else winners.bit_length() - 1)


def test_later_seat_points_grade_the_seats():
    # seat 1 (the later) gets 1 x -9: the caller's 76 becomes 67 and seat 0's 68 wins
    rec = play([HAND_A, HAND_C], COUNTDOWN, FACE_UP, CALL, {"compensation.later_seat_points": -9})
    assert list(rec["score"][:2]) == [68, 67] and rec["winner"] == 0


COMPENSATED = {"compensation.points.1": -6, "compensation.later_seat_points": 3}


@pytest.mark.parametrize("strategies", [["builder"], ["random", "bold", "collector", "builder"]])
def test_validate_passes_and_the_scores_move_by_the_compensation(strategies):
    plain = simbalance.simulate("captain-action", 400, seed=7, strategies=strategies, overrides=COMPENSATED)
    checked = simbalance.simulate("captain-action", 400, seed=7, strategies=strategies, overrides=COMPENSATED,
                                  validate=True)
    assert np.array_equal(plain.records, checked.records) and not (checked.games["end"] == END_INVALID).any()
    default = simbalance.simulate("captain-action", 400, seed=7, strategies=strategies).records
    # the heuristics do not look at compensation: the same games, the scores moved by -6, +3, +6, +9
    assert np.array_equal(default["hand_score"], plain.records["hand_score"])
    moved = plain.records["score"][:, :4].astype(int) - default["score"][:, :4]
    assert (moved == [-6, 3, 6, 9]).all()


def test_the_replay_and_a_search_seat_score_the_same():
    setup = dict(players=4, strategies=["builder"], overrides=COMPENSATED)
    res = simbalance.simulate("captain-action", 10, seed=11, **setup)
    plan = plan_run("captain-action", 10, seed=11, **setup)
    for game in (0, 7):
        out, _ = trace(plan, game)
        for field in res.records.dtype.names:
            assert np.array_equal(out[0][field], res.records[game][field]), (game, field)
    search = simbalance.simulate("captain-action", 3, seed=2, strategies=["mcts", "builder", "builder", "builder"],
                                 overrides={**COMPENSATED, "strategies.mcts.iterations": 8.0}).records
    for rec in search:  # every seat but the caller (who adds its bonus) scores its hand plus its compensation
        for seat, points in enumerate((-6, 3, 6, 9)):
            bonus = rec["countdown_left"] if rec["caller"] == seat else 0
            assert rec["score"][seat] == rec["hand_score"][seat] + points + bonus


@pytest.mark.parametrize(("overrides", "message"), [
    ({"compensation.points.2": 1001}, r"^compensation.points.2 = 1001: allowed -1000 to 1000$"),
    ({"compensation.later_seat_points": -101}, r"^compensation.later_seat_points = -101: allowed -100 to 100$"),
])
def test_bad_compensation_is_a_one_line_error(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("captain-action", 1, overrides=overrides)
