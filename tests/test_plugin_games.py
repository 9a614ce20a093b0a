"""Games as plug-ins (issue 20 item 1): a package on the path that declares an entry point in the
group ``simbalance.games`` is found like a built-in game, with its origin and its own config folder.
A plug-in that fails to import, defines no SPEC, or whose id another game has is one line naming
its package, and the other games still work.

The plug-ins here are made on the spot: a ``*.dist-info`` folder (METADATA, entry_points.txt) and a
module beside it on ``sys.path``, which is all importlib.metadata reads. The working one seats
find-dr-evil's engine under another id, so nothing compiles beyond what the suite compiles anyway.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from tiers import everyday_first
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app
from simbalance.core.config import CONFIG_DIR, config_dir, load_config
from simbalance.core.errors import SimbalanceError
from simbalance.core.variants import available_variants
from simbalance.games import registry
from simbalance.studies.check import shipped_baselines

runner = CliRunner()

FAKE_SPEC = '''
from simbalance.core.spec import GameSpec

SPEC = GameSpec(id={id!r}, title="Fake", summary="find-dr-evil's engine as a plug-in", min_players=2,
                max_players=6, engine="simbalance.games.find_dr_evil.engine", length_unit="picks")
'''


def add_dist(site: Path, dist: str, entry_points: dict[str, str]) -> None:
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simbalance.games]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))


def add_package(site: Path, name: str, init: str) -> Path:
    package = site / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(init)
    return package


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A folder on sys.path for made-up plug-in packages; the registry forgets them afterwards."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    registry.rescan()
    before = set(sys.modules)
    yield folder
    registry.rescan()
    for name in set(sys.modules) - before:
        if name.startswith(("fake_", "broken_")):
            del sys.modules[name]


def fake_game(site: Path, dist: str = "fakegame", game_id: str = "fake-evil", package: str = "fake_evil") -> Path:
    """A working plug-in: find-dr-evil's engine and a copy of its config (pick cap 777) and
    variants in the package's own configs/."""
    pkg = add_package(site, package, FAKE_SPEC.format(id=game_id))
    configs = pkg / "configs"
    (configs / game_id).mkdir(parents=True)
    text = (CONFIG_DIR / "find-dr-evil.toml").read_text().replace("pick_cap = 10000", "pick_cap = 777")
    (configs / f"{game_id}.toml").write_text(text)
    shutil.copytree(CONFIG_DIR / "find-dr-evil" / "variants", configs / game_id / "variants")
    add_dist(site, dist, {game_id: package})
    return pkg


def test_a_plugin_game_is_found_with_its_origin_and_its_own_configs(site, tmp_path):
    pkg = fake_game(site)
    spec = registry.get_game("fake-evil")
    assert spec.origin == "plug-in fakegame 0.1" and not spec.builtin
    assert config_dir("fake-evil") == pkg / "configs" and config_dir("find-dr-evil") == CONFIG_DIR
    assert load_config("fake-evil")["rules"]["pick_cap"] == 777
    assert available_variants("fake-evil") == available_variants("find-dr-evil")
    assert "fake-evil" not in registry.builtin_games()
    res = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "fake-evil" in res.output and "plug-in fakegame 0.1" in res.output and "built-in" in res.output
    result = simbalance.simulate("fake-evil", 500, seed=3, variants=["no-repeat-pick"])
    assert result.plan.config["rules"]["pick_cap"] == 777 and not result.plan.config["rules"]["repeat_after_pair"]
    same = simbalance.simulate("find-dr-evil", 500, seed=3, variants=["no-repeat-pick"], overrides={"rules.pick_cap": 777})
    assert (result.records == same.records).all()  # the same engine and rules: the same games
    (pkg / "configs" / "baselines").mkdir()
    (pkg / "configs" / "baselines" / "fake-evil.json").write_text("{}")
    assert pkg / "configs" / "baselines" / "fake-evil.json" in shipped_baselines()
    out = tmp_path / "run"
    res = runner.invoke(app, ["run", "fake-evil", "--n", "300", "--out", str(out), "--quiet", "--no-games"])
    assert res.exit_code == 0, res.output
    assert json.loads((out / "manifest.json").read_text())["game_origin"] == "plug-in fakegame 0.1"
    assert "plug-in fakegame 0.1" in (out / "report.html").read_text()


def test_a_plugin_that_fails_to_import_is_one_line_and_the_others_work(site, tmp_path):
    add_dist(site, "brokengame", {"broken": "broken_mod"})
    (site / "broken_mod.py").write_text("import a_module_nobody_has\n")
    fake_game(site)
    res = runner.invoke(app, ["games"], env={"COLUMNS": "200"})
    assert res.exit_code == 2
    errors = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert errors == ["error: plug-in game 'broken' of package brokengame (entry point broken_mod): cannot be "
                      "imported: ModuleNotFoundError: No module named 'a_module_nobody_has'"]
    assert "find-dr-evil" in res.output and "fake-evil" in res.output  # the table is there all the same
    res = runner.invoke(app, ["run", "broken", "--n", "10", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and res.output.strip() == errors[0]
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "200", "--out", str(tmp_path / "ok"), "--quiet"])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("what", ["clash with a built-in", "clash between plug-ins", "no SPEC", "raises on import"])
def test_an_unusable_plugin_names_its_package(site, what):
    if what == "clash with a built-in":
        fake_game(site, dist="evilclone", game_id="find-dr-evil", package="fake_clone")
        expected = ["plug-in game 'find-dr-evil' of package evilclone: the id is the built-in game's"]
    elif what == "clash between plug-ins":
        fake_game(site, dist="fakeone", package="fake_one")
        fake_game(site, dist="faketwo", package="fake_two")
        expected = ["plug-in game 'fake-evil' of package fakeone: package faketwo has a game of that id too",
                    "plug-in game 'fake-evil' of package faketwo: package fakeone has a game of that id too"]
    elif what == "no SPEC":
        add_package(site, "fake_empty", "TITLE = 'no spec here'\n")
        add_dist(site, "emptygame", {"empty": "fake_empty"})
        expected = ["plug-in game 'empty' of package emptygame (entry point fake_empty): fake_empty defines no SPEC"]
    else:
        add_package(site, "broken_raises", "raise RuntimeError('my game is not ready')\n")
        add_dist(site, "raisinggame", {"raising": "broken_raises"})
        expected = ["plug-in game 'raising' of package raisinggame (entry point broken_raises): cannot be imported: "
                    "RuntimeError: my game is not ready"]
    problems = [p.message for p in registry.plugin_problems()]
    assert len(problems) == len(expected)
    for message, start in zip(sorted(problems), expected, strict=True):
        assert message.startswith(start) and "\n" not in message, message
    games = registry.all_games()
    assert games["find-dr-evil"].builtin and "fake-evil" not in games
    assert set(registry.builtin_games()) == {"find-dr-evil", "captain-action", "lady-actions-escape", "aquaman",
                                             "captain-future"}


def test_without_plugins_nothing_changes(site):
    assert registry.plugin_problems() == []
    assert registry.all_games() == registry.builtin_games()
    with pytest.raises(SimbalanceError, match="unknown game 'fake-evil'"):
        registry.get_game("fake-evil")


# A plug-in game whose engine module is hostile (issue 42 item 5): its package's SPEC is fine, so the
# registry lists it, and the run meets the engine only when it imports it to play.
HOSTILE_KERNEL = '''
import dataclasses

from numba import njit

from simbalance.games.find_dr_evil.engine import ENGINE as FIND_DR_EVIL


@njit
def kernel(out, lo, hi, *rest):
    {body}


ENGINE = dataclasses.replace(FIND_DR_EVIL, kernel=kernel, module=__name__)
'''
HOSTILE_ENGINES = {
    # what the engine does: (the engine module's text, the words of the one line)
    "exits when imported": ("import os\nos._exit(0)\n", "ended (exit 0) before it answered: does its package or its engine call os._exit"),
    "interrupts when imported": ("raise KeyboardInterrupt\n", "failed (exit 3): KeyboardInterrupt"),
    "is killed when imported": ("import os\nimport signal\n\nos.kill(os.getpid(), signal.SIGKILL)\n", "was killed by SIGKILL"),
    "loops when imported": ("while True:\n    pass\n", "did not finish within 5 s: does its package or its engine loop"),
    "a game that loops": (HOSTILE_KERNEL.format(body="while True:\n        pass"), "did not finish within 5 s"),
    "a game that raises": (HOSTILE_KERNEL.format(body="raise ValueError('my game gave up')"),
                           "failed (exit 3): ValueError: my game gave up"),
}


def hostile_game(site: Path, engine_text: str) -> None:
    """A plug-in 'fake-hostile' (package hostilegame) whose engine module is ``engine_text``."""
    package = add_package(site, "fake_hostile", FAKE_SPEC.format(id="fake-hostile").replace(
        "simbalance.games.find_dr_evil.engine", "fake_hostile.engine"))
    (package / "engine.py").write_text(engine_text)
    (package / "configs").mkdir()
    shutil.copy(CONFIG_DIR / "find-dr-evil.toml", package / "configs" / "fake-hostile.toml")
    add_dist(site, "hostilegame", {"fake-hostile": "fake_hostile"})


@pytest.mark.parametrize("case", HOSTILE_ENGINES)
def test_a_plugin_game_is_probed_before_it_is_trusted(site, tmp_path, monkeypatch, case):
    """An engine that would end the run silently (exit 0, nothing written), interrupt it, hang it or
    raise in it is probed in a process of its own first, and refused in one line naming the game
    and its package."""
    text, words = HOSTILE_ENGINES[case]
    hostile_game(site, text)
    # 5 s where the engine loops (the words name the limit); elsewhere room for a loaded machine, where
    # the probe's own import of simbalance can take longer than 5 s (CI runs two workers)
    monkeypatch.setenv("SIMBALANCE_PROBE_SECONDS", "5" if "within 5 s" in words else "120")
    res = runner.invoke(app, ["run", "fake-hostile", "--n", "20", "--out", str(tmp_path / "r")])
    line = res.output.strip()
    assert res.exit_code == 2 and len(line.splitlines()) == 1, (res.output, res.exception)
    assert line.startswith("error: plug-in game 'fake-hostile' of package hostilegame 0.1: the probe"), line
    assert words in line, line
    assert not (tmp_path / "r").exists() and not list(tmp_path.glob("r*"))


def test_listing_a_plugins_strategies_probes_it_first(site, monkeypatch):
    """`simbalance strategies` imports the engine too: an engine that interrupts there is one line, not
    a command that stops with exit 130 and no word."""
    hostile_game(site, HOSTILE_ENGINES["interrupts when imported"][0])
    res = runner.invoke(app, ["strategies", "fake-hostile"])
    line = res.output.strip()
    assert res.exit_code == 2 and line.startswith("error: plug-in game 'fake-hostile'"), line
    assert "KeyboardInterrupt" in line, line


def test_a_plugin_game_is_probed_once_and_a_builtin_never(site, monkeypatch):
    """The probe costs a process of its own (about a second): once per plug-in game and process (a
    sweep plans hundreds of runs), never for a built-in game."""
    from simbalance.core import probe

    fake_game(site)
    children = []
    real_run = probe.subprocess.run
    monkeypatch.setattr(probe.subprocess, "run", lambda command, **kw: children.append(command) or real_run(command, **kw))
    simbalance.simulate("find-dr-evil", 50, seed=1)
    assert children == []
    for seed in (1, 2):
        simbalance.simulate("fake-evil", 50, seed=seed)
    assert [c[-2:] for c in children] == [["game", "fake-evil"]]


def test_a_plugin_whose_players_search_is_probed_with_a_heuristic(site, monkeypatch):
    """Search players, run as Python, take minutes (captain-future's mcts: over 200 s for 5 games):
    when a plug-in's default lineup seats one, the probe seats the game's first heuristic instead and
    answers in a few seconds."""
    pkg = add_package(site, "fake_future", FAKE_SPEC.format(id="fake-future").replace("find_dr_evil", "captain_future"))
    (pkg / "configs").mkdir()
    text = (CONFIG_DIR / "captain-future.toml").read_text().replace('strategies = ["aggressor"]', 'strategies = ["mcts"]')
    (pkg / "configs" / "fake-future.toml").write_text(text)
    add_dist(site, "futuregame", {"fake-future": "fake_future"})
    monkeypatch.setenv("SIMBALANCE_PROBE_SECONDS", "30")
    registry.get_game("fake-future")  # no error: the probe answered within the limit
    assert load_config("fake-future")["game"]["strategies"] == ["mcts"]


# A plug-in package whose own __init__ is hostile (issue 42 item 5): the registry used to import every
# plug-in's __init__ in the command's process, for every command, to read its SPEC. Now a command about
# a built-in game imports no plug-in, and a plug-in is probed in a process of its own before it is
# imported. Each case runs the real command in a process of its own: in the test's process, an
# os._exit(0) would end pytest itself. A BaseException that is not an Exception (Abort) stands for
# what the registry's own import does not catch.
# The probe's limit in these commands: long enough for a probe's process to import simbalance and play
# its five games on a loaded two-core machine (3 s failed there in a CI rehearsal), short enough that
# the looping case costs little.
PROBE_SECONDS = 15


HOSTILE_INITS = {
    # what the __init__ does: (its text, the words of the one line)
    "exits": ("import os\nos._exit(0)\n", "ended (exit 0) before it answered: does its package or its engine call"),
    "interrupts": ("raise KeyboardInterrupt\n", "failed (exit 3): KeyboardInterrupt"),
    "loops": ("while True:\n    pass\n", f"did not finish within {PROBE_SECONDS} s: does its package or its engine loop"),
    "kills itself": ("import os\nimport signal\n\nos.kill(os.getpid(), signal.SIGKILL)\n", "was killed by SIGKILL"),
    "raises a BaseException": ("class Abort(BaseException):\n    pass\n\n\nraise Abort('my game aborts')\n",
                               "failed (exit 3): Abort: my game aborts"),
}


def simbalance_command(site: Path, *args: str, seconds: float = 120) -> tuple[int, str, str]:
    """``simbalance ARGS`` in a process of its own that sees the plug-ins in ``site``: (exit code,
    stdout, stderr); a command that hangs is exit code None."""
    import os
    import subprocess

    env = {**os.environ, "SIMBALANCE_PROBE_SECONDS": str(PROBE_SECONDS), "COLUMNS": "200",
           "PYTHONPATH": os.pathsep.join([str(site), *(p for p in sys.path if p)])}
    try:
        done = subprocess.run([sys.executable, "-m", "simbalance.cli.main", *args], capture_output=True, text=True,
                              env=env, timeout=seconds, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", "(hung)"
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("case", everyday_first(list(HOSTILE_INITS)))  # each case 10-30 s: subprocesses, a probe's time-out
def test_a_hostile_plugin_package_cannot_end_or_hang_a_command(site, tmp_path, case):
    text, words = HOSTILE_INITS[case]
    add_package(site, "fake_hostile", text)
    add_dist(site, "hostilegame", {"fake-hostile": "fake_hostile"})
    fake_game(site)  # a plug-in that works: listed all the same

    # a built-in game never imports a plug-in package
    code, out, err = simbalance_command(site, "run", "find-dr-evil", "--n", "200", "--out", str(tmp_path / "ok"),
                                        "--quiet", "--no-games", seconds=60)
    assert code == 0 and (tmp_path / "ok" / "summary.json").exists(), (code, out, err)

    # the plug-in asked for by its id: probed first, one line, exit 2, nothing written, within the limit
    code, out, err = simbalance_command(site, "run", "fake-hostile", "--n", "20", "--out", str(tmp_path / "r"),
                                        seconds=60)
    line = (out + err).strip()
    assert code == 2 and len(line.splitlines()) == 1, (code, out, err)
    assert line.startswith("error: plug-in game 'fake-hostile' of package hostilegame 0.1: the probe"), line
    assert words in line, line
    assert not list(tmp_path.glob("r*"))

    # every game listed: the hostile one is a problem line, the others are there
    code, out, err = simbalance_command(site, "games", seconds=60)
    assert code == 2, (code, out, err)
    assert [e for e in err.splitlines() if e.strip()] == [line], err
    assert "find-dr-evil" in out and "fake-evil" in out and "fake-hostile" not in out, out


def test_a_builtin_game_imports_no_plugin(site, monkeypatch):
    """Asking for a built-in game, or for the built-in games, looks at no plug-in: no probe, no import."""
    from simbalance.core import probe

    package = add_package(site, "fake_noisy", "from pathlib import Path\n\nPath(__file__).with_name('imported').touch()\n")
    add_dist(site, "noisygame", {"noisy": "fake_noisy"})
    monkeypatch.setattr(probe.subprocess, "run", lambda *a, **kw: pytest.fail("a plug-in was probed"))
    assert registry.get_game("find-dr-evil").builtin
    assert "noisy" not in registry.builtin_games()
    assert not (package / "imported").exists()


def test_a_plugin_whose_spec_id_is_not_its_entry_point_name_is_one_line(site):
    """The entry point's name is the game id (how a command finds it without importing every
    plug-in): a SPEC with another id is left out with one line saying so."""
    add_package(site, "fake_other", FAKE_SPEC.format(id="other-evil"))
    add_dist(site, "othergame", {"fake-other": "fake_other"})
    with pytest.raises(SimbalanceError) as err:
        registry.get_game("fake-other")
    assert str(err.value) == ("plug-in game 'fake-other' of package othergame (entry point fake_other): its SPEC's id is "
                              "'other-evil', not the entry point's name; a plug-in game is found by its entry point's "
                              "name: give both the same id")
    assert "other-evil" not in registry.all_games() and "fake-other" not in registry.all_games()
