"""lady-actions-escape over many random games: invariants, determinism, report hooks, and every
heuristic beating random in a 4-player rotation."""

import math

import numpy as np
import pytest

import simbalance
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, win_shares
from simbalance.games.lady_actions_escape.engine import STRATEGIES
from simbalance.games.lady_actions_escape.report import figures, summarize
from simbalance.players import SEARCH_STRATEGIES

DECK_SIZE = 53


@pytest.mark.parametrize("overrides, strategies", [
    ({}, ["random"]),
    ({}, ["flexible", "steer", "blocker", "random"]),
    ({"rules.wildcards": False}, ["random"]),
    ({"rules.effects_play_on_anything": True, "rules.reverse": False}, ["blocker", "random", "random", "random"]),
    ({"rules.draw_penalty": 4, "rules.hand_size": 3, "rules.turn_cap": 300}, ["random"]),
])
def test_invariants_over_random_games(overrides, strategies):
    # validate=True checks every turn inside the kernel (only playable cards played, every card in
    # exactly one place) and raises if any game broke an invariant.
    res = simbalance.simulate("lady-actions-escape", 600, seed=13, strategies=strategies,
                              rotate=len(strategies) > 1, overrides=overrides, validate=True)
    g = res.games
    players = 4
    cap = overrides.get("rules.turn_cap", 5000)
    assert set(g["end"].unique()) <= {END_WIN, END_TIMEOUT, END_STALEMATE}
    assert (g["length"] <= cap).all()
    assert (g["length"][g["end"] == END_TIMEOUT] == cap).all()
    left = g[[f"cards_left_{s}" for s in range(players)]].to_numpy()
    won = g["end"] == END_WIN
    winner = g["winner"].to_numpy()
    assert (left[won, :][np.arange(won.sum()), winner[won]] == 0).all()  # the winner holds no card
    assert ((left == 0).sum(axis=1)[won] == 1).all()  # ... and is the only one
    assert (winner[~won] == -1).all() and (g["winners"][~won] == 0).all()
    assert (g["winners"][won].to_numpy().astype(int) == (1 << winner[won])).all()
    hand = overrides.get("rules.hand_size", 5)
    plays = g[[f"plays_{s}" for s in range(players)]].to_numpy()
    drawn = g[[f"drawn_{s}" for s in range(players)]].to_numpy()
    assert (left == hand + drawn - plays).all()  # every card in a hand came from the deal or a draw
    assert (left.sum(axis=1) <= DECK_SIZE - 1).all()
    if not overrides.get("rules.reverse", True):
        assert (g["reversals"] == 0).all()


def test_random_game_lengths_match_the_pinned_reading():
    # The rules' reading in docs/rules/lady-actions-escape.md: random play at 4 players has a
    # median near 450 turns and a 99th percentile near 2,300.
    g = simbalance.simulate("lady-actions-escape", 4000, seed=1).games
    assert 400 <= g["length"].median() <= 500
    assert 1900 <= g["length"].quantile(0.99) <= 2700


def _one_sided_p(wins: float, n: int, p0: float) -> float:
    z = (wins / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return 0.5 * math.erfc(z / math.sqrt(2))


# the heuristics only: a search player (mcts, flat) is a strategy too, and 6,000 games of it take minutes
@pytest.mark.parametrize("heuristic", [name for name in STRATEGIES if name != "random" and name not in SEARCH_STRATEGIES])
def test_heuristic_beats_random_in_a_rotation(heuristic):
    n = 6000
    res = simbalance.simulate("lady-actions-escape", n, seed=21, strategies=[heuristic, "random", "random", "random"],
                              rotate=True)
    g = res.games
    shares = win_shares(g["winners"].to_numpy(), 4)
    slot = res.plan.lineup.slot_names.index(heuristic)
    seats = g[[f"strategy_{s}" for s in range(4)]].to_numpy() == slot
    assert seats.sum() == n
    wins = float(shares[seats].sum())
    assert _one_sided_p(wins, n, 0.25) < 1e-4, wins / n


def test_report_hooks():
    res = simbalance.simulate("lady-actions-escape", 1000, seed=3)
    summary = summarize(res.games, 4, res.plan.config)
    assert summary["reversals_mean"] > 0 and summary["draw_twos_mean"] > 0 and summary["reshuffles_mean"] > 0
    assert len(summary["cards_left_mean_by_seat"]) == 4
    figs = figures(res.games, 4, res.plan.config, summary)
    assert set(figs) == {"lady_actions_escape_cards_left", "lady_actions_escape_events"}


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_every_table_size_plays_valid_games(players):
    res = simbalance.simulate("lady-actions-escape", 300, players=players, seed=4, validate=True,
                              strategies=["blocker", "steer"] + ["random"] * (players - 2))
    g = res.games
    assert len(g) == 300 and set(g["end"].unique()) <= {END_WIN, END_TIMEOUT, END_STALEMATE}
    left = g[[f"cards_left_{s}" for s in range(players)]].to_numpy()
    assert ((left == 0).sum(axis=1)[g["end"] == END_WIN] == 1).all()
