"""Plug-ins are contained (issue 54 item 5): code from outside simbalance that misbehaves after the
probe's few games (a planted plug-in game, tests/planted/hostile_game, from game 3000 on; a strategy
file) stops the command with one line naming it and exit 2, never exit 0 with nothing written, a
traceback, a hang that SIGTERM cannot end, or memory without end.

The commands run in processes of their own, as a user runs them (``python -m simbalance.cli.main``):
the guard (core/plugin_guard.py) is the command line's, and an ``os._exit`` here would end pytest.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from tiers import everyday_first, exhaustive
from typer.testing import CliRunner

from simbalance.cli.main import app

PLANTED = Path(__file__).resolve().parents[1] / "planted"
pytestmark = pytest.mark.xdist_group("find-dr-evil")


@pytest.fixture
def site(tmp_path):
    """A folder with the hostile game's dist-info (its entry point): the package is tests/planted/hostile_game."""
    folder = tmp_path / "site"
    info = folder / "hostile_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simbalance.games]\nhostile-game = hostile_game\n")
    return folder


def command(site: Path, *args: str, does: str = "", seconds: float = 240, env: dict | None = None,
            term_after: Path | None = None) -> tuple[int | None, str, float]:
    """``simbalance ARGS`` in a process of its own that sees the hostile game (doing ``does``): (exit
    code, stdout + stderr, seconds); None when it hung. ``term_after``: SIGTERM once that path exists
    and 3 s more have passed."""
    environment = {**os.environ, "HOSTILE_DOES": does, "SIMBALANCE_PROBE_SECONDS": "120", "COLUMNS": "200",
                   "PYTHONPATH": os.pathsep.join([str(site), str(PLANTED), *(p for p in sys.path if p)]), **(env or {})}
    begin = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=environment, stdin=subprocess.DEVNULL)
    if term_after is not None:
        while not term_after.exists() and child.poll() is None and time.monotonic() - begin < seconds:
            time.sleep(0.2)
        time.sleep(3)
        child.send_signal(signal.SIGTERM)
    try:
        out, _ = child.communicate(timeout=max(1.0, seconds - (time.monotonic() - begin)))
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        return None, "(hung)", time.monotonic() - begin
    return child.returncode, out, time.monotonic() - begin


def one_line(code, out: str, exit_code: int = 2, prefix: str = "error: ") -> str:
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == exit_code and len(lines) == 1 and lines[0].startswith(prefix), (code, out)
    return lines[0]


GAME = "plug-in game 'hostile-game' (plug-in hostile-game 0.1)"


def run_args(out: Path, n: str = "6000") -> list[str]:
    return ["run", "hostile-game", "--n", n, "--out", str(out), "--quiet", "--threads", "1"]


def test_a_plugin_game_that_exits_abruptly_mid_run_is_one_line_exit_2(site, tmp_path):
    code, out, _ = command(site, *run_args(tmp_path / "r"), does="exit")
    line = one_line(code, out)
    assert line.startswith(f"error: {GAME}: the process ended abruptly (exit 0)"), line
    assert not (tmp_path / "r").exists()
    # the checkpoint the line names is the run's, resumable; the lock the process held is gone
    assert f"simbalance run --resume {tmp_path / 'r.partial'}" in line, line
    assert (tmp_path / "r.partial" / "checkpoint.npz").is_file() and not (tmp_path / ".r.lock").exists()


STUDIES = {
    "compare": ["compare", "hostile-game", "--arm", "cap:rules.pick_cap=500", "--n", "6000", "--threads", "1"],
    "sweep": ["sweep", "hostile-game", "--param", "rules.pick_cap=400,500", "--n", "6000", "--threads", "1"],
}


@pytest.mark.parametrize("study", everyday_first(["compare", "sweep"]))
def test_a_plugin_game_that_exits_abruptly_in_a_study_names_no_checkpoint_and_leaves_no_lock(site, tmp_path, study):
    """``os._exit(0)`` inside a compare or a sweep: the line named "the checkpoint of finished chunks",
    which these studies do not keep, and ``.o.lock`` stayed beside --out. One line naming the plug-in
    and saying nothing was written, exit 2, no lock, nothing else left."""
    work = tmp_path / "work"
    work.mkdir()
    code, out, _ = command(site, *STUDIES[study], "--out", str(work / "o"), does="exit")
    line = one_line(code, out)
    assert line.startswith(f"error: {GAME}: the process ended abruptly (exit 0)"), line
    assert "checkpoint" not in line and "nothing was written" in line, line
    assert sorted(p.name for p in work.iterdir()) == [], line


def test_a_plugin_game_that_raises_from_game_3000_is_one_line(site, tmp_path):
    code, out, _ = command(site, *run_args(tmp_path / "r"), does="raise")
    line = one_line(code, out)
    assert line.startswith(f"error: {GAME}: raised ValueError: my game gave up at game 3000"), line
    assert not (tmp_path / "r").exists()


def test_a_plugin_game_that_writes_garbage_records_stops_before_memory_grows(site, tmp_path):
    code, out, _ = command(site, *run_args(tmp_path / "r"), does="garbage")
    line = one_line(code, out)
    assert line.startswith(f"error: {GAME}: game 3,000's record has length = 2147483647, outside what the record "
                           "allows (0 to 10,000,000)"), line


@exhaustive  # waits for the watchdog (15-30 s)
def test_a_plugin_game_that_loops_is_stopped_by_the_watchdog(site, tmp_path):
    code, out, seconds = command(site, *run_args(tmp_path / "r"), does="loop", env={"SIMBALANCE_CHUNK_SECONDS": "15"})
    line = one_line(code, out)
    assert line.startswith(f"error: {GAME}: a chunk of games (games 0 to 5,999) did not finish within 15 s"), line
    assert (tmp_path / "r.partial" / "checkpoint.npz").exists()  # the run's checkpoint is kept, resumable


@exhaustive  # waits for the watchdog (15-30 s)
def test_sigterm_ends_a_plugin_game_that_loops(site, tmp_path):
    code, out, seconds = command(site, *run_args(tmp_path / "r"), does="loop", term_after=tmp_path / "r.partial")
    assert code == 130 and "did not stop within 10 s of the signal" in out, (code, out)
    assert seconds < 120


def test_a_plugin_game_that_behaves_runs_guarded_to_the_end(site, tmp_path):
    code, out, _ = command(site, *run_args(tmp_path / "r", "4000"))
    assert code == 0, out
    assert (tmp_path / "r" / "summary.json").exists()


# ---- strategy files (lady-actions-escape's plug-in seat) ---------------------------------------
WRITES = '''
from numba import njit


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    for card in range(cards.shape[0]):
        if (playable >> card) & 1:
            if hand_sizes[seat] <= 2:
                {write}
            return card
    return -1
'''


@pytest.mark.parametrize("write, name", [("hand_sizes[seat] = 9", "hand_sizes"), ("cards[card, 4] = 0", "cards")])
def test_a_strategy_that_writes_into_the_game_state_is_one_line(tmp_path, write, name):
    """A write only some games reach (a hand of 2 cards or fewer: never in the probe's sample) is
    found before the first game: numba types the function with those arguments read only."""
    path = tmp_path / "writes.py"
    path.write_text(WRITES.format(write=write))
    res = CliRunner().invoke(app, ["run", "lady-actions-escape", "--n", "200", "--out", str(tmp_path / "r"),
                                   "--players", "2", "--strategies", "plugin,random", "--strategy-file", f"{path}:choose"])
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1, (res.output, res.exception)
    assert lines[0].startswith(f"error: --strategy-file: choose writes into {name}, which the game lends it to read "
                               "only"), lines[0]
    assert not list(tmp_path.glob("r*"))


EXITS = '''
import os

import numba
from numba import njit


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    if hand_sizes[seat] <= 2:  # never in the probe's sample (hands of 7): mid-game in the run
        with numba.objmode():
            os._exit(0)
    for card in range(cards.shape[0]):
        if (playable >> card) & 1:
            return card
    return -1
'''


def test_a_strategy_that_exits_abruptly_mid_run_is_one_line_exit_2(site, tmp_path):
    path = tmp_path / "exits.py"
    path.write_text(EXITS)
    spec = f"{path}:choose"
    code, out, _ = command(site, "run", "lady-actions-escape", "--n", "500", "--out", str(tmp_path / "r"),
                           "--players", "2", "--strategies", "plugin,random", "--strategy-file", spec, "--quiet")
    line = one_line(code, out)
    assert line.startswith(f"error: --strategy-file {spec}: the process ended abruptly (exit 0)"), line
    assert not (tmp_path / "r").exists()


LOOPS = '''
from numba import njit


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    if hand_sizes[seat] <= 2:  # never in the probe's sample (hands of 7): in the first whole game
        x = 0
        while x != -1:
            x = (x + 1) % 1000
    for card in range(cards.shape[0]):
        if (playable >> card) & 1:
            return card
    return -1
'''


@exhaustive  # waits for the watchdog (15-30 s)
def test_a_strategy_that_loops_in_its_first_whole_game_is_stopped(site, tmp_path):
    """The strategy's kernel is compiled on one whole game before the run's chunks: a function that
    loops once hands are small hung there (the watchdog did not cover it; SIGTERM was ignored)."""
    path = tmp_path / "loops.py"
    path.write_text(LOOPS)
    spec = f"{path}:choose"
    code, out, seconds = command(site, "run", "lady-actions-escape", "--n", "500", "--out", str(tmp_path / "r"),
                                 "--players", "2", "--strategies", "plugin,random", "--strategy-file", spec, "--quiet",
                                 env={"SIMBALANCE_CHUNK_SECONDS": "30"}, seconds=200)
    line = one_line(code, out)
    assert line.startswith(f"error: --strategy-file {spec}: a chunk of games"), line
    assert "did not finish within 30 s" in line and not (tmp_path / "r").exists()


def test_the_guards_line_names_the_finished_parts_a_block_study_keeps(tmp_path, monkeypatch):
    """A study of block jobs (card-value, fit-eval, meta) keeps its finished parts in simbalance's cache:
    after an abrupt end the guard's line named nothing kept ("nothing was written"). Each part saved
    says its folder over the guard's pipe, and the line names it (and says nothing of a folder that
    holds no part yet)."""
    from simbalance.core import plugin_guard
    from simbalance.core.blocks import BlockCheckpoint

    read, write = os.pipe()
    monkeypatch.setattr(plugin_guard, "_pipe", write)
    kept = BlockCheckpoint(tmp_path / "blocks", "meta", {"seed": 1})
    kept.save([{"wins": np.arange(3)}])
    kept.save([{"wins": np.arange(3)}, {"wins": np.arange(2)}])
    os.close(write)
    state = {"keeps": None, "parts": []}
    for line in os.read(read, 65536).decode().splitlines():
        plugin_guard._heard(state, line)
    os.close(read)
    assert state["parts"] == [str(kept.folder.absolute())]  # once, however many saves
    assert plugin_guard._kept(state) == (f"nothing was written to its output; its finished parts are kept in "
                                         f"{kept.folder.absolute()} (once fixed, the same command again plays "
                                         "only the rest)")
    kept.remove()
    assert plugin_guard._kept(state) == "nothing was written"
