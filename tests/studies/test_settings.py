"""One way to say a run (studies/settings.RunSettings): built once from the API's keywords or the CLI's
shared options, checked once, passed down whole; one progress convention for every study."""

from __future__ import annotations

import inspect

import pandas as pd
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app
from simbalance.cli.run_cmd import checkpoint_args, from_checkpoint_args
from simbalance.cli.settings_options import WHAT, WHERE
from simbalance.core.errors import SimbalanceError
from simbalance.studies import check, compare, ladder, robustness, skill, sweep, tournament, tune
from simbalance.studies.run_study import RunParams
from simbalance.studies.settings import RunSettings

GAME = "captain-action"  # fast, with strategies to choose from
STUDIES = [compare.compare, sweep.sweep, tournament.tournament, skill.skill, tune.tune, ladder.ladder,
           robustness.robustness, check.create_baseline]
SETTING_NAMES = ("players", "seed", "overrides", "variants", "config", "threads", "backend")


@pytest.mark.parametrize("study", STUDIES, ids=lambda f: f.__name__)
def test_no_study_declares_the_settings_again(study):
    """Each study takes the settings whole (a RunSettings, or its keywords) and its own parameters."""
    params = inspect.signature(study).parameters
    assert list(params)[0] == "game" and inspect.Parameter.VAR_KEYWORD in [p.kind for p in params.values()]
    assert not set(SETTING_NAMES) & set(params) - {"variants"}  # compare's variants are its arms
    assert "progress" in params and "progress_factory" not in params


@pytest.mark.parametrize(("settings", "words"), [
    (dict(game="no-such-game"), "unknown game 'no-such-game'"),
    (dict(game=GAME, seed=-1), "seed = -1: allowed a whole number from 0 to 2**64 - 1"),
    (dict(game=GAME, players="4"), "players = '4': expected a whole number"),
    (dict(game=GAME, threads=0), "threads = 0: allowed 1 to"),
    (dict(game=GAME, overrides="rules.turn_cap=5"), "overrides = 'rules.turn_cap=5': allowed key=value strings"),
    (dict(game=GAME, variants="no-repeat-pick"), "variants = 'no-repeat-pick': allowed a list of names"),
    (dict(game=GAME, backend="spark"), "backend = 'spark': allowed local, dask"),
    (dict(game=GAME, scheduler="tcp://h:1"), "scheduler = 'tcp://h:1': a scheduler is for backend = 'dask'"),
    (dict(game=GAME, backend="dask", dask_timeout=float("inf")), "dask_timeout = inf: allowed a number of seconds"),
    (dict(game=GAME, config=5), "config = 5: give the path of a TOML file"),
])
def test_bad_settings_are_one_line_errors_naming_the_setting(settings, words):
    with pytest.raises(SimbalanceError) as exc:
        RunSettings(**settings)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_an_unknown_keyword_names_every_setting_allowed():
    with pytest.raises(SimbalanceError, match="unknown setting sed: allowed players, seed, overrides, variants"):
        simbalance.tournament(GAME, "random,builder", 10, sed=1)


def test_keywords_and_settings_are_the_same_run():
    settings = RunSettings(GAME, seed=5, overrides={"rules.turn_cap": 300})
    assert settings.overrides == ("rules.turn_cap=300",)  # a dict is stored as the CLI's strings
    by_keywords = simbalance.tournament(GAME, "random,builder", 600, seed=5, overrides=["rules.turn_cap=300"])
    by_settings = simbalance.tournament(settings, "random,builder", 600)
    pd.testing.assert_frame_equal(by_keywords.matchups, by_settings.matchups)
    assert by_settings.result.plan.config["rules"]["turn_cap"] == 300
    assert RunSettings.of(settings) is settings and RunSettings.of(settings, seed=6).seed == 6


def test_a_resumed_request_plays_the_same_games_wherever_it_is_resumed():
    # a checkpoint stores its --out absolute (issue 54: a resume from another directory writes there)
    settings, params = RunSettings(GAME, seed=9, players=3, threads=1), RunParams(1000)
    again, params_again, out = from_checkpoint_args(checkpoint_args(settings, params, "/somewhere/r"), "x",
                                                    {"threads": 2, "backend": "local", "scheduler": None,
                                                     "dask_timeout": 60.0})
    assert again.identity == settings.identity and again.threads == 2
    assert params_again == params and out == "/somewhere/r"
    before, after = params.plan(settings), params_again.plan(again)
    assert after.lineup.slot_names == before.lineup.slot_names and after.config == before.config


PLAYING = ["run", "compare", "sweep", "tournament", "skill", "tune", "ladder", "robustness", "baseline"]


@pytest.mark.parametrize("command", PLAYING + ["replay"])
def test_every_command_that_plays_games_has_the_shared_options(command):
    help_text = CliRunner().invoke(app, [command, "--help"], terminal_width=200).output
    setup = {"--players", "--seed", "--set", "--config"} | ({"--variant"} if command != "compare" else set())
    where = {"--threads", "--backend", "--scheduler", "--dask-timeout"}
    assert all(option in help_text for option in setup), help_text
    assert all((option in help_text) == (command != "replay") for option in where), help_text
    assert "Game setup" in help_text


def test_the_shared_options_are_declared_once():
    """No command file declares a shared option itself (compare's --variant names its arms)."""
    from pathlib import Path

    import simbalance.cli as cli

    names = [f'    {name}: Annotated[' for name in {**WHAT, **WHERE}]
    for path in Path(cli.__file__).parent.glob("*_cmd.py"):
        text = path.read_text()
        if path.name == "check_cmd.py":  # check's --seed, --set, --config change a baseline's own setup
            text = text.split("def check(")[0]
        own = [n for n in names if n in text and not (path.name == "compare_cmd.py" and "variant" in n)]
        assert not own, f"{path.name} declares {own}"


def test_cli_errors_name_the_options_as_written(tmp_path):
    res = CliRunner().invoke(app, ["sweep", GAME, "--param", "rules.turn_cap=100,200", "--n", "10",
                                   "--dask-timeout", "inf", "--backend", "dask", "--out", str(tmp_path / "s")])
    assert res.exit_code == 2 and "--dask-timeout inf: allowed a number of seconds" in res.output
    assert not (tmp_path / "s").exists()


def test_one_progress_convention_a_display_per_labelled_run():
    shown = []

    class Display:
        def __init__(self, label):
            self.label, self.calls, self.closed = label, 0, False
            shown.append(self)

        def __call__(self, done, total, elapsed):
            self.calls += 1

        def close(self):
            self.closed = True

    simbalance.compare(GAME, [], 200, arms={"cap": ["rules.turn_cap=60"]}, progress=Display)
    simbalance.sweep(GAME, ["rules.turn_cap=60,90"], 200, recheck=1, progress=Display)
    simbalance.tournament(GAME, "random,builder", 200, progress=Display)
    simbalance.skill(GAME, 200, progress=Display)
    check.create_baseline(GAME, 200, progress=Display)
    labels = [d.label for d in shown]
    assert labels[:2] == [f"{GAME} [defaults]", f"{GAME} [cap]"]
    assert f"{GAME}: tournament" in labels and f"baseline {GAME}" in labels
    assert any(label.startswith(f"{GAME}: builder vs random") for label in labels)
    assert all(d.closed and d.calls > 0 for d in shown)


def test_a_checkpoint_written_before_run_moved_onto_the_contract_resumes():
    """The args a checkpoint stored through RunRequest (7c4827f): the same names, the sample's
    defaults stored even without --robust; they make the same run's settings and params."""
    old = {"settings": {"game": GAME, "players": 3, "seed": 9, "overrides": [], "variants": [], "config": None},
           "n": 1000, "strategies": None, "rotate": False, "chunk_size": None, "validate": False,
           "strategy_file": None, "out": "/somewhere/r", "games_file": True, "stream": None, "precision": None,
           "robust": False, "robust_budget": 100, "robust_precision": 0.03, "robust_n": 5000}
    place = {"threads": 1, "backend": "local", "scheduler": None, "dask_timeout": 60.0}
    settings, params, out = from_checkpoint_args(old, "x", place)
    assert (settings.seed, settings.players, params, out) == (9, 3, RunParams(1000), "/somewhere/r")
    robust = from_checkpoint_args({**old, "robust": True, "robust_n": 700}, "x", place)[1]
    assert (robust.robust, robust.robust_budget, robust.robust_n) == (True, 100, 700)
