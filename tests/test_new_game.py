"""`simbalance new-game` (issue 20 item 2): the skeleton it writes. End to end, a designer's whole
first session (new-game, install, run, compare two of its variants, its own tests; then uninstall,
and the built-in games are unaffected) is tests/new_game_walk.py, walked in the fresh venv of
tests/test_packaging.py's wheel test (the exhaustive tier). (Bad names are rows of
tests/test_bad_inputs.py.)"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import itertools
import subprocess
import sys
import tomllib

import numpy as np
import pytest
from tiers import exhaustive
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError
from simbalance.scaffold import new_game, template_files

runner = CliRunner()
PLACEHOLDERS = ("my_game", "my-game", "My Game", "SIMBALANCE_VERSION", "PACKAGE", "GAME_ID")


def test_the_skeleton_carries_the_names(tmp_path):
    names, folder, files = new_game("trick-race", tmp_path / "tr")
    assert (names.game_id, names.package, names.title) == ("trick-race", "trick_race", "Trick Race")
    assert folder == tmp_path / "tr" and len(files) == len(template_files())
    rel = {f.relative_to(folder).as_posix() for f in files}
    assert {"pyproject.toml", ".gitignore", "README.md", "docs/rules.md", "tests/test_contract.py", "tests/test_rules.py",
            "tests/test_search.py", "trick_race/__init__.py", "trick_race/engine.py", "trick_race/state_nb.py",
            "trick_race/rules_nb.py", "trick_race/strategies_nb.py", "trick_race/play_nb.py", "trick_race/search_nb.py",
            "trick_race/validate_nb.py", "trick_race/replay.py", "trick_race/report.py",
            "trick_race/configs/trick-race.toml", "trick_race/configs/trick-race/presets.toml"} <= rel
    assert len([r for r in rel if r.startswith("trick_race/configs/trick-race/variants/")]) == 3
    for path in files:
        text = path.read_text()
        assert not [p for p in PLACEHOLDERS if p in text or p in str(path.relative_to(folder))], path
        if path.suffix == ".py":
            compile(text, str(path), "exec")
        if path.suffix == ".toml":
            tomllib.loads(text)
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["project"]["name"] == "trick-race"
    assert project["project"]["entry-points"]["simbalance.games"] == {"trick-race": "trick_race"}
    assert any(req.startswith("pytest") for req in project["project"]["optional-dependencies"]["test"])
    assert not list(tmp_path.glob(".tr.partial*"))


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is in the test extra")
def test_the_skeleton_is_clean_python(tmp_path):
    _, folder, _ = new_game("trick-race", tmp_path / "tr")
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "--select", "E,F,W,I,B,UP",
                          "--ignore", "E501", "--line-length", "110", "."], cwd=folder, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_new_game_says_what_to_do_next(tmp_path):
    (tmp_path / "empty").mkdir()  # an empty folder is fine
    res = runner.invoke(app, ["new-game", "trick-race", "--out", str(tmp_path / "empty")])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("wrote trick-race (Trick Race, package trick_race)")
    assert f"pip install -e '{tmp_path / 'empty'}[test]'" in res.output  # the test extra brings pytest
    assert "simbalance run trick-race --n 1e5" in res.output and f"pytest {tmp_path / 'empty'}" in res.output


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A new game made importable and registered as a plug-in in this process, as `pip install -e`
    would (a ``*.dist-info`` folder with its entry point beside it; tests/test_plugin_games.py),
    without compiling it; the registry and the imports forget it afterwards."""
    from simbalance.games import registry

    _, folder, _ = new_game("trick-race", tmp_path / "trick-race")
    info = folder / "trick_race-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: trick-race\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[simbalance.games]\ntrick-race = trick_race\n")
    monkeypatch.syspath_prepend(str(folder))
    registry.rescan()
    yield folder
    registry.rescan()
    for name in [m for m in sys.modules if m == "trick_race" or m.startswith("trick_race.")]:
        del sys.modules[name]


def test_a_new_game_seats_the_search_players_and_has_a_card_impact_table(installed):
    """mcts and flat are strategies of the new game from the start, their hooks its own search_nb.py
    (playing them compiles the search: the walk in tests/new_game_walk.py does, and the game's own tests
    run the contract's search checks); its report has a card-impact table's cards."""
    from simbalance.studies.settings import plan_run

    plan = plan_run("trick-race", 10, players=4, strategies=["mcts", "flat", "greedy", "random"], rotate=True)
    search = plan.engine.search
    assert search is not None and plan.engine.searches(plan.lineup) and plan.kernel is search.kernel
    assert {getattr(search, hook).py_func.__module__ for hook in ("determinize", "outcome", "evaluate", "features",
                                                                  "policy")} \
        == {"trick_race.search_nb"}
    labels, groups = plan.engine.cards.labels(plan.config)
    assert labels == [f"rank {r}" for r in range(1, 11)] and list(groups.values()) == [[7, 8, 9]]
    swap = plan.engine.card_swap  # simbalance card-value's hooks, its own card_value_nb.py
    assert swap is not None and swap.held.py_func.__module__ == "trick_race.card_value_nb"
    # the study kernels' cached entry points (players.game_kernel), its own too
    assert {swap.value_cards.py_func.__module__, swap.value_decisions.py_func.__module__} == {"trick_race.card_value_nb"}
    assert search.record_positions.py_func.__module__ == "trick_race.play_nb"


@exhaustive  # compiles a new game's kernels and study kernels (about 20 s)
def test_a_new_game_has_seat_compensation_and_knobs_like_the_built_in_games(installed):
    """issue 51 item 7: the [compensation] table (0 everywhere: the rules as printed, the same games)
    and the [knobs] solve searches, both read as the built-in games read theirs
    (core/config.seat_points, knobs_of); every knob is valid at both ends of its range, with 2 to 6
    players. A head start
    (a trick more, a trick less) moves that seat's win rate up (down), on the same deals as the rules
    as printed (common random numbers), by far more than the noise of 4,000 games (one compile of
    the game for all of it: the test stays in the everyday tier)."""
    import simbalance
    from simbalance.core.config import knobs_of, load_config, play_config
    from simbalance.studies.settings import plan_run

    cfg = load_config("trick-race")
    assert cfg["compensation"]["points"] == {str(s): 0 for s in range(1, 7)}
    assert cfg["compensation"]["later_seat_points"] == 0 and "compensation" not in play_config(cfg)
    knobs = knobs_of(cfg)
    assert {f"compensation.points.{s}" for s in range(1, 5)} <= set(knobs)
    for key, (low, high, _) in knobs.items():  # at every player count the game has
        for value, players in itertools.product((low, high), range(2, 7)):
            plan_run("trick-race", 1, players=players, overrides={key: value})

    def win_rate(seat: int, points: int) -> tuple[float, np.ndarray]:
        run = simbalance.simulate("trick-race", 4000, seed=5, validate=True,
                                  overrides={f"compensation.points.{seat}": points})
        return run.summary()["seats"][seat - 1]["win_rate"], run.records

    records = win_rate(1, 0)[1]
    assert (records == win_rate(4, 0)[1]).all()  # a compensation of 0 plays the printed games
    for seat in (1, 4):
        printed = win_rate(seat, 0)[0]
        ahead, behind = win_rate(seat, 1)[0], win_rate(seat, -1)[0]
        assert ahead > printed + 0.05 and behind < printed - 0.05, (seat, behind, printed, ahead)


@pytest.mark.parametrize("name, words", [
    ("trick_race", "not a valid game name"),
    ("-race", "not a valid game name"),
    ("race--track", "not a valid game name"),
    ("x" * 41, "at most 40 characters"),
    ("os", "a module named os can already be imported"),
    ("simbalance", "a module named simbalance"),
    ("lady-actions-escape", "a game of that id exists (built-in)"),
])
def test_bad_names(tmp_path, name, words):
    with pytest.raises(SimbalanceError, match=words.replace("(", r"\(").replace(")", r"\)")):
        new_game(name, tmp_path / "g")
    assert list(tmp_path.iterdir()) == []


def test_a_name_an_installed_plugin_claims_is_refused_without_running_it(tmp_path, monkeypatch):
    """The name is checked against the installed plug-ins' entry point names (their game ids): no
    plug-in's code runs, nor its probe, for a name check (issue 42 item 5)."""
    from simbalance.games import registry

    site = tmp_path / "site"
    (site / "racegame-0.1.dist-info").mkdir(parents=True)
    (site / "racegame-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: racegame\nVersion: 0.1\n")
    (site / "racegame-0.1.dist-info" / "entry_points.txt").write_text("[simbalance.games]\ntrick-race = race_pkg\n")
    (site / "race_pkg.py").write_text("from pathlib import Path\n\nPath(__file__).with_name('imported').touch()\n")
    monkeypatch.syspath_prepend(str(site))
    registry.rescan()
    try:
        with pytest.raises(SimbalanceError, match="the installed package racegame claims that id"):
            new_game("trick-race", tmp_path / "g")
    finally:
        registry.rescan()
    assert not (site / "imported").exists() and not (tmp_path / "g").exists()


def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch):
    import simbalance.scaffold as scaffold

    def half_written(names, folder):
        folder.mkdir(parents=True)
        (folder / "pyproject.toml").write_text("half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scaffold, "render", half_written)
    with pytest.raises(SimbalanceError, match="cannot write the game there: .*No space left on device"):
        new_game("trick-race", tmp_path / "games" / "mine" / "tr")
    assert list(tmp_path.iterdir()) == []
