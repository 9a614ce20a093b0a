"""`simbalance tune GAME --strategy NAME`: find the parameters that win most, before players do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from simbalance.cli.run_cmd import parse_count


def tune(
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    strategy: Annotated[str, typer.Option(help="The heuristic or preset whose parameters are searched.")],
    n: Annotated[str, typer.Option("--n", help="Games per candidate: 2e4, 20_000 or 20000.")] = "2e4",
    field: Annotated[str, typer.Option(help="Opponents: one name for every other seat, or one per seat.")] = "random",
    generations: Annotated[int, typer.Option(help="Cross-entropy generations.")] = 6,
    population: Annotated[int, typer.Option(help="Candidates per generation.")] = 12,
    range_: Annotated[list[str] | None, typer.Option("--range", help="Search range name=low:high (repeatable).")] = None,
    players: Annotated[int | None, typer.Option(help="Players (default: the game config's).")] = None,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    set_: Annotated[list[str] | None, typer.Option("--set", help="Override a config key (repeatable).")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", help="Apply a variant (repeatable).")] = None,
    threads: Annotated[int | None, typer.Option(help="Threads (default: all cores).")] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the result as JSON here.")] = None,
) -> None:
    """Search a strategy's parameters (cross-entropy method, common random numbers) to maximise its
    win rate against the field; report the best found, its margin over the defaults with a CI on
    fresh seeds, and whether it dominates every other strategy."""
    from simbalance.api import tune as run_tune
    from simbalance.report.files import check_report_path, write_report

    count = parse_count(n)
    if out is not None:
        check_report_path("--out", out)
    console = Console()

    def show(row):
        means = ", ".join(f"{k[5:]}={v:.3g}" for k, v in row.items() if k.startswith("mean_") and k != "mean_fitness")
        console.print(f"generation {row['generation']}: best {row['best_fitness']:.2%}, mean {row['mean_fitness']:.2%}"
                      f" ({means})")

    res = run_tune(game, strategy, count, field=field, generations=generations, population=population,
                   ranges=range_, players=players, seed=seed, overrides=set_ or [], variants=variant,
                   threads=threads, on_generation=show)
    tab = Table(title=f"{game}: {strategy} tuned against {','.join(res.field)}")
    for col in ("parameter", "default", "best found"):
        tab.add_column(col, justify="right")
    for k in res.params:
        tab.add_row(k, f"{res.default[k]:.4g}", f"{res.best[k]:.4g}")
    console.print(tab)
    m = res.margin
    console.print(f"win rate on fresh seeds: default {res.default_win_rate:.2%}, best {res.best_win_rate:.2%}; "
                  f"margin {m['diff']:+.2%} (95% CI {m['ci_low']:+.2%} .. {m['ci_high']:+.2%}, p = {m['p_value']:.2g})")
    dom = Table(title="the best found alone against each strategy (dominates: CI above the fair share)")
    for col in ("against", "win rate per seat", "95% CI", "dominates"):
        dom.add_column(col, justify="right")
    for _, r in res.dominance.iterrows():
        dom.add_row(r["against"], f"{r['win_rate']:.2%}", f"{r['ci_low']:.2%} .. {r['ci_high']:.2%}",
                    "yes" if r["dominates"] else "no")
    console.print(dom)
    console.print("[bold]dominates every other strategy[/]" if res.dominates_all else "does not dominate every strategy")
    preset = "\n".join([f"[{strategy}_tuned]", f'base = "{strategy}"', *(f"{k} = {v:.6g}" for k, v in res.best.items())])
    console.print(f"as a preset (configs/{game}/presets.toml):")
    console.print(preset, markup=False, highlight=False)
    if out:
        write_report(out, json.dumps({
            "game": res.game, "strategy": res.strategy, "field": res.field, "default": res.default, "best": res.best,
            "history": res.history, "default_win_rate": res.default_win_rate, "best_win_rate": res.best_win_rate,
            "margin": res.margin, "dominance": res.dominance.to_dict(orient="records"),
            "dominates_all": res.dominates_all}, indent=2, default=float) + "\n", "--out")
