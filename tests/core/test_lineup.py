"""Strategy slots, lineups, rotation and presets."""

import pytest

from simbalance.core.errors import ConfigError
from simbalance.core.lineup import resolve_lineup

ENGINE = {"random": 0, "greedy": 1}
CFG = {
    "game": {"strategies": ["random"]},
    "strategies": {"random": {"idea": "r", "call": 0.5}, "greedy": {"idea": "g", "a": 1.0, "b": 2.0}},
    "presets": {"eager": {"base": "greedy", "idea": "e", "b": 9.0}},
}


def test_one_name_fills_every_seat():
    lineup = resolve_lineup(CFG, ENGINE, 3)
    assert lineup.slot_names == ("random",) and lineup.seats.tolist() == [[0, 0, 0]]


def test_rotation_plays_every_distinct_permutation():
    lineup = resolve_lineup(CFG, ENGINE, 3, ["greedy", "random", "random"], rotate=True)
    assert sorted(map(tuple, lineup.seats.tolist())) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_every_lineup_for_tournaments():
    lineup = resolve_lineup(CFG, ENGINE, 3, ["greedy", "random"], every_lineup=True)
    assert len(lineup.seats) == 8


def test_presets_run_their_base_with_their_parameters():
    lineup = resolve_lineup(CFG, ENGINE, 2, ["eager", "greedy"])
    assert lineup.slot_strategy.tolist() == [1, 1]
    assert lineup.slot_params[:, :2].tolist() == [[1.0, 9.0], [1.0, 2.0]]
    assert not lineup.slot_params[:, 2:].any()  # padded with zeros to the full width


@pytest.mark.parametrize("presets, message", [
    ({"x": {"base": "nope"}}, "presets.x.base = 'nope': not a heuristic"),
    ({"x": {"base": "greedy", "c": 1.0}}, "presets.x.c: greedy has no parameter 'c'"),
    ({"x": {"base": "greedy", "a": "high"}}, "presets.x.a = 'high': strategy parameters are numbers"),
])
def test_bad_presets(presets, message):
    with pytest.raises(ConfigError, match=message):
        resolve_lineup({**CFG, "presets": presets}, ENGINE, 2)


def test_wrong_number_of_names():
    with pytest.raises(ConfigError, match="3 names for 2 players"):
        resolve_lineup(CFG, ENGINE, 2, "random,random,greedy")
