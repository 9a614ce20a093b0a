"""`simbalance compare GAME --variant A --variant B`: what each variant changes, with confidence. The
command is made from the study's declaration (studies/compare.py, cli/study_command.py); here is
what it shows."""

from __future__ import annotations

from rich.console import Console

from simbalance.analysis.check import format_difference, format_value
from simbalance.analysis.findings import p_value
from simbalance.analysis.labels import metric_label
from simbalance.cli.terminal import Table


def show(result, console) -> None:
    """The warnings (on stderr), the arms and what each changes, then one table per arm."""
    for warning in result.warnings:
        Console(stderr=True).print(f"[bold yellow]warning:[/] {warning}")
    count = result.baseline.plan.n
    arms_tab = Table(title=f"{result.baseline.game}: the arms")
    for col in ("arm", "what it changes"):
        arms_tab.add_column(col)
    for name, what in result.changes.items():
        arms_tab.add_row(name, what)
    console.print(arms_tab)
    # one table per arm, the arm in its title: narrow enough for an 80-column CI log (issue 41)
    for arm, rows in result.table.groupby("variant", sort=False):
        tab = Table(title=f"{arm} against {result.baseline_name} ({count:,} games each; change with its 95% CI; "
                          f"sig.: significant at {result.alpha:g} after Holm)")
        for col in ("metric", "baseline", arm, "change", "95% CI", "p (Holm)", "sig."):
            tab.add_column(col, justify="left" if col == "metric" else "right")
        for _, r in rows.iterrows():
            kind = r["kind"]  # every figure in its unit: a share in % (a difference in pp), a length in its own
            tab.add_row(metric_label(r["metric"]), format_value(r["baseline"], kind), format_value(r["value"], kind),
                        format_difference(r["diff"], kind),
                        f"{format_difference(r['ci_low'], kind)} to {format_difference(r['ci_high'], kind)}",
                        p_value(r["p_holm"], cell=True), "[bold red]yes[/]" if r["significant"] else "no")
        console.print(tab)
