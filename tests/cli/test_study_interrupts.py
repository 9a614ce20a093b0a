"""Ctrl-C and SIGTERM in a stoppable study (every declared study: core/study.Study.stoppable, issue 54
item 2): the study stops after the chunk in play, writes nothing (a study's folder is whole or
absent, never half) and exits 130, with one line and no traceback: never numba's ``SystemError:
CPUDispatcher(...) returned a result with an exception set``, and never "ignored" (sweep once went
on to exit 0 with a full report after a Ctrl-C).

Real signals to a real process at several instants of its play, and, in process, a Ctrl-C after the
last game (nothing written) and one while the folder is written (the folder whole, still exit 130).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.report.run_folder import lock_file

# Long enough on a fast machine (find-dr-evil plays about 10^6 games a second on a thread) that a
# signal a few seconds in lands inside the play.
LONG = {
    "compare": ["compare", "find-dr-evil", "--arm", "cap:rules.pick_cap=5", "--n", "2e7", "--threads", "1"],
    "sweep": ["sweep", "find-dr-evil", "--param", "rules.pick_cap=200:400:100", "--n", "2e7", "--threads", "1"],
    "tune": ["tune", "captain-action", "--strategy", "builder", "--n", "2e5", "--generations", "3", "--threads", "1"],
}


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float = 180) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.05)


def _nothing_written(tmp_path: Path) -> None:
    """No folder, no temporary folder, no lock left: only the lock's own parent, the test's folder."""
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def stopped_line(study: str, proc: subprocess.Popen, sig: int, playing) -> str:
    """``sig`` to ``proc`` once ``playing()`` returns: exit 130, no traceback, and one line (besides
    the first Ctrl-C's "stopping after ..."), ``<study> interrupted ...; nothing written``, returned."""
    try:
        playing()
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "SystemError" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("stopping after")]
    assert len(lines) == 1 and lines[0].startswith(f"{study} interrupted") and "nothing written" in lines[0], stderr
    return lines[0]


def interrupted_at(study: str, sig: int, delay: float, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _start([*LONG[study], "--out", str(out)], tmp_path)

    def playing():
        _wait_for(lock_file(out), proc)  # the study holds its folder: the play begins
        time.sleep(delay)

    stopped_line(study, proc, sig, playing)
    _nothing_written(tmp_path)


@pytest.mark.parametrize(("study", "sig"), [("compare", signal.SIGINT), ("sweep", signal.SIGTERM)])
def test_a_signal_in_the_play_stops_the_study_with_nothing_written(study, sig, tmp_path):
    interrupted_at(study, sig, 1.0, tmp_path)


@pytest.mark.exhaustive
@pytest.mark.parametrize("delay", [0.0, 0.3, 2.5, 6.0])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("study", sorted(LONG))
def test_a_signal_at_any_instant_of_the_play_stops_the_study(study, sig, delay, tmp_path):
    interrupted_at(study, sig, delay, tmp_path)


def test_a_second_ctrl_c_aborts_at_once_with_nothing_written(tmp_path):
    out = tmp_path / "out"
    proc = _start([*LONG["compare"], "--out", str(out)], tmp_path)
    try:
        _wait_for(lock_file(out), proc)
        time.sleep(1.0)  # inside a chunk: a compiled kernel that runs for a while
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and time.monotonic() - start < 60, stderr
    # (the first Ctrl-C's stop can win when the chunk in play ends between the two)
    assert "Traceback" not in stderr and stderr.strip().splitlines()[-1].endswith("; nothing written"), stderr
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".out.writing")]


# ---------------------------------------------------------------- every other declared study

# The studies made stoppable by studies/run.play's default stop (issue 54 item 2): long enough that
# the play is still going when the signal comes at its first progress update.
PLAYING = {
    "lengths": ["lengths", "find-dr-evil", "--n", "2e7", "--threads", "1"],
    "skill": ["skill", "captain-action", "--n", "2e6", "--threads", "1"],
    "tournament": ["tournament", "captain-action", "--strategies", "random,builder", "--n", "2e7",
                   "--threads", "1"],
    "meta": ["meta", "captain-action", "--strategies", "random,builder", "--n", "2e6", "--bootstrap", "20",
             "--threads", "1"],
    "ladder": ["ladder", "captain-action", "--budgets", "8,32", "--n", "4000", "--threads", "1"],
    "robustness": ["robustness", "captain-action", "--n", "4000", "--threads", "1"],
}

# The command, with its progress display touching FLAG at its first update after a game: the play
# is under way (polled, so that a loaded machine that compiles or plays slowly waits for it).
WATCHED = """
import pathlib, sys
import simbalance.cli.terminal as terminal
flag = pathlib.Path(sys.argv.pop(1))

class Watched(terminal.RichProgress):
    def __call__(self, done, total, elapsed):
        if done > 0:
            flag.touch()
        super().__call__(done, total, elapsed)

terminal.RichProgress = Watched
sys.argv[0] = "simbalance"
from simbalance.cli.main import main
main()
"""


def signalled_in_play(study: str, sig: int, tmp_path: Path) -> None:
    work, flag = tmp_path / "work", tmp_path / "playing"
    work.mkdir()
    env = {**os.environ, "SIMBALANCE_CACHE_DIR": str(tmp_path / "cache")}  # meta keeps its compositions there
    proc = subprocess.Popen([sys.executable, "-c", WATCHED, str(flag), *PLAYING[study], "--out", str(work / "out")],
                            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    # a kernel may compile before the first game (minutes on a loaded machine)
    line = stopped_line(study, proc, sig, lambda: _wait_for(flag, proc, seconds=600))
    assert line.startswith(f"{study} interrupted after ") and "after its last game" not in line  # in the play
    _nothing_written(work)


@pytest.mark.parametrize(("study", "sig"), [("lengths", signal.SIGINT), ("meta", signal.SIGTERM)])
def test_a_signal_in_the_play_of_any_study_stops_it_with_nothing_written(study, sig, tmp_path):
    signalled_in_play(study, sig, tmp_path)


@pytest.mark.exhaustive
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("study", sorted(PLAYING))
def test_every_study_stops_on_either_signal_with_nothing_written(study, sig, tmp_path):
    signalled_in_play(study, sig, tmp_path)


# ---------------------------------------------------------------- in process: after the play

SMALL = {
    "compare": (["compare", "find-dr-evil", "--arm", "cap:rules.pick_cap=5", "--n", "300", "--threads", "1"],
                "simbalance.studies.compare", "compare_arms", "simbalance.report.compare_page",
                "write_compare_folder", "compare.html"),
    "sweep": (["sweep", "find-dr-evil", "--param", "rules.pick_cap=200,300", "--n", "300", "--recheck", "1",
               "--threads", "1"],
              "simbalance.studies.sweep", "SweepResult", "simbalance.report.sweep_page", "write_sweep_folder",
              "sweep.html"),
}


def _ctrl_c_then(fn):
    """``fn``, after a real SIGINT to this process (the command's handler turns it into a stop)."""
    def wrapped(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler runs at the next instruction of the main thread
        return fn(*args, **kwargs)
    return wrapped


@pytest.mark.parametrize("study", sorted(SMALL))
def test_a_ctrl_c_after_the_last_game_is_never_ignored(study, tmp_path, monkeypatch):
    import importlib

    args, module, analysis, _, _, _ = SMALL[study]
    mod = importlib.import_module(module)
    monkeypatch.setattr(mod, analysis, _ctrl_c_then(getattr(mod, analysis)))  # the statistics after the play
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert done.exit_code == 130, done.output
    assert f"{study} interrupted after its last game; nothing written" in done.stderr
    assert "Traceback" not in done.output
    _nothing_written(tmp_path)


@pytest.mark.parametrize("study", sorted(SMALL))
def test_a_ctrl_c_while_the_folder_is_written_leaves_it_whole_and_still_exits_130(study, tmp_path, monkeypatch):
    import importlib

    args, _, _, page_module, writer, page = SMALL[study]
    mod = importlib.import_module(page_module)
    monkeypatch.setattr(mod, writer, _ctrl_c_then(getattr(mod, writer)))
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    done = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert done.exit_code == 130, done.output
    assert "interrupted while its folder was written; it is whole" in " ".join(done.stderr.split())
    assert (out / page).is_file() and (out / "findings.json").is_file() and (out / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("study", ["compare", "sweep"])
def test_a_ctrl_c_after_the_first_run_counts_the_studys_games(study, tmp_path, monkeypatch):
    """Ctrl-C once a compare's first arm (a sweep's first point) is played: the line counted the run in
    play alone ("interrupted after 0 of 300 games", the study having played 300). It says the games
    of the whole study, then the run in play's own count, named."""
    import importlib

    args, module = SMALL[study][:2]
    mod = importlib.import_module(module)
    finished = []

    def play_then_ctrl_c(*a, **k):
        result = real_play(*a, **k)
        finished.append(result.n_played)
        if len(finished) == 1:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        return result

    real_play = mod.play
    monkeypatch.setattr(mod, "play", play_then_ctrl_c)
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    counted_the_study(study, done, finished)
    _nothing_written(tmp_path)


def counted_the_study(study: str, done, finished: list[int]) -> str:
    """The stopped study's line counts its games in all (its ``finished`` runs' and the one in play's),
    then the run in play's own count: exit 130; returns the run in play's label."""
    import re

    assert done.exit_code == 130, done.output
    line = " ".join(done.stderr.split())
    said = re.search(rf"{study} interrupted after ([\d,]+) games in all; the run in play, (.+?), had played ([\d,]+) "
                     r"of its ([\d,]+); nothing written", line)
    assert said is not None, line
    in_all, in_run = (int(said.group(i).replace(",", "")) for i in (1, 3))
    assert in_all == sum(finished) + in_run and in_all > in_run, (line, finished)
    return said.group(2)


# ---------------------------------------------------------------- run and solve: while the folder is written

# The command, with the writer of its folder sending the signal to its own process first (qa54b:
# SIGTERM there killed run and solve, rc -15, leaving .o.lock, .o.writing-* and o.partial, because
# their handler covered only the play; a Ctrl-C there exited 130 without a word).
SIGNALLED_WRITER = """
import os, signal, sys, time
import importlib
module, name, sig = sys.argv.pop(1), sys.argv.pop(1), int(sys.argv.pop(1))
mod = importlib.import_module(module)
real = getattr(mod, name)

def signalled(*args, **kwargs):
    os.kill(os.getpid(), sig)
    time.sleep(0.05)  # the handler runs at the next instruction of the main thread
    return real(*args, **kwargs)

setattr(mod, name, signalled)
sys.argv[0] = "simbalance"
from simbalance.cli.main import main
main()
"""
WRITERS = {
    "run": (["run", "find-dr-evil", "--n", "3000", "--quiet", "--threads", "1"], "simbalance.report.run_folder",
            "write_run_folder", "report.html"),
    "solve": (["solve", "find-dr-evil", "--budget", "20s", "--verify-n", "1000", "--start-n", "100", "--answers", "1",
               "--max-keys", "1", "--threads", "1"], "simbalance.report.solve_page", "write_solve_folder", "solve.html"),
}
WRITE_SIGNALS = {
    "run, SIGTERM while its folder is written": ("run", signal.SIGTERM),
    "run, Ctrl-C while its folder is written": ("run", signal.SIGINT),
    "solve, SIGTERM while its folder is written": ("solve", signal.SIGTERM),
    "solve, Ctrl-C while its folder is written": ("solve", signal.SIGINT),
}


@pytest.mark.parametrize("case", WRITE_SIGNALS)
def test_a_signal_while_run_or_solve_writes_leaves_the_folder_whole_and_exits_130(case, tmp_path):
    study, sig = WRITE_SIGNALS[case]
    args, module, writer, page = WRITERS[study]
    out = tmp_path / "o"
    done = subprocess.run([sys.executable, "-c", SIGNALLED_WRITER, module, writer, str(int(sig)), *args, "--out",
                           str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "400"})
    assert done.returncode == 130, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("stopping after")
             and not line.startswith("report:")]
    assert lines[-1] == f"{study} interrupted while its folder was written; it is whole: {out} " + (
        "(every game is in it)" if study == "run" else "(the solve had finished: nothing was cut short)"), lines
    assert (out / page).is_file() and (out / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]  # no lock, no .writing-, no .partial


def test_a_ctrl_c_after_a_runs_last_game_keeps_every_game_and_names_the_resume(tmp_path, monkeypatch):
    """A stop seen after the last game, before the folder is written: nothing half, every game kept
    in the checkpoint, exit 130 with the --resume command; the resume plays nothing and writes the
    folder of an uninterrupted run."""
    from test_study_contract import numbers_of

    from simbalance.studies.run import SimulationResult

    args = ["run", "find-dr-evil", "--n", "3000", "--quiet", "--threads", "1", "--seed", "5"]
    monkeypatch.chdir(tmp_path)
    whole = CliRunner().invoke(app, [*args, "--out", "whole"])
    assert whole.exit_code == 0, whole.output
    real = SimulationResult.from_plan.__func__

    def played_then_ctrl_c(cls, *a, **k):
        result = real(cls, *a, **k)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return result

    with monkeypatch.context() as patch:
        patch.setattr(SimulationResult, "from_plan", classmethod(played_then_ctrl_c))
        done = CliRunner().invoke(app, [*args, "--out", "o"])
    assert done.exit_code == 130, done.output
    partial = (tmp_path / "o.partial").resolve()
    assert done.stderr.splitlines()[-1] == ("run interrupted after its last game, before its folder was written; every "
                                            f"game is kept: finish with simbalance run --resume {partial}"), done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.partial", "whole"]
    again = CliRunner().invoke(app, ["run", "--resume", str(partial), "--quiet"])
    assert again.exit_code == 0, again.output
    assert numbers_of(tmp_path / "o") == numbers_of(tmp_path / "whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o", "whole"]


def test_a_ctrl_c_in_tunes_second_candidate_counts_the_studys_games(tmp_path, monkeypatch):
    """tune said "tune interrupted after 0 of 4,000 games", the candidate in play's count, when its
    first candidate had played all of its games (qa54b): the line counts the study's games, then the
    run in play's own, named, as compare's and sweep's."""

    from simbalance.studies.run import SimulationResult

    real = SimulationResult.from_plan.__func__
    finished = []

    def played_then_ctrl_c(cls, *a, **k):
        result = real(cls, *a, **k)
        finished.append(result.n_played)
        if len(finished) == 1:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        return result

    monkeypatch.setattr(SimulationResult, "from_plan", classmethod(played_then_ctrl_c))
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(app, ["tune", "captain-action", "--strategy", "builder", "--n", "200", "--generations",
                                    "1", "--population", "2", "--threads", "1", "--out", str(tmp_path / "out")])
    assert counted_the_study("tune", done, finished) == "a candidate of generation 0"
    _nothing_written(tmp_path)
