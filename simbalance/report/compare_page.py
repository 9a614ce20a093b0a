"""The comparison folder: compare.html (tables + forest plot), comparison.parquet, arms.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.report.figures import forest
from simbalance.report.html import CSS, embed_png, pct, table
from simbalance.report.run_folder import (
    RUN_MARKER,
    atomic_folder,
    base_manifest,
    save_figures,
    write_json,
)
from simbalance.version import __version__

if TYPE_CHECKING:
    from simbalance.studies.compare import ComparisonResult


def _fmt(kind: str, v: float) -> str:
    return pct(v, 2) if kind == "share" else f"{v:,.3g}"


def _fmt_diff(kind: str, v: float) -> str:
    return f"{100 * v:+.2f} pp" if kind == "share" else f"{v:+,.3g}"


def render_compare(result: ComparisonResult, png: bytes, command: str) -> str:
    plan = result.baseline.plan
    rows = []
    for _, r in result.table.iterrows():
        flag = "<b>yes</b>" if r["significant"] else ""
        rows.append([escape(r["variant"]), escape(r["metric"]), _fmt(r["kind"], r["baseline"]),
                     _fmt(r["kind"], r["value"]), _fmt_diff(r["kind"], r["diff"]),
                     f"{_fmt_diff(r['kind'], r['ci_low'])} to {_fmt_diff(r['kind'], r['ci_high'])}",
                     f"{r['p_value']:.2g}", f"{r['p_holm']:.2g}", flag])
    sig = result.significant()
    lines = [f"{escape(v)}: " + ", ".join(f"{escape(m)} {_fmt_diff(k, d)}" for m, k, d in
                                           zip(g["metric"], g["kind"], g["diff"], strict=True))
             for v, g in sig.groupby("variant", sort=False)]
    summary = ("<br>".join(lines) if lines else "No variant changes any metric significantly "
               f"(Holm-corrected, alpha {result.alpha}).")
    return "\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>compare {escape(plan.spec.id)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(plan.spec.id)}: variants against {escape(result.baseline_name)}</h1>",
        f"<p class='sub'>{plan.n:,} games per arm · {plan.players} players · seed {plan.seed} · common random "
        f"numbers (same seeds and shuffles in every arm) · simbalance {escape(__version__)}</p>",
        *[f"<p class='verdict'><b>Warning:</b> {escape(w)}</p>" for w in result.warnings],
        "<h2>Arms</h2>",
        table(["arm", "what it changes"], [[escape(name), escape(what)] for name, what in result.changes.items()]),
        f"<p class='verdict'>Significant changes (Holm-corrected across metrics, alpha {result.alpha}):<br>{summary}</p>",
        embed_png("forest plot", png, "style='max-width:100%'"),
        "<h2>Every metric</h2>",
        table(["variant", "metric", "baseline", "variant", "difference", "95% CI", "p", "p (Holm)", "significant"],
              rows),
        f"<h2>Run</h2><p><code>{escape(command)}</code></p>",
        "</body></html>",
    ])


def write_compare_folder(result: ComparisonResult, out: Path, command: str) -> Path:
    plan = result.baseline.plan
    with atomic_folder(out) as tmp:
        result.table.to_parquet(tmp / "comparison.parquet", index=False)
        images = save_figures(tmp, {"forest": forest(result.table, f"{plan.spec.id}: difference to "
                                                                 f"{result.baseline_name} (95% CI)")})
        (tmp / "compare.html").write_text(render_compare(result, images["forest"], command), encoding="utf-8")
        arms = {result.baseline_name: result.baseline.summary(), **{k: v.summary() for k, v in result.arms.items()}}
        write_json(tmp / "arms.json", arms)
        write_json(tmp / RUN_MARKER, base_manifest(
            "compare", plan, command, baseline=result.baseline_name, variants=list(result.arms), alpha=result.alpha,
            changes=result.changes,
            configs={result.baseline_name: plan.config, **{k: v.plan.config for k, v in result.arms.items()}}))
    return Path(out)
