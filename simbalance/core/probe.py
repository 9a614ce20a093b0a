"""Code from outside simbalance is probed before it is trusted (issue 42 item 5): a user's strategy
file, and a plug-in game (a package of its own, games/registry.py). A child process with numba's
compiler off (the code runs as Python: a second or two, no compile) does what the run will do with
it, under a time limit:

- a strategy file: imported, and its function called on decisions of the game
  (``Engine.user_strategy.sample``);
- a plug-in game: its package imported (its SPEC read: games/registry.py calls this before it imports
  the package itself), its engine imported, and a few games of its own config played.

Code that exits while it runs, raises, loops or is killed then stops the run with one line naming it
and what happened, where in the run's own process it could end it silently (``os._exit(0)``: exit 0
and nothing written), hang it or interrupt it. The built-in games are not probed: their tests are
simbalance's own.

The limit: ``SIMBALANCE_PROBE_SECONDS`` (default 60). This module is the parent's side; the child's
is studies/probe_child.py, which plays a run, started by its module name: this side imports nothing
above the core, so that the registry (games/) and the run's planning (studies/) both call it without
an import running back up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from simbalance.core.errors import ConfigError
from simbalance.core.plugin_guard import in_play, seconds_from_env

ANSWER = "probe: ok"
PROBING = "SIMBALANCE_PROBING"  # set in the child: its own run is the probe
PROBE_GAMES = 5  # games a plug-in plays in its probe: enough to deal, play and end a game, as Python


def probing() -> bool:
    return os.environ.get(PROBING) == "1"


def probe_seconds() -> float:
    return seconds_from_env("SIMBALANCE_PROBE_SECONDS", 60.0)


def probe_user_strategy(game: str, spec: str, players: int) -> None:
    """Import ``spec`` and call its function on ``game``'s sample decisions in a child process; a
    one-line ConfigError unless it answers in time."""
    _probe(["strategy", game, spec, str(players)],
           where=f"--strategy-file {spec}: the probe (the function on a few of the game's decisions, in a process "
                 "of its own)",
           loops="does the file or the function loop?", exits="does the file call os._exit or sys.exit?",
           own_error=f"--strategy-file {spec}: ")
    in_play(f"--strategy-file {spec}")  # the guard names it from now on (core/plugin_guard.py)


def probe_plugin_game(game_id: str, package: str, *, own_error: str) -> None:
    """Import a plug-in game's package (its SPEC) and engine and play a few games in a child process;
    a one-line ConfigError naming the game and its package ("<distribution> <version>") unless it
    answers in time. The registry calls this before it imports the package (once per game and
    process); the child's own one-line error that starts with ``own_error`` (the registry's words
    for a package with no SPEC, or one that raises when imported) is passed on as it is."""
    _probe(["game", game_id],
           where=f"plug-in game {game_id!r} of package {package}: the probe (its package and engine imported and "
                 f"{PROBE_GAMES} games played, in a process of its own)",
           loops="does its package or its engine loop, when imported or in a game?",
           exits="does its package or its engine call os._exit or sys.exit?", own_error=own_error)
    in_play(f"plug-in game {game_id!r} (plug-in {package})")  # as plugin_guard.plugin_label names it


def _probe(args: list[str], *, where: str, loops: str, exits: str, own_error: str | None = None) -> None:
    """Run ``python -m simbalance.studies.probe_child *args`` and turn anything but its answer in time into
    one line: ``where`` names what was probed, ``loops`` and ``exits`` ask the likely cause of a
    hang and of a silent exit; a child's own one-line error that starts with ``own_error`` names
    the problem already and is passed on as it is."""
    limit = probe_seconds()
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", PROBING: "1",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}  # the modules this process sees
    env.pop("SIMBALANCE_KILL_AT", None)
    command = [sys.executable, "-m", "simbalance.studies.probe_child", *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=limit,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ConfigError(f"{where} did not finish within {limit:g} s: {loops} "
                          "(SIMBALANCE_PROBE_SECONDS sets the limit)") from None
    if done.returncode == 0 and ANSWER in done.stdout:
        return
    said = [line for line in done.stderr.strip().splitlines() if line.strip()]
    last = said[-1].removeprefix("error: ") if said else ""
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        raise ConfigError(f"{where} was killed by {name}" + (f": {last}" if last else ""))
    if done.returncode == 0:
        raise ConfigError(f"{where} ended (exit 0) before it answered: {exits}")
    if own_error is not None and last.startswith(own_error):
        raise ConfigError(last)  # the child's own one-line error names the file already
    raise ConfigError(f"{where} failed (exit {done.returncode})" + (f": {last}" if last else ""))
