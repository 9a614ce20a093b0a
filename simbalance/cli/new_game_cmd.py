"""`simbalance new-game NAME --out DIR`: write a working game package of the designer's own."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer


def new_game(
    name: Annotated[str, typer.Argument(help="The game's id: lower-case words joined by hyphens, e.g. trick-race "
                                              "(its Python package: trick_race).", show_default=False)],
    out: Annotated[Path | None, typer.Option(help="The folder to create (new, or empty). Default: ./NAME.")] = None,
) -> None:
    """Write a new game in simbalance's file template: a small but complete card game (a deck from
    the config, a decision every turn, a win condition and a turn cap), two heuristic strategies
    plus random and the search players mcts and flat, its config, three rule variants, a rules page
    and tests that run the contract test on it. Install it with `pip install -e 'DIR\\[test]'` (the
    test extra brings pytest); then every command plays it. Walk-through: docs/your-game.md."""
    from simbalance.report.files import check_path_names
    from simbalance.scaffold import new_game as write_game

    if out is not None:
        check_path_names("--out", out)
    names, folder, files = write_game(name, out)
    typer.echo(f"wrote {names.game_id} ({names.title}, package {names.package}) in {folder}: {len(files)} files")
    for path in files:
        typer.echo(f"  {path.relative_to(folder)}")
    typer.echo("next:")
    typer.echo(f"  pip install -e {shlex.quote(f'{folder}[test]')}")  # the test extra: pytest
    typer.echo(f"  simbalance run {names.game_id} --n 1e5")
    typer.echo(f"  pytest {shlex.quote(str(folder))}")


# Commands that are not studies (a study is found from studies/registry.py): name -> (rank, function).
COMMANDS = {"new-game": (150, new_game)}
