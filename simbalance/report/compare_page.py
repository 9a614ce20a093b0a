"""The comparison folder: compare.html (findings, arms, forest plot, tables), comparison.parquet,
arms.json, findings.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.check import format_difference, format_value
from simbalance.analysis.findings import Finding, p_value
from simbalance.analysis.labels import metric_label
from simbalance.report import run_folder
from simbalance.report.figures import forest
from simbalance.report.html import command_block, embed_png, page, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.compare import ComparisonResult


def arms_table(result: ComparisonResult) -> str:
    """Each arm: what it is (a variant's description), the keys it changes, and whether it changed
    any game at all."""
    identical = result.identical()
    rows = []
    for name, what in result.changes.items():
        keys = result.keys.get(name, [])
        description = what
        if keys and what.endswith(f"({', '.join(keys)})"):
            description = what[: -len(f" ({', '.join(keys)})")]
        elif keys and what == ", ".join(keys):
            description = "written on the command line (--arm)"
        games = ("the baseline" if name == result.baseline_name else
                 "<b>identical to the baseline's, every one</b>" if identical.get(name) else "changed")
        rows.append([escape(name), escape(description), "<br>".join(f"<code>{escape(k)}</code>" for k in keys)
                     or "none", games])
    return table(["arm", "what it is", "keys it changes", "its games"], rows, text_cols=4)


def render_compare(result: ComparisonResult, png: bytes, command: str, findings: list[Finding] | None = None) -> str:
    plan = result.baseline.plan
    rows = []
    for _, r in result.table.iterrows():
        flag = "<b>yes</b>" if r["significant"] else ""
        rows.append([escape(r["variant"]), escape(metric_label(r["metric"])), format_value(r["baseline"], r["kind"]),
                     format_value(r["value"], r["kind"]), format_difference(r["diff"], r["kind"]),
                     f"{format_difference(r['ci_low'], r['kind'])} to {format_difference(r['ci_high'], r['kind'])}",
                     p_value(r['p_value'], cell=True), p_value(r['p_holm'], cell=True), flag])
    sig = result.significant()
    lines = [f"{escape(v)}: " + ", ".join(f"{escape(metric_label(m))} {format_difference(d, k)}" for m, k, d in
                                           zip(g["metric"], g["kind"], g["diff"], strict=True))
             for v, g in sig.groupby("variant", sort=False)]
    summary = ("<br>".join(lines) if lines else "No variant changes any metric significantly "
               f"(Holm-corrected, alpha {result.alpha}).")
    sub = sub_line(f"{plan.n:,} games per arm", f"{plan.players} players", f"seed {plan.seed}",
                   "common random numbers (the same seeds and shuffles in every arm)")
    parts = [
        *[f"<p class='verdict'><b>Warning:</b> {escape(w)}</p>" for w in result.warnings],
        "<h2 id='arms'>Arms</h2>",
        f"<p>Every arm plays the same {plan.n:,} games (the same seeds); an arm is the baseline "
        f"({escape(result.baseline_name)}) with the keys it changes. Players are numbered from 1 (player 1 "
        "starts).</p>",
        arms_table(result),
        f"<p class='verdict'>Significant changes (Holm-corrected across metrics, alpha {result.alpha}):<br>{summary}</p>",
        "<h2 id='figures'>Differences to the baseline</h2>",
        "<p>Each point is an arm's difference to the baseline on one metric, with its 95% CI (rates in "
        "percentage points, length in its unit). <b>Filled</b> points are significant after Holm's "
        f"correction across the arm's metrics (alpha {result.alpha}); <b>hollow</b> points are not: their "
        "difference may be noise. A line crossing 0 means no clear change. Click to enlarge.</p>",
        embed_png("forest plot", png),
        "<h2 id='every-metric'>Every metric</h2>",
        table(["arm", "metric", "baseline", "arm", "difference", "95% CI", "p", "p (Holm)", "significant"], rows,
              text_cols=2),
        command_block(command),
    ]
    return page(f"compare {plan.spec.id}", f"{plan.spec.id}: variants against {result.baseline_name}", sub, *parts,
                findings=findings, checked="no arm left every game unchanged, no significant change and no new "
                                           "problem beyond the thresholds")


def write_compare_folder(result: ComparisonResult, out: Path, command: str) -> Path:
    plan = result.baseline.plan
    with run_folder.atomic_folder(out) as tmp:
        result.table.to_parquet(tmp / "comparison.parquet", index=False)
        images = run_folder.save_figures(tmp, {"forest": forest(result.table, f"{plan.spec.id}: difference to "
                                                                 f"{result.baseline_name} (95% CI)")})
        found = result.findings()
        run_folder.write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        (tmp / "compare.html").write_text(render_compare(result, images["forest"], command, found), encoding="utf-8")
        arms = {result.baseline_name: result.baseline.summary(), **{k: v.summary() for k, v in result.arms.items()}}
        run_folder.write_json(tmp / "arms.json", arms)
        run_folder.write_json(tmp / run_folder.RUN_MARKER, run_folder.base_manifest(
            "compare", plan, command, baseline=result.baseline_name, variants=list(result.arms), alpha=result.alpha,
            changes=result.changes, keys=result.keys,
            configs={result.baseline_name: plan.config, **{k: v.plan.config for k, v in result.arms.items()}}))
    return Path(out)
