"""`simbalance fit-eval GAME`: fit the evaluation a search seat scores its cut play-outs with
(docs/strategies.md, "The fitted evaluation") and write configs/<game>/eval.json."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.cli.settings_options import plays_games
from simbalance.cli.terminal import Table
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


@plays_games
def fit_eval(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    games: Annotated[str, typer.Option("--games", help="Games of heuristics to record (a fifth held out for the "
                                                       "accuracy): 20000, 2e4 or 20_000.")] = "20000",
    strategies: Annotated[str | None, typer.Option(help="Heuristics, comma-separated, one per seat or one for all "
                                                        "(seats rotated; default: every heuristic but random, in turn).")] = None,
    out: Annotated[Path | None, typer.Option(help="The file to write (default: configs/<game>/eval.json, which runs "
                                                  "read).")] = None,
) -> None:
    """Play heuristic games, record each seat's features at cuts spread over every game and its final
    share of the win, fit a conditional logit (held-out log-loss, accuracy and calibration beside
    the game's hand-written evaluation) and write eval.json: what a search seat with depth > 0 then
    scores a cut play-out with."""
    from simbalance.cli.run_cmd import interruptible
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.blocks import cache_root
    from simbalance.core.errors import SimbalanceError
    from simbalance.studies.evaluation import eval_path, write_eval
    from simbalance.studies.fit_eval import fit_eval

    count = parse_count(games, "--games")
    names = [name.strip() for name in strategies.split(",")] if strategies is not None else None
    if names is not None and not all(names):
        raise SimbalanceError(f"--strategies {strategies!r}: an empty name")
    target = out if out is not None else eval_path(settings.game)
    if target.is_dir():
        raise SimbalanceError(f"--out {target}: a folder; name the file to write")
    with interruptible() as stop:  # Ctrl-C: stop after the block in play, keep the finished blocks, exit 130
        res = fit_eval(settings, count, names, progress=RichProgress, stop=stop, checkpoints=cache_root() / "blocks")
    path = write_eval(res, target)
    data = res.data
    console = Console()
    held = data["held_out"]
    tab = Table(title=f"{data['game']}: {data['held_out_points']} held-out positions of {data['held_out_games']} games "
                      f"(uniform log-loss {held['uniform']['log_loss']:.3f})")
    for col in ("evaluation", "log-loss", "leader wins"):
        tab.add_column(col, justify="right")
    for name, key in (("fitted", "fitted"), ("hand-written", "hand_written")):
        tab.add_row(name, f"{held[key]['log_loss']:.3f}", f"{held[key]['accuracy']:.1%}")
    console.print(tab)
    weights = Table(title="weights (per unit of each feature)")
    weights.add_column("feature")
    weights.add_column("weight", justify="right")
    for name, w in zip(data["features"], data["weights"], strict=True):
        weights.add_row(name, f"{w:+.4f}")
    console.print(weights)
    stalled = data["games"] - data["decided_games"]
    Console(stderr=True).print(f"wrote {path} ({data['points']} positions of {data['games']} games, {stalled} of them "
                               f"with no winner, fitted as such; {res.elapsed:.0f} s)")
