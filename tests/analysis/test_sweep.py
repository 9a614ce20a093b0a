"""Sweeps: grid parsing, typed values, clear errors, and a small real sweep."""

import pytest
from typer.testing import CliRunner

from simbalance.analysis.sweep import grid, parse_param, targets_of
from simbalance.api import sweep
from simbalance.cli.main import app
from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError, SimbalanceError

CFG = load_config("find-dr-evil")


def test_ranges_include_their_stop_and_keep_the_type():
    assert parse_param("rules.pick_cap=4:16:4", CFG).values == (4, 8, 12, 16)
    assert parse_param("rules.pick_cap=10,20", CFG).values == (10, 20)
    assert parse_param("rules.repeat_after_pair=true,false", CFG).values == (True, False)
    assert len(grid([parse_param("rules.pick_cap=1:3:1", CFG), parse_param("rules.first_card_to=0,1", CFG)])) == 6


@pytest.mark.parametrize(
    "text, message",
    [
        ("rules.pick_cap", "expected key=start:stop:step or key=a,b,c"),
        ("rules.pick_cap=1:x:2", "expected key=start:stop:step"),
        ("rules.pick_cap=5:1:1", "expected key=start:stop:step"),
        ("rules.pick_cap=1.5,2", "takes whole numbers"),
        ("rules.repeat_after_pair=1,0", "expected true or false"),
        ("rules.pik_cap=1:2:1", "unknown config key 'rules.pik_cap' (did you mean rules.pick_cap?)"),
    ],
)
def test_bad_params(text, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        parse_param(text, CFG)


def test_targets_are_validated():
    assert targets_of({"targets": {"balance_min": 0.9}}) == {"balance_min": 0.9}
    with pytest.raises(ConfigError, match="targets.speed: unknown target"):
        targets_of({"targets": {"speed": 1}})


def test_every_point_is_validated_before_any_game():
    with pytest.raises(SimbalanceError, match="find-dr-evil needs exactly 1 Dr. Ling"):
        sweep("find-dr-evil", ["deck.wildcards.dr_ling=0:2:1"], 100)


def test_small_sweep_finds_and_rechecks_the_best_point():
    res = sweep("find-dr-evil", ["rules.first_card_to=0:3:1"], 4000, seed=5, recheck=2)
    assert list(res.table["rules.first_card_to"]) == [0, 1, 2, 3]
    assert len(res.rechecked) == 2 and (res.rechecked["seed"] != 5).all()
    best = res.table.sort_values(["shortfall", "balance"], ascending=[True, False]).iloc[0]
    assert res.rechecked["rules.first_card_to"].iloc[0] == best["rules.first_card_to"]
    assert res.table["balance"].between(0, 1).all()


def test_cli_sweep_two_params_writes_heatmaps(tmp_path):
    out = tmp_path / "sw"
    res = CliRunner().invoke(app, ["sweep", "find-dr-evil", "--param", "rules.first_card_to=0,1", "--param",
                                   "rules.repeat_min_holders=2:3:1", "--n", "2000", "--out", str(out)])
    assert res.exit_code == 0, res.output
    for name in ("sweep.html", "sweep.parquet", "rechecked.parquet", "balance_heatmap.png", "manifest.json"):
        assert (out / name).is_file(), name
