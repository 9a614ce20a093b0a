"""`simbalance run GAME`: play N games, print the summary, write the run folder."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from simbalance.core.errors import SimbalanceError

MEMORY_SHARE = 0.6  # refuse runs whose records would need more than this share of the machine's memory


def parse_count(text: str, option: str = "--n") -> int:
    """``1e6``, ``1_000_000`` and ``1000000`` all mean one million; anything else is an error."""
    cleaned = text.strip().replace("_", "")
    value = None
    if re.fullmatch(r"\d+", cleaned):
        value = int(cleaned)
    elif re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", cleaned):
        number = float(cleaned)
        if number.is_integer() and number < 1e15:
            value = int(number)
    if value is None or value < 1:
        raise SimbalanceError(f"{option} {text!r}: expected a whole number of games >= 1, e.g. 1000000, 1_000_000 or 1e6")
    return value


def check_memory(n: int, record_bytes: int) -> None:
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    need = n * record_bytes * 3  # records, the DataFrame, the Parquet buffers
    if need > MEMORY_SHARE * total:
        most = int(MEMORY_SHARE * total / (record_bytes * 3))
        raise SimbalanceError(
            f"--n {n:,}: the records would need about {need / 2**30:.1f} GiB; at most about {most:,} games "
            "fit in this machine's memory in one run"
        )


def run(
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    n: Annotated[str, typer.Option("--n", help="Number of games: 1e6, 1_000_000 or 1000000.")] = "1e5",
    players: Annotated[int | None, typer.Option(help="Players (default: the game config's).")] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Run folder (default: reports/<game>-<time>).")] = None,
    threads: Annotated[int | None, typer.Option(help="Threads (default: all cores).")] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override a config key, e.g. --set rules.pick_cap=500 (repeatable)."),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="Apply a named rule variant (configs/<game>/variants/), repeatable."),
    ] = None,
    strategies: Annotated[
        str | None, typer.Option(help="Strategy per seat, comma-separated (one name: every seat).")
    ] = None,
    rotate: Annotated[bool, typer.Option(help="Play every seat permutation of the strategies equally often.")] = False,
    config: Annotated[Path | None, typer.Option(help="Use this config file instead of configs/<game>.toml.")] = None,
    chunk_size: Annotated[int | None, typer.Option(help="Games per chunk (progress granularity; no effect on results).")] = None,
    games_file: Annotated[bool, typer.Option("--games/--no-games", help="Write games.parquet (one row per game).")] = True,
    quiet: Annotated[bool, typer.Option(help="Print only the run folder's path.")] = False,
) -> None:
    """Play N games of GAME, print the summary and write a run folder with the report."""
    from simbalance.api import SimulationResult, plan_run
    from simbalance.core.runner import RichProgress
    from simbalance.report.run_folder import check_out_dir, default_out_dir, write_run_folder

    count = parse_count(n)
    plan = plan_run(
        game, count, players=players, seed=seed, overrides=set_ or [], strategies=strategies, rotate=rotate,
        config=config, threads=threads, chunk_size=chunk_size, variants=variant,
    )
    check_memory(count, plan.engine.RECORD_DTYPE.itemsize)
    target = out if out is not None else default_out_dir(plan.spec.id)
    check_out_dir(target)
    err = Console(stderr=True)
    progress = None if quiet else RichProgress(f"{plan.spec.id}")
    result = SimulationResult.from_plan(plan, progress=progress)
    if progress is not None:
        progress.close()
    command = "simbalance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    folder = write_run_folder(result, target, command=command, write_games=games_file)
    if quiet:
        print(folder)
        return
    print_summary(Console(), result.summary(), plan, result)
    err.print(f"report: {folder / 'report.html'}")


def print_summary(console: Console, summary: dict, plan, result) -> None:
    console.print(
        f"[bold]{plan.spec.id}[/]: {plan.n:,} games, {plan.players} players, seed {plan.seed}, "
        f"{result.elapsed:.2f} s ({result.games_per_second:,.0f} games/s)"
    )
    seats = Table(title="win rate by seat (95% Wilson CI)")
    for col in ("seat", "strategy", "win rate", "95% CI"):
        seats.add_column(col, justify="right")
    single_lineup = len(plan.lineup.seats) == 1
    for row in summary["seats"]:
        name = plan.lineup.slot_names[plan.lineup.seats[0][row["seat"]]] if single_lineup else "rotated"
        seats.add_row(str(row["seat"]), name, f"{row['win_rate']:.2%}", f"{row['ci_low']:.2%} - {row['ci_high']:.2%}")
    console.print(seats)
    if len(plan.lineup.slot_names) > 1:
        strat = Table(title="win rate by strategy (per seat played)")
        for col in ("strategy", "win rate", "95% CI"):
            strat.add_column(col, justify="right")
        for row in summary["strategies"]:
            strat.add_row(row["strategy"], f"{row['win_rate']:.2%}", f"{row['ci_low']:.2%} - {row['ci_high']:.2%}")
        console.print(strat)
    fpa = summary["first_player_advantage"]
    chi = summary["equal_seats_chi_square"]
    length = summary["length"]
    outc = summary["outcomes"]
    p = "n/a" if chi["p_value"] is None else f"{chi['p_value']:.3g}"
    console.print(
        f"first-player advantage {fpa['value']:+.2%} ({fpa['ci_low']:+.2%} to {fpa['ci_high']:+.2%}) · "
        f"balance {summary['balance']:.3f} · all seats equal: p = {p}\n"
        f"length ({length['unit']}): mean {length['mean']:.1f}, sd {length['sd']:.1f}, median {length['p50']:g}, "
        f"p5-p95 {length['p5']:g}-{length['p95']:g} · timeouts {outc['timeouts']:.2%} · ties {outc['ties']:.2%}"
    )
