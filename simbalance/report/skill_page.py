"""The folder of `skill`: skill.html (findings first, tables, figures), skill.json (the numbers),
findings.json and manifest.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from simbalance.report.figures import win_rates
from simbalance.report.html import command_block, figures, page, pct, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, study_manifest, write_json

if TYPE_CHECKING:
    from simbalance.studies.skill import SkillResult


def _rate_rows(df: pd.DataFrame, fair: float, first: str = "strategy") -> list[list[str]]:
    return [[escape(str(r[first])), escape(str(r["against"])), pct(r["win_rate"]),
             f"{pct(r['ci_low'])} to {pct(r['ci_high'])}", f"{100 * (r['win_rate'] - fair):+.1f} pp"]
            for _, r in df.iterrows()]


def skill_json(res: SkillResult) -> dict:
    return {"game": res.game, "players": res.players, "has_decisions": res.has_decisions,
            "agency": res.agency.to_dict(orient="records"), "restricted": res.restricted.to_dict(orient="records"),
            "search": res.search.to_dict(orient="records") if res.search is not None else [],
            "verdict": res.verdict}


def write_skill_folder(res: SkillResult, out: Path, command: str) -> Path:
    """skill.html, skill.json (the numbers), findings.json, manifest.json and the figures."""
    n, seed = res.n, res.seed
    fair = 1 / res.players
    with atomic_folder(out) as tmp:
        figs = {}
        if len(res.agency):
            figs["agency"] = win_rates(res.agency, "strategy", fair, "Alone against random players (per seat)")
        if len(res.restricted):
            figs["restricted"] = win_rates(res.restricted.assign(label=[f"{a}\nvs {b}" for a, b in zip(
                res.restricted["strategy"], res.restricted["against"], strict=True)]), "label", fair,
                "Without one ability, against the full strategy")
        images = save_figures(tmp, figs)
        found = res.findings()
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        write_json(tmp / "skill.json", skill_json(res))
        heads = ["strategy", "against", f"win rate per seat (fair {pct(fair, 0)})", "95% CI", "edge over fair"]
        parts = [
            f"<p class='verdict'>{escape(res.verdict)}</p>",
            "<h2 id='agency'>Agency: each strategy alone against random players</h2>",
            f"<p>One seat plays the strategy, the other {res.players - 1} play at random, seats rotated; its win "
            f"rate per seat over the decided games against the fair {pct(fair, 0)}. A game of pure luck gives every "
            "strategy the fair share.</p>",
            table(heads, _rate_rows(res.agency, fair), text_cols=2) if len(res.agency)
            else "<p>No heuristic to measure (the game has no decisions, or only random players).</p>",
            *(["<h2 id='search'>Search players against random players</h2>",
               "<p>The same measurement for the search players (fewer games: each searches at every decision). "
               "The verdict above reads the heuristics only.</p>",
               table(heads, _rate_rows(res.search, fair), text_cols=2)]
              if res.search is not None and len(res.search) else []),
            "<h2 id='restricted'>Restricted play: without one ability, against the full strategy</h2>",
            "<p>A preset that takes one ability away from a strategy (<code>restricts</code> in the game's presets) "
            "alone against the full strategy: above the fair share, not using that ability wins more.</p>",
            table(heads, _rate_rows(res.restricted, fair), text_cols=2) if len(res.restricted)
            else "<p>No preset of this game restricts a strategy.</p>",
            "<h2 id='figures'>Figures</h2>", figures(images) if images else "<p>None.</p>",
            command_block(command),
        ]
        sub = sub_line(f"{n:,} games per measurement", f"{res.players} players", f"seed {seed}")
        html = page(f"skill {res.game}", f"{res.game}: skill against luck", sub, *parts, findings=found,
                    checked="decisions matter, and no restricted strategy beats the full one")
        (tmp / "skill.html").write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest("skill", res.game, res.players, n, seed, command, config=res.config))
    return Path(out)
