"""Game id -> GameSpec: the built-in games under ``simbalance/games/`` and the plug-in games.

A new built-in game needs no edit here: a package under ``simbalance/games/`` whose ``__init__``
defines ``SPEC`` is a game. A game may also live outside simbalance, in a package of its own that
declares an entry point in the group ``simbalance.games`` (what ``simbalance new-game`` writes)::

    [project.entry-points."simbalance.games"]
    my-game = "my_game"          # the package whose __init__ defines SPEC (or "my_game:SPEC")

The entry point's name is the game's id (its SPEC's id must be the same), so plug-ins are found
lazily (issue 42 item 5): a command about a built-in game imports no plug-in at all, and asking for
a plug-in game by id (``get_game``) first probes its package in a child process (core/probe.py:
the package imported, its SPEC read and a few games played), then imports it here. Only listing
every game (``all_games``, ``plugin_problems``: ``simbalance games``, an unknown id's suggestions)
probes every plug-in. Code from outside simbalance thus never runs in the command's own process
before it has answered in a child: an ``__init__`` that calls ``os._exit(0)``, loops or is killed
cannot end or hang a command.

A plug-in game is found with its origin ("plug-in <distribution> <version>") and its own config
folder (``GameSpec.config_dir``, by default ``configs/`` inside its package). A plug-in whose probe
fails, that defines no ``SPEC``, whose SPEC's id is not its entry point's name, or whose id another
game has is left out with one line naming its package (``plugin_problems``): the other games still
work, ``simbalance games`` prints the lines, and asking for that game by name gives its line as the
error.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import pkgutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import simbalance.games as games_pkg
from simbalance.core.config import set_config_dir_lookup
from simbalance.core.errors import SimbalanceError
from simbalance.core.errors import did_you_mean
from simbalance.core.probe import probe_plugin_game
from simbalance.core.probe import probing
from simbalance.core.spec import GameSpec

ENTRY_POINT_GROUP = "simbalance.games"


@dataclass(frozen=True)
class PluginProblem:
    """A plug-in game that could not be used: its entry point's name, its package, and why."""

    name: str
    package: str
    message: str  # one line, naming the package


@cache
def _builtin_games() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(games_pkg.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{games_pkg.__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            found[spec.id] = dataclasses.replace(spec, origin="built-in", config_dir=None)
    return dict(sorted(found.items()))


@cache
def _entry_points() -> dict[str, tuple[importlib.metadata.EntryPoint, ...]]:
    """The plug-in games' entry points by name, that is by game id: read from the installed
    packages' metadata, no plug-in code runs."""
    found: dict[str, tuple[importlib.metadata.EntryPoint, ...]] = {}
    for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        found[ep.name] = (*found.get(ep.name, ()), ep)
    return found


def _dist(ep: importlib.metadata.EntryPoint) -> tuple[str, str]:
    """The distribution (name, version) that declares ``ep``."""
    return (ep.dist.name, ep.dist.version) if ep.dist is not None else ("?", "?")


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no message"
    return f"{type(exc).__name__}: {text}"


# What looking up one plug-in id gives: its game, or the lines saying why it is left out.
_Lookup = tuple[GameSpec | None, tuple[PluginProblem, ...]]


@cache
def _plugin(name: str) -> _Lookup:
    """The plug-in game whose entry point is named ``name`` (once per process: the probe costs a
    process of its own, and a sweep asks for its game hundreds of times). The id is settled from
    the entry points' names alone, before any plug-in code runs."""
    claims = _entry_points()[name]
    dists = plugin_packages(name)
    if name in _builtin_games():
        return None, tuple(PluginProblem(name, dist, f"plug-in game {name!r} of package {dist}: the id is the "
                                         "built-in game's; the plug-in is left out (give its entry point and SPEC "
                                         "another id)") for dist in dists)
    if len(claims) > 1:
        return None, tuple(PluginProblem(name, dist, f"plug-in game {name!r} of package {dist}: package "
                                         f"{', '.join(d for d in dists if d != dist) or dist} has a game of that id "
                                         "too; neither is loaded") for dist in dists)
    return _load_plugin(claims[0])


def _load_plugin(ep: importlib.metadata.EntryPoint) -> _Lookup:
    dist, version = _dist(ep)
    where = f"plug-in game {ep.name!r} of package {dist} (entry point {ep.value})"

    def problem(message: str) -> _Lookup:
        return None, (PluginProblem(ep.name, dist, message),)

    if not probing():  # in the probe's own child the package is imported as it is: that is the probe
        try:
            probe_plugin_game(ep.name, f"{dist} {version}", own_error=f"plug-in game {ep.name!r} of package {dist} ")
        except SimbalanceError as exc:
            return problem(str(exc))
    try:
        module = importlib.import_module(ep.module)
        obj = module
        for part in (ep.attr or "").split(".") if ep.attr else []:
            obj = getattr(obj, part)
    except (Exception, SystemExit) as exc:  # the plug-in's own code: any error is its package's
        return problem(f"{where}: cannot be imported: {_first_line(exc)}")
    spec = obj if isinstance(obj, GameSpec) else getattr(obj, "SPEC", None)
    if not isinstance(spec, GameSpec):
        return problem(f"{where}: {ep.value} defines no SPEC = GameSpec(...)")
    if spec.id != ep.name:  # the id is how a command finds the game without importing every plug-in
        return problem(f"{where}: its SPEC's id is {spec.id!r}, not the entry point's name; a plug-in game is found "
                       "by its entry point's name: give both the same id")
    folder = spec.config_dir
    if folder is None:
        folder = str(Path(module.__file__).resolve().parent / "configs")
    return dataclasses.replace(spec, origin=f"plug-in {dist} {version}", config_dir=str(folder)), ()


def rescan() -> None:
    """Forget the plug-ins found so far (for tests that install plug-ins on the fly)."""
    _entry_points.cache_clear()
    _plugin.cache_clear()


def all_games() -> dict[str, GameSpec]:
    """Every game: the built-in ones and the plug-ins that load, by id. Probes every plug-in."""
    games = dict(_builtin_games())
    for name in _entry_points():
        spec, _ = _plugin(name)
        if spec is not None:
            games[name] = spec
    return dict(sorted(games.items()))


def builtin_games() -> dict[str, GameSpec]:
    """The games inside simbalance (what its own tests pin); no plug-in is looked at."""
    return dict(_builtin_games())


def plugin_packages(game_id: str) -> list[str]:
    """The installed packages whose entry point claims ``game_id``, read from their metadata alone
    (no plug-in code runs)."""
    return [_dist(ep)[0] for ep in _entry_points().get(game_id, ())]


def plugin_problems() -> list[PluginProblem]:
    """The plug-in games left out, each with one line naming its package. Probes every plug-in."""
    return [trouble for name in _entry_points() for trouble in _plugin(name)[1]]


def get_game(game_id: str) -> GameSpec:
    """The game ``game_id``: a built-in one without looking at any plug-in; a plug-in one after its
    probe (once per process); an unknown id's error suggests the ids of every game that loads."""
    builtin = _builtin_games()
    if game_id in builtin:
        return builtin[game_id]
    if game_id in _entry_points():
        spec, problems = _plugin(game_id)
        if spec is None:
            raise SimbalanceError(problems[0].message)
        return spec
    games = all_games()
    raise SimbalanceError(f"unknown game {game_id!r}{did_you_mean(game_id, games)}; known games: "
                          f"{', '.join(games)}")


def _own_config_dir(game_id: str) -> Path | None:
    """A plug-in game's config folder; None for a built-in game (core's own folder) or an unknown id."""
    if game_id in _builtin_games() or game_id not in _entry_points():
        return None
    spec, _ = _plugin(game_id)
    return Path(spec.config_dir) if spec is not None and spec.config_dir is not None else None


set_config_dir_lookup(_own_config_dir)
