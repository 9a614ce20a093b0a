"""Issue 22 item 2: a change without a file. Inline arms (``compare --arm``), ``--config`` on the
commands that play games, and the designer's own targets (``--set targets.*``, ``sweep --target``)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simbalance.analysis.sweep import parse_target, targets_of
from simbalance.api import compare, sweep
from simbalance.cli.main import app
from simbalance.core.config import apply_overrides, load_config
from simbalance.core.errors import ConfigError
from simbalance.core.variants import parse_arm

runner = CliRunner()


def test_an_arm_is_a_name_and_its_overrides_and_list_values_keep_their_commas():
    assert parse_arm("big-hand:rules.hand_size=12, rules.draw=2") == ("big-hand", ["rules.hand_size=12", "rules.draw=2"])
    assert parse_arm("band:targets.length_median=[5, 6],rules.x=true") == (
        "band", ["targets.length_median=[5, 6]", "rules.x=true"])
    for bad in ("rules.x=1", "name:", ":rules.x=1", "na me:rules.x=1", "a:rules.x"):
        with pytest.raises(ConfigError, match="--arm"):
            parse_arm(bad)


def test_targets_and_bounds_can_be_set_on_a_config_without_them():
    cfg = load_config("captain-future")
    assert "targets" not in cfg
    out = apply_overrides(cfg, ["targets.length_median=[55, 60]", "targets.balance_min=0.9",
                                "bounds.seat_win_rate_min=0.2"])
    assert out["targets"] == {"length_median": [55.0, 60.0], "balance_min": 0.9}
    assert out["bounds"]["seat_win_rate_min"] == 0.2 and out["bounds"]["timeouts_max"] == 0.01  # kept
    assert "targets" not in cfg  # the loaded config is not changed
    with pytest.raises(ConfigError, match="unknown config key 'targets.speed'.*allowed keys: targets.balance_min"):
        apply_overrides(cfg, ["targets.speed=1"])
    with pytest.raises(ConfigError, match="low <= high"):
        apply_overrides(cfg, ["targets.length_median=[60, 55]"])
    with pytest.raises(ConfigError, match="expected a number"):
        apply_overrides(cfg, ["targets.balance_min=high"])


def test_a_target_on_the_command_line_is_the_override_of_its_key():
    assert parse_target("length_median=55:60") == "targets.length_median=[55.0, 60.0]"
    assert parse_target("length_median=[55, 60]") == "targets.length_median=[55.0, 60.0]"
    assert parse_target("balance_min=0.9") == "targets.balance_min=0.9"
    cfg = apply_overrides(load_config("captain-future"), [parse_target("length_median=55:60")])
    assert targets_of(cfg) == {"balance_min": 1.0, "length_median": [55.0, 60.0]}
    for bad, words in (("length_median=60:55", "low <= high"), ("balance_min=x", "takes a number"),
                       ("speed=3", "unknown target"), ("length_median", "expected name=value")):
        with pytest.raises(ConfigError, match=words):
            parse_target(bad)
    with pytest.raises(ConfigError, match="allowed 0 to 1"):
        targets_of(apply_overrides(load_config("captain-future"), ["targets.balance_min=1.5"]))


def test_an_inline_arm_plays_exactly_the_games_of_the_variant_file_it_copies():
    # no-repeat-pick.toml sets rules.repeat_after_pair = false: the same change written inline
    res = compare("find-dr-evil", ["no-repeat-pick"], 3000, arms={"inline": {"rules.repeat_after_pair": False}},
                  seed=5)
    file_rows = res.table[res.table["variant"] == "no-repeat-pick"].drop(columns="variant").reset_index(drop=True)
    inline_rows = res.table[res.table["variant"] == "inline"].drop(columns="variant").reset_index(drop=True)
    assert file_rows.equals(inline_rows)
    assert res.significant()["variant"].nunique() == 2  # the rule change is real: both arms see it
    assert res.changes["inline"] == "rules.repeat_after_pair=false"
    assert "rules.repeat_after_pair=false" in res.changes["no-repeat-pick"]
    assert res.changes["defaults"] == "the game's defaults"


def test_an_arm_applies_on_top_of_the_chosen_baseline_variant():
    res = compare("find-dr-evil", None, 2000, baseline="no-repeat-pick",
                  arms={"same": ["rules.repeat_after_pair=false"]})
    assert res.warnings and "changes nothing" in res.warnings[0]  # the arm repeats the baseline's own change


def test_config_file_applies_to_every_arm(tmp_path):
    cfg = tmp_path / "mine.toml"
    text = (load_config.__globals__["CONFIG_DIR"] / "find-dr-evil.toml").read_text()
    cfg.write_text(text.replace("players = 4 ", "players = 3 "))
    res = compare("find-dr-evil", None, 500, arms={"a": {"rules.repeat_min_holders": 2}}, config=cfg)
    assert res.baseline.plan.players == 3 and res.arms["a"].plan.players == 3


def test_sweep_aims_for_the_targets_given_on_the_command_line(tmp_path):
    res = sweep("find-dr-evil", ["rules.repeat_min_holders=2:3:1"], 500, recheck=0,
                targets=["length_median=18:20", "balance_min=0.5"])
    assert res.targets == {"balance_min": 0.5, "length_median": [18.0, 20.0]}
    cli = runner.invoke(app, ["sweep", "find-dr-evil", "--param", "rules.repeat_min_holders=2:3:1", "--n", "300",
                              "--recheck", "0", "--target", "length_median=1:2", "--out", str(tmp_path / "s")])
    assert cli.exit_code == 0, cli.output
    assert "targets: balance at least 95.00%, median length 1 to 2" in " ".join(cli.output.split())


def test_compare_cli_mixes_variants_and_arms_and_names_what_each_changes(tmp_path):
    res = runner.invoke(app, ["compare", "find-dr-evil", "--variant", "no-repeat-pick", "--arm",
                              "holders:rules.repeat_min_holders=2", "--n", "300", "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    page = (tmp_path / "c" / "compare.html").read_text()
    assert "rules.repeat_min_holders=2" in page and "holders" in page
    assert "rules.repeat_after_pair=false" in page


def test_replay_takes_the_runs_config_file(tmp_path):
    """A game played with --config replays with the same --config (three players here, not four)."""
    text = (load_config.__globals__["CONFIG_DIR"] / "find-dr-evil.toml").read_text()
    cfg = tmp_path / "three.toml"
    cfg.write_text(text.replace("players = 4 ", "players = 3 "))
    res = runner.invoke(app, ["replay", "find-dr-evil", "--seed", "2", "--game", "1", "--config", str(cfg)])
    default = runner.invoke(app, ["replay", "find-dr-evil", "--seed", "2", "--game", "1"])
    three = runner.invoke(app, ["replay", "find-dr-evil", "--seed", "2", "--game", "1", "--players", "3"])
    assert res.exit_code == 0, res.output
    assert res.output == three.output != default.output
