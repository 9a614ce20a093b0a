"""A malformed baseline or report path is a one-line error (exit 2) found before any game is played."""

import json
import math

import pytest
from typer.testing import CliRunner

from simbalance.analysis.check import metric_names
from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.studies.check import create_baseline

runner = CliRunner()


@pytest.fixture(scope="module")
def good():
    return create_baseline("find-dr-evil", 2_000, seed=0)


def _set(path, value):
    def edit(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value
    return edit


def _delete(path):
    def edit(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        del data[last]
    return edit


def _rename(old, new):
    def edit(data):
        data["metrics"][new] = data["metrics"].pop(old)
    return edit


def _under_regular_file(tmp_path):
    (tmp_path / "plain").write_text("a file, not a directory")
    return ["--junit", str(tmp_path / "plain" / "check.xml")]


# (what is wrong, the baseline file's content or an edit of a good one, extra CLI args, words the error names)
CASES = [
    ("metrics empty", _set(["metrics"], {}), None, ["metrics = {}", "seat win rates"]),
    ("metrics a list", _set(["metrics"], ["win rate seat 0"]), None, ["metrics = ['win rate seat 0']", "table"]),
    ("metrics null", _set(["metrics"], None), None, ["metrics = None"]),
    ("file null", None, None, ["holds None", "JSON object"]),
    ("file a number", 5, None, ["holds 5", "JSON object"]),
    ("file a string", "find-dr-evil", None, ["holds 'find-dr-evil'", "JSON object"]),
    ("file a list", [1, 2], None, ["holds [1, 2]", "JSON object"]),
    ("metric without se", _delete(["metrics", "win rate seat 1", "se"]), None,
     ["metrics.'win rate seat 1'", "missing 'se'"]),
    ("NaN value", _set(["metrics", "balance", "value"], math.nan), None,
     ["metrics.'balance'.value = nan", "finite number"]),
    ("infinite se", _set(["metrics", "ties", "se"], math.inf), None, ["metrics.'ties'.se = inf", "finite"]),
    ("string margin", _set(["metrics", "timeouts", "margin"], "0.01"), None, ["metrics.'timeouts'.margin = '0.01'"]),
    ("no kind", _delete(["metrics", "mean length", "kind"]), None, ["metrics.'mean length'.kind = None"]),
    ("a kind that is no unit", _set(["metrics", "win rate seat 0", "kind"], "banana"), None,
     ["metrics.'win rate seat 0'.kind = 'banana'", "measured in 'share'"]),
    ("the length in shares", _set(["metrics", "mean length", "kind"], "share"), None,
     ["metrics.'mean length'.kind = 'share'", "measured in 'picks'"]),
    ("engine version a word", _set(["engine_version"], "two"), None, ["engine_version = 'two'", "whole number"]),
    ("renamed metric key", _rename("win rate seat 0", "seat 0 win rate"), None,
     ["metrics.'seat 0 win rate'", "unknown metric", "'win rate seat 0'"]),
    ("missing seat rate", _delete(["metrics", "win rate seat 3"]), None, ["missing 'win rate seat 3'", "4 seats"]),
    ("seat that does not exist", _rename("ties", "win rate seat 7"), None, ["metrics.'win rate seat 7'", "unknown"]),
    ("margin for an unknown metric", _set(["margins"], {"balnce": 0.02}), None, ["margins.'balnce'"]),
    ("margins a list", _set(["margins"], [0.02]), None, ["margins = [0.02]"]),
    ("unknown game", _set(["setup", "game"], "find-dr-good"), None,
     ["setup.game = 'find-dr-good'", "unknown game", "find-dr-evil"]),
    ("game not a string", _set(["setup", "game"], 5), None, ["setup.game = 5"]),
    ("setup null", _set(["setup"], None), None, ["setup = None"]),
    ("n a string", _set(["n"], "1e5"), None, ["n = '1e5'", "whole number"]),
    ("unknown strategy in setup", _set(["setup", "strategies"], "cheater"), None, ["setup:", "cheater"]),
    ("players out of range", _set(["setup", "players"], 99), None, ["setup:", "99"]),
    ("missing key", _delete(["config_hash"]), None, ["missing 'config_hash'"]),
    ("config not a path", _set(["setup", "config"], 5), None, ["setup.config = 5", "config file"]),
    ("config file missing", _set(["setup", "config"], "/no/such/fde.toml"), None, ["setup:", "/no/such/fde.toml"]),
    ("config for every game", None, ["--config", "/no/such/fde.toml"], ["/no/such/fde.toml", "on top of"]),
    ("other game than --game", None, ["--game", "aquaman"], ["setup.game = 'find-dr-evil'", "--game", "'aquaman'"]),
    ("junit under a regular file", None, _under_regular_file, ["--junit", "plain is not a directory"]),
    ("junit a directory", None, lambda tmp: ["--junit", str(tmp)], ["--junit", "is a directory"]),
]


@pytest.fixture
def nothing_played(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a game was played before validation finished")
    from simbalance.studies.run import SimulationResult  # every study plays through it

    monkeypatch.setattr(SimulationResult, "from_plan", refuse)


@pytest.mark.parametrize("name,content,args,words", CASES, ids=[c[0] for c in CASES])
def test_malformed_baseline_is_a_one_line_error_before_any_game(name, content, args, words, good, tmp_path,
                                                                nothing_played):
    data = json.loads(json.dumps(good))
    if callable(content):
        content(data)
    elif content is not None or name.startswith("file"):
        data = content
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data))
    extra = args(tmp_path) if callable(args) else (args or [])
    res = runner.invoke(app, ["check", str(path), "--n", "1000", *extra])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert sorted(p.name for p in tmp_path.iterdir()) <= ["baseline.json", "plain"]  # no report written


def test_a_file_named_for_another_game_is_an_error(good, tmp_path, nothing_played):
    path = tmp_path / "aquaman.json"  # configs/baselines/<game>.json names the game it is for
    path.write_text(json.dumps(good))
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 2 and res.output.startswith("error: "), res.output
    assert "setup.game = 'find-dr-evil'" in res.output and "file name expects 'aquaman'" in res.output


def test_a_bad_second_baseline_stops_the_check_before_the_first_runs(good, tmp_path, nothing_played):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(good))
    second.write_text("null")
    res = runner.invoke(app, ["check", str(first), str(second)])
    assert res.exit_code == 2 and "b.json" in res.output and "a game was played" not in res.output, res.output


def test_metric_names_are_what_a_baseline_holds(good):
    plan = plan_run("find-dr-evil", 10)
    assert list(good["metrics"]) == metric_names(plan.players, plan.lineup.slot_names)
    mixed = create_baseline("aquaman", 100, strategies="random,runner,random,runner")
    plan = plan_run("aquaman", 10, strategies="random,runner,random,runner")
    assert list(mixed["metrics"]) == metric_names(plan.players, plan.lineup.slot_names)


def test_a_subset_of_metrics_is_checked_and_reports_are_written_whole(good, tmp_path):
    data = json.loads(json.dumps(good))
    for key in ("balance", "mean length", "timeouts", "ties"):
        del data["metrics"][key]
    path = tmp_path / "seats-only.json"
    path.write_text(json.dumps(data))
    junit = tmp_path / "new" / "dir" / "check.xml"  # a missing directory is created
    res = runner.invoke(app, ["check", str(path), "--n", "2000", "--junit", str(junit)])
    assert res.exit_code == 0, res.output
    assert junit.read_text().count("name=\"win rate, player") == 4 and "name=\"ties\"" not in junit.read_text()
    assert [p.name for p in junit.parent.iterdir()] == ["check.xml"]


@pytest.mark.parametrize("game", ["aquaman", "captain-action", "captain-future", "find-dr-evil", "lady-actions-escape"])
def test_every_stored_baseline_matches_todays_resolved_config(game):
    """Issue 41 item 6: `check` of the project's own baselines from a clean checkout printed "note:
    resolved config changed". Cheap: the configs are compared, nothing is played. When a config or
    an engine changes on purpose, re-record: simbalance baseline --update configs/baselines/GAME.json."""
    from pathlib import Path

    from simbalance.studies.check import prepare_check

    prepared = prepare_check(Path("configs/baselines") / f"{game}.json")
    assert prepared.notes == [], f"{prepared.notes}: simbalance baseline --update configs/baselines/{game}.json"
