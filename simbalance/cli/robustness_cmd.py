"""`simbalance robustness GAME`: do the seat conclusions hold whoever plays? The command is made from
the study's declaration (studies/robustness.py, cli/study_command.py); here is what it shows."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """Each model's win rate per seat and first-player effect, the caps reached, the conclusions."""
    from simbalance.analysis.labels import player

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
    console.print(tab)
    for _, m in res.models.iterrows():
        if m["model"] in res.capped:
            console.print(f"[yellow]all {m['model']}: the cap of {res.search_n:,} games (--search-n) stopped it "
                          f"before every seat's 95% CI was within ±{100 * res.precision:g} points (--precision)[/]")
    for c in res.conclusions:
        console.print(f"[bold]{c['topic']}[/] ({c['verdict']}): {c['text']}")
