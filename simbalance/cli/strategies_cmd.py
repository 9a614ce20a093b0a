"""`simbalance strategies GAME`: every strategy and preset with its idea and parameters."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from simbalance.cli.terminal import Table


def strategies(
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
) -> None:
    """List a game's strategies (heuristics, search players and named presets): id, idea, parameters."""
    from simbalance.core.config import load_config
    from simbalance.core.lineup import all_strategies
    from simbalance.games.registry import get_game

    spec = get_game(game)  # a plug-in game is probed there before it is imported (core/probe.py)
    engine = spec.load()
    cfg = load_config(spec.id)
    table = Table(title=f"{spec.id}: strategies (use the name with --strategies; a preset anywhere a name is)")
    for col in ("name", "id", "kind", "idea", "parameters (defaults)"):
        table.add_column(col)
    for info in all_strategies(cfg, engine.strategies, engine.strategy_params).values():
        params = ", ".join(f"{k}={v}" if isinstance(v, str) else f"{k}={v:g}" for k, v in info.params.items()) or "none"
        kind = (f"preset of {info.base}" if info.preset
                else "search player" if engine.is_search(info.base) else "heuristic")
        table.add_row(info.name, str(engine.strategies[info.base]), kind, info.idea, params)
    Console().print(table)


# Commands that are not studies (a study is found from studies/registry.py): name -> (rank, function).
COMMANDS = {"strategies": (5, strategies)}
