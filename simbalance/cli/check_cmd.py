"""`simbalance baseline` stores a setup's balance; `simbalance check` fails when it regresses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from simbalance.cli.run_cmd import parse_count


def baseline(
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    out: Annotated[Path, typer.Option(help="Baseline file to write (JSON), e.g. configs/baselines/<game>.json.")],
    n: Annotated[str, typer.Option("--n", help="Games: 1e5, 100_000 or 100000.")] = "1e5",
    seed: Annotated[int, typer.Option(help="Seed of the baseline run (checks use other seeds).")] = 0,
    players: Annotated[int | None, typer.Option(help="Players (default: the game config's).")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", help="Apply a variant (repeatable).")] = None,
    strategies: Annotated[str | None, typer.Option(help="Strategy per seat, comma-separated.")] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies.")] = False,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a config key (repeatable).")] = None,
) -> None:
    """Run a setup and store every headline metric with its CI, the engine version, a hash of the
    resolved config, the seed and n."""
    from simbalance.core.runner import RichProgress
    from simbalance.report.files import check_report_path, write_report
    from simbalance.studies.check import create_baseline

    count = parse_count(n)
    check_report_path("--out", out)
    progress = RichProgress(f"baseline {game}")
    data = create_baseline(game, count, seed=seed, players=players, variants=variant, strategies=strategies,
                           rotate=rotate, overrides=set_ or [], progress=progress)
    progress.close()
    write_report(out, json.dumps(data, indent=2) + "\n", "--out")
    Console().print(f"baseline of {game} ({count:,} games, seed {seed}) written to {out}")


def check(
    files: Annotated[list[Path] | None, typer.Argument(help="Baseline files (default: configs/baselines/*.json).")] = None,
    n: Annotated[str | None, typer.Option("--n", help="Games per check (default: each baseline's own n).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the re-runs (default: a fresh seed derived from each baseline's).")] = None,
    alpha: Annotated[float, typer.Option(help="False-alarm rate per baseline (Bonferroni across its metrics).")] = 0.05,
    junit: Annotated[Path | None, typer.Option(help="Also write JUnit XML here (for CI systems).")] = None,
    markdown: Annotated[Path | None, typer.Option(help="Also write a Markdown report here.")] = None,
    game: Annotated[str | None, typer.Option(help="The game every baseline must be for (default: a file named "
                                                  "<game>.json must be for that game).")] = None,
) -> None:
    """Re-run every baseline on fresh seeds and test each metric against it. Exit 0: pass;
    1: a regression (a metric moved significantly more than its margin, or a bound is violated);
    2: an error (a malformed baseline, an unwritable report path), found before any game is played."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.core.runner import RichProgress
    from simbalance.report.files import check_report_path, write_report
    from simbalance.studies.check import default_baselines, play_check, prepare_check, to_junit, to_markdown

    paths = files or default_baselines()
    if not paths:
        raise SimbalanceError("no baselines: give files or create some with `simbalance baseline GAME --out ...`")
    if not 0 < alpha < 1:
        raise SimbalanceError(f"--alpha {alpha}: allowed between 0 and 1")
    count = parse_count(n) if n is not None else None
    for option, report in (("--junit", junit), ("--markdown", markdown)):
        if report is not None:
            check_report_path(option, report)
    if junit is not None and markdown is not None and junit.resolve() == markdown.resolve():
        raise SimbalanceError(f"--junit and --markdown are the same file {junit}; give two paths")
    # Every baseline is validated and planned before the first game is played.
    prepared = [prepare_check(path, n=count, seed=seed, game=game) for path in paths]
    console = Console()
    results = []
    for prep in prepared:
        path = prep.path
        progress = RichProgress(f"check {path.name}")
        result = play_check(prep, alpha=alpha, progress=progress)
        progress.close()
        results.append(result)
        tab = Table(title=f"{result.game} ({path}): {'[green]pass[/]' if result.passed else '[bold red]FAIL[/]'} "
                          f"({result.n:,} games, seed {result.seed})")
        for col in ("metric", "baseline", "now", "difference", "margin", "status"):
            tab.add_column(col, justify="right")
        for m in result.metrics:
            style = "bold red" if m.status == "REGRESSION" else ("yellow" if m.status != "ok" else "")
            tab.add_row(m.metric, f"{m.baseline:.4g}", f"{m.value:.4g}", f"{m.difference:+.4g}", f"{m.margin:.3g}",
                        f"[{style}]{m.status}[/]" if style else m.status)
        for bound, measured, ok in result.bounds:
            tab.add_row(f"bound: {bound}", "", measured, "", "", "ok" if ok else "[bold red]VIOLATED[/]")
        console.print(tab)
        for note in result.notes:
            console.print(f"[yellow]note:[/] {note} (re-create the baseline if the change is intended)")
    if junit:
        write_report(junit, to_junit(results))
    if markdown:
        write_report(markdown, to_markdown(results))
    failed = [r.game for r in results if not r.passed]
    if failed:
        console.print(f"[bold red]balance regression[/] in {', '.join(failed)}")
        raise typer.Exit(1)
    console.print(f"[green]all {len(results)} baseline(s) pass[/]")
