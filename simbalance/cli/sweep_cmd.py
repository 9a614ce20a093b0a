"""`simbalance sweep GAME --param key=4:16:2 [--param ...]`: metrics over a grid of settings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.analysis.check import format_difference
from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import plays_games
from simbalance.cli.study_command import command_line
from simbalance.cli.terminal import Table
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


@plays_games
def sweep(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    param: Annotated[list[str], typer.Option("--param", help="key=start:stop:step (stop included) or key=a,b,c; one or two.")],
    n: Annotated[str, typer.Option("--n", help="Games per grid point: 1e5, 100_000 or 100000.")] = "1e5",
    strategies: Annotated[str | None, typer.Option(help="Strategy per seat, comma-separated.")] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies.")] = False,
    aims: Annotated[list[str] | None, typer.Option("--target", help="Aim for this (replaces that key of the config's \\[targets]): length_median=55:60 or balance_min=0.9 (repeatable).")] = None,
    recheck: Annotated[int, typer.Option(help="Re-check this many best points on a fresh seed.")] = 3,
    out: Annotated[Path | None, typer.Option(help="Output folder (default: reports/sweep-<game>-<time>).")] = None,
) -> None:
    """Sweep one or two config keys (rules, deck counts, caps...): metrics with CI bands per point,
    the points closest to the config's \\[targets] pointed out and re-checked on fresh seeds."""
    from simbalance.analysis.sweep import describe_targets
    from simbalance.api import sweep as run_sweep
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.sweep_page import write_sweep_folder

    count = parse_count(n)
    target = out if out is not None else default_out_dir(f"sweep-{game}")
    hold_out_dir(target)
    result = run_sweep(settings, param, count, strategies=strategies, rotate=rotate, recheck=recheck, targets=aims,
                       progress=RichProgress)
    command = command_line()
    folder = write_sweep_folder(result, target, command)
    keys = [p.key for p in result.params]
    tab = Table(title=f"{game}: sweep ({count:,} games per point; targets: {describe_targets(result.targets)})")
    for col in [*keys, "balance", "player 1's advantage", "mean length", "median", "timeouts", "shortfall"]:
        tab.add_column(col, justify="right")
    for i, (_, r) in enumerate(result.table.iterrows()):
        tab.add_row(*[str(result.table[k].iloc[i]) for k in keys], f"{r['balance']:.2%}", format_difference(r['first_player_advantage'], 'share'),
                    f"{r['length_mean']:.1f}", f"{r['length_median']:g}", f"{r['timeouts']:.2%}",
                    f"{r['shortfall']:.3f}")
    console = Console()
    console.print(tab)
    if len(result.rechecked):
        top = result.rechecked.iloc[0]
        console.print("closest to the targets, re-checked on a fresh seed: "
                      + ", ".join(f"{k} = {result.rechecked[k].iloc[0]}" for k in keys)
                      + f" (balance {top['balance']:.2%}, median length {top['length_median']:g})")
    print_findings(console, result.findings(), page=str(folder / "sweep.html"))
    Console(stderr=True).print(f"report: {folder / 'sweep.html'}")
