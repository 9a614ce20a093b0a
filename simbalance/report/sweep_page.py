"""The sweep folder: sweep.html (figures, tables, targets), sweep.parquet, rechecked.parquet."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.sweep import describe_targets
from simbalance.report.figures import sweep_heatmap, sweep_lines
from simbalance.report.html import CSS, embed_png, num, table
from simbalance.report.run_folder import (
    RUN_MARKER,
    atomic_folder,
    base_manifest,
    save_figures,
    write_json,
)
from simbalance.version import __version__

if TYPE_CHECKING:
    from simbalance.studies.sweep import SweepResult

SHOWN = ("balance", "first_player_advantage", "length_mean", "length_median", "timeouts", "shortfall")


def sweep_figures(result: SweepResult) -> dict:
    plan = result.base_plan
    keys = [p.key for p in result.params]
    if len(keys) == 1:
        return {"sweep": sweep_lines(result.table, keys[0], plan.players, plan.spec.length_unit)}
    return {
        "balance_heatmap": sweep_heatmap(result.table, keys[0], keys[1], "balance", "balance"),
        "length_heatmap": sweep_heatmap(result.table, keys[0], keys[1], "length_mean",
                                        f"mean length ({plan.spec.length_unit})"),
    }


RATES = ("balance", "first_player_advantage", "timeouts")  # shown in percent, like every rate


def _cell(metric: str, value: float) -> str:
    if metric in RATES:
        return "n/a" if value != value else (f"{value:+.2%}" if metric == "first_player_advantage" else f"{value:.2%}")
    return num(value)


def _rows(df, keys) -> list[list[str]]:
    return [[escape(str(df[k].iloc[i])) for k in keys] + [_cell(m, float(df[m].iloc[i])) for m in SHOWN if m in df]
            for i in range(len(df))]


def render_sweep(result: SweepResult, images: dict[str, bytes], command: str) -> str:
    plan = result.base_plan
    keys = [p.key for p in result.params]
    heads = keys + [m for m in SHOWN]
    target_text = describe_targets(result.targets)
    best = ""
    if len(result.rechecked):
        top = result.rechecked.iloc[0]
        setting = ", ".join(f"{k} = {result.rechecked[k].iloc[0]}" for k in keys)
        verdict = " (on target)" if top["shortfall"] == 0 else f", shortfall {top['shortfall']:.3f}"
        best = (f"Closest to the targets: <b>{escape(setting)}</b>, re-checked on a fresh seed: balance "
                f"{top['balance']:.2%}, median length {top['length_median']:g}{verdict}.")
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>sweep {escape(plan.spec.id)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(plan.spec.id)}: sweep over {escape(', '.join(keys))}</h1>",
        f"<p class='sub'>{plan.n:,} games per point · {plan.players} players · seed {plan.seed} (the same games at "
        f"every point) · simbalance {escape(__version__)}</p>",
        f"<p class='verdict'>Targets: {escape(target_text)}. {best}</p>",
    ]
    for name, png in images.items():
        parts.append(embed_png(name, png, "style='max-width:100%'"))
    parts.append("<h2>Best points, re-checked on a fresh seed</h2>")
    parts.append(table(heads, _rows(result.rechecked, keys)))
    parts.append("<h2>Every point</h2>")
    parts.append(table(heads, _rows(result.table, keys)))
    parts.append(f"<h2>Run</h2><p><code>{escape(command)}</code></p></body></html>")
    return "\n".join(parts)


def write_sweep_folder(result: SweepResult, out: Path, command: str) -> Path:
    plan = result.base_plan
    with atomic_folder(out) as tmp:
        result.table.to_parquet(tmp / "sweep.parquet", index=False)
        result.rechecked.to_parquet(tmp / "rechecked.parquet", index=False)
        images = save_figures(tmp, sweep_figures(result))
        (tmp / "sweep.html").write_text(render_sweep(result, images, command), encoding="utf-8")
        write_json(tmp / RUN_MARKER, base_manifest(
            "sweep", plan, command, params={p.key: list(p.values) for p in result.params}, targets=result.targets,
            config=plan.config))
    return Path(out)
