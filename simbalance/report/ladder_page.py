"""The folder of `ladder`: ladder.html (findings first, the table, the curve), ladder.json (the
numbers), findings.json and manifest.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.metrics import json_records
from simbalance.report.figures import ladder_curve
from simbalance.report.html import command_block, figures, page, pct, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, study_manifest, write_json

if TYPE_CHECKING:
    from simbalance.studies.ladder import LadderResult


def ladder_json(res: LadderResult) -> dict:
    return {"game": res.game, "players": res.players, "search": res.search, "budget_param": res.budget_param,
            "against": res.against, "yardstick": res.yardstick, "ladder": json_records(res.table),
            "seconds": {str(k): v for k, v in res.seconds.items()}}


def write_ladder_folder(res: LadderResult, out: Path, command: str) -> Path:
    """ladder.html, ladder.json, findings.json, manifest.json and the curve."""
    fair = 1 / res.players
    with atomic_folder(out) as tmp:
        images = save_figures(tmp, {"ladder": ladder_curve(res.table, fair, res.against, res.budget_param,
                                                           res.yardstick)})
        found = res.findings()
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        write_json(tmp / "ladder.json", ladder_json(res))
        rows = []
        yard = res.yardstick is not None
        for _, r in res.table.iterrows():
            h2h = (f"{pct(r['h2h_share'])} ({pct(r['h2h_ci_low'])} to {pct(r['h2h_ci_high'])})"
                   if r["h2h_games"] else "")
            games_s = r["games"] + r["h2h_games"] + r["yard_games"]
            secs = res.seconds.get(int(r["budget"]), 0.0)
            row = [escape(str(r["name"])), f"{int(r['budget']):,}", pct(r["win_rate"]),
                   f"{pct(r['ci_low'])} to {pct(r['ci_high'])}", f"{100 * (r['win_rate'] - fair):+.1f} pp", h2h]
            if yard:
                row.append(f"{pct(r['yard_share'])} ({pct(r['yard_ci_low'])} to {pct(r['yard_ci_high'])})"
                           if r["yard_games"] else "")
            rows.append(row + [f"{games_s / secs:,.1f}" if secs > 0 else "n/a"])
        heads = ["player", res.budget_param, f"win rate vs {res.against} (fair {pct(fair, 0)})", "95% CI",
                 "edge over fair", "head to head vs the budget before"]
        heads += [f"head to head vs {res.yardstick}, same budget"] if yard else []
        heads += ["games/s"]
        others = f"the other {res.players - 1} seats {res.against}" if res.players > 2 else f"the other seat {res.against}"
        pair_others = (f", the other {res.players - 2} seats {res.against}" if res.players > 2 else "")
        parts = [
            "<h2 id='ladder'>The ladder</h2>",
            f"<p>{escape(res.search)} at each budget: one seat, {escape(others)}, seats rotated, {res.n:,} games; its "
            f"win rate per seat over the decided games against the fair {pct(fair, 0)}. Then one seat of the budget and "
            f"one of the budget before it{escape(pair_others)}, seats rotated, {res.n_pairs:,} games: the budget's "
            "share of the two players' wins (50% is even). A search player must get stronger with its budget: the "
            "curve must rise.</p>",
            (f"<p>The yardstick: one seat of the budget and one of {escape(res.yardstick)} at the same budget per "
             "decision (split evenly among the options, at least one play-out each: more than the budget where a "
             "decision has more options), the other seats as above, "
             f"{res.n_pairs:,} games: the tree search's share of the two players' wins. It must beat one-step "
             "lookahead.</p>" if yard else ""),
            table(heads, rows, text_cols=1),
            "<h2 id='figures'>Figures</h2>", figures(images),
            command_block(command),
        ]
        sub = sub_line(f"{res.n:,} games per budget", f"{res.players} players", f"against {res.against}",
                       f"seed {res.seed}")
        html = page(f"ladder {res.game}", f"{res.game}: {res.search}'s skill ladder", sub, *parts, findings=found,
                    checked="each budget beats the one before it")
        (tmp / "ladder.html").write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest("ladder", res.game, res.players, res.n, res.seed, command,
                                               search=res.search, against=res.against, config=res.config))
    return Path(out)
