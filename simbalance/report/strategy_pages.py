"""The folders of `skill` and `tune`: skill.html / tune.html (findings first, tables, figures), the
numbers as JSON (skill.json / tune.json), findings.json and manifest.json."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
from matplotlib.figure import Figure

from simbalance.report.figures import COLORS, win_rates
from simbalance.report.html import command_block, figures, page, pct, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, write_json
from simbalance.version import __version__

if TYPE_CHECKING:
    from simbalance.studies.skill import SkillResult
    from simbalance.studies.tune import TuneResult


def study_manifest(kind: str, game: str, players: int, n: int, seed: int, command: str, **fields) -> dict:
    from datetime import UTC, datetime

    return {"kind": kind, "game": game, "simbalance_version": __version__, "n": n, "seed": seed, "players": players,
            **fields, "command": command, "created_utc": datetime.now(UTC).isoformat(timespec="seconds")}


def _rate_rows(df: pd.DataFrame, fair: float, first: str = "strategy") -> list[list[str]]:
    return [[escape(str(r[first])), escape(str(r["against"])), pct(r["win_rate"]),
             f"{pct(r['ci_low'])} to {pct(r['ci_high'])}", f"{100 * (r['win_rate'] - fair):+.1f} pp"]
            for _, r in df.iterrows()]


def skill_json(res: SkillResult) -> dict:
    return {"game": res.game, "players": res.players, "has_decisions": res.has_decisions,
            "agency": res.agency.to_dict(orient="records"), "restricted": res.restricted.to_dict(orient="records"),
            "search": res.search.to_dict(orient="records") if res.search is not None else [],
            "verdict": res.verdict}


def write_skill_folder(res: SkillResult, out: Path, command: str, n: int, seed: int) -> Path:
    """skill.html, skill.json (the numbers), findings.json, manifest.json and the figures."""
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


def history_figure(history: list[dict]) -> Figure:
    """The search, generation by generation: the best candidate's and the candidates' mean win rate."""
    fig = Figure(figsize=(6.0, 3.4), layout="constrained")
    ax = fig.add_subplot()
    gens = [h["generation"] for h in history]
    ax.plot(gens, [h["best_fitness"] for h in history], "o-", color=COLORS[0], label="best candidate")
    ax.plot(gens, [h["mean_fitness"] for h in history], "s--", color=COLORS[1], label="candidates' mean")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.1%}")
    ax.set_xticks(gens)
    ax.set_xlabel("generation")
    ax.set_ylabel("win rate per seat")
    ax.set_title("The search")
    ax.legend(fontsize=9, frameon=False)
    return fig


def tune_json(res: TuneResult) -> dict:
    return {"game": res.game, "strategy": res.strategy, "field": res.field, "default": res.default, "best": res.best,
            "history": res.history, "default_win_rate": res.default_win_rate, "best_win_rate": res.best_win_rate,
            "margin": res.margin, "dominance_margin": res.dominance_margin,
            "dominance": res.dominance.to_dict(orient="records"), "dominates_all": res.dominates_all}


def write_tune_folder(res: TuneResult, out: Path, command: str, n: int, seed: int, preset: str, gain: str,
                      overall: str, value) -> Path:
    """tune.html, tune.json (the numbers), findings.json, manifest.json and the figures. ``preset``,
    ``gain`` and ``overall`` are the sentences the terminal prints; ``value`` formats a parameter."""
    fair = 1 / res.players
    with atomic_folder(out) as tmp:
        images = save_figures(tmp, {
            "search": history_figure(res.history),
            "dominance": win_rates(res.dominance, "against", fair, f"The tuned {res.strategy} alone against each"),
        })
        found = res.findings()
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        (tmp / "tune.json").write_text(json.dumps(tune_json(res), indent=2, default=float) + "\n", encoding="utf-8")
        dom = [[escape(r["against"]), pct(r["win_rate"]), f"{pct(r['ci_low'])} to {pct(r['ci_high'])}",
                f"{100 * r['edge']:+.1f} pp", escape(r["standing"])] for _, r in res.dominance.iterrows()]
        parts = [
            "<h2 id='parameters'>The parameters</h2>",
            f"<p>{escape(res.strategy)} tuned against {escape(', '.join(res.field))} (cross-entropy search, the same "
            "games for every candidate). The best found is what the final test played and what the preset "
            "below holds.</p>",
            table(["parameter", "default", "best found"],
                  [[escape(k), f"{res.default[k]:.6g}", value(res.best[k])] for k in res.params]),
            f"<p class='verdict'>{escape(gain)}</p>",
            f"<pre>{escape(preset)}</pre>",
            "<h2 id='dominance'>The best found alone against each strategy</h2>",
            f"<p>Alone against {res.players - 1} copies of each strategy, its win rate per seat over the decided "
            f"games, against the fair {pct(fair, 0)}; 'dominates' means at least {100 * res.dominance_margin:g} "
            "points above the fair share, the 95% CI's lower end included.</p>",
            table(["against", f"win rate per seat (fair {pct(fair, 0)})", "95% CI", "edge over fair", "reads"], dom,
                  text_cols=1),
            f"<p class='verdict'>{escape(overall)}</p>",
            "<h2 id='figures'>Figures</h2>", figures(images),
            command_block(command),
        ]
        sub = sub_line(f"{n:,} games per candidate", f"{res.players} players", f"seed {seed}")
        html = page(f"tune {res.game}", f"{res.game}: tuning {res.strategy}", sub, *parts, findings=found,
                    checked="the tuned strategy dominates no strategy and does not beat its defaults")
        (tmp / "tune.html").write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest("tune", res.game, res.players, n, seed, command, strategy=res.strategy,
                                               config=res.config))
    return Path(out)
