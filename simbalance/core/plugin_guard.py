"""Code from outside simbalance, contained while it plays (issue 54 item 5).

The probe (core/probe.py) tries a user's strategy file or a plug-in game in a process of its own
before the run trusts it; it plays a few games. What the code does later, in game 3000, the probe
cannot see, and some of it no Python in the run's own process can catch: ``os._exit(0)`` ends the
process at once (exit 0, nothing written), and a compiled kernel that loops holds the thread that
would have to notice, so SIGTERM waits for it forever.

So a command that plays such code (``--strategy-file``, or a game that is a plug-in) runs under a
guard: the command line's process starts the command again as its child and watches it.

- The child says over a pipe what plays (``label``: the plug-in's name), when a chunk of games
  starts and ends, and that it is exiting normally (an ``atexit`` hook: every normal exit runs it,
  ``os._exit`` does not).
- The child ends without saying so: an abrupt exit. The guard prints one line naming the plug-in
  and exits 2, naming what is kept: a run's checkpoint ``<out>.partial`` keeps every finished chunk
  (the child says where: ``keeps_checkpoint``); a study of block jobs (card-value, fit-eval, meta)
  its finished parts in simbalance's cache (``keeps_parts``); another study none, so nothing. The lock files the
  child held (``.<out>.lock``, it says which: ``holds_lock``) are removed, as its own exit would have.
- A chunk takes longer than ``SIMBALANCE_CHUNK_SECONDS`` (default 900 s, far above any chunk of a
  built-in game: a chunk is a few seconds of play): the guard kills the child and prints one line
  naming the plug-in, exit 2.
- SIGTERM to the guard goes to the child (it stops after the chunk in play, keeps what is finished
  and exits 130), and so does a Ctrl-C (the terminal sends it to both: they share a process group,
  so job control, Ctrl-Z included, treats them as one); a chunk still in play ``STOP_GRACE_S``
  seconds later (a kernel that loops) has the child killed, with one line, exit 130.
- A child killed by a signal the guard did not send (SIGKILL, the OOM killer): the guard ends by the
  same signal, so the caller sees what happened.

The Python API has no guard (a script that calls ``simbalance.simulate`` with a plug-in
is its own process); the watchdog's messages and the read-only checks hold there too.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

GUARD_FD = "SIMBALANCE_GUARD_FD"  # in the child: the pipe it reports on
CHUNK_SECONDS = "SIMBALANCE_CHUNK_SECONDS"
DEFAULT_CHUNK_SECONDS = 900.0
STOP_GRACE_S = 10.0  # after SIGTERM or Ctrl-C, how long a chunk in play may go on before the child is killed

_pipe: int | None = None


# ---- the child's side --------------------------------------------------------------------------
def _say(message: str) -> None:
    """One line to the guard (nothing when this process has no guard)."""
    global _pipe
    if _pipe is None:
        text = os.environ.get(GUARD_FD)
        if not text:
            return
        try:
            _pipe = int(text)
        except ValueError:
            return
        os.environ.pop(GUARD_FD, None)  # processes this one starts (the probe) have no guard of their own
        atexit.register(_say, "exit")
    try:
        os.write(_pipe, (message.replace("\n", " ") + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def start_guarded_child() -> None:
    """Called at the start of a guarded command's child: from now on an exit must be announced."""
    _say("start")


def in_play(label: str) -> None:
    """``label`` (the plug-in's name, as the run's messages give it) plays from now on."""
    _say(f"label {label}")


def chunk_started(first: int, size: int) -> None:
    _say(f"chunk {first} {size} {chunk_seconds():g}")


def chunk_ended() -> None:
    _say("idle")


def holds_lock(lock: Path, made: list[Path]) -> None:
    """This process took the lock file ``lock`` (and made the folders ``made`` for it): if it ends
    abruptly, the guard removes them (the OS has released the lock; the file would stay)."""
    _say(f"lock {json.dumps([str(lock), [str(p) for p in made]])}")


def released_lock(lock: Path) -> None:
    _say(f"unlock {json.dumps(str(lock))}")


def keeps_checkpoint(state_dir: Path) -> None:
    """The command keeps its finished chunks in the checkpoint ``state_dir`` (`run`; a study keeps
    none): the guard's line after an abrupt end names it, with the resume."""
    _say(f"keeps {json.dumps(str(Path(state_dir).absolute()))}")


def keeps_parts(folder: Path) -> None:
    """The command keeps finished parts of a block job (card-value's states, fit-eval's games, meta's
    compositions) in simbalance's cache folder ``folder``: the guard's line after an abrupt end says
    so (the same command again plays only the rest)."""
    _say(f"parts {json.dumps(str(Path(folder).absolute()))}")


def chunk_seconds() -> float:
    """The watchdog's limit per chunk: ``SIMBALANCE_CHUNK_SECONDS`` (default DEFAULT_CHUNK_SECONDS)."""
    return seconds_from_env(CHUNK_SECONDS, DEFAULT_CHUNK_SECONDS)


def seconds_from_env(name: str, default: float) -> float:
    """A time limit the environment may set (the probe's, the watchdog's): seconds above 0, else one line."""
    from simbalance.core.errors import ConfigError

    text = os.environ.get(name, f"{default:g}")
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 1e7:
        raise ConfigError(f"{name}={text!r}: allowed a number of seconds above 0")
    return seconds


def plugin_label(spec, strategy_file: str | None) -> str | None:
    """How messages name the code from outside simbalance a run plays (None: none)."""
    if strategy_file:
        return f"--strategy-file {strategy_file}"
    if spec is not None and not spec.builtin:
        return f"plug-in game {spec.id!r} ({spec.origin})"
    return None


# ---- the guard's side --------------------------------------------------------------------------
def wanted(argv: list[str]) -> bool:
    """Whether the command ``argv`` plays code from outside simbalance: a strategy file, or an
    argument that is the id of an installed plug-in game (read from the entry points, importing
    nothing)."""
    if os.environ.get(GUARD_FD) or os.environ.get("SIMBALANCE_PROBING") == "1":
        return False  # already the guarded child (or the probe's own child)
    if any(a == "--strategy-file" or a.startswith("--strategy-file=") for a in argv):
        return True
    import importlib.metadata

    try:
        names = {ep.name for ep in importlib.metadata.entry_points(group="simbalance.games")}
    except Exception:  # noqa: BLE001 (a broken distribution: the registry names it, unguarded)
        return False
    return bool(names & set(argv))


def supervise(argv: list[str]) -> int:
    """Run ``simbalance argv`` as a guarded child and return the exit status this process ends with."""
    read_end, write_end = os.pipe()
    env = {**os.environ, GUARD_FD: str(write_end)}
    child = subprocess.Popen([sys.executable, "-m", "simbalance.cli.main", *argv], env=env, pass_fds=(write_end,))
    os.close(write_end)
    state = {"label": None, "chunk": None, "said_exit": False, "stopping": None, "sent": set(), "locks": {},
             "keeps": None, "parts": []}

    def stopping(signum, _frame):
        state["sent"].add(signum)
        if state["stopping"] is None:
            state["stopping"] = time.monotonic()
        if signum != signal.SIGINT:  # a Ctrl-C at the terminal reaches the child itself (one process group)
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stopping)
    buffer = b""
    while True:
        try:
            ready, _, _ = select.select([read_end], [], [], 0.5)
        except InterruptedError:
            ready = []
        data = os.read(read_end, 65536) if ready else b""
        *lines, buffer = (buffer + data).split(b"\n")
        for line in lines:
            _heard(state, line.decode("utf-8", "replace"))
        if (ready and not data) or (not ready and child.poll() is not None):
            break  # the child closed its end: it has ended
        now = time.monotonic()
        chunk = state["chunk"]
        if chunk is not None and now - chunk[0] > chunk[1]:
            _kill(child)
            _release_locks(state)
            _line(f"{_who(state)}: a chunk of games (games {chunk[2]:,} to {chunk[2] + chunk[3] - 1:,}) did not "
                  f"finish within {chunk[1]:g} s: does it loop? The command was stopped; {_kept(state)} "
                  f"({CHUNK_SECONDS} sets the limit)")
            return 2
        # (only while a chunk plays: a child writing its output after the signal is let finish)
        if state["stopping"] is not None and chunk is not None and now - state["stopping"] > STOP_GRACE_S:
            _kill(child)
            _release_locks(state)
            _line(f"{_who(state)}: did not stop within {STOP_GRACE_S:g} s of the signal (a chunk in play that "
                  f"does not end: does it loop?); the command was killed; {_kept(state)}", prefix="stopped")
            return 130
    child.wait()
    os.close(read_end)
    code = child.returncode
    _release_locks(state)  # a child that ended normally released its own
    if code < 0:  # killed by a signal
        if -code in state["sent"] or -code == signal.SIGINT:
            return 130
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)  # end as the child did
        return 128 - code
    if state["said_exit"]:
        return code
    _line(f"{_who(state)}: the process ended abruptly (exit {code}) in the middle of the command, without "
          f"finishing it (a call of os._exit?); {_kept(state)}")
    return 2


def _heard(state: dict, line: str) -> None:
    word, _, rest = line.partition(" ")
    if word == "lock":
        lock, made = json.loads(rest)
        state["locks"][lock] = made
    elif word == "unlock":
        state["locks"].pop(json.loads(rest), None)
    elif word == "keeps":
        state["keeps"] = json.loads(rest)
    elif word == "parts":
        if json.loads(rest) not in state["parts"]:
            state["parts"].append(json.loads(rest))
    elif word == "label":
        state["label"] = rest
    elif word == "chunk":
        first, size, seconds = rest.split()
        state["chunk"] = (time.monotonic(), float(seconds), int(first), int(size))
    elif word == "idle":
        state["chunk"] = None
    elif word == "exit":
        state["said_exit"] = True


def _kept(state: dict) -> str:
    """What the ended child kept: the checkpoint a run names (``keeps_checkpoint``), the finished
    parts of a block job in simbalance's cache (``keeps_parts``), or nothing."""
    if state["keeps"] is not None and (Path(state["keeps"]) / "checkpoint.npz").is_file():  # (none yet: nothing)
        return (f"its checkpoint {state['keeps']} keeps every finished chunk (once fixed: simbalance run --resume "
                f"{state['keeps']})")
    parts = [folder for folder in state["parts"] if any(Path(folder).glob("part-*.npz"))]
    if parts:
        return (f"nothing was written to its output; its finished parts are kept in {', '.join(parts)} (once fixed, "
                "the same command again plays only the rest)")
    return "nothing was written"


def _release_locks(state: dict) -> None:
    """The lock files (and the folders made for them) an ended child held: the OS released its locks,
    the files stay. Each is removed only when this process can take its lock (no other command holds
    it), as the child would have on its way out (report/run_folder._unlock)."""
    for lock, made in state["locks"].items():
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # another command holds it now
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)
        for folder in made:  # deepest first; only when empty
            with contextlib.suppress(OSError):
                os.rmdir(folder)
    state["locks"].clear()


def _who(state: dict) -> str:
    return state["label"] or "code from outside simbalance (a plug-in game or --strategy-file)"


def _kill(child: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        child.kill()
    child.wait()


def _line(text: str, prefix: str = "error") -> None:
    sys.stdout.flush()
    print(f"{prefix}: {text}", file=sys.stderr, flush=True)
