"""A study's command, made from its declaration (core/study.py): ``simbalance <name> GAME`` with the
study's parameters as options (in the order declared), ``--out``, then the shared options of
``plays_games``. Every such command does the same steps, once, here: read the counts as typed
(``parse_count``), make the parameters (their one check), check ``--out`` before any game, run the
study with a progress bar, show its tables, write its folder, print its findings and the page."""

from __future__ import annotations

import dataclasses
import inspect
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from simbalance.cli.settings_options import plays_games
from simbalance.core.study import Study, flag_of, option_of, resolve, written_as

GAME = Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)]


def command_line() -> str:
    """The command as the user typed it, for the manifest and the page."""
    return "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def study_command(study: Study):
    """The typer command of a declared study (its params), or its hand-written one."""
    if not study.declared:
        return resolve(study.command)
    fields = dataclasses.fields(study.params)
    P = inspect.Parameter
    parameters = [P("settings", P.POSITIONAL_OR_KEYWORD), P("game", P.POSITIONAL_OR_KEYWORD, annotation=GAME)]
    for f in fields:
        opt = option_of(f)
        kind = str if opt.count else opt.kind  # a count is read from its text (1e5, 100_000)
        if f.default is dataclasses.MISSING:
            default = ...
        elif f.default is None:  # no default to show: the help says what it means
            default, kind = None, kind | None
        elif kind is str:
            default = opt.shown or str(f.default)
        else:
            default = f.default
        parameters.append(P(f.name, P.POSITIONAL_OR_KEYWORD, default=default,
                            annotation=Annotated[kind, typer.Option(flag_of(f), help=opt.help)]))
    parameters.append(P("out", P.POSITIONAL_OR_KEYWORD, default=None,
                        annotation=Annotated[Path | None, typer.Option(help=study.out_help)]))

    def run_study(settings, game: str, out: Path | None, **typed: str) -> None:
        from rich.console import Console

        from simbalance.cli.findings_out import print_findings
        from simbalance.cli.terminal import RichProgress
        from simbalance.report.run_folder import default_out_dir, hold_out_dir
        from simbalance.report.study_folder import write_folder

        params = params_from_options(study, typed)
        if study.out_file is not None:  # one file (fit-eval's eval.json), checked before any game
            target = out if out is not None else resolve(study.out_file)(game)
            check_out_file(target)
        else:
            target = out if out is not None else default_out_dir(f"{study.name}-{game}")
            hold_out_dir(target)  # checked, locked and writable before any game (issue 54)
        result = run_stoppable(study, settings, params) if study.stops else study.run(settings, params, RichProgress)
        console = Console()
        if study.view is not None:
            resolve(study.view)(result, console)
        else:
            show_tables(console, result.tables())
        folder = write_folder(study, result, target, command_line())
        if study.out_file is not None:
            if result.findings():
                print_findings(console, result.findings())
            Console(stderr=True).print(f"wrote {folder} ({result.brief()})")
            return
        print_findings(console, result.findings(), page=str(folder / study.page))
        Console(stderr=True).print(f"report: {folder / study.page}")

    run_study.__signature__ = inspect.Signature(parameters)
    run_study.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not P.empty}
    run_study.__doc__ = study.summary
    run_study.__name__ = study.entry_name
    return plays_games(run_study)


def check_out_file(target: Path) -> None:
    """A study's ``--out`` that is one file (core/study.Study.out_file): not a folder, and writable,
    before any game."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.report.files import check_report_path

    if Path(target).is_dir():
        raise SimbalanceError(f"--out {target}: a folder; name the file to write")
    check_report_path("--out", Path(target))


def run_stoppable(study: Study, settings, params):
    """Run a study of block jobs (``Study.stops``) under Ctrl-C's flag (cli/terminal.interruptible):
    a Ctrl-C or SIGTERM stops it after the block in play, its finished blocks kept in simbalance's
    cache (the same command again plays only the rest), exit 130 with nothing written. A Ctrl-C that
    comes after the study last asked (its last block done) is not ignored either: nothing is written
    and the exit is 130 (issue 54: card-value once wrote its full report and exited 0)."""
    from simbalance.cli.terminal import RichProgress, interruptible
    from simbalance.core.blocks import cache_root

    with interruptible() as stop:
        result = study.run(settings, params, RichProgress, stop=stop, checkpoints=cache_root() / "blocks")
    if stop():
        raise typer.Abort()
    return result


def params_from_options(study: Study, typed: dict[str, str]):
    """The study's parameters from the options' text: counts read as numbers, then the one check."""
    from simbalance.core.plan import check_count_text, read_count

    values, written = {}, {}
    for f in dataclasses.fields(study.params):
        text = typed[f.name]
        if option_of(f).count and text is not None:
            written[f.name] = f"{flag_of(f)} {text!r}"
            check_count_text(text, flag_of(f))
            values[f.name] = read_count(text)
        else:
            values[f.name] = text
    with written_as(written):
        return study.params(**values)


def show_tables(console, tables) -> None:
    """``result.tables()``: (title, DataFrame) pairs, shown as they are."""
    from simbalance.cli.terminal import Table

    for title, df in tables:
        tab = Table(title=title)
        for col in df.columns:
            tab.add_column(str(col), justify="right")
        for row in df.itertuples(index=False):
            tab.add_row(*(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row))
        console.print(tab)
