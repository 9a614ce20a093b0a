"""The tournament folder: tournament.html (findings first), matchups/ratings/strategies as Parquet,
findings.json, figures."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.figure import Figure

from simbalance.analysis.tournament import strongest
from simbalance.report import run_folder
from simbalance.report.figures import matchup_heatmap, ratings_bars
from simbalance.report.html import command_block, figures, page, pct, sub_line, table

if TYPE_CHECKING:
    from simbalance.studies.tournament import TournamentResult


def head_to_head_heatmap(matchups: pd.DataFrame, names: list[str]) -> Figure:
    """A's head-to-head share against B (rows A, columns B), centred on an even 50%."""
    frame = matchups.assign(win_rate=matchups["h2h_share"])
    fig = matchup_heatmap(frame, names, 0.5)
    fig.axes[0].set_title("head-to-head share of A against B (even 50%)\nr_A / (r_A + r_B), decided A-and-B-only games",
                          fontsize=10)
    return fig


def write_tournament_folder(res: TournamentResult, out: Path, command: str) -> Path:
    plan = res.result.plan
    names = list(plan.lineup.slot_names)
    with run_folder.atomic_folder(out) as tmp:
        res.matchups.to_parquet(tmp / "matchups.parquet", index=False)
        res.ratings.to_parquet(tmp / "ratings.parquet", index=False)
        res.strategies.to_parquet(tmp / "strategies.parquet", index=False)
        fair = 1 / plan.players
        images = run_folder.save_figures(tmp, {"matchups": matchup_heatmap(res.matchups, names, fair),
                                    "head_to_head": head_to_head_heatmap(res.matchups, names),
                                    "ratings": ratings_bars(res.ratings)})
        best = res.ratings.iloc[0]
        told_apart = strongest(res.matchups, list(names))  # "strongest" only when told apart from every other
        found = res.findings()
        run_folder.write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        parts = [
            (f"<p class='verdict'>Strongest: <b>{escape(best['strategy'])}</b> (rating {best['elo']:+.0f}, "
             f"95% CI {best['ci_low']:+.0f} to {best['ci_high']:+.0f}; above an even 50% head to head against "
             "every other strategy, adjusted for the comparisons).</p>" if told_apart == best["strategy"] else
             f"<p class='verdict'>No strategy stands out: none beats every other head to head once adjusted for "
             f"the comparisons. The highest rating is {escape(best['strategy'])}'s ({best['elo']:+.0f}, 95% CI "
             f"{best['ci_low']:+.0f} to {best['ci_high']:+.0f}).</p>"),
            "<h2 id='figures'>Figures</h2><p class='dig'>Click a figure to enlarge it, click again to close.</p>",
            figures(images),
        ]
        parts.append("<h2 id='strategies'>Win rate per seat played, over all lineups</h2>")
        parts.append(table(["strategy", "win rate", "95% CI", "seat-games"], [
            [escape(r["strategy"]), pct(r["win_rate"]), f"{pct(r['ci_low'])} to {pct(r['ci_high'])}",
             f"{r['seat_games']:,}"] for _, r in res.strategies.iterrows()]))
        parts.append("<h2 id='matchups'>Matchups</h2>")
        parts.append(
            f"<p>Each row reads A against B over the decided games whose seats hold only A and B, two ways. "
            f"<b>Per-seat win rate (fair {pct(fair, 0)})</b>: of the A seats in those games, the share that won; "
            f"with {plan.players} players one seat's fair share is {pct(fair, 0)}, so a strategy as strong as "
            f"its opponent reads {pct(fair, 0)}, not 50%. <b>Head-to-head share (even 50%)</b>: A's per-seat "
            "win rate divided by the sum of A's and B's, r<sub>A</sub> / (r<sub>A</sub> + r<sub>B</sub>): "
            "50% is even whatever the seat counts (three A seats against one B seat, or one against three), "
            "above 50% A is the stronger, and A's share and B's add up to 100%. Games without a winner "
            "(timeouts, stalemates) say nothing about who is stronger; their share is in the last "
            "column.</p>")
        parts.append(table(["A", "against B", f"A's win rate per seat (fair {pct(fair, 0)})", "95% CI",
                            "A's head-to-head share (even 50%)", "95% CI", "games", "without a winner"], [
            [escape(r["strategy"]), escape(r["opponent"]), pct(r["win_rate"]),
             f"{pct(r['ci_low'])} to {pct(r['ci_high'])}", pct(r["h2h_share"]),
             f"{pct(r['h2h_ci_low'])} to {pct(r['h2h_ci_high'])}", f"{r['games']:,}", pct(r["no_winner_share"])]
            for _, r in res.matchups.iterrows()], text_cols=2))
        parts.append("<h2 id='ratings'>Ratings</h2>")
        parts.append(table(["strategy", "rating", "95% CI"], [
            [escape(r["strategy"]), f"{r['elo']:+.0f}", f"{r['ci_low']:+.0f} to {r['ci_high']:+.0f}"]
            for _, r in res.ratings.iterrows()]))
        parts.append(command_block(command))
        sub = sub_line(f"{plan.n:,} games", f"{plan.players} players",
                       f"every one of {len(plan.lineup.seats)} lineups equally often", f"seed {plan.seed}")
        html = page(f"tournament {plan.spec.id}", f"{plan.spec.id}: tournament of {', '.join(names)}", sub, *parts,
                    findings=found, checked="no strategy beats every other head to head, and the games end")
        (tmp / "tournament.html").write_text(html, encoding="utf-8")
        run_folder.write_json(tmp / run_folder.RUN_MARKER, run_folder.base_manifest("tournament", plan, command, strategies=names,
                                                    lineups=len(plan.lineup.seats), config=plan.config))
    return Path(out)
