"""`simbalance compare GAME --variant A --variant B`: what each variant changes, with confidence."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.analysis.check import format_difference, format_value
from simbalance.analysis.findings import p_value
from simbalance.analysis.labels import metric_label
from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import plays_games
from simbalance.cli.study_command import command_line
from simbalance.cli.terminal import Table
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


@plays_games(own=("variant",))
def compare(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    variant: Annotated[list[str] | None, typer.Option("--variant", help="A variant to compare (name or TOML path); repeatable.")] = None,
    arm: Annotated[list[str] | None, typer.Option("--arm", help="An arm without a file: NAME:key=value[,key=value...], e.g. big-hand:rules.hand_size=12; repeatable, mixes with --variant.")] = None,
    baseline: Annotated[str | None, typer.Option(help="Compare against this variant instead of the defaults.")] = None,
    n: Annotated[str, typer.Option("--n", help="Games per arm: 1e5, 100_000 or 100000.")] = "1e5",
    strategies: Annotated[str | None, typer.Option(help="Strategy per seat, comma-separated.")] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies.")] = False,
    alpha: Annotated[float | None, typer.Option(help="Significance level after Holm's correction, for the table, the forest plot and the findings alike (default: the config's findings.alpha, 0.05).", show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (default: reports/compare-<game>-<time>).")] = None,
) -> None:
    """Run the baseline and each arm (a --variant file or an --arm written inline) on the same seeds
    and report every metric's difference with a 95% CI and a Holm-corrected p-value; writes
    compare.html with a forest plot. --seed, --set and --config apply to every arm (one seed: common
    random numbers)."""
    from simbalance.api import compare as run_compare
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.errors import SimbalanceError
    from simbalance.core.variants import parse_arm
    from simbalance.report.compare_page import write_compare_folder
    from simbalance.report.run_folder import default_out_dir, hold_out_dir

    count = parse_count(n)
    arms: dict[str, list[str]] = {}
    for text in arm or []:
        name, overrides = parse_arm(text)
        if name in arms:
            raise SimbalanceError(f"--arm {name}: given twice; each arm needs its own name")
        arms[name] = overrides
    target = out if out is not None else default_out_dir(f"compare-{game}")
    hold_out_dir(target)
    result = run_compare(settings, variant or [], count, arms=arms, baseline=baseline, strategies=strategies,
                         rotate=rotate, alpha=alpha, progress=RichProgress)
    for warning in result.warnings:
        Console(stderr=True).print(f"[bold yellow]warning:[/] {warning}")
    command = command_line()
    folder = write_compare_folder(result, target, command)
    console = Console()
    arms_tab = Table(title=f"{game}: the arms")
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
    print_findings(console, result.findings(), page=str(folder / "compare.html"))
    Console(stderr=True).print(f"report: {folder / 'compare.html'}")
