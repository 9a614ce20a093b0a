"""captain-future's seat compensation (docs/rules/captain-future.md, "Seat compensation"): points a
seat starts with (``compensation.points.K``, and one key graded by seat order,
``compensation.later_seat_points``) and ships added to a supply (``compensation.ships.K``). Each does
what it says, in every kernel path; 0 is the rules as printed; a bad value is one line."""

from __future__ import annotations

import numpy as np
import pytest
from captain_future_helpers import Table, deck_order

import simbalance
from simbalance.api import plan_run
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID, END_WIN
from simbalance.core.rng import seed_game
from simbalance.games.captain_future import search_nb
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future import validate_nb as V
from simbalance.games.captain_future.engine import RECORD_DTYPE
from simbalance.games.captain_future.play_nb import write_record
from simbalance.games.captain_future.replay import trace
from simbalance.games.captain_future.rules_nb import deal


def finished(t: Table) -> np.void:
    """``t``'s position as a finished game's record (the end: a win, as when a supply ran out)."""
    t.st[X.END] = END_WIN
    t.st[X.PHASE] = X.PH_OVER
    out = np.zeros(1, RECORD_DTYPE)
    write_record((t.bd, np.bool_(False)), (t.st,), out, 0)
    return out[0]


def one_point_ahead(overrides: dict | None = None) -> Table:
    """Player 1 (seat 0) holds 3 ships on Neptune (3 + a majority: 4 points), player 2 (seat 1) 2 on
    Venus (3 points): player 1 leads by one point."""
    t = dealt(Table(overrides=overrides))
    t.put(0, "A11", "B11", "C11")
    t.put(1, "E8", "F8")
    return t


def dealt(t: Table) -> Table:
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(1), np.int64(0))
    deal(t.bd, t.st, deck_order(t.bd, rng))
    return t


def check(t: Table) -> int:
    return int(V.check_invariants(t.bd, t.st, np.zeros(X.WORK_SIZE, np.int64)))


def test_two_points_make_a_seat_win_the_game_it_lost_by_one():
    plain = finished(one_point_ahead())
    assert plain["score"][0] == plain["score"][1] + 1 and plain["winner"] == 0
    t = one_point_ahead({"compensation.points.2": 2})
    assert check(t) == 0  # the live score holds the compensation; the invariant check agrees
    comp = finished(t)
    assert list(comp["score"][:2]) == [plain["score"][0], plain["score"][1] + 2]
    assert comp["winner"] == 1 and comp["winners"] == 0b10
    # a search player's play-out is judged the same way
    assert search_nb.outcome((t.bd, np.bool_(False)), (t.st,)) == 0b10


def test_one_point_ties_and_a_tie_is_shared():
    comp = finished(one_point_ahead({"compensation.points.2": 1}))
    assert comp["score"][0] == comp["score"][1] and comp["winner"] == -1 and comp["winners"] == 0b11


def test_later_seat_points_grade_the_seats():
    t = dealt(Table(overrides={"compensation.later_seat_points": -2, "compensation.points.1": 1}))
    assert [int(t.st[X.SCORE + q]) for q in range(4)] == [1, -2, -4, -6]
    assert check(t) == 0


def test_extra_ships_are_in_the_supply_and_conserved():
    t = dealt(Table(overrides={"compensation.ships.1": 2, "compensation.ships.4": -3}))
    assert [t.supply(q) for q in range(4)] == [32, 30, 30, 27]
    t.put(0, "A11")
    assert check(t) == 0
    g = simbalance.simulate("captain-future", 200, seed=3, validate=True,
                            overrides={"compensation.ships.1": 2, "compensation.ships.4": -3}).games
    assert (g["end"] != END_INVALID).all()
    for seat, ships in enumerate((32, 30, 30, 27)):
        assert ((g[f"ships_board_{seat}"] + g[f"ships_supply_{seat}"] + g[f"ships_lost_{seat}"]) == ships).all()


COMPENSATED = {"compensation.points.2": 2, "compensation.ships.3": -4, "compensation.ships.1": 5,
               "compensation.later_seat_points": -1}


@pytest.mark.parametrize("strategies", [["random"], ["aggressor", "builder", "random", "aggressor"]])
def test_validate_passes_and_changes_no_game_with_compensation(strategies):
    plain = simbalance.simulate("captain-future", 300, seed=7, strategies=strategies, overrides=COMPENSATED).records
    checked = simbalance.simulate("captain-future", 300, seed=7, strategies=strategies, overrides=COMPENSATED,
                                  validate=True).records
    assert np.array_equal(plain, checked) and not (checked["end"] == END_INVALID).any()
    default = simbalance.simulate("captain-future", 300, seed=7, strategies=strategies).records
    assert not np.array_equal(plain["score"], default["score"])  # the compensation is played


def test_the_replay_plays_the_compensated_game():
    setup = dict(players=4, strategies=["aggressor"], overrides=COMPENSATED)
    res = simbalance.simulate("captain-future", 10, seed=11, **setup)
    plan = plan_run("captain-future", 10, seed=11, **setup)
    for game in (0, 7):
        out, _ = trace(plan, game)
        for field in res.records.dtype.names:
            assert np.array_equal(out[0][field], res.records[game][field]), (game, field)


def test_a_search_seat_plays_with_compensation():
    res = simbalance.simulate("captain-future", 2, seed=2, strategies=["mcts", "aggressor", "aggressor", "aggressor"],
                              overrides={"compensation.ships.1": 3, "strategies.mcts.iterations": 8.0})
    g = res.games
    assert (g["end"] != END_INVALID).all()
    assert ((g["ships_board_0"] + g["ships_supply_0"] + g["ships_lost_0"]) == 33).all()


def test_all_zero_is_the_rules_as_printed():
    zero = {f"compensation.{kind}.{seat}": 0 for kind in ("points", "ships") for seat in range(1, 5)}
    a = simbalance.simulate("captain-future", 100, seed=5, overrides=zero).records
    b = simbalance.simulate("captain-future", 100, seed=5).records
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"compensation.ships.4": -30}, r"^compensation.ships.4 = -30: allowed -29 to 90$"),
        ({"compensation.ships.2": 91}, r"^compensation.ships.2 = 91: allowed -29 to 90$"),
        ({"compensation.points.1": 1001}, r"^compensation.points.1 = 1001: allowed -1000 to 1000$"),
        ({"compensation.later_seat_points": 101}, r"^compensation.later_seat_points = 101: allowed -100 to 100$"),
    ],
)
def test_bad_compensation_is_a_one_line_error(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("captain-future", 1, overrides=overrides)
