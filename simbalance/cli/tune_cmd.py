"""`simbalance tune GAME --strategy NAME`: find the parameters that win most, before players do."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.analysis.findings import p_value
from simbalance.analysis.tune import (
    DIGITS,
    DOMINANCE_MARGIN,
    DOMINATES,
    LOSES,
    NO_CLEAR,
    WINS_MORE,
    describe_gain,
    pp,
)
from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import plays_games
from simbalance.cli.study_command import command_line
from simbalance.cli.terminal import Table
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


def value(v: float) -> str:
    """A reported parameter exactly as played (it was rounded to DIGITS significant digits)."""
    return f"{v:.{DIGITS}g}"


@plays_games
def tune(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    strategy: Annotated[str, typer.Option(help="The heuristic or preset whose parameters are searched.")],
    n: Annotated[str, typer.Option("--n", help="Games per candidate: 2e4, 20_000 or 20000.")] = "2e4",
    field: Annotated[str, typer.Option(
        help="Opponents: one name for every other seat, or one per seat. It may name the tuned strategy "
             "itself: those seats play its default parameters.")] = "random",
    generations: Annotated[int, typer.Option(help="Cross-entropy generations.")] = 6,
    population: Annotated[int, typer.Option(help="Candidates per generation.")] = 12,
    range_: Annotated[list[str] | None, typer.Option("--range", help="Search range name=low:high (repeatable).")] = None,
    margin: Annotated[float, typer.Option(
        help="The least edge over the fair share called 'dominates', as a share of the games "
             "(0.02 = 2 percentage points); the 95% CI's lower end must clear it too.")] = DOMINANCE_MARGIN,
    out: Annotated[Path | None, typer.Option(help="Output folder: tune.html, tune.json, findings.json (default: reports/tune-<game>-<time>).")] = None,
) -> None:
    """Search a strategy's parameters (cross-entropy method, common random numbers) to maximise its
    win rate against the field; report the best found (the exact values played and printed), its
    gain over the defaults with a CI on fresh seeds, and how it fares alone against every strategy
    ('dominates' only by at least --margin above the fair share, CI included)."""
    from simbalance.api import tune as run_tune
    from simbalance.cli.terminal import RichProgress
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.report.tune_page import write_tune_folder

    count = parse_count(n)
    target = out if out is not None else default_out_dir(f"tune-{game}")
    hold_out_dir(target)
    console = Console()

    def show(row):
        best = ", ".join(f"{k}={v:.3g}" for k, v in row["best"].items())
        centre = ", ".join(f"{k}={v:.3g}" for k, v in row["mean"].items())
        console.print(f"generation {row['generation']}: best candidate {row['best_fitness']:.2%} ({best}); "
                      f"candidates' mean {row['mean_fitness']:.2%}; next search centre {centre}")

    res = run_tune(settings, strategy, count, field=field, generations=generations, population=population,
                   ranges=range_, margin=margin, on_generation=show, progress=RichProgress)

    def label(name: str) -> str:
        return f"{name} (default parameters)" if name == strategy else name

    fair = 1 / res.players
    points = f"{100 * res.dominance_margin:g}"
    tab = Table(title=f"{game}: {strategy} tuned against {', '.join(label(f) for f in res.field)}")
    for col in ("parameter", "default", "best found"):
        tab.add_column(col, justify="right")
    for k in res.params:
        tab.add_row(k, f"{res.default[k]:.6g}", value(res.best[k]))
    console.print(tab)
    m = res.margin
    gain = (f"win rate on fresh seeds ({2 * count:,} games, the same for both): default {res.default_win_rate:.2%}, "
            f"best found {res.best_win_rate:.2%}: {describe_gain(m['diff'], m['ci_low'], m['ci_high'], res.dominance_margin)}"
            f", {p_value(m['p_value'])}")
    console.print(gain)
    console.print(f"the best found alone against {res.players - 1} of each strategy, win rate per seat over decided "
                  f"games; 'dominates' = at least {points} points above the fair {fair:.0%}, the 95% CI's lower "
                  "end included (--margin)")
    dom = Table(title=f"{game}: the best found alone against each strategy")
    for col in ("against", f"win rate per seat (fair {fair:.0%})", "95% CI", "edge over fair", "reads"):
        dom.add_column(col, justify="right")
    for _, r in res.dominance.iterrows():
        dom.add_row(label(r["against"]), f"{r['win_rate']:.2%}", f"{r['ci_low']:.2%} .. {r['ci_high']:.2%}",
                    pp(r["edge"]), r["standing"])
    console.print(dom)
    verdict = overall(res.dominance, res.dominance_margin, label)
    console.print(verdict)
    preset = "\n".join([f"[{strategy}_tuned]", f'base = "{res.base}"', *(f"{k} = {value(v)}" for k, v in res.best.items())])
    console.print(f"the best found as a preset (configs/{game}/presets.toml), the values played above:")
    console.print(preset, markup=False, highlight=False)
    command = command_line()
    folder = write_tune_folder(res, target, command, count, settings.seed, preset, gain, verdict, value)
    print_findings(console, res.findings(), page=str(folder / "tune.html"))
    Console(stderr=True).print(f"report: {folder / 'tune.html'}")


def overall(dominance, margin: float, label=str) -> str:
    """One sentence over the dominance table: 'dominates every strategy' only when every row does."""
    points = f"{100 * margin:g}"
    if len(dominance) and bool(dominance["dominates"].all()):
        return (f"the best found dominates every strategy tested: at least {points} points above the fair share "
                "against each, 95% CI included")
    parts = []
    for kind, words in ((DOMINATES, "dominates"), (WINS_MORE, "wins more than its share against"),
                        (NO_CLEAR, "shows no clear difference against"), (LOSES, "loses against")):
        rows = dominance[dominance["standing"] == kind]
        if len(rows):
            text = f"{words} {', '.join(label(a) for a in rows['against'])}"
            if kind == WINS_MORE:
                text += f" (not clearly by the {points}-point margin)"
            parts.append(text)
    return "the best found " + "; ".join(parts) + "."

