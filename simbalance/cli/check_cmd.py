"""`simbalance baseline` stores a setup's balance (or re-records it: `--update FILE`); `simbalance check`
says per metric whether it is better, worse or changed (by the direction each metric declares), and fails
on worse (on any change, with --fail-on-change)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from simbalance.analysis.labels import metric_label
from simbalance.cli.run_cmd import ParameterSource
from simbalance.cli.settings_options import plays_games
from simbalance.cli.terminal import Table
from simbalance.core.errors import SimbalanceError
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings

# What a baseline's setup is made of: fixed by the file when --update re-records it.
SETUP_OPTIONS = ("out", "n", "seed", "players", "variant", "strategies", "rotate", "set_", "config")


@plays_games
def baseline(
    ctx: typer.Context,
    settings: RunSettings | None,
    game: Annotated[str | None, typer.Argument(help="Game id (see `simbalance games`); not with --update.",
                                               show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(help="Baseline file to write (JSON), e.g. "
                                                  "configs/baselines/<game>.json; required with GAME. Replaces "
                                                  "only a baseline file, never another file.")] = None,
    update: Annotated[Path | None, typer.Option(
        "--update", help="Re-record this baseline file: its own setup, seed and n played with the current code, "
                         "the file rewritten in place (accepts an intended change; margins are kept).")] = None,
    n: Annotated[str, typer.Option("--n", help="Games: 1e5, 100_000 or 100000.")] = "1e5",
    strategies: Annotated[str | None, typer.Option(help="Strategy per seat, comma-separated.")] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies.")] = False,
) -> None:
    """Run a setup and store every headline metric with its CI, the engine version, a hash of the
    resolved config, the seed and n. With --update FILE, play the file's own setup again and rewrite it."""
    from simbalance.cli.terminal import RichProgress
    from simbalance.studies.check import baseline_json, create_baseline

    if update is not None:
        if game is not None:
            raise SimbalanceError(f"give GAME or --update FILE, not both: --update {update} re-runs the file's own "
                                  "setup (to change the setup, create a new baseline with GAME --out FILE)")
        given = [f"--{name.rstrip('_').replace('_', '-')}" for name in SETUP_OPTIONS
                 if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
        if given:
            raise SimbalanceError(f"--update {update}: {', '.join(given)} cannot be given with it; --update re-runs "
                                  "the file's own setup, seed and n (to change them, create a new baseline with "
                                  "GAME --out FILE)")
        _update(update)
        return
    if game is None:
        raise SimbalanceError("missing GAME (see `simbalance games`) to create a baseline, or --update FILE to "
                          "re-record one")
    if out is None:
        raise SimbalanceError(f"missing --out FILE: where to write the baseline, e.g. --out configs/baselines/{game}.json")
    count = parse_count(n)
    hold_own_file("--out", out)  # a baseline simbalance wrote, or nothing: before any game
    data = create_baseline(settings, count, strategies=strategies, rotate=rotate, progress=RichProgress)
    write_own_file("--out", out, baseline_json(data))
    Console().print(f"baseline of {game} ({count:,} games, seed {settings.seed}) written to {escape(str(out))}",
                    soft_wrap=True)


def _update(path: Path) -> None:
    from simbalance.cli.terminal import RichProgress
    from simbalance.studies.check import baseline_json, play_update, prepare_update

    if not path.is_file():
        raise SimbalanceError(f"--update {path}: no such baseline file" if not path.exists()
                              else f"--update {path}: not a file; give a baseline file (JSON)")
    prepared = prepare_update(path)  # the file and its setup are valid before anything is played
    hold_own_file("--update", path)  # and locked for this command (a baseline: prepare_update read one)
    result = play_update(prepared, progress=RichProgress)
    write_own_file("--update", path, baseline_json(result.data))
    console = Console()
    data = result.data
    tab = Table(title=f"{data['setup']['game']} ({escape(str(path))}): re-recorded, {data['n']:,} games, "
                      f"seed {data['seed']}")
    for col in ("metric", "old", "new", "difference"):
        tab.add_column(col, justify="right")
    for name, *cells in result.rows:
        tab.add_row(metric_label(name), *cells)
    console.print(tab)
    for note in result.notes:
        console.print(f"[yellow]note:[/] {escape(note)}", soft_wrap=True)
    console.print(f"baseline {escape(str(path))} rewritten; commit it to accept the change", soft_wrap=True)


def hold_own_file(option: str, path: Path) -> None:
    """Before any game: ``path`` is nothing yet, or a file this option wrote (studies/check.OWN_FILES:
    a baseline by its content, a report by its first line); anything else is one line, untouched.
    Locked for the command; a killed command's temporary file beside it removed."""
    from simbalance.report.run_folder import hold_out_file
    from simbalance.studies.check import OWN_FILES

    ours, half_ours, what = OWN_FILES[option]
    hold_out_file(Path(path), ours, half_ours, what, option)


def write_own_file(option: str, path: Path, text: str) -> None:
    """Write ``path`` whole (report/files.write_file_whole), looking again that it is still nothing
    or this option's own file (one may have appeared during the play)."""
    from simbalance.report.files import write_file_whole
    from simbalance.studies.check import OWN_FILES

    ours, _, what = OWN_FILES[option]
    write_file_whole(Path(path), text, ours, what, option)


def _status_cell(m, fail_on_change: bool) -> str:
    from simbalance.analysis.check import STATUS_BETTER, STATUS_OK

    if m.fails(fail_on_change):
        return f"[bold red]{m.status}[/]"
    if m.status == STATUS_BETTER:
        return f"[green]{m.status}[/]"
    return m.status if m.status == STATUS_OK else f"[yellow]{m.status}[/]"


def check(
    files: Annotated[list[Path] | None, typer.Argument(help="Baseline files (default: configs/baselines/*.json of the current directory, the project's own).")] = None,
    shipped: Annotated[bool, typer.Option("--shipped", help="Check the baselines simbalance ships and each installed plug-in game's own baselines/*.json (not the project's).")] = False,
    n: Annotated[str | None, typer.Option("--n", help="Games per check (default: each baseline's own n).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the re-runs (default: a fresh seed derived from each baseline's).")] = None,
    alpha: Annotated[float, typer.Option(help="False-alarm rate per baseline (Bonferroni across its metrics).")] = 0.05,
    fail_on_change: Annotated[bool, typer.Option("--fail-on-change", help="Also fail when a metric got better "
                                                 "(by default only worse and two-sided changes fail).")] = False,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a config key on top of each baseline's "
                                                   "setup, e.g. --set rules.pick_cap=500 (repeatable): checks "
                                                   "that change against the stored baseline.")] = None,
    config: Annotated[Path | None, typer.Option(help="Use this config file instead of the baseline's (the "
                                                     "baselines must be of one game).")] = None,
    junit: Annotated[Path | None, typer.Option(help="Also write JUnit XML here (for CI systems); "
                                                    "replaces only a report simbalance check wrote.")] = None,
    markdown: Annotated[Path | None, typer.Option(help="Also write a Markdown report here; replaces "
                                                       "only a report simbalance check wrote.")] = None,
    game: Annotated[str | None, typer.Option(help="The game every baseline must be for (default: a file named "
                                                  "<game>.json must be for that game).")] = None,
) -> None:
    """Re-run every baseline on fresh seeds and say per metric whether it is ok, within margin,
    better, worse or changed (two-sided metrics: seat and strategy win rates, length, ties).
    Exit 0: pass; 1: a metric worse, or a bound violated (also changed or better, with
    --fail-on-change); 2: an error (a malformed baseline, an unwritable report path), found before
    any game is played. Accept an intended change with `simbalance baseline --update FILE`."""
    from simbalance.cli.terminal import RichProgress
    from simbalance.studies.check import (
        COLUMNS,
        PROJECT_BASELINES,
        accept_hint,
        metric_row,
        play_check,
        prepare_checks,
        project_baselines,
        shipped_baselines,
        to_junit,
        to_markdown,
    )

    if shipped and files:
        raise SimbalanceError("give baseline files or --shipped, not both")
    paths = files or (shipped_baselines() if shipped else project_baselines())
    if not paths:
        raise SimbalanceError(f"no baselines in {PROJECT_BASELINES}/ of {Path.cwd()}: give files, create one with "
                              f"`simbalance baseline GAME --out {PROJECT_BASELINES}/GAME.json`, or check simbalance's "
                              "own with --shipped")
    if not 0 < alpha < 1:
        raise SimbalanceError(f"--alpha {alpha}: allowed between 0 and 1")
    count = parse_count(n) if n is not None else None
    if junit is not None and markdown is not None and junit.resolve() == markdown.resolve():
        raise SimbalanceError(f"--junit and --markdown are the same file {junit}; give two paths")
    for option, report in (("--junit", junit), ("--markdown", markdown)):
        if report is not None:
            hold_own_file(option, report)  # a report simbalance wrote, or nothing: before any game
    # Every baseline is validated and planned before the first game is played.
    prepared = prepare_checks(paths, n=count, seed=seed, game=game, overrides=list(set_ or []),
                              config=str(config) if config is not None else None)
    console = Console()
    results = []
    for prep in prepared:
        path = prep.path
        result = play_check(prep, alpha=alpha, progress=RichProgress, fail_on_change=fail_on_change)
        results.append(result)
        tab = Table(title=f"{result.game} ({escape(str(path))}): "
                          f"{'[green]pass[/]' if result.passed else '[bold red]FAIL[/]'} "
                          f"({result.n:,} games, seed {result.seed}; rates in %, differences in percentage points)")
        for col in COLUMNS:
            tab.add_column(col, justify="right")
        for m in result.metrics:
            name, *cells = metric_row(m)[:-1]
            tab.add_row(metric_label(name), *cells, _status_cell(m, fail_on_change))
        for b in result.bounds:
            tab.add_row(f"bound: {escape(b.bound)}", "", "", escape(b.measured), "", "",
                        escape(b.status) if b.ok else "[bold red]VIOLATED[/]")
        console.print(tab)
        for note in result.notes:
            console.print(f"[yellow]note:[/] {escape(note)}", soft_wrap=True)
        hint = accept_hint(result)
        if hint:
            console.print(f"  {escape(hint)}", soft_wrap=True)
    if junit:
        write_own_file("--junit", junit, to_junit(results))
    if markdown:
        write_own_file("--markdown", markdown, to_markdown(results))
    failed = [r for r in results if not r.passed]
    for r in results:
        better = [metric_label(m.metric) for m in r.metrics if m.status == "better" and not m.fails(fail_on_change)]
        if better:
            console.print(f"[green]better[/] in {r.game}: {', '.join(better)}", soft_wrap=True)
    if failed:
        for r in failed:
            what = [f"{metric_label(m.metric)} {m.status}" for m in r.failing]
            what += [f"bound violated: {escape(b.bound)}" for b in r.bounds if not b.ok]
            console.print(f"[bold red]balance check failed[/] in {r.game}: {'; '.join(what)}", soft_wrap=True)
        raise typer.Exit(1)
    console.print(f"[green]all {len(results)} baseline(s) pass[/]", soft_wrap=True)


# Commands that are not studies (a study is found from studies/registry.py): name -> (rank, function).
COMMANDS = {"baseline": (130, baseline)}
