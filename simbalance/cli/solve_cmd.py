"""`simbalance solve GAME --target balance=0.97:1 [--knob KEY=LO:HI ...] [--budget 20m]`: the smallest
change of the game's knobs that meets every target, verified on fresh games (studies/solve.py). The
options and the API come from ``studies/solve.SolveParams`` (core/study.py); here are the command's
steps, whose Ctrl-C keeps what is known and writes the page, and its terminal view."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from simbalance.cli.findings_out import print_findings
from simbalance.cli.study_command import command_line, interrupted_words, params_from_options
from simbalance.core.errors import RunInterrupted
from simbalance.core.study import Study, StudyStopped, stopping
from simbalance.studies.settings import RunSettings


def solve_steps(study: Study, settings: RunSettings, game: str, out: Path | None, typed: dict) -> None:
    """The params (their one check), ``--out`` held and the card values' file read before any game;
    the solve, whose Ctrl-C (cli/interrupts.interruptible, asked between chunks) keeps what the race
    knows; its folder, even when interrupted (then exit 130)."""
    from simbalance.cli.interrupts import interruptible
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.solve_page import write_solve_folder

    params = params_from_options(study, typed)
    folder = out if out is not None else default_out_dir(f"solve-{game}")
    hold_out_dir(folder)
    if params.card_values is not None:  # before any game: the file's shape (the search reads it again)
        from simbalance.analysis.card_value import card_priority

        card_priority(params.card_values, game)
    with interruptible() as stop, stopping(stop):
        try:
            result = study.run(settings, params, RichProgress)
        except RunInterrupted as stopped:  # before today's rules were known: nothing to show
            raise StudyStopped(f"solve {interrupted_words(stopped)}; nothing written") from None
    written = write_solve_folder(result, folder, command_line())
    show(result, written)
    if result.interrupted:
        Console(stderr=True).print("interrupted: the page and solution.json hold what was known")
        raise typer.Exit(130)


def show(result, written: Path) -> None:
    """The answer, how to play it, the findings and the page."""
    console = Console()
    solution = result.solution()
    if result.no_change_needed:
        console.print("no change needed: today's rules meet every target")
    elif solution["changes"]:
        # the answer's own verdict on fresh games: an interval that still straddles a target is not
        # settled, which is no failure (solution["changes"] is the closest answer's when none was chosen)
        fresh = next((a["verdict"] for a in solution["answers"] if a["words"] == solution["words"]), None)
        state = ("verified: meets every target" if solution["meets"] else
                 "verified: not settled on fresh games" if solution["verified"] and fresh == "not settled" else
                 "verified: does not meet every target" if solution["verified"] else "unverified")
        console.print(f"{solution['words']} ({state}): {solution['set']}")
    if solution["command"] is not None:  # the answer on the setup the solve started from, as verified
        console.print(f"play it: {solution['command']}", soft_wrap=True, markup=False, highlight=False)
    print_findings(console, result.findings(), page=str(written / "solve.html"))
    Console(stderr=True).print(f"report: {written / 'solve.html'}")
