"""captain-future: a config the game cannot serve is one clear ConfigError, raised before any game."""

from __future__ import annotations

import copy

import pytest

import simbalance
from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError
from simbalance.games.captain_future.board import build_board, parse_map

HEADER = "     1 2 3\n"


def cfg_with_map(text: str, legend: dict | None = None) -> dict:
    cfg = load_config("captain-future")
    cfg["board"]["map"] = text
    if legend is not None:
        cfg["board"]["legend"] = legend
    return cfg


LEGEND = {"x": {"id": "xena", "name": "Xena", "class": "moon"}, "y": {"id": "ymir", "name": "Ymir", "class": "big"}}


def test_a_small_custom_map_works():
    cfg = cfg_with_map(HEADER + "A x x .\nB . y y\nC y . x\n", LEGEND)
    cfg["cards"].update(row=1, column=1)
    lay = parse_map(cfg)
    assert lay.body_ids == ("xena", "ymir") and len(lay.space_body) == 6
    bd, _ = build_board(cfg, 2)
    assert bd.dtype.kind == "i"


@pytest.mark.parametrize(
    ("text", "legend", "message"),
    [
        (HEADER + "A x x .\nB . y\n", LEGEND, "row 'B' has 2 spaces"),
        (HEADER + "A x x .\nB . z y\n", LEGEND, "letter 'z' at B-2 has no entry in board.legend"),
        (HEADER + "A x x .\nB . x x\n", LEGEND, r"board.legend.y \(ymir\): the body has no landing space"),
        (HEADER + "A x x .\nB . y y\n", {"x": {"id": "A", "name": "X", "class": "moon"},
                                         "y": LEGEND["y"]}, "not a row or column label"),
        (HEADER + "A x x .\nB . y y\n", {"x": {"id": "xena", "name": "X", "class": "tiny"},
                                         "y": LEGEND["y"]}, r"board.legend.x.class = .tiny."),
    ],
)
def test_broken_maps_are_clear_errors(text, legend, message):
    with pytest.raises(ConfigError, match=message):
        build_board(cfg_with_map(text, legend), 4)


def test_a_row_without_landing_space_cannot_have_a_row_card():
    cfg = cfg_with_map(HEADER + "A x x .\nB . . .\nC y y y\n", LEGEND)
    with pytest.raises(ConfigError, match=r"cards.row = 1: row B has no landing space"):
        build_board(cfg, 2)
    cfg["cards"]["row"] = 0
    build_board(cfg, 2)


def test_too_few_cards_for_the_hands():
    with pytest.raises(ConfigError, match=r"rules.hand_size = 17: 4 hands of 17 need 68 cards; the deck .* has 66"):
        simbalance.simulate("captain-future", 1, overrides={"rules.hand_size": 17})


def test_ships_missing_for_a_player_count():
    cfg = load_config("captain-future")
    del cfg["ships"]["3"]
    with pytest.raises(ConfigError, match=r"ships.3: missing"):
        build_board(cfg, 3)
    build_board(copy.deepcopy(cfg), 2)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"rules.stone_start": "nowhere"}, "rules.stone_start"),
        ({"rules.attack_cost_absent": 0}, "rules.attack_cost_absent = 0"),
        ({"cards.joker": -1}, "cards.joker = -1"),
        ({"ships.4": 0}, "ships.4 = 0"),
        ({"rules.turn_cap": 0}, "rules.turn_cap = 0"),
    ],
)
def test_bad_values_are_clear_errors(overrides, message):
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("captain-future", 1, overrides=overrides)


def test_player_counts():
    for players in (2, 3, 4):
        g = simbalance.simulate("captain-future", 20, players=players, seed=1).games
        ships = {2: 50, 3: 40, 4: 30}[players]
        for s in range(players):
            assert ((g[f"ships_board_{s}"] + g[f"ships_supply_{s}"] + g[f"ships_lost_{s}"]) == ships).all()
    with pytest.raises(simbalance.SimbalanceError if hasattr(simbalance, "SimbalanceError") else Exception):
        simbalance.simulate("captain-future", 1, players=5)
