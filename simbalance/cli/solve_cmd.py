"""`simbalance solve GAME --target balance=0.97:1 [--knob KEY=LO:HI ...] [--budget 20m]`: the smallest
change of the game's knobs that meets every target, verified on fresh games (studies/solve.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import plays_games
from simbalance.cli.study_command import command_line
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


@plays_games
def solve(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    target: Annotated[list[str] | None, typer.Option("--target", help="METRIC=LO:HI, e.g. balance=0.97:1 or length_median=55:65 (repeatable; default: the config's \\[targets]). Metrics: balance, first_player_advantage, length_median, length_mean, ties, timeouts, stalemates, win_rate_seat_K, dominance (the best strategy's margin over an even field of --population, from the metagame on the candidate's rules).")] = None,
    target_matrix: Annotated[str | None, typer.Option("--target-matrix", help="A designer's target win-rate matrix between named strategies (TAG form): a .json or .toml with strategies, target (rows: the row's strategy alone in a field of the column's; null/nan: no target) and tolerance, or a CSV strategy,field,target,tolerance. Meets when every cell's interval lies within its tolerance.")] = None,
    population: Annotated[str | None, typer.Option("--population", help="The metagame's strategies for dominance and --target-matrix, comma-separated (default: the game's heuristics and presets, as `simbalance meta`).")] = None,
    meta_n: Annotated[str, typer.Option("--meta-n", help="Games per composition of the metagame in a verification (the search's blocks play in proportion).")] = "2000",
    knob: Annotated[list[str] | None, typer.Option("--knob", help="What the search may change (repeatable; default: the config's \\[knobs]): a number KEY=LO:HI or KEY=LO:HI:STEP (ships.4=24:36), a choice KEY=A,B (rules.call_timing=after_discard,before_draw), a true/false rule KEY=true,false or just KEY, the game's variant files variant=NAME,NAME or just variant.")] = None,
    budget: Annotated[str, typer.Option(help="Time for the whole solve: 20m, 90s, 1h (the search stops early enough to leave the verification its estimated time).")] = "20m",
    strategies: Annotated[str | None, typer.Option(help="Strategy per seat, comma-separated.")] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies.")] = False,
    verify_n: Annotated[str, typer.Option("--verify-n", help="Games of each verification on a fresh seed (today's rules and each answer).")] = "1e5",
    start_n: Annotated[str, typer.Option("--start-n", help="Games per candidate in the search's first rung (doubled at each rung).")] = "400",
    answers: Annotated[int, typer.Option(help="How many of the smallest changes found are verified.")] = 3,
    max_keys: Annotated[int, typer.Option("--max-keys", help="Change at most this many knobs at once.")] = 3,
    models: Annotated[str | None, typer.Option("--models", help="The player models a change must meet every target under, comma-separated, each at every seat: heuristics, presets, a search player at a budget (mcts@32). Default: each of the game's heuristics but random, and mcts@SEARCH_BUDGET. --models aggressor: that one alone.")] = None,
    keep: Annotated[list[str] | None, typer.Option("--keep", help="METRIC or METRIC=TOL: hold another metric within TOL of today's value, tested like a target (repeatable), e.g. ties=0.02 or length_median=2 (default TOL: 2 points for a share, 10% for a length).")] = None,
    search_budget: Annotated[int, typer.Option("--search-budget", help="The search player's budget (mcts iterations) in the default models.")] = 32,
    search_n: Annotated[str, typer.Option("--search-n", help="The most games of a search player model on a change that meets under the heuristics (and on today's rules): blocks of 200, doubling, until it is settled there.")] = "3000",
    card_values: Annotated[Path | None, typer.Option("--card-values", help="A card_value.json (or its folder) from `simbalance card-value GAME`: the deck knobs of the cards worth most are tried first.")] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder (default: reports/solve-<game>-<time>).")] = None,
) -> None:
    """Search the game's knobs for the smallest change that meets every target with 95% confidence:
    fewest knobs first, then the least distance from today's values; cheap evaluations first (few
    games per candidate, more for the promising, the same games for every candidate); the few
    smallest verified on fresh games, with every other metric's change and the findings; the chosen
    one under other players. Ctrl-C keeps what is known."""
    from simbalance.api import solve as run_solve
    from simbalance.cli.interrupts import interruptible
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.solve_page import write_solve_folder

    folder = out if out is not None else default_out_dir(f"solve-{game}")
    hold_out_dir(folder)
    if card_values is not None:  # before any game: the file's shape (the search reads it again)
        from simbalance.analysis.card_value import card_priority

        card_priority(card_values, game)
    with interruptible() as stop:
        result = run_solve(settings, target, knob, budget=budget, strategies=strategies, rotate=rotate,
                           verify_n=parse_count(verify_n, "--verify-n"), start_n=parse_count(start_n, "--start-n"), answers=answers,
                           max_keys=max_keys, models=models, keep=keep, search_budget=search_budget,
                           search_n=parse_count(search_n, "--search-n"), card_values=card_values, population=population,
                           target_matrix=target_matrix, meta_n=parse_count(meta_n, "--meta-n"), stop=stop,
                           progress=RichProgress)
    command = command_line()
    written = write_solve_folder(result, folder, command)
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
    if result.interrupted:
        Console(stderr=True).print("interrupted: the page and solution.json hold what was known")
        raise typer.Exit(130)
