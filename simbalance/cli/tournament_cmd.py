"""`simbalance tournament GAME --strategies a,b,c`: every lineup, matchups, ratings."""

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
def tournament(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    strategies: Annotated[str, typer.Option(help="Two or more strategies or presets, comma-separated.")],
    n: Annotated[str, typer.Option("--n", help="Games in all: 1e5, 100_000 or 100000.")] = "1e5",
    out: Annotated[Path | None, typer.Option(help="Output folder (default: reports/tournament-<game>-<time>).")] = None,
) -> None:
    """Play every assignment of the strategies to the seats equally often; report the matchups (A
    against B: A's per-seat win rate, fair 1/P, and A's head-to-head share, even 50%, with CIs),
    Bradley-Terry ratings with CIs and heatmaps."""
    from simbalance.api import tournament as run_tournament
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.tournament_page import write_tournament_folder

    count = parse_count(n)
    target = out if out is not None else default_out_dir(f"tournament-{game}")
    hold_out_dir(target)
    res = run_tournament(settings, strategies, count, progress=RichProgress)
    command = "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    folder = write_tournament_folder(res, target, command)
    console = Console()
    tab = Table(title=f"{game}: ratings ({count:,} games, every lineup)")
    for col in ("strategy", "rating", "95% CI", "win rate per seat, all lineups"):
        tab.add_column(col, justify="right")
    rates = res.strategies.set_index("strategy")["win_rate"]
    for _, r in res.ratings.iterrows():
        tab.add_row(r["strategy"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} .. {r['ci_high']:+.0f}",
                    f"{rates[r['strategy']]:.2%}")
    console.print(tab)
    console.print(matchup_table(res.matchups, res.result.plan.players))
    print_findings(console, res.findings(), page=str(folder / "tournament.html"))
    Console(stderr=True).print(f"report: {folder / 'tournament.html'}")


def matchup_table(matchups, players: int) -> Table:
    """A against B, both ways to read it: A's per-seat win rate (fair 1/P) and A's head-to-head share
    of the wins between A's and B's seats, per seat (even 50% whatever the seat counts)."""
    fair = 1 / players
    tab = Table(title=f"matchups: decided games whose seats hold only A and B (a {players}-player game: "
                      f"a seat's fair share is {fair:.0%}, an even head-to-head 50%)")
    for col in ("A", "against B", f"A's win rate per seat (fair {fair:.0%})", "95% CI",
                "A's head-to-head share (even 50%)", "95% CI"):
        tab.add_column(col, justify="right")
    for _, r in matchups.iterrows():
        tab.add_row(r["strategy"], r["opponent"], f"{r['win_rate']:.1%}", f"{r['ci_low']:.1%} .. {r['ci_high']:.1%}",
                    f"{r['h2h_share']:.1%}", f"{r['h2h_ci_low']:.1%} .. {r['h2h_ci_high']:.1%}")
    return tab
