"""Tournaments: they agree with single runs, find the stronger strategy, and reject bad input."""

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.analysis.tournament import bradley_terry
from simbalance.api import tournament
from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError

GAME = "lady-actions-escape"


@pytest.fixture(scope="module")
def tour():
    return tournament(GAME, ["random", "blocker"], 16_000, seed=3)


def test_every_lineup_is_played_equally_often(tour):
    plan = tour.result.plan
    assert len(plan.lineup.seats) == 2 ** plan.players
    lineup = tour.result.games["game"] % len(plan.lineup.seats)
    counts = np.bincount(lineup)
    assert counts.max() - counts.min() <= 1


def test_tournament_games_are_the_games_of_a_single_run(tour):
    # The tournament's games of lineup "blocker, random, random, random" are, game index by game
    # index, the games of a plain run of that lineup (randomness is keyed by seed and game index).
    games = tour.result.games
    slots = tour.result.plan.lineup.slot_names
    row = [slots.index(s) for s in ("blocker", "random", "random", "random")]
    mask = np.all(np.stack([games[f"strategy_{s}"] == row[s] for s in range(4)], axis=1), axis=1)
    single = simbalance.simulate(GAME, 16_000, seed=3, strategies=["blocker", "random", "random", "random"])
    picked = single.games.set_index("game").loc[games.loc[mask, "game"]]
    assert len(picked) > 500
    for col in ("winner", "length", "end"):
        assert (picked[col].to_numpy() == games.loc[mask, col].to_numpy()).all()


def test_the_stronger_strategy_rates_higher(tour):
    first = tour.ratings.iloc[0]
    assert first["strategy"] == "blocker" and first["ci_low"] > 0
    m = tour.matchups.set_index(["strategy", "opponent"])
    assert m.loc[("blocker", "random"), "ci_low"] > 0.25


def test_bradley_terry_recovers_known_strengths():
    # i beats j with probability p_i / (p_i + p_j); expected counts give back the strengths.
    p = np.array([4.0, 2.0, 1.0])
    wins = 1000 * p[:, None] / (p[:, None] + p[None, :])
    np.fill_diagonal(wins, 0)
    est = bradley_terry(wins)
    assert np.allclose(est / est[2], p / p[2], rtol=1e-6)


@pytest.mark.parametrize("names, message", [(["random"], "at least two"), (["random", "nope"], "unknown strategy 'nope'")])
def test_bad_strategies(names, message):
    with pytest.raises(SimbalanceError, match=message):
        tournament(GAME, names, 100)


def test_cli_tournament(tmp_path):
    out = tmp_path / "t"
    res = CliRunner().invoke(app, ["tournament", GAME, "--strategies", "random,flexible", "--n", "2000",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    for name in ("tournament.html", "matchups.parquet", "ratings.parquet", "matchups.png", "manifest.json"):
        assert (out / name).is_file()


def test_strategies_lists_heuristics_and_presets():
    res = CliRunner().invoke(app, ["strategies", GAME])
    assert res.exit_code == 0 and "blocker" in res.output and "preset of flexible" in res.output


def test_matchups_are_over_decided_games_with_planted_timeouts():
    """Two strategies, two seats: A wins 30 games, B 10, and 60 time out. A's matchup rate is its
    share of the decided games (0.75), not of all games (0.30): the same denominator as the
    first-player advantage and the balance (docs/metrics.md)."""
    import pandas as pd

    from simbalance.analysis.tournament import matchups

    rows = [(0b01, 0, 1)] * 30 + [(0b10, 0, 1)] * 10 + [(0, 0, 1)] * 60  # winners, slot of seat 0, of seat 1
    games = pd.DataFrame({"winners": np.array([w for w, _, _ in rows], np.uint8),
                          "strategy_0": [a for _, a, _ in rows], "strategy_1": [b for _, _, b in rows]})
    table = matchups(games, 2, ("A", "B")).set_index("strategy")
    assert table.loc["A", "win_rate"] == 0.75 and table.loc["B", "win_rate"] == 0.25
    assert table.loc["A", "no_winner_share"] == 0.6
