"""The folder of `card-value`: card_value.html (findings first, the figure of every card's value by
phase with the card-impact table's figure beside it, the tables), card_value.json (card, phase,
value, CI, states, play-outs; the decision kinds), findings.json and manifest.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simbalance.analysis.card_value import ALL
from simbalance.report.figures import COLORS
from simbalance.report.html import command_block, figures, page, pp, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, study_manifest, write_json

if TYPE_CHECKING:
    from simbalance.studies.card_value import CardValueResult


def value_figure(values: pd.DataFrame, beside: pd.DataFrame, phases: list[str], observed_kind: str | None) -> Figure:
    """Every card's value for its holder (95% CI) in each phase, sorted by the value over every
    phase, with the card-impact table's difference (95% CI) beside it where there is one."""
    order = beside.sort_values("value")["card"].tolist()
    n = len(order)
    fig = Figure(figsize=(8.0, max(3.0, 0.22 * n + 1.2)), layout="constrained")
    ax = fig.add_subplot()
    y = {card: i for i, card in enumerate(order)}
    series = [(p, values[values["phase"] == p]) for p in phases]
    if len(phases) > 1:
        series.append((f"{ALL} phases", values[values["phase"] == ALL]))
    width = 0.8 / (len(series) + 1)
    for j, (name, part) in enumerate(series):
        part = part[part["card"].isin(y)]
        ys = np.array([y[c] for c in part["card"]]) - 0.4 + width * (j + 0.5)
        v = part["value"].to_numpy(float)
        err = np.vstack([v - part["ci_low"].to_numpy(float), part["ci_high"].to_numpy(float) - v])
        ax.errorbar(v, ys, xerr=np.nan_to_num(np.clip(err, 0, None)), fmt="o", markersize=3, capsize=2,
                    color=COLORS[j % len(COLORS)], label=name)
    seen = beside[np.isfinite(beside["observed"].astype(float))]
    if len(seen):
        ys = np.array([y[c] for c in seen["card"]]) + 0.4 - width / 2
        v = seen["observed"].to_numpy(float)
        err = np.vstack([v - seen["observed_ci_low"].to_numpy(float), seen["observed_ci_high"].to_numpy(float) - v])
        ax.errorbar(v, ys, xerr=np.clip(err, 0, None), fmt="D", markersize=3, capsize=2, mfc="white", color="0.25",
                    label=f"card-impact table ({observed_kind})" if observed_kind else "card-impact table")
    ax.axvline(0, color="0.3", linewidth=1, linestyle="--")
    ax.set_yticks(range(n), order, fontsize=7)
    ax.set_ylim(-0.6, n - 0.4)
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.0f} pp")
    ax.set_xlabel("the holder's win with the card minus without it (95% CI)")
    ax.legend(loc="lower right", fontsize=7, frameon=False)
    return fig


def decision_figure(decisions: pd.DataFrame, phases: list[str]) -> Figure:
    """Each decision kind's mean spread between the best and the worst option (95% CI), by phase."""
    fig = Figure(figsize=(6.0, 3.0), layout="constrained")
    ax = fig.add_subplot()
    kinds = list(dict.fromkeys(decisions.loc[decisions["decisions"] > 0, "kind"]))  # a kind never sampled: left out
    names = [*phases, ALL] if len(phases) > 1 else phases
    width = 0.8 / len(names)
    for j, name in enumerate(names):
        part = decisions[decisions["phase"] == name].set_index("kind").reindex(kinds)
        x = np.arange(len(kinds)) - 0.4 + width * (j + 0.5)
        v = part["spread"].to_numpy(float)
        err = np.nan_to_num(np.clip(np.vstack([v - part["ci_low"].to_numpy(float),
                                               part["ci_high"].to_numpy(float) - v]), 0, None))
        ax.bar(x, np.nan_to_num(v), width, yerr=err, capsize=2, color=COLORS[j % len(COLORS)],
               label=f"{name} phases" if name == ALL else name)
    ax.set_xticks(range(len(kinds)), kinds)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f} pp")
    ax.set_ylabel("best minus worst option (95% CI)")
    ax.legend(fontsize=7, frameon=False)
    return fig


def _ci(lo, hi) -> str:
    return f"{pp(lo, 1)} to {pp(hi, 1)}"


UNCHANGED = ("0", "none: no play-out changed")  # a value of 0 by construction, not a measured +0.0 to +0.0


def _value_cells(row) -> tuple[str, str]:
    """A card's value and its 95% CI as the table shows them; a card whose swap changed no play-out
    has no measured interval (its +0.0 to +0.0 is by construction) and says so."""
    if bool(row["unchanged"]):
        return UNCHANGED
    return pp(row["value"], 1), _ci(row["ci_low"], row["ci_high"])


def write_card_value_folder(res: CardValueResult, out: Path, command: str) -> Path:
    """card_value.html, card_value.json, findings.json, manifest.json and the figures."""
    with atomic_folder(out) as tmp:
        figs = {"card_values": value_figure(res.values, res.beside, res.phases, res.observed_kind)}
        if res.decisions is not None and not res.decisions.empty:
            figs["decision_values"] = decision_figure(res.decisions, res.phases)
        images = save_figures(tmp, figs)
        found = res.findings()
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        write_json(tmp / "card_value.json", res.to_json())
        phase_cols = res.phases if len(res.phases) > 1 else []
        rows = []
        by = res.values.set_index(["card", "phase"])
        for _, r in res.beside.sort_values("value", ascending=False).iterrows():
            row = [escape(str(r["card"])), *_value_cells(r), f"{int(r['states']):,}"]
            for p in phase_cols:
                v = by.loc[(r["card"], p)] if (r["card"], p) in by.index else None
                row.append("n/a" if v is None else "{} ({})".format(*_value_cells(v)))
            if res.observed_kind:
                row += [pp(r["observed"], 1), _ci(r["observed_ci_low"], r["observed_ci_high"]),
                        escape(r["verdict"]) or "—"]
            rows.append(row)
        heads = ["card", "value (all phases)" if phase_cols else f"value ({res.phases[0]})", "95% CI", "states"]
        heads += [f"{p}: value (95% CI)" for p in phase_cols]
        if res.observed_kind:
            heads += [f"card-impact table ({res.observed_kind})", "its 95% CI", "the table ..."]
        c = res.counts
        parts = [
            "<h2 id='values'>What holding each card is worth</h2>",
            f"<p>{res.states:,} states per phase ({', '.join(res.phases)}: thirds of each game's decisions), "
            f"sampled from games of {escape(', '.join(res.lineup))}; {c.get('states', 0):,} states held a decision. "
            f"At each, every card a seat held (holding: {escape(res.holding)}) was swapped out: "
            f"{escape(res.swapped)}. The game with the card and the game without it were played on "
            f"{res.playouts} times each with the same random stream; a card's value is the mean difference in its "
            "holder's share of the win, its 95% CI over the states (Student's), the copies of a card pooled. "
            f"{c.get('playouts', 0):,} play-outs.</p>",
            table(heads, rows, text_cols=1),
        ]
        if res.observed_kind:
            parts += [
                "<h2 id='beside'>Beside the card-impact table</h2>",
                f"<p>The card-impact table of {res.observed_games:,} games of the same lineup compares the win rate "
                f"of the seats that had a card ({escape(res.observed_kind)}) with those that did not: an observation, "
                "which counts who gets to hold a card along with what the card does. Where the two differ beyond their "
                "intervals (their difference's CI clear of 0, Bonferroni-adjusted for the cards compared) the table "
                "<b>overstates</b> the card (its figure further from 0 than the value) or <b>understates</b> it (nearer "
                "0); a card whose swap changed no play-out has no interval to compare (—).</p>",
            ]
        else:
            why = ("has no card-impact table: the values stand alone" if "no card-impact table" in res.note
                   else "was valued without a card-impact run (--observe 0)")
            parts.append(f"<p id='beside'>{escape(res.game)} {why}.</p>")
        parts += ["<h2 id='decisions'>How much each kind of decision matters</h2>"]
        if res.decisions is not None and not res.decisions.empty:
            drows = [[escape(r["kind"]), escape(r["phase"]), pp(r["spread"], 1), _ci(r["ci_low"], r["ci_high"]),
                      pp(r["raw_spread"], 1), f"{int(r['decisions']):,}", f"{r['options']:.1f}"]
                     for _, r in res.decisions[res.decisions["decisions"] > 0].iterrows()]
            parts += [
                "<p>At sampled decisions, up to 8 options (a uniform sample when there are more) were each applied to "
                f"the same {res.playouts} determinizations from the mover's view (what it cannot see shuffled) and "
                "played on with the same stream: the spread is how much more of the mover's win the best option "
                "brings than the worst. The best and the worst are picked on half the play-outs and their difference "
                "measured on the other half (and the other way round), so that noise alone averages to 0 (the plain "
                "difference of the largest and the smallest mean, biased upward by noise, is beside it); a kind whose "
                "options never change a play-out scores exactly 0.</p>",
                table(["kind", "phase", "spread", "95% CI", "largest minus smallest mean", "decisions",
                       "options tried"], drows, text_cols=2),
            ]
        else:
            parts.append(f"<p>{escape(res.note or 'No decision was valued.')}</p>")
        parts += ["<h2 id='figures'>Figures</h2>", figures(images), command_block(command)]
        sub = sub_line(f"{res.states:,} states per phase", f"{res.playouts} paired play-outs", f"{res.players} players",
                       f"seed {res.seed}")
        html = page(f"card-value {res.game}", f"{res.game}: what holding each card is worth", sub, *parts,
                    findings=found)
        (tmp / "card_value.html").write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest("card-value", res.game, res.players, res.states, res.seed, command,
                                                    phases=res.phases, playouts=res.playouts, config=res.config))
    return Path(out)
