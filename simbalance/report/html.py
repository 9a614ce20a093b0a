"""The self-contained report page: tables and figures (PNG embedded as base64), no external files,
so a designer can mail the one file."""

from __future__ import annotations

import base64
import json
from html import escape

CSS = """
body { font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 980px;
       color: #222; line-height: 1.45; padding: 0 1em; }
h1 { margin-bottom: 0.1em; } .sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 0.6em 0 1.4em; font-size: 0.92em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.8em; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
.figs { display: flex; flex-wrap: wrap; gap: 1em; } .figs img { max-width: 470px; width: 100%; }
.verdict { padding: 0.6em 1em; border-left: 4px solid #3b6ea8; background: #f3f6fa; }
details pre { background: #f7f7f7; padding: 1em; overflow-x: auto; font-size: 0.85em; }
"""


def embed_png(name: str, png: bytes, style: str = "") -> str:
    """An <img> holding the PNG itself, so the page needs no other file."""
    data = base64.b64encode(png).decode("ascii")
    return f"<img alt='{escape(name)}' title='{escape(name)}' {style} src='data:image/png;base64,{data}'>"


def pct(v, digits=1) -> str:
    return "n/a" if v is None else f"{100 * v:.{digits}f}%"


def num(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(num(x) for x in v) + "]"
    if isinstance(v, float):
        return f"{v:,.4g}" if abs(v) < 1e5 else f"{v:,.0f}"
    if isinstance(v, int):
        return f"{v:,}"
    return escape(str(v))


def table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def rate_rows(items: list[dict], key: str) -> list[list[str]]:
    return [
        [escape(str(it[key])), pct(it["win_rate"]), f"{pct(it['ci_low'])} to {pct(it['ci_high'])}",
         num(it.get("seat_games", it.get("games")))]
        for it in items
    ]


def pvalue(p) -> str:
    if p is None:
        return "n/a"
    return "< 1e-16" if p < 1e-16 else f"= {p:.2g}"


def verdict(summary: dict) -> str:
    """One plain sentence on seat balance, from the chi-square test and the largest gap."""
    test = summary["equal_seats_chi_square"]
    if test["p_value"] is None or summary["balance"] is None:
        return "No game had a winner: seat balance cannot be judged."
    gap = 1 - summary["balance"]
    if test["p_value"] < 0.01:
        return (f"Seats are <b>not</b> equal (chi-square p {pvalue(test['p_value'])}); the largest gap between "
                f"two seats is {pct(gap)}.")
    return (f"No evidence that seats differ (chi-square p {pvalue(test['p_value'])}); the largest gap between "
            f"two seats is {pct(gap)}, within noise at this number of games.")


def flat_metrics(d: dict, prefix: str = "") -> list[tuple[str, object]]:
    rows: list[tuple[str, object]] = []
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            rows.extend(flat_metrics(v, name + "."))
        elif isinstance(v, list) and len(v) > 12:  # long lists stay in summary.json
            rows.append((name, f"[{len(v)} values: see summary.json]"))
        else:
            rows.append((name, v))
    return rows


def render_report(manifest: dict, summary: dict, images: dict[str, bytes]) -> str:
    plugin = manifest.get("game_origin", "built-in") != "built-in"  # a plug-in game: its package and version
    origin = f"{escape(manifest['game_origin'])} · " if plugin else ""
    fpa = summary["first_player_advantage"]
    length = summary["length"]
    out = summary["outcomes"]
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(manifest['game'])} — simbalance</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(manifest['game'])}</h1>",
        f"<p class='sub'>{manifest['n']:,} games · {manifest['players']} players · seed {manifest['seed']} · "
        f"engine v{manifest['engine_version']} · simbalance {escape(manifest['simbalance_version'])} · "
        f"{origin}{manifest['games_per_s']:,.0f} games/s · {escape(manifest['created_utc'])}</p>",
        f"<p class='verdict'>{verdict(summary)}</p>",
        "<h2>Win rates</h2>",
        table(["seat", "win rate", "95% CI", "games"], rate_rows(summary["seats"], "seat")),
        table(["strategy", "win rate", "95% CI", "seat-games"], rate_rows(summary["strategies"], "strategy")),
        table(["metric", "value"], [
            ["first-player advantage (seat 0's share of the decided games − 1/P)",
             "n/a (no game had a winner)" if fpa["value"] is None else
             f"{fpa['value']:+.2%} (95% CI {fpa['ci_low']:+.2%} to {fpa['ci_high']:+.2%})"],
            ["balance (1 − largest gap between seats' shares of the decided games)",
             "n/a" if summary["balance"] is None else f"{summary['balance']:.2%}"],
            ["chi-square, all seats equal", f"{num(summary['equal_seats_chi_square']['statistic'])} "
             f"(p {pvalue(summary['equal_seats_chi_square']['p_value'])})"],
            ["games with a winner", pct(out["decided"])],
            ["ties (shared wins)", pct(out["ties"])],
            ["timeouts (cap reached)", pct(out["timeouts"], 3)],
            ["stalemates", pct(out["stalemates"], 3)],
        ]),
        f"<h2>Game length ({escape(length['unit'])})</h2>",
        table(["mean", "sd", "p5", "p25", "median", "p75", "p95", "max"],
              [[num(length[k]) for k in ("mean", "sd", "p5", "p25", "p50", "p75", "p95", "max")]]),
        "<h2>Figures</h2><div class='figs'>",
    ]
    for name, png in images.items():
        parts.append(embed_png(name, png))
    parts.append("</div>")
    if summary.get("game"):
        parts.append("<h2>Game statistics</h2>")
        parts.append(table(["metric", "value"], [[escape(k), num(v)] for k, v in flat_metrics(summary["game"])]))
    if summary.get("cards"):
        parts.append("<h2>Card impact</h2><p>Win rate of the seat-games that had the card against those that "
                     "did not (95% CI); the length-adjusted difference compares games of similar length, which "
                     "removes the survivor bias of cards seen only in long games.</p>")
        parts.append(table(["how", "card or group", "seat-games with", "win rate with", "without", "difference",
                            "95% CI", "length-adjusted"], [
            [escape(c["kind"]), escape(c["subject"]), num(c["seat_games_with"]), pct(c["win_rate_with"]),
             pct(c["win_rate_without"]), f"{100 * (c['difference'] or 0):+.2f} pp",
             f"{100 * (c['ci_low'] or 0):+.2f} to {100 * (c['ci_high'] or 0):+.2f}",
             f"{100 * (c['difference_length_adjusted'] or 0):+.2f} pp"]
            for c in summary["cards"]]))
    parts.append("<h2>Run</h2>")
    parts.append(f"<p><code>{escape(manifest['command'])}</code></p>")
    parts.append("<details><summary>Resolved config and manifest</summary><pre>"
                 f"{escape(json.dumps(manifest, indent=2, default=str))}</pre></details>")
    parts.append("</body></html>")
    return "\n".join(parts)
