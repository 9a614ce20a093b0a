"""`simbalance ladder GAME`: does the search player get stronger with its budget, and does it beat
the best heuristic?"""

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
def ladder(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    budgets: Annotated[str, typer.Option(help="Rising budgets, comma-separated: iterations per decision for mcts, "
                                              "play-outs per option for flat.")] = "8,32,128,512",
    search: Annotated[str, typer.Option(help="The search player, or one of its presets (its other parameters "
                                             "stay).")] = "mcts",
    against: Annotated[str | None, typer.Option(help="The heuristic every budget plays against (default: the "
                                                     "game's default strategy, or its first heuristic when that "
                                                     "is random).")] = None,
    n: Annotated[str, typer.Option("--n", help="Games per budget against the heuristic.")] = "400",
    n_pairs: Annotated[str | None, typer.Option("--n-pairs", help="Games per budget against the budget before "
                                                                  "it (default: --n).")] = None,
    yardstick: Annotated[str | None, typer.Option(help="Also play each budget head to head against this one-step "
                                                       "lookahead player (flat or a preset of it) with as many "
                                                       "play-outs per decision (--n-pairs games).")] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder: ladder.html, ladder.json, findings.json "
                                                  "(default: reports/ladder-<game>-<time>).")] = None,
) -> None:
    """The skill ladder: each budget of a search player against the best heuristic and against the
    budget before it, win rates with 95% CIs, a curve; writes ladder.html."""
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.ladder_page import write_ladder_folder
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.studies.ladder import ladder as run_ladder

    count = parse_count(n)
    pairs = parse_count(n_pairs, "--n-pairs") if n_pairs is not None else None
    target = out if out is not None else default_out_dir(f"ladder-{game}")
    hold_out_dir(target)
    res = run_ladder(settings, budgets, count, search=search, against=against, n_pairs=pairs, yardstick=yardstick,
                     progress=RichProgress)
    fair = 1 / res.players
    tab = Table(title=f"{res.game}: {res.search} against {res.against} (fair share {fair:.0%}, decided games)")
    cols = [res.budget_param, "win rate", "95% CI", "vs the budget before", "95% CI "]
    cols += [f"vs {res.yardstick}", "95% CI  "] if res.yardstick else []
    for col in cols:
        tab.add_column(col, justify="right")
    for _, r in res.table.iterrows():
        h2h = r["h2h_games"] > 0
        row = [f"{int(r['budget']):,}", f"{r['win_rate']:.1%}", f"{r['ci_low']:.1%} .. {r['ci_high']:.1%}",
               f"{r['h2h_share']:.1%}" if h2h else "", f"{r['h2h_ci_low']:.1%} .. {r['h2h_ci_high']:.1%}" if h2h else ""]
        if res.yardstick:
            yard = r["yard_games"] > 0
            row += [f"{r['yard_share']:.1%}" if yard else "",
                    f"{r['yard_ci_low']:.1%} .. {r['yard_ci_high']:.1%}" if yard else ""]
        tab.add_row(*row)
    console = Console()
    console.print(tab)
    command = "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    folder = write_ladder_folder(res, target, command)
    print_findings(console, res.findings(), page=str(folder / "ladder.html"))
    Console(stderr=True).print(f"report: {folder / 'ladder.html'}")
