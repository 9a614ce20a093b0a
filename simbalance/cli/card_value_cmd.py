"""`simbalance card-value GAME`: what holding each card is worth to its holder, measured by paired
play-outs (the same state with and without the card), beside the card-impact table; and how much
each kind of decision matters (docs/card_value.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import plays_games
from simbalance.cli.study_command import command_line
from simbalance.cli.terminal import Table
from simbalance.core.plan import parse_count
from simbalance.studies.settings import RunSettings


@plays_games
def card_value(
    settings: RunSettings,
    game: Annotated[str, typer.Argument(help="Game id (see `simbalance games`).", show_default=False)],
    cards: Annotated[str | None, typer.Option(help="Only these cards, comma-separated, named as in the card-impact "
                                                   "table (default: every card).")] = None,
    states: Annotated[str, typer.Option(help="Sampled states per phase.")] = "2000",
    when: Annotated[str, typer.Option(help="Phases, comma-separated: early, middle, late (thirds of each game's "
                                           "decisions).")] = "early,middle,late",
    playouts: Annotated[int, typer.Option(help="Paired play-outs per (state, card), and per option of a sampled "
                                               "decision.")] = 4,
    decisions: Annotated[str, typer.Option(help="Sampled decisions per phase for the decision values (0: "
                                                "none).")] = "300",
    observe: Annotated[str, typer.Option(help="Games of the run whose card-impact table stands beside the values "
                                              "(0: none).")] = "100000",
    strategies: Annotated[str | None, typer.Option(help="Heuristics, one per seat, comma-separated, seats rotated "
                                                        "(default: the game config's lineup).")] = None,
    out: Annotated[Path | None, typer.Option(help="Output folder: card_value.html, card_value.json, findings.json "
                                                  "(default: reports/card-value-<game>-<time>).")] = None,
) -> None:
    """Each card's value for its holder (95% CI, by phase) from paired play-outs with and without it,
    beside the observational card-impact table; the spread of each decision kind; writes
    card_value.html."""
    from simbalance.cli.run_cmd import interruptible
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.blocks import cache_root
    from simbalance.report.card_value_page import write_card_value_folder
    from simbalance.report.run_folder import default_out_dir, hold_out_dir
    from simbalance.studies.card_value import card_value as run_card_value

    n_states = parse_count(states, "--states")
    n_decisions = 0 if decisions == "0" else parse_count(decisions, "--decisions")
    n_observe = 0 if observe == "0" else parse_count(observe, "--observe")
    target = out if out is not None else default_out_dir(f"card-value-{game}")
    hold_out_dir(target)
    lineup = [s.strip() for s in strategies.split(",")] if strategies else None
    with interruptible() as stop:  # Ctrl-C: stop after the block in play, keep the finished blocks, exit 130
        res = run_card_value(settings, cards, n_states, when, playouts=playouts, decisions=n_decisions,
                             observe=n_observe, strategies=lineup, progress=RichProgress, stop=stop,
                             checkpoints=cache_root() / "blocks")
    tab = Table(title=f"{res.game}: what holding a card is worth to its holder (all phases sampled; 95% CI)")
    for col in ("card", "value", "95% CI", "states", "card-impact table", "the table ..."):
        tab.add_column(col, justify="left" if col == "card" else "right")
    for _, r in res.beside.sort_values("value", ascending=False).iterrows():
        seen = r["observed"] == r["observed"]
        tab.add_row(str(r["card"]), f"{100 * r['value']:+.1f} pp",
                    f"{100 * r['ci_low']:+.1f} .. {100 * r['ci_high']:+.1f}", f"{int(r['states']):,}",
                    f"{100 * r['observed']:+.1f} pp" if seen else "", str(r["verdict"]))
    console = Console()
    console.print(tab)
    if res.decisions is not None and not res.decisions.empty:
        dtab = Table(title=f"{res.game}: best minus worst option, the mover's win (95% CI)")
        for col in ("kind", "phase", "spread", "95% CI", "decisions"):
            dtab.add_column(col, justify="left" if col in ("kind", "phase") else "right")
        for _, r in res.decisions[res.decisions["decisions"] > 0].iterrows():
            dtab.add_row(r["kind"], r["phase"], f"{100 * r['spread']:.1f} pp",
                         f"{100 * r['ci_low']:.1f} .. {100 * r['ci_high']:.1f}", f"{int(r['decisions']):,}")
        console.print(dtab)
    elif res.note:
        console.print(res.note)
    command = command_line()
    folder = write_card_value_folder(res, target, command)
    print_findings(console, res.findings(), page=str(folder / "card_value.html"))
    Console(stderr=True).print(f"report: {folder / 'card_value.html'}")
