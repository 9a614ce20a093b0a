"""`simbalance card-value GAME`'s tables in the terminal: the command itself is made from the study's
declaration (studies/card_value.py, cli/study_command.py)."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """Each card's value beside the card-impact table's figure, then each decision kind's spread
    (or why there is none)."""
    # imported here: every command's start-up imports this module (cli/main._register), and the
    # page's module imports matplotlib (0.3 s of CPU)
    from simbalance.report.card_value_page import UNCHANGED

    tab = Table(title=f"{res.game}: what holding a card is worth to its holder (all phases sampled; 95% CI)")
    for col in ("card", "value", "95% CI", "states", "card-impact table", "the table ..."):
        tab.add_column(col, justify="left" if col == "card" else "right")
    for _, r in res.beside.sort_values("value", ascending=False).iterrows():
        seen = r["observed"] == r["observed"]
        # a card whose swap changed no play-out has a value of 0 by construction, no measured
        # interval: never "+0.0 .. +0.0" beside measured ones (as on the page: UNCHANGED)
        value, ci = UNCHANGED if bool(r["unchanged"]) else (
            f"{100 * r['value']:+.1f} pp", f"{100 * r['ci_low']:+.1f} .. {100 * r['ci_high']:+.1f}")
        tab.add_row(str(r["card"]), value, ci, f"{int(r['states']):,}",
                    f"{100 * r['observed']:+.1f} pp" if seen else "", str(r["verdict"]))
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
