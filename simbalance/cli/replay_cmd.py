"""`simbalance replay GAME --seed S --game I`: one game, move by move, in words."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def replay(
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    seed: Annotated[int, typer.Option(help="The run's seed.")] = 0,
    game_index: Annotated[int, typer.Option("--game", help="The game's index in the run (column `game`).")] = 0,
    players: Annotated[int | None, typer.Option(help="Players, as in the run.")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Config overrides, as in the run.")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", help="Variants, as in the run.")] = None,
    strategies: Annotated[str | None, typer.Option(help="Strategies, as in the run.")] = None,
    rotate: Annotated[bool, typer.Option(help="As in the run.")] = False,
    strategy_file: Annotated[str | None, typer.Option(help="The plug-in strategy, as in the run.")] = None,
    config: Annotated[Path | None, typer.Option(help="The config file, as in the run.")] = None,
) -> None:
    """Print game I of seed S move by move, exactly as the run played it (give the run's players,
    --config, --set, --variant and --strategies)."""
    from simbalance.api import plan_run
    from simbalance.core.errors import SimbalanceError
    from simbalance.core.runner import MAX_GAMES

    if game_index >= MAX_GAMES:
        raise SimbalanceError(f"game {game_index}: out of range; a run has at most {MAX_GAMES:,} games "
                              f"(indices 0 to {MAX_GAMES - 1:,})")
    plan = plan_run(game, max(1, game_index + 1), players=players, seed=seed, overrides=set_ or [], variants=variant,
                    strategies=strategies, rotate=rotate, strategy_file=strategy_file,
                    config=str(config) if config else None)
    if game_index < 0:
        raise SimbalanceError(f"--game {game_index}: game indices start at 0")
    if plan.engine.replay is None:
        raise SimbalanceError(f"{plan.spec.id}: replay is not available for this engine yet")
    for line in plan.engine.replay(plan, game_index):
        typer.echo(line)
