"""The CLI: `games`, `run`, and one-line errors with exit code 2 that leave nothing behind."""

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app

runner = CliRunner()


def test_games_lists_every_game():
    res = runner.invoke(app, ["games"])
    assert res.exit_code == 0
    assert "find-dr-evil" in res.output and "2-6" in res.output


def test_run_writes_a_complete_run_folder_with_the_api_numbers(tmp_path):
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "2_000", "--seed", "3", "--players", "3",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    for name in ("games.parquet", "summary.json", "manifest.json", "report.html", "seat_win_rates.png",
                 "length_histogram.png"):
        assert (out / name).is_file(), name
    api = simbalance.simulate("find-dr-evil", 2000, seed=3, players=3)
    games = pd.read_parquet(out / "games.parquet")
    pd.testing.assert_frame_equal(games, api.games)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seats"] == json.loads(json.dumps(api.summary()["seats"]))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["n"] == 2000 and manifest["seed"] == 3 and manifest["players"] == 3
    assert manifest["engine_version"] >= 1 and manifest["config"]["rules"]["pick_cap"] == 10000
    html = (out / "report.html").read_text()
    assert "data:image/png;base64," in html and "src='http" not in html  # self-contained
    assert "win rate by player" in res.output
    assert (out / "findings.json").is_file() and "findings" in res.output


@pytest.mark.parametrize("text, n", [("1e3", 1000), ("1_000", 1000), ("1000", 1000), ("2.5e3", 2500)])
def test_n_accepts_the_usual_spellings(tmp_path, text, n):
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", text, "--out", str(tmp_path / "r"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["n"] == n


def test_set_changes_the_config(tmp_path):
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "500", "--set", "rules.pick_cap=3",
                              "--out", str(tmp_path / "r"), "--quiet"])
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["outcomes"]["timeouts"] > 0.5  # games need more than 3 picks


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "nope"], "unknown game 'nope'; known games: "),
        (["run", "find-dr-evil", "--n", "0"], "--n '0': expected a whole number of games >= 1"),
        (["run", "find-dr-evil", "--n", "-5"], "--n '-5'"),
        (["run", "find-dr-evil", "--n", "abc"], "--n 'abc'"),
        (["run", "find-dr-evil", "--n", "1.5"], "--n '1.5'"),
        (["run", "find-dr-evil", "--players", "9"], "game.players = 9: allowed 2 to 6"),
        (["run", "find-dr-evil", "--players", "1"], "game.players = 1: allowed 2 to 6"),
        (["run", "find-dr-evil", "--set", "rules.pick_cap"], "expected key=value"),
        (["run", "find-dr-evil", "--set", "rules.pick_cap=many"], "rules.pick_cap=many: expected an integer"),
        (["run", "find-dr-evil", "--set", "rules.nope=1"], "unknown config key 'rules.nope'"),
        (["run", "find-dr-evil", "--config", "/nonexistent/x.toml"], "/nonexistent/x.toml does not exist"),
        (["run", "find-dr-evil", "--strategies", "genius"], "unknown strategy 'genius'"),
        (["run", "find-dr-evil", "--threads", "0"], "--threads 0: allowed 1 to"),
        (["run", "find-dr-evil", "--bogus"], "No such option"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(tmp_path, args, message):
    out = tmp_path / "run"
    res = runner.invoke(app, [*args, "--out", str(out)])
    assert res.exit_code == 2, res.output
    text = res.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error: ") and message in text, text
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_malformed_config_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\nplayers = ")
    res = runner.invoke(app, ["run", "find-dr-evil", "--config", str(bad), "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "is not valid TOML" in res.output and not (tmp_path / "r").exists()


def test_out_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "10", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "not a run folder simbalance wrote" in res.output
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_api_rejects_bad_arguments():
    with pytest.raises(simbalance.api.SimbalanceError, match="n = 0"):
        simbalance.simulate("find-dr-evil", 0)
    with pytest.raises(simbalance.api.SimbalanceError, match="seed = -1"):
        simbalance.simulate("find-dr-evil", 10, seed=-1)
    res = simbalance.simulate("find-dr-evil", 10, players=2)
    assert list(res.games.columns[:4]) == ["game", "winner", "winners", "length"]
    assert np.isin(res.games["winner"], [0, 1]).all()


def test_the_console_entry_point_flushes_its_output_and_keeps_exit_codes(tmp_path):
    """main() skips interpreter teardown (os._exit): output must still arrive, codes must hold."""
    import subprocess
    import sys

    entry = [sys.executable, "-m", "simbalance.cli.main"]
    ok = subprocess.run(entry + ["run", "find-dr-evil", "--n", "200", "--out", str(tmp_path / "r")],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "win rate by player" in ok.stdout and "report:" in ok.stdout + ok.stderr
    assert (tmp_path / "r" / "report.html").exists()
    bad = subprocess.run(entry + ["run", "find-dr-evil", "--n", "0"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("error:") and len(bad.stderr.strip().splitlines()) == 1
