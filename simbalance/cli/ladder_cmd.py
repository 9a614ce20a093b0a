"""`simbalance ladder GAME`: does the search player get stronger with its budget, and does it beat
the best heuristic? The command is made from the study's declaration (studies/ladder.py,
cli/study_command.py); here is what it shows."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """Each budget's win rate against the heuristic, and head to head."""
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
    console.print(tab)
