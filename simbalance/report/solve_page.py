"""The solve folder: solve.html (findings first, the chosen change, the frontier, the chosen
change's compare section, the candidates), solution.json, candidates.parquet, findings.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.check import format_difference, format_value
from simbalance.analysis.findings import Finding, p_value
from simbalance.analysis.labels import metric_label
from simbalance.analysis.solve import targets_words, test_words
from simbalance.report import run_folder
from simbalance.report.compare_page import arms_table
from simbalance.report.figures import forest, solve_frontier
from simbalance.report.html import command_block, embed_png, figures, num, page, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.solve import SolveResult


def solve_figures(result: SolveResult) -> dict:
    balance = next((t for t in result.targets if t.metric == "balance"), None)
    out = {"frontier": solve_frontier(result.candidates, [a.words for a in result.answers],
                                      balance.low if balance is not None else None)}
    if result.comparison is not None:
        out["forest"] = forest(result.comparison.table, f"{result.game}: difference to today's rules (95% CI)")
    return out


def _tests_rows(tests: list[dict], before: list[dict] | None = None) -> list[list[str]]:
    rows = []
    for i, t in enumerate(tests):
        row = [escape(t["metric"]), escape(f"{t['low']:g} to {t['high']:g}"), escape(test_words(t)),
               f"{t['p_holm']:.3g}", "<b>yes</b>" if t["met"] else "no"]
        if before is not None:
            row.insert(2, escape(test_words(before[i])))
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
                     f"{r['shortfall']:.3f}"])
    return rows


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
    parts = [*status, f"<p class='verdict'>Targets: {escape(goal)}, each met when its 95% interval lies inside it "
             "(Holm-adjusted across the targets). Knobs: "
             + ", ".join(f"<code>{escape(k.text())}</code> (today {escape(k.value_text(k.today))})" for k in result.knobs)
             + ".</p>",
             "<h2 id='today'>Today's rules</h2>",
             f"<p>{result.verify_n:,} games on the verification seed: {escape(result.today['verdict'])}.</p>",
             table(["metric", "target", "today (95% CI)", "p (Holm)", "met"], _tests_rows(result.today["tests"]),
                   text_cols=3)]
    chosen = result.chosen
    if result.answers:
        parts.append("<h2 id='chosen'>The smallest changes found</h2>")
        for a in result.answers:
            verified = result.verified.get(a.words)
            head = (f"<p><b>{escape(a.words)}</b> (<code>{escape(result.set_of(a.change))}"
                    f"</code>): {escape(a.judged['verdict'])} "
                    + ("on fresh games" if verified else "<b>unverified</b> (the search's own games)")
                    + (" — <b>the chosen change</b>" if a is chosen else "") + ".</p>")
            parts += [head, table(["metric", "target", "today", "with the change (95% CI)", "p (Holm)", "met"],
                                  _tests_rows(a.judged["tests"], result.today["tests"]), text_cols=4)]
    if chosen is not None and chosen.models:
        parts.append("<h2 id='players'>Under other players</h2>")
        rows = []
        for m in chosen.models:
            for t, before in zip(m["tests"], m["today"], strict=True):
                rows.append([escape(m["model"]), num(m["games"]), escape(m["verdict"]), escape(test_words(before)),
                             escape(test_words(t))])
        parts += ["<p>The chosen change played again with other players at every seat, today's rules on the same "
                  "games beside it. <i>Not settled</i>: the interval still straddles a target's edge at this many "
                  "games.</p>",
                  table(["players", "games", "the change", "today", "with the change"], rows, text_cols=3)]
    parts += ["<h2 id='figures'>Figures</h2>",
              "<p>The frontier: each candidate the search tried, its size against the imbalance it leaves (from the "
              "search's own games; the answers starred). Click a figure to enlarge it.</p>",
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
              "<p>Games: how many the candidate played in the search (it left the race when it met every target, "
              "when an interval lay outside a target, or when the halving dropped it).</p>",
              table(["change", "--set", "knobs", "distance", "games", "verdict (search)", "balance", "shortfall"],
                    _candidates_rows(result), text_cols=3),
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
