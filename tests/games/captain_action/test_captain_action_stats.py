"""captain-action over many random games: invariants, determinism, report hooks, and every
heuristic beating random in a 4-player rotation."""

import math

import numpy as np
import pytest

import simbalance
from simbalance.core.config import load_config
from simbalance.core.records import END_TIMEOUT, END_WIN, win_shares
from simbalance.games.captain_action import score_hand
from simbalance.games.captain_action.deck import game_deck
from simbalance.games.captain_action.engine import STRATEGIES
from simbalance.games.captain_action.report import figures, summarize
from simbalance.players import SEARCH_STRATEGIES

DECK = game_deck(load_config("captain-action"))


def popcount(x: int) -> int:
    return bin(int(x)).count("1")


@pytest.mark.parametrize("overrides, strategies", [
    ({}, ["random"]),
    ({"strategies.random.call": 0.05}, ["random"]),
    ({}, ["builder", "bold", "random", "random"]),
    ({"rules.take_back": True, "rules.call_timing": "before_draw", "strategies.random.call": 0.1}, ["random"]),
    ({"rules.max_wilds_per_set": 1, "rules.naturals_per_set": 1, "rules.dr_ling": "wild"}, ["builder"]),
    ({"strategies.random.call": 0.0, "rules.countdown_penalty": 3}, ["random"]),
])
def test_invariants_over_random_games(overrides, strategies):
    # validate=True checks every turn inside the kernel (legal discard, every card in one place)
    # and raises if any game broke an invariant.
    res = simbalance.simulate("captain-action", 3000, seed=11, strategies=strategies, rotate=len(strategies) > 1,
                              overrides=overrides, validate=True)
    g = res.games
    players = 4
    assert set(g["end"].unique()) <= {END_WIN, END_TIMEOUT}
    assert (g["length"] <= 200).all()
    called = g["caller"] >= 0
    assert not (called & (g["countdown_out"] == 1)).any()
    assert ((g["countdown_out"] == 1) == (g["countdown_left"] == 0)).all()
    for s in range(players):
        bonus = np.where(g["caller"] == s, g["countdown_left"], 0)
        penalty = np.where(g["countdown_out"] == 1, overrides.get("rules.countdown_penalty", 0), 0)
        assert (g[f"score_{s}"] == g[f"hand_score_{s}"] + bonus - penalty).all()
    masks = g[[f"hand_mask_{s}" for s in range(players)]].to_numpy().astype(np.uint64)
    assert all(popcount(m) == 8 for m in masks.ravel())
    union = np.bitwise_or.reduce(masks, axis=1)
    assert all(popcount(u) == 8 * players for u in union)  # hands are disjoint
    scores = g[[f"score_{s}" for s in range(players)]].to_numpy()
    won = g["end"] == END_WIN
    best = scores.max(axis=1)
    for s in range(players):
        bit = (g["winners"].to_numpy().astype(int) >> s) & 1
        assert ((bit == 1) == (won & (scores[:, s] == best))).all()
    assert ((g["winners"] == 0) == ~won).all()
    ties = won & (g["winner"] == -1)
    assert (ties == (won & ((scores == best[:, None]).sum(axis=1) > 1))).all()


def test_final_hand_scores_agree_with_score_hand():
    res = simbalance.simulate("captain-action", 50, seed=2, strategies=["builder"])
    g = res.games
    for _, row in g.iterrows():
        for s in range(4):
            cards = [int(DECK.number[c]) for c in range(DECK.size) if (int(row[f"hand_mask_{s}"]) >> c) & 1]
            assert score_hand(cards) == row[f"hand_score_{s}"]


def test_random_never_calling_runs_the_countdown_out():
    g = simbalance.simulate("captain-action", 500, seed=1, strategies=["random"],
                            overrides={"strategies.random.call": 0.0}).games
    assert (g["caller"] == -1).all() and (g["countdown_out"] == 1).all()


def _one_sided_p(wins: float, n: int, p0: float) -> float:
    z = (wins / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return 0.5 * math.erfc(z / math.sqrt(2))


# the heuristics only: a search player (mcts, flat) is a strategy too, and 6,000 games of it take minutes
@pytest.mark.parametrize("heuristic", [name for name in STRATEGIES if name != "random" and name not in SEARCH_STRATEGIES])
def test_heuristic_beats_random_in_a_rotation(heuristic):
    n = 4000
    res = simbalance.simulate("captain-action", n, seed=21, strategies=[heuristic, "random", "random", "random"],
                              rotate=True)
    g = res.games
    shares = win_shares(g["winners"].to_numpy(), 4)
    slot = res.plan.lineup.slot_names.index(heuristic)
    seats = g[[f"strategy_{s}" for s in range(4)]].to_numpy() == slot
    wins = float(shares[seats].sum())
    assert seats.sum() == n  # one heuristic seat per game, every seat equally often
    assert _one_sided_p(wins, n, 0.25) < 1e-4, wins / n


def test_report_hooks():
    res = simbalance.simulate("captain-action", 2000, seed=3, strategies=["builder", "random", "random", "random"],
                              rotate=True)
    summary = summarize(res.games, 4, res.plan.config)
    assert 0 < summary["share_called"] <= 1
    assert abs(sum(summary["call_share_by_seat"]) - summary["share_called"]) < 1e-9
    assert sum(summary["hand_score_hist"].values()) == 4 * 2000
    assert len(summary["score_mean_by_seat"]) == 4
    figs = figures(res.games, 4, res.plan.config, summary)
    assert set(figs) == {"captain_action_hand_scores", "captain_action_calls"}


@pytest.mark.parametrize("players, overrides", [(2, {}), (3, {}), (5, {}), (6, {"rules.hand_size": 6})])
def test_every_table_size_plays_valid_games(players, overrides):
    res = simbalance.simulate("captain-action", 500, players=players, seed=4, overrides=overrides, validate=True,
                              strategies=["builder", "bold"] + ["random"] * (players - 2))
    g = res.games
    assert len(g) == 500 and (g["caller"] < players).all()
    assert [c for c in g.columns if c.startswith("score_")] == [f"score_{s}" for s in range(players)]
