"""`simbalance tournament GAME --strategies a,b,c`: every lineup, matchups, ratings. The command
is made from the study's declaration (studies/tournament.py, cli/study_command.py); here is what
it shows."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """The ratings, then the matchups."""
    tab = Table(title=f"{res.result.plan.spec.id}: ratings ({res.result.plan.n:,} games, every lineup)")
    for col in ("strategy", "rating", "95% CI", "win rate per seat, all lineups"):
        tab.add_column(col, justify="right")
    rates = res.strategies.set_index("strategy")["win_rate"]
    for _, r in res.ratings.iterrows():
        tab.add_row(r["strategy"], f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} .. {r['ci_high']:+.0f}",
                    f"{rates[r['strategy']]:.2%}")
    console.print(tab)
    console.print(matchup_table(res.matchups, res.result.plan.players))


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
