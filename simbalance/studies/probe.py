"""A user's strategy file is probed before it is trusted (issue 42 item 5): imported, and its function
called on decisions of the game (``Engine.user_strategy.sample``), in a child process with numba's
compiler off (the function runs as Python: a second or two, no compile), under a time limit. A file that exits while it loads, raises, loops
or is killed then stops the run with one line naming it and what happened, where in the run's own
process it could end it silently (``os._exit(0)``: exit 0 and nothing written), hang it or
interrupt it.

The limit: ``SIMBALANCE_PROBE_SECONDS`` (default 60).

    python -m simbalance.studies.probe GAME PATH.py:FUNCTION PLAYERS    # the child's side
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from simbalance.core.errors import ConfigError

ANSWER = "probe: ok"
PROBING = "SIMBALANCE_PROBING"  # set in the child: its own run is the probe


def probing() -> bool:
    return os.environ.get(PROBING) == "1"


def probe_seconds() -> float:
    text = os.environ.get("SIMBALANCE_PROBE_SECONDS", "60")
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 1e6:
        raise ConfigError(f"SIMBALANCE_PROBE_SECONDS={text!r}: allowed a number of seconds above 0")
    return seconds


def probe_user_strategy(game: str, spec: str, players: int) -> None:
    """Import ``spec`` and call its function on ``game``'s sample decisions in a child process; a
    one-line ConfigError unless it answers in time."""
    limit = probe_seconds()
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", PROBING: "1"}
    env.pop("SIMBALANCE_KILL_AT", None)
    command = [sys.executable, "-m", "simbalance.studies.probe", game, spec, str(players)]
    where = f"--strategy-file {spec}: the probe (the function on a few of the game's decisions, in a process of its own)"
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=limit,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ConfigError(f"{where} did not finish within {limit:g} s: does the file or the function loop? "
                          "(SIMBALANCE_PROBE_SECONDS sets the limit)") from None
    if done.returncode == 0 and ANSWER in done.stdout:
        return
    said = [line for line in done.stderr.strip().splitlines() if line.strip()]
    last = said[-1].removeprefix("error: ") if said else ""
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        raise ConfigError(f"{where} was killed by {name}" + (f": {last}" if last else ""))
    if done.returncode == 0:
        raise ConfigError(f"{where} ended (exit 0) before it answered: does the file call os._exit or "
                          "sys.exit?")
    if last.startswith(f"--strategy-file {spec}: "):
        raise ConfigError(last)  # the child's own one-line error names the file already
    raise ConfigError(f"{where} failed (exit {done.returncode})" + (f": {last}" if last else ""))


def _child(game: str, spec: str, players: int) -> None:
    """Import the file and call the function on the game's sample decisions, as Python."""
    from simbalance.core.user_strategy import load_user_strategy
    from simbalance.games.registry import get_game

    engine = get_game(game).load()
    fn = load_user_strategy(spec)
    call = getattr(fn, "py_func", fn)
    for args in engine.user_strategy.sample(players):
        try:
            call(*args)
        except Exception:  # an error the run's own checks name in their words (typing, the probe game)
            break  # what the probe is for: an exit, an interrupt or a hang, which those cannot report
    print(ANSWER, flush=True)


if __name__ == "__main__":
    from simbalance.core.errors import SimbalanceError

    try:
        _child(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    except SimbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except BaseException as exc:  # noqa: BLE001 (the parent reports it in one line)
        print(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no message'}", file=sys.stderr)
        sys.exit(3)
