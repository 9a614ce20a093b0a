"""The sweep folder: sweep.html (findings, figures with the targets drawn, tables), sweep.parquet,
rechecked.parquet, findings.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.check import format_difference
from simbalance.analysis.findings import Finding
from simbalance.analysis.stats import MEETS
from simbalance.analysis.sweep import describe_targets
from simbalance.report import run_folder
from simbalance.report.figures import sweep_heatmap, sweep_lines
from simbalance.report.html import command_block, figures, num, page, pct, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.sweep import SweepResult

SHOWN = ("balance", "first_player_advantage", "length_mean", "length_median", "timeouts", "shortfall", "verdict")
HEADS = {"balance": "balance", "first_player_advantage": "player 1's advantage", "length_mean": "mean length",
         "length_median": "median length", "timeouts": "timeouts", "shortfall": "shortfall (0: on target)",
         "verdict": "targets (by 95% intervals)"}


def sweep_figures(result: SweepResult) -> dict:
    plan = result.base_plan
    keys = [p.key for p in result.params]
    if len(keys) == 1:
        return {"sweep": sweep_lines(result.table, keys[0], plan.players, plan.spec.length_unit, result.targets)}
    on_target = result.table["verdict"] == MEETS  # by its intervals, as solve and check judge it
    return {
        "balance_heatmap": sweep_heatmap(result.table, keys[0], keys[1], "balance", "balance", on_target),
        "length_heatmap": sweep_heatmap(result.table, keys[0], keys[1], "length_mean",
                                        f"mean length ({plan.spec.length_unit})", on_target),
    }


RATES = ("balance", "first_player_advantage", "timeouts")  # shown in percent, like every rate


def _cell(metric: str, value) -> str:
    if metric == "verdict":
        return escape(str(value))
    if metric in RATES:
        if metric == "first_player_advantage":  # a difference of shares: percentage points
            return format_difference(value, "share")
        return "n/a" if value != value else f"{value:.2%}"
    return num(value)


def _rows(df, keys) -> list[list[str]]:
    return [[escape(str(df[k].iloc[i])) for k in keys] + [_cell(m, df[m].iloc[i]) for m in SHOWN if m in df]
            for i in range(len(df))]


def render_sweep(result: SweepResult, images: dict[str, bytes], command: str,
                 findings: list[Finding] | None = None) -> str:
    plan = result.base_plan
    keys = [p.key for p in result.params]
    heads = keys + [HEADS[m] for m in SHOWN if m in result.table]
    target_text = describe_targets(result.targets)
    best = ""
    if len(result.rechecked):
        top = result.rechecked.iloc[0]
        setting = ", ".join(f"{k} = {result.rechecked[k].iloc[0]}" for k in keys)
        verdict = (" (no game with a winner)" if top["shortfall"] != top["shortfall"]
                   else f": {top['verdict']} the targets by its 95% intervals" if top["shortfall"] == 0
                   else f", shortfall {top['shortfall']:.3f}")
        best = (f"Closest to the targets: <b>{escape(setting)}</b>, re-checked on a fresh seed: balance "
                f"{pct(top['balance'], 2)}, median length {top['length_median']:g}{verdict}.")
    drawn = ("The targets are drawn as green bands (balance at least the target; the median length's range); "
             if len(keys) == 1 else "Cells that meet the targets are outlined; ")
    parts = [
        f"<p class='verdict'>Targets: {escape(target_text)}. {best}</p>",
        "<h2 id='figures'>Figures</h2>",
        f"<p>{drawn}click a figure to enlarge it. Players are numbered from 1 (player 1 starts).</p>",
        figures(images),
        "<h2 id='best'>Best points, re-checked on a fresh seed</h2>",
        table(heads, _rows(result.rechecked, keys), text_cols=len(keys)),
        "<h2 id='every-point'>Every point</h2>",
        table(heads, _rows(result.table, keys), text_cols=len(keys)),
        command_block(command),
    ]
    sub = sub_line(f"{plan.n:,} games per point", f"{plan.players} players",
                   f"seed {plan.seed} (the same games at every point)")
    return page(f"sweep {plan.spec.id}", f"{plan.spec.id}: sweep over {', '.join(keys)}", sub, *parts,
                findings=findings, checked="the best point is inside the grid and meets the targets")


def write_sweep_folder(result: SweepResult, out: Path, command: str) -> Path:
    plan = result.base_plan
    with run_folder.atomic_folder(out) as tmp:
        result.table.to_parquet(tmp / "sweep.parquet", index=False)
        result.rechecked.to_parquet(tmp / "rechecked.parquet", index=False)
        images = run_folder.save_figures(tmp, sweep_figures(result))
        found = result.findings()
        run_folder.write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        (tmp / "sweep.html").write_text(render_sweep(result, images, command, found), encoding="utf-8")
        run_folder.write_json(tmp / run_folder.RUN_MARKER, run_folder.base_manifest(
            "sweep", plan, command, params={p.key: list(p.values) for p in result.params}, targets=result.targets,
            config=plan.config))
    return Path(out)
