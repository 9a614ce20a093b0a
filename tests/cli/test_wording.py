"""Honest wording (issue 22, item 4): "dominates" needs a designer-meaningful margin and a CI, tune
prints exactly the parameter set it measured, the tuned strategy may sit in its own field, and
tune and skill take --config."""

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.analysis.tune import (
    DOMINANCE_MARGIN,
    DOMINATES,
    LOSES,
    NO_CLEAR,
    WINS_MORE,
    describe_edge,
    describe_gain,
    overall,
    rounded,
    standing,
)
from simbalance.api import tune
from simbalance.cli.main import app
from simbalance.core.aggregate import wilson
from simbalance.core.config import CONFIG_DIR
from simbalance.core.records import seat_share
from simbalance.core.rng import derive_seed

GAME = "captain-action"  # fast, and builder has four parameters


def _edge(rate: float, seat_games: int, players: int = 4) -> tuple[float, float, float]:
    """A planted per-seat win rate over ``seat_games``, as the tuner reads it: edge over 1/P, CI."""
    lo, hi = wilson(rate * seat_games, seat_games)
    fair = 1 / players
    return rate - fair, float(lo) - fair, float(hi) - fair


def test_the_default_margin_is_two_points():
    assert DOMINANCE_MARGIN == 0.02


@pytest.mark.parametrize("rate, seat_games, expected", [
    (0.2533, 10_000_000, WINS_MORE),  # +0.33 points, CI a few hundredths wide: real, but no domination
    (0.30, 10_000, DOMINATES),  # +5 points, CI about +/-0.9: dominates
    (0.26, 1_000, NO_CLEAR),  # the interval crosses the fair share
    (0.20, 10_000, LOSES),
    (0.275, 1_000_000, DOMINATES),  # +2.5 points with a tight CI: the whole interval clears the margin
    (0.27, 5_000, WINS_MORE),  # +2 points, but the CI's lower end is below the margin
])
def test_dominates_needs_the_margin_and_the_interval(rate, seat_games, expected):
    edge, lo, hi = _edge(rate, seat_games)
    assert standing(lo, hi) == expected
    text = describe_edge(edge, lo, hi)
    assert text.startswith(expected)
    if expected == WINS_MORE:
        assert "not clearly by the 2-point margin" in text


def test_the_margin_is_configurable():
    edge, lo, hi = _edge(0.30, 10_000)
    assert standing(lo, hi, margin=0.02) == DOMINATES
    assert standing(lo, hi, margin=0.06) == WINS_MORE
    assert describe_edge(0.0033, 0.0030, 0.0036).startswith("wins more than its share (+0.33 pp, 95% CI +0.30 pp")


def test_gain_over_the_default_reads_the_same_way():
    assert describe_gain(0.0033, 0.0010, 0.0056).startswith("better than the default, but not clearly by 2 points")
    assert describe_gain(0.05, 0.04, 0.06).startswith("better than the default by at least 2 points")
    assert describe_gain(0.0, -0.01, 0.01).startswith("no clear difference")
    assert describe_gain(-0.03, -0.04, -0.02).startswith("worse than the default")


def test_dominates_every_strategy_only_when_every_row_does():
    import pandas as pd

    rows = pd.DataFrame({"against": ["random", "bold"], "standing": [DOMINATES, WINS_MORE],
                         "dominates": [True, False]})
    text = overall(rows, 0.02)
    assert "dominates every" not in text
    assert text == ("the best found dominates random; wins more than its share against bold "
                    "(not clearly by the 2-point margin).")
    rows["standing"], rows["dominates"] = DOMINATES, True
    assert overall(rows, 0.02).startswith("the best found dominates every strategy tested")


def test_rounded_values_print_as_themselves():
    v = rounded(np.array([52.93640905637352, 3.25298711637409, -0.000123456, 1e9 / 3]))
    assert [float(f"{x:.4g}") for x in v] == v.tolist()


def test_tuned_strategy_may_sit_in_its_own_field():
    """--field builder while tuning builder: the candidate is a slot of its own beside default
    copies. At the default parameters it plays exactly the games of four default builders: its
    share is, game by game, the share of the seat it holds (seat g % 4)."""
    n = 400
    res = tune(GAME, "builder", n, field="builder", generations=1, population=2, seed=4, threads=1)
    assert res.field == ["builder"] * 3
    assert "builder" in set(res.dominance["against"])
    plain = simbalance.simulate(GAME, 2 * n, seed=derive_seed(4, "tune final"), strategies="builder", threads=1)
    winners = plain.games["winners"].to_numpy()
    seat = np.arange(2 * n) % 4
    share = np.choose(seat, [seat_share(winners, s) for s in range(4)])
    assert res.default_win_rate == pytest.approx(share.mean(), rel=1e-12)


def test_tune_prints_the_parameter_set_it_measured(tmp_path):
    """The preset tune prints, played again in a plain run on the final test's seed and games, gives
    exactly the reported win rate; the defaults are the config's own (--config, not clipped to a
    --range that leaves them out)."""
    text = (CONFIG_DIR / f"{GAME}.toml").read_text(encoding="utf-8")
    assert "take_gain = 4.0 " in text
    config = tmp_path / "mine.toml"
    config.write_text(text.replace("take_gain = 4.0 ", "take_gain = 5.0 "), encoding="utf-8")
    out = tmp_path / "tune"
    n, seed = 300, 7
    res = CliRunner().invoke(app, ["tune", GAME, "--strategy", "builder", "--n", str(n), "--generations", "2",
                                   "--population", "4", "--seed", str(seed), "--range", "call_score=10:30",
                                   "--config", str(config), "--threads", "1", "--out", str(out)],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    data = json.loads((out / "tune.json").read_text())
    assert (out / "tune.html").is_file() and (out / "findings.json").is_file()
    assert data["default"]["take_gain"] == 5.0 and data["default"]["call_score"] == 48.0
    assert "'dominates' = at least 2 points above the fair 25%" in res.output
    preset = dict(re.findall(r"^(\w+) = ([-+\d.e]+)$", res.output, flags=re.M))
    assert set(preset) == {"take_gain", "pair_weight", "call_score", "call_slope"}
    assert {k: float(v) for k, v in preset.items()} == data["best"]
    for k, v in preset.items():  # the table shows the same text
        assert re.search(rf"{k} .*{re.escape(v)} ", res.output)

    def replay(params: dict) -> float:
        run = simbalance.simulate(GAME, 2 * n, seed=derive_seed(seed, "tune final"), config=config, threads=1,
                                  strategies=["builder", "random", "random", "random"], rotate=True,
                                  overrides=[f"strategies.builder.{k}={v}" for k, v in params.items()])
        return next(r["win_rate"] for r in run.summary()["strategies"] if r["strategy"] == "builder")

    assert replay(preset) == pytest.approx(data["best_win_rate"], rel=1e-12)
    assert replay({k: repr(v) for k, v in data["default"].items()}) == pytest.approx(data["default_win_rate"],
                                                                                     rel=1e-12)


@pytest.mark.parametrize("args, message", [
    (["--margin", "2"], "for 2 points write 0.02"),
    (["--field", "nope"], "--field: unknown strategy 'nope'"),
    (["--config", "missing.toml"], "config file missing.toml does not exist"),
])
def test_bad_tune_input_is_one_line(args, message):
    res = CliRunner().invoke(app, ["tune", GAME, "--strategy", "builder", "--n", "100", *args])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], res.output


def test_skill_takes_a_config(tmp_path):
    text = (CONFIG_DIR / f"{GAME}.toml").read_text(encoding="utf-8")
    config = tmp_path / "three.toml"
    config.write_text(re.sub(r"^players = 4 ", "players = 3 ", text, flags=re.M), encoding="utf-8")
    out = tmp_path / "skill"
    res = CliRunner().invoke(app, ["skill", GAME, "--n", "200", "--config", str(config), "--threads", "1",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "skill.json").read_text())["players"] == 3
    assert (out / "skill.html").is_file() and json.loads((out / "manifest.json").read_text())["kind"] == "skill"


def test_tune_reports_progress_over_the_whole_tuning():
    """No silent minute: a tuning's progress counts every game it plays, candidates, final test and
    dominance table together, and ends at its total."""
    from simbalance.api import tune

    seen, labels = [], []

    def display(label):  # the one progress convention: a run's label -> its display
        labels.append(label)
        return lambda d, t, e: seen.append((d, t))

    tune(GAME, "builder", 200, generations=2, population=3, progress=display)
    assert labels == [f"tune {GAME}"]  # one display for the whole tuning
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1] and len({t for _, t in seen}) == 1


def test_tables_at_80_columns_fold_and_never_cut_a_value(tmp_path):
    """A CI log is 80 columns wide: a table cell that does not fit goes on the next line, whole
    (issue 41 item 5: "8.9e-…", "signif…" were cut short)."""
    runner = CliRunner()
    res = runner.invoke(app, ["compare", "find-dr-evil", "--variant", "no-repeat-pick", "--n", "4000",
                              "--out", str(tmp_path / "cmp")], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "no-repeat-pick against defaults" in res.output and "…" not in res.output
    length = res.output[res.output.index("│ length"):].splitlines()[:2]  # the row and the line it wraps onto
    assert length[1].count("picks") >= 3, "a length without its unit"
    assert all(len(line) <= 80 for line in res.output.splitlines())


def test_a_p_value_reads_the_same_everywhere_and_is_never_a_bare_zero():
    from simbalance.analysis.findings import p_value

    assert p_value(0.0) == "p < 1e-16" and p_value(0.0, cell=True) == "< 1e-16"
    assert p_value(0.01234) == "p = 0.012" and p_value(0.01234, cell=True) == "0.012"
    assert p_value(None) == "p n/a" and p_value(float("nan"), cell=True) == "n/a"


def test_the_first_player_advantage_is_a_difference_in_points(tmp_path):
    """Issue 41 item 5: '+28.27 %' was a difference of shares: percentage points, in the terminal and
    on the page."""
    res = CliRunner().invoke(app, ["run", "find-dr-evil", "--n", "2000", "--out", str(tmp_path / "r")],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert re.search(r"first-player advantage [+-]\d+\.\d\d pp \([+-]\d+\.\d\d to [+-]\d+\.\d\d pp\)", res.output)
    assert "all seats equal: p " in res.output
    page = (tmp_path / "r" / "report.html").read_text()
    assert re.search(r"[+-]\d+\.\d\d pp \(95% CI [+-]\d+\.\d\d pp to [+-]\d+\.\d\d pp\)", page)
