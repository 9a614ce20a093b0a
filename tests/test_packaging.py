"""The wheel carries what simbalance needs at run time (issue 20 item 4): the configs, variants,
presets, decks and baselines, and new-game's template; one version string; and it runs in a fresh
venv outside the checkout, with its declared dependencies installed by pip, where new-game's next
steps work as printed, and then a designer's whole first session with the new game
(tests/new_game_walk.py: new-game's end-to-end test)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from new_game_walk import walk_the_first_session
from venvs import CHECKOUT, Venv, clean_env, ok, run

import simbalance
from simbalance.core.config import CONFIG_DIR, config_dir
from simbalance.scaffold import template_files

IGNORED = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", "reports",
                                 ".pytest_cache", ".ruff_cache", ".hypothesis", "*.nbi", "*.nbc")


def test_one_version_string_and_numpy_2():
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    assert project["dynamic"] == ["version"] and "version" not in project  # read from simbalance/version.py
    assert "numpy>=2" in [d.split(";")[0].split("#")[0].strip() for d in project["dependencies"]]


def test_the_package_reads_the_top_level_configs():
    """In a checkout simbalance/configs is the top-level configs/ (a symlink): one set of files."""
    assert (CHECKOUT / "simbalance" / "configs").resolve() == (CHECKOUT / "configs").resolve() == CONFIG_DIR
    assert config_dir("captain-future") == CONFIG_DIR


def test_the_config_folder_can_be_moved(tmp_path):
    """$SIMBALANCE_CONFIG_DIR replaces the built-in games' folder."""
    shutil.copytree(CONFIG_DIR, tmp_path / "mine")
    path = tmp_path / "mine" / "find-dr-evil.toml"
    path.write_text(path.read_text().replace("pick_cap = 10000", "pick_cap = 4321"))
    code = "from simbalance.core.config import load_config; print(load_config('find-dr-evil')['rules']['pick_cap'])"
    env = clean_env(SIMBALANCE_CONFIG_DIR=str(tmp_path / "mine"), PYTHONPATH=str(CHECKOUT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "4321", out.stderr


@pytest.mark.exhaustive
def test_the_wheel_carries_the_configs_and_runs_outside_the_checkout(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(CHECKOUT, source, symlinks=True, ignore=IGNORED)  # as a fresh clone has it
    dist = tmp_path / "dist"
    ok(run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, source], cwd=tmp_path, timeout=300))
    wheel = next(dist.glob("simbalance-*.whl"))
    assert wheel.name.startswith(f"simbalance-{simbalance.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {n.removeprefix("simbalance/configs/") for n in names if n.startswith("simbalance/configs/")}
    expected = {str(p.relative_to(CONFIG_DIR)) for p in CONFIG_DIR.rglob("*") if p.is_file()}
    assert shipped == expected, f"missing {sorted(expected - shipped)}"
    package = Path(simbalance.__file__).resolve().parent
    assert {f"simbalance/{source.relative_to(package).as_posix()}" for source, _ in template_files()} <= names

    venv = Venv(tmp_path / "venv")
    ok(venv.pip("install", "-q", "--no-compile", wheel, timeout=600))  # and its dependencies, from the registry
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = ok(run([venv.python, "-c", "import simbalance.core.config as c; print(c.CONFIG_DIR)"], cwd=elsewhere))
    assert Path(where.stdout.strip()).is_relative_to(venv.folder), where.stdout
    simbalance_cli = venv.folder / "bin" / "simbalance"
    for game in ("find-dr-evil", "captain-future"):
        out = ok(run([simbalance_cli, "run", game, "--n", "1000", "--out", elsewhere / game], cwd=elsewhere))
        assert f"{game}: 1,000 games, 4 players" in out.stdout, out.stdout
        assert (elsewhere / game / "report.html").exists()
    games = ok(run([simbalance_cli, "games"], cwd=elsewhere, env=clean_env(COLUMNS="200")))
    assert games.stdout.count("built-in") == 5

    # new-game's `next:` steps, as printed, work there: the venv has no pytest until the game's test
    # extra brings it. (The venv has no pip of its own: this interpreter's pip installs into it.)
    printed = ok(run([simbalance_cli, "new-game", "trick-race"], cwd=elsewhere)).stdout
    steps = printed.split("next:\n", 1)[1].splitlines()
    assert [step.split()[0] for step in steps] == ["pip", "simbalance", "pytest"], printed
    assert not (venv.folder / "bin" / "pytest").exists()
    for step in steps:
        command, *args = shlex.split(step)
        if command == "pip":
            ok(run([sys.executable, "-m", "pip", "--python", venv.python, *args], cwd=elsewhere))
        else:
            done = ok(run([venv.folder / "bin" / command, *args], cwd=elsewhere, timeout=1200))
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout

    # and a designer's whole first session with the game, in this venv (its kernels compiled once)
    walk_the_first_session(venv, elsewhere, elsewhere / "trick-race")
