"""`simbalance skill GAME`: is the game won by skill or by the deal? The command is made from the
study's declaration (studies/skill.py, cli/study_command.py); here is what it shows."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """The agency, search and restricted-play tables, then the verdict."""
    fair = 1 / res.players
    for title, df in (("agency: alone against random players", res.agency),
                      ("search players alone against random players", res.search),
                      ("restricted play: without one ability, against the full strategy", res.restricted)):
        if df is None or df.empty:
            continue
        tab = Table(title=f"{res.game}: {title} (fair share {fair:.0%})")
        for col in ("strategy", "against", "win rate per seat", "95% CI", "edge"):
            tab.add_column(col, justify="right")
        for _, r in df.iterrows():
            tab.add_row(r["strategy"], r["against"], f"{r['win_rate']:.2%}", f"{r['ci_low']:.2%} .. {r['ci_high']:.2%}",
                        f"{r['win_rate'] - fair:+.2%}")
        console.print(tab)
    console.print(f"[bold]verdict:[/] {res.verdict}")
