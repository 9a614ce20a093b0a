"""`simbalance tune GAME --strategy NAME`: find the parameters that win most, before players do. The
command is made from the study's declaration (studies/tune.py, cli/study_command.py); here is what
it shows (each generation's line is printed as the search goes: cli/terminal.RichProgress.note)."""

from __future__ import annotations

from simbalance.analysis.tune import played_value, pp
from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """The parameters found, the gain over the defaults, the dominance table and the preset."""
    fair = 1 / res.players
    points = f"{100 * res.dominance_margin:g}"
    tab = Table(title=f"{res.game}: {res.strategy} tuned against {', '.join(res.label(f) for f in res.field)}")
    for col in ("parameter", "default", "best found"):
        tab.add_column(col, justify="right")
    for k in res.params:
        tab.add_row(k, f"{res.default[k]:.6g}", played_value(res.best[k]))
    console.print(tab)
    console.print(res.gain_text())
    console.print(f"the best found alone against {res.players - 1} of each strategy, win rate per seat over decided "
                  f"games; 'dominates' = at least {points} points above the fair {fair:.0%}, the 95% CI's lower "
                  "end included (--margin)")
    dom = Table(title=f"{res.game}: the best found alone against each strategy")
    for col in ("against", f"win rate per seat (fair {fair:.0%})", "95% CI", "edge over fair", "reads"):
        dom.add_column(col, justify="right")
    for _, r in res.dominance.iterrows():
        dom.add_row(res.label(r["against"]), f"{r['win_rate']:.2%}", f"{r['ci_low']:.2%} .. {r['ci_high']:.2%}",
                    pp(r["edge"]), r["standing"])
    console.print(dom)
    console.print(res.verdict())
    console.print(f"the best found as a preset (configs/{res.game}/presets.toml), the values played above:")
    console.print(res.preset(), markup=False, highlight=False)
