"""The regression gate: a planted regression fails, noise passes, exit codes and CI outputs."""

import json

import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.studies.check import create_baseline, run_check

runner = CliRunner()


@pytest.fixture(scope="module")
def base_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("b") / "fde.json"
    path.write_text(json.dumps(create_baseline("find-dr-evil", 50_000, seed=0)))
    return path


def edited(base_file, tmp_path, edit):
    data = json.loads(base_file.read_text())
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return path


def test_unchanged_rules_pass_on_fresh_seeds(base_file):
    passed = sum(run_check(base_file, n=10_000, seed=s).passed for s in range(1, 41))
    assert passed >= 38  # the gate's false-alarm rate is at most 5% per baseline


def test_a_planted_shift_of_a_few_points_fails(base_file, tmp_path):
    def shift(data):
        data["metrics"]["win rate seat 0"]["value"] += 0.04
    res = run_check(edited(base_file, tmp_path, shift))
    assert not res.passed
    failing = [m.metric for m in res.metrics if m.status == "REGRESSION"]
    assert failing == ["win rate seat 0"]


def test_a_rule_change_fails_and_is_reported(base_file, tmp_path):
    def change(data):
        data["setup"]["variants"] = ["no-repeat-pick"]
    res = run_check(edited(base_file, tmp_path, change))
    assert not res.passed
    assert any("resolved config changed" in note for note in res.notes)


def test_designer_bounds_are_enforced(base_file, tmp_path):
    def tight(data):
        data["setup"]["overrides"] = ["bounds.length_median=[30, 40]"]
    res = run_check(edited(base_file, tmp_path, tight))
    assert not res.passed and not any(ok for bound, _, ok in res.bounds if "median" in bound)


def test_cli_exit_codes_and_ci_reports(base_file, tmp_path):
    junit, md = tmp_path / "j.xml", tmp_path / "m.md"
    ok = runner.invoke(app, ["check", str(base_file), "--n", "2e4", "--junit", str(junit), "--markdown", str(md)])
    assert ok.exit_code == 0, ok.output
    assert "<testsuite" in junit.read_text() and "failures=\"0\"" in junit.read_text()
    assert "| win rate seat 0 |" in md.read_text()

    def shift(data):
        data["metrics"]["balance"]["value"] -= 0.1
    bad = runner.invoke(app, ["check", str(edited(base_file, tmp_path, shift)), "--n", "2e4"])
    assert bad.exit_code == 1 and "balance regression" in bad.output

    missing = runner.invoke(app, ["check", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    same_seed = runner.invoke(app, ["check", str(base_file), "--seed", "0"])
    assert same_seed.exit_code == 2 and "fresh seeds" in same_seed.output


@pytest.mark.slow
def test_committed_baselines_pass():
    # The project's own gate: every committed baseline, at a quick n, against the current engines.
    res = runner.invoke(app, ["check", "--n", "2e4"])
    assert res.exit_code == 0, res.output
