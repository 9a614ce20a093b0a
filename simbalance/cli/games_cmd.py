"""`simbalance games`: every game with its players, strategies, origin and a line about it."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

from simbalance.cli.terminal import Table
from simbalance.core.config import load_config
from simbalance.core.errors import SimbalanceError
from simbalance.games.registry import all_games, plugin_problems


def games() -> None:
    """List every game: id, players, strategies, where it comes from (built-in, or the plug-in
    package that brings it) and what it is. A plug-in game that cannot be loaded is one line
    `error: ...` naming its package (exit code 2); the other games are listed all the same."""
    table = Table(title="simbalance games")
    for col in ("game", "players", "default", "strategies", "origin", "what it is"):
        table.add_column(col, no_wrap=col in ("game", "origin"))
    for spec in all_games().values():
        try:
            cfg = load_config(spec.id)
        except SimbalanceError as exc:  # list the game anyway, with what is wrong with its config
            cfg = {"strategies": {f"[red]{escape(str(exc))}[/]": None}}
        strategies = ", ".join(cfg.get("strategies", {}))
        default = cfg.get("game", {}).get("players", "")
        table.add_row(spec.id, f"{spec.min_players}-{spec.max_players}", str(default), strategies, spec.origin,
                      spec.summary)
    Console().print(table)
    problems = plugin_problems()
    for trouble in problems:
        typer.echo(f"error: {trouble.message}", err=True)
    if problems:
        raise typer.Exit(2)


# Commands that are not studies (a study is found from studies/registry.py): name -> (rank, function).
COMMANDS = {"games": (0, games)}
