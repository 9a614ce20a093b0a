"""The folder of `tune`: tune.html (findings first, tables, figures), tune.json (the numbers),
findings.json and manifest.json."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from matplotlib.figure import Figure

from simbalance.analysis.tune import played_value
from simbalance.report.figures import COLORS, win_rates
from simbalance.report.html import command_block, figures, page, pct, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, study_manifest, write_json

if TYPE_CHECKING:
    from simbalance.studies.tune import TuneResult


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


def write_tune_folder(res: TuneResult, out: Path, command: str) -> Path:
    """tune.html, tune.json (the numbers), findings.json, manifest.json and the figures; the sentences
    are the result's own, the ones the terminal prints."""
    fair, n, seed = 1 / res.players, res.n, res.seed
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
                  [[escape(k), f"{res.default[k]:.6g}", played_value(res.best[k])] for k in res.params]),
            f"<p class='verdict'>{escape(res.gain_text())}</p>",
            f"<pre>{escape(res.preset())}</pre>",
            "<h2 id='dominance'>The best found alone against each strategy</h2>",
            f"<p>Alone against {res.players - 1} copies of each strategy, its win rate per seat over the decided "
            f"games, against the fair {pct(fair, 0)}; 'dominates' means at least {100 * res.dominance_margin:g} "
            "points above the fair share, the 95% CI's lower end included.</p>",
            table(["against", f"win rate per seat (fair {pct(fair, 0)})", "95% CI", "edge over fair", "reads"], dom,
                  text_cols=1),
            f"<p class='verdict'>{escape(res.verdict())}</p>",
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
