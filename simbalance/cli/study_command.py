"""A study's command, made from its declaration (core/study.py): ``simbalance <name> GAME`` with the
study's parameters as options (in the order declared), ``--out``, then the shared options of
``plays_games``. Every such command does the same steps, once, here: read the counts as typed
(``parse_count``), make the parameters (their one check), check ``--out`` before any game, run the
study with a progress bar, write its folder, show its tables, print its findings and the page."""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from simbalance.cli.settings_options import plays_games
from simbalance.core.errors import RunInterrupted
from simbalance.core.study import Study, StudyStopped, flag_of, option_of, resolve, stopping, written_as

GAME = Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)]
OPTIONAL_GAME = Annotated[str | None, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)]


def command_line() -> str:
    """The command as the user typed it, for the manifest and the page."""
    return "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def study_command(study: Study):
    """The typer command of a declared study (its params), or its hand-written one."""
    if not study.declared:
        return resolve(study.command)
    fields = dataclasses.fields(study.params)
    P = inspect.Parameter
    out_option = P("out", P.POSITIONAL_OR_KEYWORD, default=None,
                   annotation=Annotated[Path | None, typer.Option(help=study.out_help)])
    parameters = [P("settings", P.POSITIONAL_OR_KEYWORD)]
    if study.resumable:  # which options were typed: with --resume, none that decides the result
        parameters.insert(0, P("ctx", P.POSITIONAL_OR_KEYWORD, annotation=typer.Context))
        parameters.append(P("game", P.POSITIONAL_OR_KEYWORD, default=None, annotation=OPTIONAL_GAME))
    else:
        parameters.append(P("game", P.POSITIONAL_OR_KEYWORD, annotation=GAME))
    for f in fields:
        opt = option_of(f)
        kind = str if opt.count else list[str] if opt.kind is list else opt.kind  # a count: read from its text
        if kind is bool and opt.negatable:  # --rotate/--no-rotate
            names = (f"{flag_of(f)}/--no-{flag_of(f)[2:]}",)
        else:
            names = (flag_of(f),)
        if f.default is dataclasses.MISSING:
            default = ...
        elif f.default is None:  # no default to show: the help says what it means
            default, kind = None, kind | None
        elif kind is str:
            default = opt.shown or str(f.default)
        else:
            default = f.default
        parameters.append(P(f.name, P.POSITIONAL_OR_KEYWORD, default=default,
                            annotation=Annotated[kind, typer.Option(*names, help=opt.help)]))
        if f.name == study.out_after:
            parameters.append(out_option)
    if study.out_after is None:
        parameters.append(out_option)
    if study.resumable:
        parameters.append(P("resume", P.POSITIONAL_OR_KEYWORD, default=None, annotation=Annotated[
            Path | None, typer.Option(help="Finish an interrupted run from its checkpoint folder.")]))
    if study.quiet:
        parameters.append(P("quiet", P.POSITIONAL_OR_KEYWORD, default=False,
                            annotation=Annotated[bool, typer.Option(help=study.quiet)]))
    # a shared option the study declares itself (compare's --variant names its arms) is its own
    own = tuple(name for name in shared_option_names() if "--" + name.rstrip("_").replace("_", "-")
                in {flag_of(f) for f in fields})

    def run_study(settings, game: str, out: Path | None, **typed: str) -> None:
        if study.steps is not None:  # the study's own steps (run: its checkpoint and --resume)
            own = {name: typed.pop(name) for name in ("ctx", "resume", "quiet") if name in typed}
            return resolve(study.steps)(study, settings, game, out, typed, **own)
        from rich.console import Console

        from simbalance.cli.findings_out import print_findings
        from simbalance.cli.terminal import RichProgress
        from simbalance.core.blocks import cache_root
        from simbalance.report.run_folder import default_out_dir, hold_out_dir
        from simbalance.report.study_folder import write_folder

        params = params_from_options(study, typed)
        if study.out_file is not None:  # one file (fit-eval's eval.json)
            target = out if out is not None else resolve(study.out_file)(game)
        else:
            target = out if out is not None else default_out_dir(f"{study.name}-{game}")
        # a study of block jobs keeps its finished blocks in simbalance's cache for the same command again
        kept = {"checkpoints": cache_root() / "blocks"} if study.keeps_blocks else {}
        with stops_on_ctrl_c(study) as stop:
            if study.out_file is not None:
                check_out_file(target)  # not a folder, writable, not a user's file; locked: before any game
            else:
                hold_out_dir(target)  # checked, locked and writable before any game (issue 54)
            result = study.run(settings, params, RichProgress, **kept)
            if stop():  # after the last game, before the folder: a Ctrl-C is never ignored
                raise StudyStopped(f"{study.name} interrupted after its last game; nothing written")
            folder = write_folder(study, result, target, command_line())  # first: a full disk is one line
            console = Console()
            if study.view is not None:
                resolve(study.view)(result, console)
            else:
                show_tables(console, result.tables())
            if study.out_file is not None:
                if result.findings():
                    print_findings(console, result.findings())
                Console(stderr=True).print(f"wrote {folder} ({result.brief()})")
            else:
                print_findings(console, result.findings(), page=str(folder / study.page))
                Console(stderr=True).print(f"report: {folder / study.page}")
        if stop():  # while the folder was written: it is whole, and the Ctrl-C still ends the command
            raise StudyStopped(f"{study.name} interrupted while its folder was written; it is whole: {folder}")

    run_study.__signature__ = inspect.Signature(parameters)
    run_study.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not P.empty}
    run_study.__doc__ = study.summary
    run_study.__name__ = study.entry_name
    return plays_games(run_study, own=own)


def shared_option_names() -> tuple[str, ...]:
    from simbalance.cli.settings_options import WHAT, WHERE

    return (*WHAT, *WHERE)


@contextlib.contextmanager
def stops_on_ctrl_c(study: Study):
    """A stoppable study (core/study.Study.stoppable): Ctrl-C and SIGTERM stop it after the chunk in
    play (cli/interrupts.interruptible: a second Ctrl-C aborts at once), and its runs end with
    StudyStopped: nothing written, exit 130. Any other study: Python's own Ctrl-C (exit 130)."""
    if not study.stoppable:
        yield lambda: False
        return
    from simbalance.cli.interrupts import interruptible

    # a second Ctrl-C ends the process at once: a temporary folder it leaves is removed by the next start
    with interruptible(aborted="aborted; nothing written") as stop, stopping(stop):
        try:
            yield stop
        except StudyStopped:
            raise
        except RunInterrupted as stopped:  # a run of the study, stopped between chunks
            raise StudyStopped(f"{study.name} {interrupted_words(stopped)}; nothing written") from None


def interrupted_words(stopped: RunInterrupted) -> str:
    """How far a study got when a run of it was stopped. A study that counts its own work (meta's
    compositions, a block job's states, each with where the finished parts are kept and how to go
    on: RunInterrupted's ``unit`` and ``resume``) is said in its own words; a run of studies/run.play
    by the games of the whole study (its finished runs and the one in play), then the run in play's
    own count (a compare's arm, a sweep's point: its N is that run's, not the study's)."""
    from simbalance.core.study import games_played

    label = getattr(stopped, "label", None)
    if label is None:  # not a run of studies/run.play: its own count, in its own unit and words
        unit, resume = getattr(stopped, "unit", "games"), getattr(stopped, "resume", None)
        return f"interrupted after {stopped.games_done:,} of {stopped.n:,} {unit}" + (f"; {resume}" if resume else "")
    return (f"interrupted after {games_played() + stopped.games_done:,} games in all; the run in play, {label}, "
            f"had played {stopped.games_done:,} of its {stopped.n:,}")


def check_out_file(target: Path) -> None:
    """A study's ``--out`` that is one file (core/study.Study.out_file): not a folder, and writable,
    before any game."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.report.files import check_report_path

    if Path(target).is_dir():
        raise SimbalanceError(f"--out {target}: a folder; name the file to write")
    check_report_path("--out", Path(target))
    # the one study with a file --out, fit-eval's eval.json: refused when it holds a file simbalance did
    # not write; locked for this command (a second fit-eval into it stops at once); a temporary file a
    # kill left beside it removed. Held here, not in studies/evaluation.py: a study does not import the
    # report's folder code (report/run_folder imports the studies: tests/test_imports.py)
    from simbalance.report.run_folder import hold_out_file
    from simbalance.studies.evaluation import is_half_written_eval, is_written_eval

    hold_out_file(Path(target), is_written_eval, is_half_written_eval, "a fitted evaluation simbalance wrote")


def params_from_options(study: Study, typed: dict[str, str]):
    """The study's parameters from the options' text: counts read as numbers, then the one check."""
    from simbalance.core.plan import check_count_text, read_count

    values, written = {}, {}
    for f in dataclasses.fields(study.params):
        text = typed[f.name]
        if option_of(f).count and text is not None:
            written[f.name] = f"{flag_of(f)} {text!r}"
            check_count_text(text, flag_of(f))
            value = read_count(text)
            values[f.name] = text if value is None else value  # no count: the params' check names it as typed
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
