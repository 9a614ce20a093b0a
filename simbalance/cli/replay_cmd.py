"""`simbalance replay GAME --seed S --game I`: one game, move by move, in words."""

from __future__ import annotations

from typing import Annotated

import typer

from simbalance.cli.settings_options import plays_games
from simbalance.studies.settings import RunSettings


@plays_games(where=False)
def replay(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    game_index: Annotated[int, typer.Option("--game", help="The game's index in the run (column `game`).")] = 0,
    strategies: Annotated[str | None, typer.Option(help="Strategies, as in the run.")] = None,
    rotate: Annotated[bool, typer.Option(help="As in the run.")] = False,
    strategy_file: Annotated[str | None, typer.Option(help="The plug-in strategy, as in the run.")] = None,
) -> None:
    """Print game I of seed S move by move, exactly as the run played it (give the run's players,
    --config, --set, --variant and --strategies)."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.core.runner import MAX_GAMES

    if game_index >= MAX_GAMES:
        raise SimbalanceError(f"game {game_index}: out of range; a run has at most {MAX_GAMES:,} games "
                              f"(indices 0 to {MAX_GAMES - 1:,})")
    plan = settings.plan(max(1, game_index + 1), strategies=strategies, rotate=rotate, strategy_file=strategy_file)
    if game_index < 0:
        raise SimbalanceError(f"--game {game_index}: game indices start at 0")
    if plan.engine.replay is None:
        raise SimbalanceError(f"{plan.spec.id}: replay is not available for this engine yet")
    for line in plan.engine.replay(plan, game_index):
        typer.echo(line)


# Commands that are not studies (a study is found from studies/registry.py): name -> (rank, function).
COMMANDS = {"replay": (120, replay)}
