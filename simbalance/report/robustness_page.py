"""The folder of `robustness`: robustness.html (findings first, tables, figures), robustness.json
(the numbers), findings.json and manifest.json."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from simbalance.analysis.labels import player
from simbalance.analysis.metrics import json_records
from simbalance.report.figures import seats_by_model
from simbalance.report.html import command_block, figures, page, pct, sub_line, table
from simbalance.report.run_folder import RUN_MARKER, atomic_folder, save_figures, study_manifest, write_json
from simbalance.report.run_page import evaluation_words

if TYPE_CHECKING:
    from simbalance.studies.robustness import RobustnessResult






def robustness_json(res: RobustnessResult) -> dict:
    models = res.models.assign(favoured=[list(v) for v in res.models["favoured"]],
                               disfavoured=[list(v) for v in res.models["disfavoured"]])
    return {"game": res.game, "players": res.players, "models": json_records(models),
            "seats": json_records(res.seats), "conclusions": res.conclusions,
            "search_precision": res.precision, "search_most": res.search_n, "capped": list(res.capped),
            "search_evaluations": res.evaluations}


def write_robustness_folder(res: RobustnessResult, out: Path, command: str) -> Path:
    """robustness.html, robustness.json, findings.json, manifest.json and the figure."""
    fair = 1 / res.players
    with atomic_folder(out) as tmp:
        images = save_figures(tmp, {"seats": seats_by_model(res.seats, fair)})
        found = res.findings()
        write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found]})
        write_json(tmp / "robustness.json", robustness_json(res))
        verdicts = {"holds": "holds", "weaker": "shows under some models only", "flips": "flips",
                    "differs": "differs", "smaller": "smaller under strong play",
                    "larger": "larger under strong play", "reversed": "reversed under strong play",
                    "not settled": "not settled under strong play"}
        said = "".join(f"<li><b>{escape(c['topic'])}: {verdicts[c['verdict']]}.</b> {escape(c['text'])}</li>"
                       for c in res.conclusions)
        rows = []
        for _, m in res.models.iterrows():
            rates = res.seats[res.seats["model"] == m["model"]].sort_values("seat")
            rows.append([escape(f"all {m['model']}"), f"{int(m['games']):,}", pct(m["decided"] / m["games"]),
                         *[pct(v) for v in rates["win_rate"]],
                         f"{100 * m['first_player']:+.1f} pp ({100 * m['fp_ci_low']:+.1f} to {100 * m['fp_ci_high']:+.1f})",
                         escape(", ".join(player(s) for s in m["favoured"]) or "none"),
                         escape(", ".join(player(s) for s in m["disfavoured"]) or "none")])
        heads = ["player model", "games", "decided", *[player(s) for s in range(res.players)],
                 "first player (95% CI)", "favoured", "disfavoured"]
        parts = [
            "<h2 id='conclusions'>Do the conclusions hold?</h2><ul>" + said + "</ul>",
            "<h2 id='models'>Player models</h2>",
            f"<p>Every seat plays the same strategy; {res.n:,} games per heuristic model. A search player's model "
            f"(it searches at every decision) plays until every seat's 95% CI half-width is below "
            f"{100 * res.precision:g} points, at most {res.search_n:,} games. Win rates per seat over the decided "
            f"games; the fair share is {pct(fair, 0)}. A seat is favoured (disfavoured) when its 95% CI lies above "
            f"(below) it.</p>",
            *[f"<p>{escape(evaluation_words(told, f'All {name}: its seats'))}</p>" for name, told in res.evaluations.items()],
            *[f"<p class='verdict'>All {escape(name)}: the cap of {res.search_n:,} games stopped it before every "
              f"seat's 95% CI was within ±{100 * res.precision:g} points; its conclusions have less power.</p>"
              for name in res.capped],
            table(heads, rows, text_cols=1),
            "<h2 id='figures'>Figures</h2>", figures(images),
            command_block(command),
        ]
        sub = sub_line(f"{len(res.models)} player models", f"{res.players} players", f"seed {res.seed}")
        html = page(f"robustness {res.game}", f"{res.game}: balance under several player models", sub, *parts,
                    findings=found, checked="every seat conclusion holds under every player model")
        (tmp / "robustness.html").write_text(html, encoding="utf-8")
        write_json(tmp / RUN_MARKER, study_manifest("robustness", res.game, res.players, res.n, res.seed, command,
                                               models=list(res.models["model"]), precision=res.precision,
                                               search_n=res.search_n, search_evaluations=res.evaluations,
                                               config=res.config))
    return Path(out)
