"""Game id -> GameSpec: the built-in games under ``simbalance/games/`` and the plug-in games.

A new built-in game needs no edit here: a package under ``simbalance/games/`` whose ``__init__``
defines ``SPEC`` is a game. A game may also live outside simbalance, in a package of its own that
declares an entry point in the group ``simbalance.games`` (what ``simbalance new-game`` writes)::

    [project.entry-points."simbalance.games"]
    my-game = "my_game"          # the package whose __init__ defines SPEC (or "my_game:SPEC")

Such a game is found like a built-in one, with its origin ("plug-in <distribution> <version>") and
its own config folder (``GameSpec.config_dir``, by default ``configs/`` inside its package). A
plug-in that fails to import, defines no ``SPEC``, or whose id another game has is left out with
one line naming its package (``plugin_problems``): the other games still work, ``simbalance games``
prints the lines, and asking for that game by name gives its line as the error.
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
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.spec import GameSpec

ENTRY_POINT_GROUP = "simbalance.games"


@dataclass(frozen=True)
class PluginProblem:
    """A plug-in game that could not be used: its entry point's name, its package, and why."""

    name: str
    package: str
    message: str  # one line, naming the package


@dataclass(frozen=True)
class _Found:
    games: dict[str, GameSpec]
    problems: tuple[PluginProblem, ...]


def _builtin_games() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for info in pkgutil.iter_modules(games_pkg.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{games_pkg.__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            found[spec.id] = dataclasses.replace(spec, origin="built-in", config_dir=None)
    return found


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no message"
    return f"{type(exc).__name__}: {text}"


def _load_plugin(ep: importlib.metadata.EntryPoint) -> tuple[GameSpec | None, PluginProblem | None]:
    dist = ep.dist.name if ep.dist is not None else "?"
    version = ep.dist.version if ep.dist is not None else "?"
    where = f"plug-in game {ep.name!r} of package {dist} (entry point {ep.value})"

    def problem(why: str) -> tuple[None, PluginProblem]:
        return None, PluginProblem(ep.name, dist, f"{where}: {why}")

    try:
        module = importlib.import_module(ep.module)
        obj = module
        for part in (ep.attr or "").split(".") if ep.attr else []:
            obj = getattr(obj, part)
    except (Exception, SystemExit) as exc:  # the plug-in's own code: any error is its package's
        return problem(f"cannot be imported: {_first_line(exc)}")
    spec = obj if isinstance(obj, GameSpec) else getattr(obj, "SPEC", None)
    if not isinstance(spec, GameSpec):
        return problem(f"{ep.value} defines no SPEC = GameSpec(...)")
    folder = spec.config_dir
    if folder is None:
        folder = str(Path(module.__file__).resolve().parent / "configs")
    return dataclasses.replace(spec, origin=f"plug-in {dist} {version}", config_dir=str(folder)), None


@cache
def _discover() -> _Found:
    games = _builtin_games()
    problems: list[PluginProblem] = []
    plugins: dict[str, list[tuple[GameSpec, str]]] = {}
    for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        spec, trouble = _load_plugin(ep)
        if trouble is not None:
            problems.append(trouble)
            continue
        dist = ep.dist.name if ep.dist is not None else "?"
        plugins.setdefault(spec.id, []).append((spec, dist))
    for game_id, claims in plugins.items():
        for _, dist in claims:
            if game_id in games:
                problems.append(PluginProblem(game_id, dist, f"plug-in game {game_id!r} of package {dist}: the id is "
                                              f"the {games[game_id].origin} game's; the plug-in is left out (give its "
                                              "SPEC another id)"))
            elif len(claims) > 1:
                others = ", ".join(d for _, d in claims if d != dist) or dist
                problems.append(PluginProblem(game_id, dist, f"plug-in game {game_id!r} of package {dist}: package "
                                              f"{others} has a game of that id too; neither is loaded"))
        if game_id not in games and len(claims) == 1:
            games[game_id] = claims[0][0]
    return _Found(dict(sorted(games.items())), tuple(problems))


def all_games() -> dict[str, GameSpec]:
    """Every game: the built-in ones and the plug-ins that load, by id."""
    return dict(_discover().games)


def builtin_games() -> dict[str, GameSpec]:
    """The games inside simbalance (what its own tests pin)."""
    return {k: v for k, v in all_games().items() if v.builtin}


def plugin_problems() -> list[PluginProblem]:
    """The plug-in games left out, each with one line naming its package."""
    return list(_discover().problems)


def get_game(game_id: str) -> GameSpec:
    games = all_games()
    if game_id not in games:
        for trouble in plugin_problems():
            if trouble.name == game_id:
                raise SimbalanceError(trouble.message)
        raise SimbalanceError(f"unknown game {game_id!r}{did_you_mean(game_id, games)}; known games: "
                              f"{', '.join(games)}")
    return games[game_id]


def _own_config_dir(game_id: str) -> Path | None:
    spec = _discover().games.get(game_id)
    return Path(spec.config_dir) if spec is not None and spec.config_dir is not None else None


set_config_dir_lookup(_own_config_dir)
