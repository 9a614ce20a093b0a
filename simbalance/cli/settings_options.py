"""The options every command that plays games shares, declared once: ``@plays_games``.

A command decorated with it gets the shared options (``--players``, ``--seed``, ``--set``,
``--variant``, ``--config``, ``--threads``, ``--backend``, ``--scheduler``, ``--dask-timeout``)
after its own, and in their place one argument ``settings``: the
``studies.settings.RunSettings`` they make with the command's GAME, checked once. A command whose
own option takes one of the names (compare's ``--variant`` names its arms) leaves that one out
with ``own=``; a command that plays one game or a baseline's setup leaves out where games are
played with ``where=False``.
"""

from __future__ import annotations

import functools
import inspect
import typing
from pathlib import Path
from typing import Annotated

import typer

from simbalance.core.runner import DASK_TIMEOUT_S

SETUP = "Game setup (every command that plays games)"
PLACE = "Where the games are played"


def _option(kind, panel: str, *names: str, help: str):  # noqa: A002 (typer's own word)
    return Annotated[kind, typer.Option(*names, help=help, rich_help_panel=panel)]


# option name -> (annotation, default); the RunSettings field of the same name (but SETTING below)
WHAT = {
    "players": (_option(int | None, SETUP, help="Players (default: the game config's)."), None),
    "seed": (_option(int, SETUP, help="Seed: the same seed gives the same games."), 0),
    "set_": (_option(list[str] | None, SETUP, "--set",
                     help="Override a config key, e.g. --set rules.pick_cap=500 (repeatable)."), None),
    "variant": (_option(list[str] | None, SETUP, "--variant",
                        help="Apply a named rule variant (configs/<game>/variants/ or a TOML path), repeatable."),
                None),
    "config": (_option(Path | None, SETUP, help="Use this config file instead of configs/<game>.toml."), None),
}
WHERE = {
    "threads": (_option(int | None, PLACE, help="Threads (default: all cores)."), None),
    "backend": (_option(str, PLACE, help="Where chunks run: local (this machine's threads) or dask."), "local"),
    "scheduler": (_option(str | None, PLACE,
                          help="Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster)."), None),
    "dask_timeout": (_option(float, PLACE, help="Dask: seconds to wait for a worker to join, or for the next "
                                                "chunk, before giving up."), DASK_TIMEOUT_S),
}
SETTING = {"set_": "overrides", "variant": "variants"}  # option -> RunSettings field, where they differ


def plays_games(command=None, *, own: tuple[str, ...] = (), where: bool = True):
    """Give ``command`` the shared options and hand it ``settings`` (or None when GAME is not given,
    as for ``run --resume``); ``own``: shared options the command declares itself."""
    if command is None:
        return lambda fn: plays_games(fn, own=own, where=where)
    shared = {name: spec for name, spec in {**WHAT, **(WHERE if where else {})}.items() if name not in own}
    signature = inspect.signature(command)
    hints = typing.get_type_hints(command, include_extras=True)
    mine = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()
            if p.name != "settings"]
    added = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=annotation)
             for name, (annotation, default) in shared.items()]

    @functools.wraps(command)
    def with_settings(*args, **kwargs):
        values = {name: kwargs.pop(name) for name in shared}
        game = kwargs.get("game")
        kwargs["settings"] = settings_from_options(game, values) if game is not None else None
        return command(*args, **kwargs)

    with_settings.__signature__ = signature.replace(parameters=mine + added)
    with_settings.__annotations__ = {p.name: p.annotation for p in mine + added}
    with_settings.shared_options = tuple(shared)
    return with_settings


def settings_from_options(game: str, values: dict):
    """The RunSettings of a command's GAME and its shared options' values."""
    from simbalance.studies.settings import RunSettings, as_options

    fields = {SETTING.get(name, name): value for name, value in values.items()}
    for name in ("overrides", "variants"):
        if name in fields:
            fields[name] = tuple(fields[name] or ())
    if fields.get("config") is not None:
        fields["config"] = str(fields["config"])
    with as_options():
        return RunSettings(game, **fields)
