"""The Python API as a notebook uses it: short reprs, a summary table, counts written as floats,
strategy names beside slots, win shares that split ties like summary(), the studies exported."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

import simbalance
from simbalance.analysis.findings import amount
from simbalance.core.errors import SimbalanceError
from simbalance.core.records import END_WIN


@pytest.fixture(scope="module")
def result():
    # captain-future ties often (several seats share the most points): the shares must split them
    return simbalance.simulate("captain-future", 400, seed=3, strategies=["builder", "aggressor"] * 2)


def test_n_may_be_written_as_a_float_like_on_the_cli():
    assert np.array_equal(simbalance.simulate("find-dr-evil", 1e3, seed=2).records,
                          simbalance.simulate("find-dr-evil", 1000, seed=2).records)
    for bad in (1.5, float("inf"), float("nan"), 0.0, True):
        with pytest.raises(SimbalanceError, match="whole number"):
            simbalance.simulate("find-dr-evil", bad)


def test_the_repr_is_one_short_line(result):
    text = repr(result)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<SimulationResult captain-future: 400 games, 4 players, seed 3")


def test_a_notebook_shows_each_players_win_rate(result):
    page = result._repr_html_()
    for seat in result.summary()["seats"]:
        assert f"<td>player {seat['seat'] + 1}</td><td>{100 * seat['win_rate']:.1f} %</td>" in page
    assert "player 0" not in page and "ties " in page
    # what the run's page says first, and a length in its unit's number ("1 turn", never "1 turns")
    for finding in result.findings():
        assert html.escape(finding.text) in page
    assert re.search(r"median length \d+(\.\d+)? turns?</p>", page)


def test_a_length_of_one_is_singular():
    assert amount(1, "turns") == "1 turn" and amount(1.5, "turns") == "1.5 turns"


def test_win_shares_split_ties_as_the_summary_does(result):
    games, shares = result.games, result.win_shares()
    tied = games.winner.to_numpy() == -1
    assert tied.any(), "the fixture should hold ties"
    won = games.end.to_numpy() == END_WIN
    assert won.all() and np.allclose(shares.sum(axis=1), 1.0)  # every game of this fixture has a winner
    rates = [seat["win_rate"] for seat in result.summary()["seats"]]
    assert np.allclose(shares.mean().to_numpy(), rates)
    # counting winners leaves the ties out: that is what the helper is for
    counted = games.winner.value_counts().reindex(range(4), fill_value=0).to_numpy() / len(games)
    assert not np.allclose(counted, rates)


def test_games_carry_strategy_names_beside_slots(result):
    games = result.games
    names = result.plan.lineup.slot_names
    for seat in range(4):
        slots = games[f"strategy_{seat}"].to_numpy()
        assert list(games[f"strategy_name_{seat}"].astype(str)) == [names[s] for s in slots]
    assert games["strategy_name_1"].dtype == "category"
    assert set(games["strategy_name_1"]) == {"aggressor"}


def test_the_studies_are_exported():
    for name in ("simulate", "compare", "sweep", "tournament", "skill", "tune", "write_report"):
        assert callable(getattr(simbalance, name)) and name in simbalance.__all__


def test_report_writes_the_folder_the_cli_writes(tmp_path):
    import json

    from typer.testing import CliRunner

    from simbalance.cli.main import app

    result = simbalance.simulate("find-dr-evil", 2000, seed=5)
    folder = simbalance.write_report(result, tmp_path / "api")
    assert CliRunner().invoke(app, ["run", "find-dr-evil", "--n", "2000", "--seed", "5", "--out",
                                    str(tmp_path / "cli"), "--quiet"]).exit_code == 0
    written = sorted(p.name for p in folder.iterdir())
    assert written == sorted(p.name for p in (tmp_path / "cli").iterdir()) and "report.html" in written
    assert json.loads((folder / "summary.json").read_text()) == json.loads((tmp_path / "cli" / "summary.json").read_text())
