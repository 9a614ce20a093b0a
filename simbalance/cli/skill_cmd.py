"""`simbalance skill GAME`: is the game won by skill or by the deal?"""

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
def skill(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    n: Annotated[str, typer.Option("--n", help="Games per measurement: 1e5, 100_000 or 100000.")] = "5e4",
    search_n: Annotated[str, typer.Option("--search-n", help="Games of each search player (mcts, flat and their "
                                                             "presets) alone against random players; 0 leaves them "
                                                             "out (each searches at every decision: slow).")] = "0",
    out: Annotated[Path | None, typer.Option(help="Output folder: skill.html, skill.json, findings.json (default: reports/skill-<game>-<time>).")] = None,
) -> None:
    """Agency (each heuristic alone against random players), restricted play (a strategy without
    one ability against the full one) and a plain verdict on skill against luck; writes skill.html."""
    from simbalance.api import skill as run_skill
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.skill_page import write_skill_folder

    count = parse_count(n)
    search_count = 0 if search_n == "0" else parse_count(search_n, "--search-n")
    target = out if out is not None else default_out_dir(f"skill-{game}")
    hold_out_dir(target)
    res = run_skill(settings, count, search_n=search_count, progress=RichProgress)
    console = Console()
    fair = 1 / res.players
    for title, df in (("agency: alone against random players", res.agency),
                      ("search players alone against random players", res.search),
                      ("restricted play: without one ability, against the full strategy", res.restricted)):
        if df is None or df.empty:
            continue
        tab = Table(title=f"{game}: {title} (fair share {fair:.0%})")
        for col in ("strategy", "against", "win rate per seat", "95% CI", "edge"):
            tab.add_column(col, justify="right")
        for _, r in df.iterrows():
            tab.add_row(r["strategy"], r["against"], f"{r['win_rate']:.2%}", f"{r['ci_low']:.2%} .. {r['ci_high']:.2%}",
                        f"{r['win_rate'] - fair:+.2%}")
        console.print(tab)
    console.print(f"[bold]verdict:[/] {res.verdict}")
    command = "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    folder = write_skill_folder(res, target, command, count, settings.seed)
    print_findings(console, res.findings(), page=str(folder / "skill.html"))
    Console(stderr=True).print(f"report: {folder / 'skill.html'}")
