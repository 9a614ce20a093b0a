"""Variant comparisons: a planted effect is found, no effect is not, the test is calibrated."""

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.analysis.compare import holm, paired_test
from simbalance.api import compare
from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError
from simbalance.core.records import seat_share


def row(result, variant, metric):
    t = result.table
    return t[(t["variant"] == variant) & (t["metric"] == metric)].iloc[0]


def test_planted_effect_for_seat_0_is_found():
    # Dealing the first card to the dealer gives seat 0 the odd card: it wins more often.
    res = compare("find-dr-evil", ["deal-from-dealer"], 50_000, seed=3)
    r = row(res, "deal-from-dealer", "win rate seat 0")
    assert r["significant"] and r["diff"] > 0.005 and r["ci_low"] > 0
    assert abs(r["value"] - r["baseline"] - r["diff"]) < 1e-12


def test_identical_variant_shows_no_difference(tmp_path):
    same = tmp_path / "same.toml"
    same.write_text("[rules]\npick_cap = 10000\n")
    res = compare("find-dr-evil", [str(same)], 20_000, seed=4)
    assert not res.table["significant"].any()
    assert (res.table["diff"] == 0).all()  # common random numbers: the very same games
    assert res.warnings == [f"variant {same} changes nothing with 4 players: its games are the baseline's "
                            "(same rules, same players)"]


def test_a_variant_that_changes_only_another_player_count_is_flagged(tmp_path):
    """Issue 17: a variant setting only ships.4 compared identical games with 2 players, silently."""
    four_only = tmp_path / "four-only.toml"
    four_only.write_text("[ships]\n4 = 20\n")
    res = compare("captain-future", [str(four_only), "short-game"], 200, players=2, seed=1)
    assert res.warnings == [f"variant {four_only} changes nothing with 2 players: its games are the "
                            "baseline's (same rules, same players)"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_short_game_shortens_every_player_count(players):
    from simbalance.api import plan_run, same_games

    assert not same_games(plan_run("captain-future", 10, players=players, variants=["short-game"]),
                          plan_run("captain-future", 10, players=players))


def test_false_positive_rate_is_near_alpha():
    # Two independent arms of the same game: the paired test must reject about 5% of the time.
    n_tests, per = 300, 800
    a = simbalance.simulate("find-dr-evil", n_tests * per, seed=10).games["winners"].to_numpy()
    b = simbalance.simulate("find-dr-evil", n_tests * per, seed=11).games["winners"].to_numpy()
    xa, xb = seat_share(a, 0).reshape(n_tests, per), seat_share(b, 0).reshape(n_tests, per)
    rejections = sum(paired_test(xa[i], xb[i])["p_value"] < 0.05 for i in range(n_tests))
    assert 4 <= rejections <= 30  # 15 expected; these bounds hold with probability > 0.999


def test_holm_adjustment():
    assert np.allclose(holm(np.array([0.01, 0.04, 0.03])), [0.03, 0.06, 0.06])
    assert np.allclose(holm(np.array([0.5])), [0.5])


@pytest.mark.parametrize(
    "variants, message",
    [
        (["nope"], "unknown variant of find-dr-evil; known: deal-from-dealer"),
        (["no-repeat-pick", "no-repeat-pick"], "arm no-repeat-pick is given twice"),
        ([], "at least one arm: --variant NAME or --arm"),
    ],
)
def test_bad_variants(variants, message):
    with pytest.raises(SimbalanceError, match=message):
        compare("find-dr-evil", variants, 100)


def test_variant_with_an_unknown_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules]\nrepeat = false\n")
    with pytest.raises(SimbalanceError, match="variant .*bad.toml: unknown config key 'rules.repeat'"):
        compare("find-dr-evil", [str(bad)], 100)


def test_variant_changing_the_player_count_is_refused(tmp_path):
    three = tmp_path / "three.toml"
    three.write_text("[game]\nplayers = 3\n")
    with pytest.raises(SimbalanceError, match="same player count"):
        compare("find-dr-evil", [str(three)], 100)


def test_cli_compare_writes_its_folder(tmp_path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(app, ["compare", "find-dr-evil", "--variant", "no-repeat-pick", "--n", "5e3",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    for name in ("compare.html", "comparison.parquet", "forest.png", "arms.json", "manifest.json"):
        assert (out / name).is_file()
    assert "significant" in (out / "compare.html").read_text()
