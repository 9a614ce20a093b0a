"""The metagame folder (docs/meta.md): meta.html (findings first; the one-against-the-field heatmap,
the equilibrium weights and α-Rank with their intervals), meta.json, payoffs.parquet,
findings.json, manifest.json. The figures are pure functions of DataFrames."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simbalance.report import run_folder
from simbalance.report.figures import COLORS
from simbalance.report.html import command_block, figures, page, pct, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.meta import MetaResult


def field_heatmap(field: pd.DataFrame, names: list[str], fair: float) -> Figure:
    """Strategy ``i`` alone in a field of ``j`` (rows ``i``, columns ``j``): ``i``'s per-seat win
    share, each cell with its 95% interval; centred on the fair share."""
    k = len(names)
    grid, low, high = (np.full((k, k), np.nan) for _ in range(3))
    for r in field.itertuples():
        at = names.index(r.strategy), names.index(r.field)
        grid[at], low[at], high[at] = r.win_share, r.ci_low, r.ci_high
    fig = Figure(figsize=(1.8 + 1.2 * k, 1.4 + 0.9 * k), layout="constrained")
    ax = fig.add_subplot()
    span = max(0.05, float(np.nanmax(np.abs(grid - fair)))) if np.isfinite(grid).any() else 0.05
    im = ax.imshow(grid, cmap="RdBu", vmin=fair - span, vmax=fair + span)
    for (r, c), v in np.ndenumerate(grid):
        text = "—" if np.isnan(v) else f"{v:.1%}\n{low[r, c]:.0%}–{high[r, c]:.0%}"
        ax.text(c, r, text, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("the field: every other seat")
    ax.set_ylabel("one seat")
    fig.colorbar(im, ax=ax, shrink=0.8, format=lambda v, _: f"{v:.0%}")
    ax.set_title(f"one against the field: the row's per-seat win share\n(95% CI below; all games; fair {fair:.0%};\n"
                 "the diagonal is the mirror)", fontsize=9)
    return fig


def interval_bars(frame: pd.DataFrame, value: str, low: str, high: str, title: str, label: str) -> Figure:
    """One bar per strategy with its interval (the rows of ``frame``, ``strategy`` their names)."""
    fig = Figure(figsize=(5.5, 1.0 + 0.45 * len(frame)), layout="constrained")
    ax = fig.add_subplot()
    part = frame.iloc[::-1]
    y = np.arange(len(part))
    err = (np.clip(np.vstack([part[value] - part[low], part[high] - part[value]]), 0, None)
           if low in part.columns else None)
    ax.barh(y, part[value], xerr=err, color=[COLORS[i % len(COLORS)] for i in range(len(part))], capsize=4)
    ax.set_yticks(y, part["strategy"].tolist())
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_xlabel(label)
    ax.set_title(title)
    return fig


def _ci(row, low: str, high: str) -> str:
    return f"{pct(row[low])} to {pct(row[high])}" if low in row.index else "—"


def write_meta_folder(res: MetaResult, out: Path, command: str) -> Path:
    names = list(res.names)
    fair = 1 / res.players
    answer = res.answer
    payoffs, field = res.payoffs(), res.field()
    weights = answer.weights
    found = res.findings()
    with run_folder.atomic_folder(out) as tmp:
        payoffs.to_parquet(tmp / "payoffs.parquet", index=False)
        run_folder.write_json(tmp / "meta.json", res.numbers())
        run_folder.write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        images = run_folder.save_figures(tmp, {
            "field": field_heatmap(field, names, fair),
            "equilibrium": interval_bars(weights, "weight", "ci_low", "ci_high", "the equilibrium mix",
                                         "weight (95% bootstrap CI)"),
            "alpha_rank": interval_bars(weights, "alpha_rank_mass", "mass_ci_low", "mass_ci_high", "α-Rank",
                                        "stationary mass (95% bootstrap CI)")})
        parts = ["<h2 id='figures'>Figures</h2><p class='dig'>Click a figure to enlarge it, click again to close.</p>",
                 figures(images)]
        parts.append("<h2 id='equilibrium'>The equilibrium and α-Rank</h2>")
        parts.append(
            "<p>Each seat draws its strategy from the mix; the mix is an equilibrium when no strategy wins more per "
            "seat against it than the mix itself. <b>gain</b>: what a seat gains by playing the strategy instead of "
            "the mix (at most 0 at an equilibrium; its interval read game by game). α-Rank: the stationary mass of "
            "the evolutionary ranking (Omidshafiei et al. 2019) and its rank over the resampled games.</p>")
        if answer.copies is not None and not answer.copies.empty:
            parts.append("<p>Copies, counted once (their payoff rows equal within their intervals: docs/meta.md, "
                         "\"Copies\"): " + "; ".join(f"{escape(r.copy)} plays as {escape(r.plays_as)}"
                                                 for r in answer.copies.itertuples()) + ". They are left out of "
                         "the equilibrium, α-Rank and dominance below, and kept in the tables of what was played.</p>")
        parts.append(table(["strategy", "weight", "95% CI", "gain", "95% CI", "α-Rank mass", "95% CI", "rank",
                            "rank range"], [
            [escape(r["strategy"]), pct(r["weight"]), _ci(r, "ci_low", "ci_high"), f"{100 * r['gain']:+.2f} pp",
             f"{100 * r['gain_ci_low']:+.2f} to {100 * r['gain_ci_high']:+.2f} pp", pct(r["alpha_rank_mass"]),
             _ci(r, "mass_ci_low", "mass_ci_high"), str(r["alpha_rank"]),
             f"{r['rank_low']} to {r['rank_high']}" if "rank_low" in r.index else "—"]
            for _, r in weights.iterrows()]))
        if res.dominance is not None:
            best, margin = res.dominance
            parts.append(f"<p>Dominance (the best strategy's margin over an even field, the target a solver can aim "
                         f"at: docs/meta.md): <b>{escape(best)}</b> {100 * margin.estimate:+.2f} pp (95% CI "
                         f"{100 * margin.low:+.2f} to {100 * margin.high:+.2f} pp).</p>")
        if res.target_matrix is not None:
            parts.append("<h2 id='targets'>The target matrix</h2>")
            parts.append(table(["strategy", "alone in a field of", "win share", "95% CI", "target", "verdict"], [
                [escape(r["strategy"]), escape(r["field"]), pct(r["win_share"]), f"{pct(r['ci_low'])} to "
                 f"{pct(r['ci_high'])}", f"{pct(r['target'])} +- {pct(r['tolerance'])}", r["verdict"]]
                for _, r in res.target_matrix.iterrows()], text_cols=2))
        if len(answer.equilibria) > 1:
            parts.append("<p>Every equilibrium found: " + "; ".join(
                escape(", ".join(f"{n} {pct(v)}" for n, v in zip(answer.names, e, strict=True) if v > 0))
                for e in answer.equilibria) + ". The table above is the most even of them.</p>")
        parts.append("<h2 id='field'>One against the field</h2>")
        parts.append(table(["strategy", "alone in a field of", f"per-seat win share (fair {pct(fair, 0)})", "95% CI"],
                           [[escape(r["strategy"]), escape(r["field"]), pct(r["win_share"]),
                             f"{pct(r['ci_low'])} to {pct(r['ci_high'])}"] for _, r in field.iterrows()], text_cols=2))
        parts.append("<h2 id='seats'>The seats under the equilibrium</h2>")
        parts.append(table(["player", "win share (all games)", "95% CI"], [
            [str(int(r["player"])), pct(r["win_share"]), f"{pct(r['ci_low'])} to {pct(r['ci_high'])}"]
            for _, r in answer.seats.iterrows()]))
        parts.append("<h2 id='payoffs'>The payoff table</h2><p>Every composition, each strategy's per-seat win "
                     "share over all its games (payoffs.parquet).</p>")
        parts.append(table(["at the table", "strategy", "seats", "win share per seat", "95% CI"], [
            [escape(r["table"]), escape(r["strategy"]), str(r["seats"]), pct(r["win_share"]),
             f"{pct(r['ci_low'])} to {pct(r['ci_high'])}"] for _, r in payoffs.iterrows()], text_cols=2))
        parts.append(command_block(command))
        sub = sub_line(f"{len(res.table.counts):,} compositions x {res.n:,} games", f"{res.players} players",
                       "the same deals in every composition", f"seed {res.seed}")
        html = page(f"meta {res.game}", f"{res.game}: the metagame of {', '.join(names)}", sub, *parts,
                    findings=found, checked="no strategy dominates, and the seats are even under the equilibrium")
        (tmp / "meta.html").write_text(html, encoding="utf-8")
        run_folder.write_json(tmp / run_folder.RUN_MARKER, run_folder.study_manifest(
            "meta", res.game, res.players, res.n, res.seed, command, population=names,
            compositions=len(res.table.counts), config=res.config))
    return Path(out)
