"""Errors a designer can act on.

Anything the user can get wrong (a config key, a value, a game name, a strategy) raises
``SimbalanceError`` with one line that names the key, the value and what is allowed. The CLI prints
that line and exits with code 2; nothing is written before validation has passed.
"""

import contextlib
import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the closest of ``choices`` to a mistyped ``word``, or nothing."""
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


class SimbalanceError(Exception):
    """A problem with the user's input: printed as one line, exit code 2."""


class ConfigError(SimbalanceError):
    """A config file, an override or a deck that cannot be used."""


class CheckpointError(SimbalanceError):
    """A checkpoint that cannot be used (damaged, edited, of another version or engine): one line
    naming the file; a resume never continues from it, whatever else happened."""


class RunInterrupted(Exception):
    """A run stopped between chunks (Ctrl-C, SIGTERM); its checkpoint holds what was finished."""

    def __init__(self, games_done: int, n: int, state_dir=None, unit: str = "games", resume: str | None = None):
        # unit, resume: a block job's (core/blocks.py) items and where its finished blocks are kept
        self.games_done, self.n, self.state_dir = games_done, n, state_dir
        self.unit, self.resume = unit, resume  # the study's own words: a command's line keeps them
        where = f"; resume with: simbalance run --resume {state_dir}" if state_dir else ""
        where = f"; {resume}" if resume else where
        super().__init__(f"interrupted after {games_done:,} of {n:,} {unit}{where}")


@contextlib.contextmanager
def ctrl_c_kept():
    """Let a Ctrl-C that lands while a compiled function returns arrays stay a KeyboardInterrupt.

    To box the arrays a compiled function returns, numba calls back into Python
    (``numba.core.serialize._numba_unpickle``, for the objects it needs), and the interpreter runs a
    pending SIGINT handler there; the default handler raises KeyboardInterrupt, numba goes on as if
    nothing were raised, and CPython reports each call on the way out as ``SystemError: ...
    returned a result with an exception set`` (issue 54: ``CPUDispatcher(<function _chunk_sums>)``,
    the merge of every chunk; about 1 Ctrl-C in 30 in a run of many small chunks). The
    KeyboardInterrupt is at the root of that chain of errors: raised again here, it ends the study
    as any Ctrl-C does (exit 130), not as a crash. The command line's own handler
    (cli/interrupts.interruptible) only sets a flag, so there it cannot happen; this is for every
    caller without it (the Python API, the studies that let Ctrl-C raise)."""
    try:
        yield
    except SystemError as exc:
        if caused_by_ctrl_c(exc):
            raise KeyboardInterrupt() from None
        raise


def caused_by_ctrl_c(exc: BaseException) -> bool:
    """Is a KeyboardInterrupt anywhere in the chain of causes of ``exc``? (numba's SystemError can
    wrap another SystemError, of ``_numba_unpickle``, before the KeyboardInterrupt.)"""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
