"""`simbalance sweep GAME --param key=4:16:2 [--param ...]`: metrics over a grid of settings. The
command is made from the study's declaration (studies/sweep.py, cli/study_command.py); here is
what it shows."""

from __future__ import annotations

from simbalance.analysis.check import format_difference
from simbalance.analysis.sweep import describe_targets
from simbalance.cli.terminal import Table


def show(result, console) -> None:
    """Every grid point's metrics, then the point closest to the targets as re-checked."""
    keys = [p.key for p in result.params]
    tab = Table(title=f"{result.game}: sweep ({result.base_plan.n:,} games per point; targets: "
                      f"{describe_targets(result.targets)})")
    for col in [*keys, "balance", "player 1's advantage", "mean length", "median", "timeouts", "shortfall"]:
        tab.add_column(col, justify="right")
    for i, (_, r) in enumerate(result.table.iterrows()):
        tab.add_row(*[str(result.table[k].iloc[i]) for k in keys], f"{r['balance']:.2%}",
                    format_difference(r['first_player_advantage'], 'share'), f"{r['length_mean']:.1f}",
                    f"{r['length_median']:g}", f"{r['timeouts']:.2%}", f"{r['shortfall']:.3f}")
    console.print(tab)
    if len(result.rechecked):
        top = result.rechecked.iloc[0]
        console.print("closest to the targets, re-checked on a fresh seed: "
                      + ", ".join(f"{k} = {result.rechecked[k].iloc[0]}" for k in keys)
                      + f" (balance {top['balance']:.2%}, median length {top['length_median']:g})")
