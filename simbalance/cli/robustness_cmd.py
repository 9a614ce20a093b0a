"""`simbalance robustness GAME`: do the seat conclusions hold whoever plays?"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.cli.findings_out import print_findings
from simbalance.cli.run_cmd import parse_count
from simbalance.cli.settings_options import plays_games
from simbalance.cli.terminal import Table
from simbalance.studies.settings import RunSettings


@plays_games
def robustness(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    models: Annotated[str | None, typer.Option(help="Player models, comma-separated strategy names, each played at "
                                                    "every seat (default: random, every heuristic, and the search "
                                                    "player at --budget).")] = None,
    search: Annotated[str, typer.Option(help="The search player of the default models.")] = "mcts",
    budget: Annotated[int, typer.Option(help="The search player's budget in the default models.")] = 100,
    n: Annotated[str, typer.Option("--n", help="Games per player model.")] = "2e4",
    precision: Annotated[float, typer.Option(help="A search player's model plays until every seat's win-rate 95% CI "
                                                  "half-width is below this (0.03: 3 points, about 800 games at 4 "
                                                  "seats), at most --search-n games.")] = 0.03,
    search_n: Annotated[str, typer.Option("--search-n", help="The most games of a search player's model (it searches "
                                                             "at every seat and decision): the cap if --precision is "
                                                             "not reached first.")] = "5000",
    out: Annotated[Path | None, typer.Option(help="Output folder: robustness.html, robustness.json, findings.json "
                                                  "(default: reports/robustness-<game>-<time>).")] = None,
) -> None:
    """Balance under several player models: the same seats played by all random, each heuristic and a
    search player; says whether the seat ranking and the first-player effect hold under all of them;
    writes robustness.html."""
    from simbalance.analysis.labels import player
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.plan import check_precision
    from simbalance.report.robustness_page import write_robustness_folder
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.studies.robustness import robustness as run_robustness

    count, search_count = parse_count(n), parse_count(search_n, "--search-n")
    check_precision("--precision", precision)
    target = out if out is not None else default_out_dir(f"robustness-{game}")
    hold_out_dir(target)
    res = run_robustness(settings, count, models=models, search=search, budget=budget, search_n=search_count,
                         precision=precision, progress=RichProgress)
    tab = Table(title=f"{res.game}: win rate per seat under each player model (decided games, fair "
                      f"{1 / res.players:.0%})")
    tab.add_column("model")
    for s in range(res.players):
        tab.add_column(player(s), justify="right")
    tab.add_column("first player", justify="right")
    for _, m in res.models.iterrows():
        rates = res.seats[res.seats["model"] == m["model"]].sort_values("seat")["win_rate"]
        tab.add_row(f"all {m['model']}", *[f"{v:.1%}" for v in rates],
                    f"{100 * m['first_player']:+.1f} pp")
    console = Console()
    console.print(tab)
    for _, m in res.models.iterrows():
        if m["model"] in res.capped:
            console.print(f"[yellow]all {m['model']}: the cap of {res.search_n:,} games (--search-n) stopped it "
                          f"before every seat's 95% CI was within ±{100 * res.precision:g} points (--precision)[/]")
    for c in res.conclusions:
        console.print(f"[bold]{c['topic']}[/] ({c['verdict']}): {c['text']}")
    command = "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    folder = write_robustness_folder(res, target, command)
    print_findings(console, res.findings(), page=str(folder / "robustness.html"))
    Console(stderr=True).print(f"report: {folder / 'robustness.html'}")
