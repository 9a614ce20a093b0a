"""`simbalance games`: every game with its players, strategies and a line about it."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from simbalance.core.config import load_config
from simbalance.core.errors import SimbalanceError
from simbalance.games.registry import all_games


def games() -> None:
    """List every game: id, players, strategies and what it is."""
    table = Table(title="simbalance games")
    for col in ("game", "players", "default", "strategies", "what it is"):
        table.add_column(col)
    for spec in all_games().values():
        try:
            cfg = load_config(spec.id)
        except SimbalanceError as exc:  # list the game anyway, with what is wrong with its config
            cfg = {"strategies": {f"[red]{exc}[/]": None}}
        strategies = ", ".join(cfg.get("strategies", {}))
        default = cfg.get("game", {}).get("players", "")
        table.add_row(spec.id, f"{spec.min_players}-{spec.max_players}", str(default), strategies, spec.summary)
    Console().print(table)
