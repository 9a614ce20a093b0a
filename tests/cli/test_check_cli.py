"""`simbalance baseline --update FILE` re-records an accepted change; `check --set/--config` measures a
change against the stored baseline; bad input is one `error:` line with exit code 2."""

import json
import re

import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.studies.check import BASELINE_DIR, create_baseline

runner = CliRunner()
WIDE = {"COLUMNS": "200"}  # rich wraps table cells at the runner's 80 columns
OLD_TIME = "2000-01-01T00:00:00+00:00"


@pytest.fixture
def baseline_file(tmp_path):
    path = tmp_path / "fde.json"
    res = runner.invoke(app, ["baseline", "find-dr-evil", "--n", "2000", "--seed", "7", "--players", "3",
                              "--set", "rules.pick_cap=5000", "--out", str(path)])
    assert res.exit_code == 0, res.output
    return path


def test_update_rewrites_the_file_with_its_own_setup(baseline_file):
    recorded = json.loads(baseline_file.read_text())
    old = json.loads(json.dumps(recorded))
    # an old recording: another engine version, a balance the current code no longer plays, a hand-set
    # margin, a margins table and a key of the designer's own
    old.update(created_utc=OLD_TIME, engine_version=0, margins={"balance": 0.02}, owner="design team")
    old["metrics"]["balance"]["value"] = 0.5
    old["metrics"]["win rate seat 0"]["margin"] = 0.03
    del old["metrics"]["ties"]  # the file's choice of metrics is kept
    baseline_file.write_text(json.dumps(old))

    res = runner.invoke(app, ["baseline", "--update", str(baseline_file)], env=WIDE)
    assert res.exit_code == 0, res.output
    new = json.loads(baseline_file.read_text())
    assert new["setup"] == recorded["setup"] and new["n"] == 2000 and new["seed"] == 7
    assert new["setup"]["overrides"] == ["rules.pick_cap=5000"] and new["setup"]["players"] == 3
    assert new["created_utc"] != OLD_TIME and new["engine_version"] == recorded["engine_version"]
    assert new["metrics"]["balance"]["value"] == recorded["metrics"]["balance"]["value"]  # same seed, same games
    assert new["metrics"]["win rate seat 0"]["margin"] == 0.03 and new["margins"] == {"balance": 0.02}
    assert "ties" not in new["metrics"] and new["owner"] == "design team"
    # what changed, old -> new, in percent and points, and the engine version
    balance = recorded["metrics"]["balance"]["value"]
    row = rf"│ +balance │ +50\.00% │ +{balance:.2%} │ +\{(balance - 0.5) * 100:+.2f} pp │"
    assert re.search(row, res.output), res.output
    assert "engine version 0 -> " in res.output
    assert not list(baseline_file.parent.glob(".*.writing-*"))  # written whole


def test_an_updated_baseline_passes_its_check(baseline_file):
    data = json.loads(baseline_file.read_text())
    data["metrics"]["balance"]["value"] += 0.2  # a change the check calls worse...
    baseline_file.write_text(json.dumps(data))
    assert runner.invoke(app, ["check", str(baseline_file)]).exit_code == 1
    assert runner.invoke(app, ["baseline", "--update", str(baseline_file)]).exit_code == 0  # ...accepted
    res = runner.invoke(app, ["check", str(baseline_file)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("args,words", [
    (["find-dr-evil", "--update", "{file}"], ["give GAME or --update FILE, not both"]),
    ([], ["missing GAME", "--update FILE"]),
    (["find-dr-evil"], ["missing --out FILE"]),
    (["--update", "{dir}/nope.json"], ["--update", "nope.json", "no such baseline file"]),
    (["--update", "{dir}/corrupt.json"], ["corrupt.json cannot be read"]),
    (["--update", "{dir}/null.json"], ["null.json", "expected a JSON object"]),
    (["--update", "{dir}"], ["not a file"]),
    (["--update", "{file}", "--n", "100"], ["--n cannot be given with it"]),
    (["--update", "{file}", "--set", "rules.pick_cap=3", "--seed", "1"], ["--seed, --set cannot be given"]),
])
def test_baseline_bad_input_is_one_line(args, words, baseline_file):
    folder = baseline_file.parent
    (folder / "corrupt.json").write_text("{")
    (folder / "null.json").write_text("null")
    before = baseline_file.read_text()
    res = runner.invoke(app, ["baseline", *[a.format(file=baseline_file, dir=folder) for a in args]])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert baseline_file.read_text() == before


def test_check_set_measures_a_rule_change_against_the_baseline(baseline_file):
    res = runner.invoke(app, ["check", str(baseline_file), "--set", "rules.pick_cap=3"], env=WIDE)
    assert res.exit_code == 1, res.output
    assert "differs from the baseline's by --set rules.pick_cap=3" in res.output
    assert "the baseline is unchanged; to adopt the change" in res.output
    assert "timeouts worse" in res.output  # nearly every game times out after 3 picks
    assert re.search(r"│ +timeouts │ +lower is better │ +0\.00% │ +9\d\.\d\d% │ +\+9\d\.\d\d pp │ +1\.00 pp │", res.output)
    assert json.loads(baseline_file.read_text())["setup"]["overrides"] == ["rules.pick_cap=5000"]  # unchanged

    bad = runner.invoke(app, ["check", str(baseline_file), "--set", "rules.nope=3"])
    assert bad.exit_code == 2 and bad.output.startswith("error: ") and "rules.nope" in bad.output
    assert "--set rules.nope=3 on top of the baseline's setup" in bad.output


def test_config_is_stored_in_the_setup_and_check_config_replaces_it(tmp_path):
    from simbalance.core.config import CONFIG_DIR

    text = (CONFIG_DIR / "find-dr-evil.toml").read_text()
    assert "pick_cap = 10000" in text
    mine, short = tmp_path / "mine.toml", tmp_path / "short.toml"
    mine.write_text(text)
    short.write_text(text.replace("pick_cap = 10000", "pick_cap = 3"))
    path = tmp_path / "b.json"
    res = runner.invoke(app, ["baseline", "find-dr-evil", "--n", "2000", "--config", str(mine), "--out", str(path)])
    assert res.exit_code == 0, res.output
    assert json.loads(path.read_text())["setup"]["config"] == str(mine)
    assert "config" not in create_baseline("find-dr-evil", 100)["setup"]  # only when given

    same = runner.invoke(app, ["check", str(path), "--n", "2000"])
    assert same.exit_code == 0, same.output
    changed = runner.invoke(app, ["check", str(path), "--n", "2000", "--config", str(short)], env=WIDE)
    assert changed.exit_code == 1 and f"--config {short} (the baseline used {mine})" in changed.output

    two_games = runner.invoke(app, ["check", str(path), str(BASELINE_DIR / "aquaman.json"), "--config", str(short)])
    assert two_games.exit_code == 2 and "one game's" in two_games.output


def test_check_without_files_checks_only_the_projects_own_baselines(tmp_path, monkeypatch):
    """Issue 54: `check` without files re-checked the baselines simbalance ships (88 s), so a
    designer's CI could fail on a simbalance upgrade. Now: the working directory's
    configs/baselines/ only; simbalance's own with --shipped."""
    monkeypatch.chdir(tmp_path)
    none = runner.invoke(app, ["check", "--n", "2000"])
    assert none.exit_code == 2 and "no baselines in configs/baselines/" in " ".join(none.output.split()), none.output
    assert "--shipped" in none.output
    own = tmp_path / "configs" / "baselines"
    own.mkdir(parents=True)
    made = runner.invoke(app, ["baseline", "find-dr-evil", "--n", "2000", "--out", str(own / "mine.json")])
    assert made.exit_code == 0, made.output
    res = runner.invoke(app, ["check", "--n", "2000"], env=WIDE)
    assert res.exit_code == 0, res.output
    assert "mine.json" in res.output and "all 1 baseline(s) pass" in res.output
    both = runner.invoke(app, ["check", str(own / "mine.json"), "--shipped"])
    assert both.exit_code == 2 and "give baseline files or --shipped, not both" in both.output
