"""The solve folder: solve.html (findings first, the chosen change, the frontier, the chosen
change's compare section, the candidates), solution.json, candidates.parquet, findings.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.check import format_difference, format_value
from simbalance.analysis.findings import Finding, p_value
from simbalance.analysis.labels import metric_label
from simbalance.analysis.solve import (
    CELL,
    KEEP_LENGTH,
    KEEP_SHARE,
    Keep,
    is_share,
    label,
    range_words,
    targets_words,
    test_words,
)
from simbalance.report import run_folder
from simbalance.report.compare_page import arms_table
from simbalance.report.figures import forest, solve_frontier
from simbalance.report.html import command_block, embed_png, figures, num, page, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.solve import SolveResult


def solve_figures(result: SolveResult) -> dict:
    out = {"frontier": solve_frontier(result.candidates, [a.words for a in result.answers])}
    if result.comparison is not None:
        out["forest"] = forest(result.comparison.table, f"{result.game}: difference to today's rules (95% CI)")
    return out


def _tests_rows(tests: list[dict], before: list[dict] | None = None) -> list[list[str]]:
    """One row per (player model, target): the range, the estimate with its interval, the Holm p
    (across models × targets), met; ``before``: today's tests in the same order, beside."""
    rows = []
    for i, t in enumerate(tests):
        # a target matrix's cell (``cell:a|b``) in words; the metric's own name otherwise
        what = escape(label(t["metric"]) if t["metric"].startswith(CELL) else t["metric"]) + (
            " (kept)" if t.get("keep") is not None else "")
        row = [escape(str(t.get("model", ""))), what, escape(range_words(t)),
               escape(test_words(t)), f"{t['p_holm']:.3g}", "<b>yes</b>" if t["met"] else "no"]
        if before is not None and i < len(before):
            row.insert(3, escape(test_words(before[i])) if before[i] is not None else "n/a")
        rows.append(row)
    return rows


def _candidates_rows(result: SolveResult) -> list[list[str]]:
    rows = []
    answers = {a.words for a in result.answers}
    for _, r in result.candidates.iterrows():
        mark = " ★" if r["change"] in answers else ""
        rows.append([escape(str(r["change"])) + mark, f"<code>{escape(str(r['set']))}</code>", num(int(r["keys_changed"])),
                     f"{r['distance']:.3f}", num(int(r["games"])), escape(str(r["verdict"])),
                     f"{100 * r['balance']:.1f}%" if r["balance"] == r["balance"] else "n/a",
                     f"{r['shortfall']:.3f}", f"{r['kept_shortfall']:.3f}", "<b>yes</b>" if r["pareto"] else ""])
    return rows


def _tolerance(keep: Keep) -> str:
    if keep.tol is None:
        return f"{100 * KEEP_SHARE:g} points" if is_share(keep.metric) else f"{100 * KEEP_LENGTH:g}% (at least 1)"
    return f"{100 * keep.tol:g} points" if is_share(keep.metric) else f"{keep.tol:g}"


def _today_like(result: SolveResult, answer) -> list[dict]:
    """Today's tests in the order of an answer's (model, metric) tests (an expensive model's today
    comes from the answer's own model table)."""
    today = {(t.get("model"), t["metric"]): t for t in result.today["tests"]}
    for m in answer.models:
        for t in m.get("today", []):
            today.setdefault((m["name"], t["metric"]), t)
    return [today.get((t.get("model"), t["metric"])) for t in answer.judged["tests"]]


def _answer_command(result: SolveResult) -> str:
    """The ``simbalance run`` that plays the answer on the setup the solve started from (its
    --config, --players, --variant, --set, --strategies and --rotate with the change): the
    verification's games; another --seed plays fresh ones."""
    command = result.solution()["command"]
    if command is None:
        return ""
    what = "today's rules" if result.no_change_needed else "the answer"
    return (f"<p class='verdict' id='command'>To play {what} as verified (the setup the solve started from "
            f"with the change; another <code>--seed</code> plays fresh games):</p><p><code>{escape(command)}</code></p>")


def render_solve(result: SolveResult, images: dict[str, bytes], command: str,
                 findings: list[Finding] | None = None) -> str:
    plan = result.today_result.plan
    goal = targets_words(result.targets)
    status = []
    if result.interrupted:
        status.append("<p class='verdict'><b>Interrupted:</b> the page holds what was known when the search "
                      "stopped; changes marked unverified were not played on fresh games.</p>")
    if result.budget_spent:
        status.append("<p class='verdict'><b>The budget ran out</b> before the search ended: a larger budget may "
                      "find more (or smaller) changes.</p>")
    status += [f"<p class='verdict'>Note: {escape(n)}</p>" for n in result.notes]
    status.insert(0, _answer_command(result))
    kept = "".join(f"; {k.metric} kept within {_tolerance(k)} of today's value under each player model"
                   for k in result.keeps)
    parts = [*status, f"<p class='verdict'>Targets: {escape(goal + kept)}, each met when its 95% interval lies "
             "inside it (Holm-adjusted across the player models and targets). Knobs: "
             + ", ".join(f"<code>{escape(k.text())}</code> ({escape(k.computed_step_words() + '; ' if k.step_computed else '')}today {escape(k.value_text(k.today))})" for k in result.knobs)
             + ".</p>",
             "<p class='verdict'>Player models: " + escape("; ".join(m.words() for m in result.models))
             + ". A change meets only when it meets every target under every one of them (one Holm family across "
             "models × targets); a search player plays only the changes that meet under the others"
             + (f", in blocks of games doubling until settled, {result.search_n:,} at the most"
                if any(m.expensive for m in result.models) else "") + ".</p>",
             "<h2 id='today'>Today's rules</h2>",
             f"<p>{result.verify_n:,} games on the verification seed: {escape(result.today['verdict'])}.</p>",
             table(["players", "metric", "target", "today (95% CI)", "p (Holm)", "met"],
                   _tests_rows(result.today["tests"]), text_cols=4)]
    chosen = result.chosen
    if result.answers:
        parts.append("<h2 id='chosen'>The smallest changes found</h2>" if any(a.found for a in result.answers) else
                     "<h2 id='chosen'>Changes that hold for some players only</h2>")
        for a in result.answers:
            verified = result.verified.get(a.words)
            head = (f"<p><b>{escape(a.words)}</b> (<code>{escape(result.set_of(a.change))}"
                    f"</code>): {escape(a.judged['verdict'])} "
                    + ("on fresh games" if verified else "<b>unverified</b> (the search's own games)")
                    + (" — <b>the chosen change</b>" if a is chosen else "")
                    + ("" if a.found else " (not a change the search found: it held under some player models and "
                       "was refuted under others, and was played on fresh games to tell which)") + ".</p>")
            parts += [head, table(["players", "metric", "target", "today", "with the change (95% CI)", "p (Holm)",
                                   "met"], _tests_rows(a.judged["tests"], _today_like(result, a)), text_cols=5)]
    shown = [a for a in result.answers if a.models]
    if shown:
        parts.append("<h2 id='players'>Under every player model</h2>")
        rows = []
        for a in shown:
            for m in a.models:
                rows.append([escape(a.words), escape(m["model"]), num(m["games"]), f"<b>{escape(m['verdict'])}</b>",
                             escape(m.get("reason") or "")])
        parts += ["<p>Each verified change under each player model on the same fresh games, today's rules beside "
                  "it in the table above. <i>Not settled</i>: an interval still straddles a target's edge at this "
                  "many games. Why: the target it misses, and the game length where it collapses against today's "
                  "under the same players.</p>",
                  table(["change", "players", "games", "verdict", "why"], rows, text_cols=5)]
    parts += ["<h2 id='figures'>Figures</h2>",
              "<p>The frontier: each candidate the search tried, its size against the worst shortfall it leaves "
              "(how far the estimates miss the targets, under the player model where they miss most; from the "
              "search's own games), the answers starred, the <b>Pareto front</b> ringed: the candidates no other "
              "beats on size, shortfall and the kept metrics' shortfall at once (the table's column 'front'), the "
              "choices a designer can weigh. Click a figure to enlarge it.</p>",
              figures({k: v for k, v in images.items() if k == "frontier"})]
    if result.comparison is not None and "forest" in images:
        comparison = result.comparison
        sig_rows = []
        for _, r in comparison.table.iterrows():
            kind = r["kind"]
            sig_rows.append([escape(r["variant"]), escape(metric_label(r["metric"])), format_value(r["baseline"], kind),
                             format_value(r["value"], kind), format_difference(r["diff"], kind),
                             f"{format_difference(r['ci_low'], kind)} to {format_difference(r['ci_high'], kind)}",
                             p_value(r["p_holm"], cell=True), "<b>yes</b>" if r["significant"] else ""])
        parts += ["<h2 id='verified'>The verified changes against today's rules</h2>",
                  f"<p>Every arm plays the same {result.verify_n:,} fresh games (common random numbers); every metric's "
                  f"difference is tested game by game (Holm across each arm's metrics, alpha {comparison.alpha}).</p>",
                  arms_table(comparison), embed_png("forest", images["forest"]),
                  table(["arm", "metric", "today", "arm", "difference", "95% CI", "p (Holm)", "significant"],
                        sig_rows, text_cols=2)]
    pair = result.changed_game_findings()
    if pair is not None:
        today_found, changed_found = pair
        gone = sorted({f.kind for f in today_found} - {f.kind for f in changed_found})
        parts += ["<h2 id='changed-findings'>The changed game's findings</h2>",
                  f"<p>The run's own findings (docs/findings.md) of the chosen change on its {result.verify_n:,} "
                  "verification games"
                  + (f"; today's rules raise {escape(', '.join(gone))}, which the change no longer does" if gone else "")
                  + ".</p>",
                  "<ul>" + "".join(f"<li><b>{escape(f.severity)}</b> {escape(f.text)}</li>" for f in changed_found)
                  + "</ul>" if changed_found else "<p>Nothing stands out in the changed game.</p>",
                  "<p>Today's rules on the same games:</p>",
                  "<ul>" + "".join(f"<li><b>{escape(f.severity)}</b> {escape(f.text)}</li>" for f in today_found)
                  + "</ul>" if today_found else "<p>Nothing stands out today.</p>"]
    parts += ["<h2 id='candidates'>Every candidate tried</h2>",
              "<p>Games: how many the candidate played in the search under each player model (it left the race "
              "when it met every target, when an interval lay outside a target, or at the most games a candidate "
              "plays; one left behind by a halving waited in reserve and played again while budget remained). "
              "<i>Not settled</i>: still possible when the search ended.</p>",
              table(["change", "--set", "knobs", "distance", "games", "verdict (search)", "balance (worst model)",
                     "shortfall", "kept shortfall", "front"], _candidates_rows(result), text_cols=3),
              command_block(command)]
    sub = sub_line(f"{plan.players} players", f"seed {result.seed}", f"{result.verify_n:,} games per verification",
                   f"{result.seconds:.0f} s of a {result.budget_s:.0f} s budget",
                   "interrupted" if result.interrupted else "")
    return page(f"solve {result.game}", f"{result.game}: the smallest change that meets {goal}", sub, *parts,
                findings=findings, checked="")


def write_solve_folder(result: SolveResult, out: Path, command: str) -> Path:
    plan = result.today_result.plan
    with run_folder.atomic_folder(out) as tmp:
        result.candidates.to_parquet(tmp / "candidates.parquet", index=False)
        images = run_folder.save_figures(tmp, solve_figures(result))
        found = result.findings()
        run_folder.write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        solution = result.solution()
        solution["solve_command"] = command  # the solve itself; solution["command"] plays its answer
        run_folder.write_json(tmp / "solution.json", solution)
        (tmp / "solve.html").write_text(render_solve(result, images, command, found), encoding="utf-8")
        run_folder.write_json(tmp / run_folder.RUN_MARKER, run_folder.base_manifest(
            "solve", plan, command, targets=solution["targets"], knobs=solution["knobs"],
            interrupted=result.interrupted, meets=solution["meets"] or result.no_change_needed, config=plan.config))
    return Path(out)
