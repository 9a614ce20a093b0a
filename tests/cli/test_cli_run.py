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


# ---------------------------------------------------------------- run on the study contract (issue 52)


def _one_line(res) -> str:
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in res.output, res.output
    return " ".join(res.output.split())


def test_no_stream_past_the_memory_is_one_line_before_any_game(tmp_path, monkeypatch):
    """``--no-stream`` with records that cannot fit: the one-line error run always meant to give (its
    check could not be reached: a MemoryError traceback, exit 1, on 7c4827f)."""
    monkeypatch.chdir(tmp_path)
    said = _one_line(runner.invoke(app, ["run", "find-dr-evil", "--n", "1e12", "--no-stream", "--out", "r"]))
    assert "--n 1,000,000,000,000 --no-stream: the records would not fit in memory" in said
    assert list(tmp_path.iterdir()) == []


def test_a_sample_count_that_is_no_number_is_refused_not_defaulted(tmp_path, monkeypatch):
    """``--robust-n abc`` (a count with no default of its own): one line naming it as typed (on
    7c4827f through RunRequest it was; through the declared params it must stay so, not fall back
    to the default 5,000)."""
    monkeypatch.chdir(tmp_path)
    said = _one_line(runner.invoke(app, ["run", "find-dr-evil", "--n", "10", "--robust", "--robust-n", "abc",
                                         "--out", "r"]))
    assert "--robust-n 'abc': expected a whole number of games" in said
    assert list(tmp_path.iterdir()) == []


def test_resume_names_the_option_as_typed(tmp_path):
    """An option that decides the result, given with --resume, is named by its flag (``--games``:
    it said ``--games-file``, a flag that does not exist)."""
    said = _one_line(runner.invoke(app, ["run", "--resume", str(tmp_path / "x.partial"), "--no-games"]))
    assert "--games cannot change an interrupted run" in said


def test_run_params_are_checked_once_whichever_way_they_come():
    """studies/run_study.RunParams: the one object of a run's own options, from the command line,
    the API and a checkpoint, each value checked there."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.studies.run_study import RunParams

    with pytest.raises(SimbalanceError, match="n = 0: expected a whole number of games"):
        RunParams(0)
    with pytest.raises(SimbalanceError, match="--robust-budget: only with --robust"):
        RunParams(100, robust_budget=5)
    with pytest.raises(SimbalanceError, match="--precision 0.7: allowed between 0 and 0.5"):
        RunParams(100, precision=0.7)
    assert RunParams(100, robust=True).without_robust() == RunParams(100)
    with pytest.raises(SimbalanceError, match="robust = True: find-dr-evil has no decisions"):
        simbalance.api.simulate("find-dr-evil", 100, robust=True)


def test_the_api_run_keeps_what_its_params_say(tmp_path):
    """simulate's keywords are run's options: a streamed run keeps no records, a precision target
    stops early, and ``games_file=False`` leaves the games out of the folder write_report writes."""
    streamed = simbalance.api.simulate("find-dr-evil", 2_000, seed=4, stream=True, threads=1)
    kept = simbalance.api.simulate("find-dr-evil", 2_000, seed=4, threads=1)
    assert streamed.records is None and kept.records is not None
    assert streamed.summary()["seats"] == kept.summary()["seats"]
    early = simbalance.api.simulate("find-dr-evil", 100_000, seed=4, precision=0.05, threads=1)
    assert early.n_played < 100_000
    folder = simbalance.api.write_report(simbalance.api.simulate("find-dr-evil", 300, games_file=False), tmp_path / "r")
    assert (folder / "report.html").exists() and not (folder / "games.parquet").exists()
