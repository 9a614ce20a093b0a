"""aquaman over many games: invariants, records, determinism, config errors, strategy strength."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from aquaman_helpers import RAIDER, RUNNER, all_card_ids, make, play_game

import simbalance
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN, win_shares
from simbalance.core.rng import seed_game
from simbalance.games.aquaman import engine, report, state_nb
from simbalance.games.aquaman.rules_nb import setup_game
from simbalance.games.aquaman.state_nb import (
    C_TURN,
    R_HAND_LIMIT,
    R_TURN_CAP,
    S_RAIDER,
    S_RANDOM,
    S_RUNNER,
    V_HAND_N,
    V_MISSIONS,
    V_POS,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_conserved_and_pawns_on_the_board_at_any_turn(players):
    G, S = make(players=players)
    cells = G.move_to.shape[0]
    n_cards = G.card.shape[1]
    rng = np.random.default_rng(players)
    kinds = [S_RANDOM, S_RUNNER, S_RAIDER]
    params = {S_RANDOM: np.zeros_like(RUNNER), S_RUNNER: RUNNER, S_RAIDER: RAIDER}
    for game in range(150):
        strat = rng.choice(kinds, size=players).astype(np.int64)
        par = np.array([params[s] for s in strat])
        G.rules[R_TURN_CAP] = int(rng.integers(1, 400))  # stop anywhere in the game
        seed_game(S.rng, 7, game)
        setup_game(G, S)
        winner = play_game(G, S, strat, par)
        ids = np.sort(all_card_ids(G, S))
        assert np.array_equal(ids, np.arange(n_cards)), f"game {game}: cards not conserved"
        assert ((S.seat[:, V_POS] >= 0) & (S.seat[:, V_POS] < cells)).all()
        assert (S.seat[:, V_HAND_N] <= G.rules[R_HAND_LIMIT]).all() or winner >= 0
        if winner >= 0:
            assert S.seat[winner, V_MISSIONS] == 3
        else:
            assert S.ctr[C_TURN] == G.rules[R_TURN_CAP]


def test_every_game_ends_with_a_winner_or_a_timeout():
    res = simbalance.simulate("aquaman", 300, seed=3, strategies=["random", "runner", "raider", "random"],
                              rotate=True, overrides={"rules.turn_cap": 75})
    g = res.games
    assert set(g["end"].unique()) <= {END_WIN, END_TIMEOUT}
    assert (g["end"] == END_TIMEOUT).any() and (g["end"] == END_WIN).any()
    to = g[g["end"] == END_TIMEOUT]
    assert (to["winner"] == -1).all() and (to["winners"] == 0).all() and (to["length"] == 75).all()
    won = g[g["end"] == END_WIN]
    assert (won["length"] <= 75).all()
    for s in range(4):
        mine = won[won["winner"] == s]
        assert (mine[f"missions_{s}"] == 3).all()
        assert (mine["winners"] == (1 << s)).all()
        assert (won[won["winner"] != s][f"missions_{s}"] < 3).all()
        assert (g[f"fights_won_{s}"] <= g[f"fights_{s}"]).all()
        assert (g[f"stolen_{s}"] <= g[f"fights_won_{s}"]).all()
    fights = sum(g[f"fights_{s}"] for s in range(4))
    assert (fights % 2 == 0).all()  # every fight has two sides


@pytest.mark.parametrize("overrides,key", [
    ({"board.rows": 1, "board.cols": 2}, "board.rows x board.cols"),
    ({"deck.ranks": 2}, "deck"),
    ({"rules.mission_suits": 9}, "rules.mission_suits"),
    ({"deck.powers": ["aquaman"]}, "deck.powers"),
    ({"deck.powers": ["aquaman", "companion", "sea_creature", "plot", "foe", "power", "strangeness", "magic"]},
     "deck.powers"),
    ({"rules.fight_ties": "sometimes"}, "rules.fight_ties"),
    ({"dice.count": 4}, "dice.count"),
    ({"strategies.runner.need": 0.0}, "strategies.runner.need"),
])
def test_configs_the_game_cannot_serve_are_clear_errors(overrides, key):
    with pytest.raises(ConfigError) as err:
        simbalance.simulate("aquaman", 1, overrides=overrides)
    msg = str(err.value)
    assert key in msg and "\n" not in msg


def test_three_players_on_a_two_corner_board_is_an_error_but_two_players_fit():
    over = {"board.rows": 1, "board.cols": 32}
    with pytest.raises(ConfigError, match="corners"):
        simbalance.simulate("aquaman", 1, players=3, overrides=over)
    res = simbalance.simulate("aquaman", 20, players=2, overrides=over)
    assert len(res.games) == 20


def test_variants_play_to_the_end():
    for over in ({"rules.leg_off_board": "clamp"}, {"rules.legs": "turn"}, {"rules.adjacency": "king"}, {"rules.fight_ties": "once"},
                 {"rules.cannot_reveal": "draws"}, {"rules.cannot_reveal": "loses"}, {"rules.activated_card": "before"},
                 {"rules.mission_suits": 6, "rules.missions_to_win": 2}, {"dice.count": 3, "dice.faces": 4},
                 {"board.rows": 6, "board.cols": 6}):
        g = simbalance.simulate("aquaman", 100, seed=5, strategies=["raider", "runner"] * 2, overrides=over).games
        assert (g["end"] == END_WIN).mean() > 0.9, over


def test_summary_and_power_figure():
    res = simbalance.simulate("aquaman", 300, seed=2, strategies=["runner", "raider", "random", "random"],
                              rotate=True)
    summary = report.summarize(res.games, 4, res.plan.config)
    json.dumps(summary)
    assert set(summary["powers"]) == set(state_nb.POWER_NAMES)
    assert summary["powers"]["aquaman"]["uses_per_seat_game"] > 0
    assert summary["fights_per_game"] > 0 and 0 < summary["share_of_fights_decided"] <= 1
    slots = summary["by_strategy_slot"]  # runner (slot 0) avoids fights that the raider (1) seeks
    assert slots["1"]["fights_per_seat_game"] > slots["0"]["fights_per_seat_game"]
    assert slots["1"]["fights_won_share"] > slots["2"]["fights_won_share"]  # raider beats random
    figs = report.figures(res.games, 4, res.plan.config, summary)
    from matplotlib.figure import Figure
    assert isinstance(figs["aquaman_powers"], Figure)


def strategy_share(games, slot, players=4):
    shares = win_shares(games["winners"].to_numpy(), players)
    mine = np.zeros(len(games))
    for s in range(players):
        mine += np.where(games[f"strategy_{s}"].to_numpy() == slot, shares[:, s], 0.0)
    return mine.mean()


@pytest.mark.parametrize("heuristic", ["runner", "raider"])
def test_each_heuristic_beats_random(heuristic):
    n = 400
    res = simbalance.simulate("aquaman", n, seed=21, strategies=[heuristic, "random", "random", "random"],
                              rotate=True)
    slot = res.plan.lineup.slot_names.index(heuristic)
    p = strategy_share(res.games, slot)
    z = (p - 0.25) / math.sqrt(0.25 * 0.75 / n)
    assert z > 3.1, f"{heuristic}: win share {p:.3f} vs random (z = {z:.1f})"


def test_validation_mode_finds_no_broken_invariant():
    res = simbalance.simulate("aquaman", 300, seed=8, validate=True, rotate=True,
                              strategies=["random", "runner", "raider", "random"])
    assert (res.games["end"] != END_INVALID).all()


def test_validation_catches_a_broken_state():
    from simbalance.games.aquaman.state_nb import RESULT_INVALID
    from simbalance.games.aquaman.validate_nb import check

    G, S = make()
    seed_game(S.rng, 1, 1)
    setup_game(G, S)
    assert check(G, S) == 0
    S.cards[0, 0] = S.cards[0, 1]  # a card twice in the deck, another one lost
    assert check(G, S) != 0
    strat = np.zeros(4, np.int64)
    assert play_game(G, S, strat, np.zeros((4, len(RUNNER))), True) == RESULT_INVALID


def test_golden_games_catch_rule_drift():
    """64 fixed games. A change here is a change of game behaviour: bump engine.ENGINE_VERSION,
    note it in engine.py's history, then update these numbers."""
    res = simbalance.simulate("aquaman", 64, seed=2026, strategies=["runner", "raider", "random", "runner"],
                              rotate=True)
    g = res.games
    assert engine.ENGINE_VERSION == 3
    assert int(g["length"].sum()) == 5226
    assert int(g["winner"].sum()) == 86
    assert int(sum(g[f"fights_{s}"].sum() for s in range(4))) == 292
    assert int(sum(g[f"use_plot_{s}"].sum() for s in range(4))) == 200
