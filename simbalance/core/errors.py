"""Errors a designer can act on.

Anything the user can get wrong (a config key, a value, a game name, a strategy) raises
``SimbalanceError`` with one line that names the key, the value and what is allowed. The CLI prints
that line and exits with code 2; nothing is written before validation has passed.
"""


class SimbalanceError(Exception):
    """A problem with the user's input: printed as one line, exit code 2."""


class ConfigError(SimbalanceError):
    """A config file, an override or a deck that cannot be used."""
