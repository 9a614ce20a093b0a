"""Errors a designer can act on.

Anything the user can get wrong (a config key, a value, a game name, a strategy) raises
``SimbalanceError`` with one line that names the key, the value and what is allowed. The CLI prints
that line and exits with code 2; nothing is written before validation has passed.
"""


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


class RunInterrupted(Exception):
    """A run stopped between chunks (Ctrl-C, SIGTERM); its checkpoint holds what was finished."""

    def __init__(self, games_done: int, n: int, state_dir=None, unit: str = "games", resume: str | None = None):
        # unit, resume: a block job's (core/blocks.py) items and where its finished blocks are kept
        self.games_done, self.n, self.state_dir = games_done, n, state_dir
        where = f"; resume with: simbalance run --resume {state_dir}" if state_dir else ""
        where = f"; {resume}" if resume else where
        super().__init__(f"interrupted after {games_done:,} of {n:,} {unit}{where}")
