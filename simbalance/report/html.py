"""The building blocks of every page: one stylesheet, the findings block, figures (PNG embedded as
base64, click to enlarge with plain CSS), tables. No external file and no script, so a designer can
mail the one page."""

from __future__ import annotations

import base64
import re
import struct
from html import escape

from simbalance.analysis.findings import Finding
from simbalance.version import __version__

CSS = """
body { font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1400px;
       color: #222; line-height: 1.45; padding: 0 1em; }
h1 { margin-bottom: 0.1em; } .sub { color: #666; margin-top: 0; }
h2 { margin-top: 1.6em; } h3 { margin-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.6em 0 1.4em; font-size: 0.92em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.8em; text-align: right; vertical-align: top; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; }
td.text, th.text { text-align: left; }
caption { text-align: left; font-weight: 600; padding: 0.2em 0; }
.tables { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
.figs { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
figure.fig { margin: 0 0 1em; max-width: 100%; }
figure.fig img { display: block; max-width: 100%; height: auto; cursor: zoom-in; }
figure.fig figcaption { color: #555; font-size: 0.88em; max-width: 660px; }
figure.fig .close { display: none; }
figure.fig:target { position: fixed; inset: 0; z-index: 10; margin: 0; background: rgba(20, 20, 20, 0.88);
                    display: flex; align-items: center; justify-content: center; }
figure.fig:target img { max-width: 96vw; max-height: 94vh; width: auto; background: #fff; }
figure.fig:target figcaption { display: none; }
figure.fig:target .close { display: block; position: absolute; inset: 0; cursor: zoom-out; }
.verdict { padding: 0.6em 1em; border-left: 4px solid #3b6ea8; background: #f3f6fa; }
.findings { padding: 0.4em 1em 0.6em; border: 1px solid #e3d9b8; background: #fffbea; border-radius: 4px; }
.findings h2 { margin-top: 0.3em; } .findings ul { padding-left: 0; list-style: none; margin: 0.4em 0; }
.findings li { margin: 0.45em 0; padding-left: 5.6em; text-indent: -5.6em; }
.sev { display: inline-block; width: 4.8em; text-indent: 0; text-align: center; font-size: 0.78em;
       font-weight: 700; border-radius: 3px; padding: 0.05em 0; margin-right: 0.6em; color: #fff; }
.sev-high { background: #c0392b; } .sev-medium { background: #d68910; } .sev-low { background: #7f8c8d; }
.dig { color: #555; } code { background: #f3f3f3; padding: 0.05em 0.3em; border-radius: 3px; font-size: 0.9em; }
details pre { background: #f7f7f7; padding: 1em; overflow-x: auto; font-size: 0.85em; }
a { color: #2e5f93; }
"""


def page(title: str, heading: str, sub: str, *parts: str, findings: list[Finding] | None = None,
         checked: str = "") -> str:
    """A whole page: title, the line under it, the findings (when given), then ``parts``."""
    head = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<style>{CSS}</style></head><body>", f"<h1>{escape(heading)}</h1>", f"<p class='sub'>{sub}</p>"]
    if findings is not None:
        head.append(findings_html(findings, checked))
    return "\n".join([*head, *parts, "</body></html>"])


def findings_html(findings: list[Finding], checked: str = "") -> str:
    """The findings, high first, each with its severity and where to dig in (a link to a part of the
    page, or a command to run)."""
    if not findings:
        return ("<section id='findings' class='findings'><h2>Findings</h2><p>Nothing stands out"
                f"{': ' + escape(checked) if checked else ''}. The thresholds are in the config's "
                "<code>[findings]</code> table (docs/findings.md).</p></section>")
    items = []
    for f in findings:
        dig = ""
        if f.dig_in:
            dig = (f" <a class='dig' href='{escape(f.dig_in)}'>see below</a>" if f.dig_in.startswith("#")
                   else f" <span class='dig'>Look at it: <code>{escape(f.dig_in)}</code></span>")
        items.append(f"<li class='finding' data-kind='{escape(f.kind)}'><span class='sev sev-{f.severity}'>"
                     f"{f.severity}</span>{escape(f.text)}{dig}</li>")
    return ("<section id='findings' class='findings'><h2>Findings</h2><ul>" + "".join(items) + "</ul>"
            "<p class='dig'>Thresholds: the config's <code>[findings]</code> table, e.g. "
            "<code>--set findings.ties_max=0.1</code> (docs/findings.md).</p></section>")


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0
    return struct.unpack(">II", png[16:24])


def _anchor(name: str) -> str:
    return "fig-" + re.sub(r"[^A-Za-z0-9_-]+", "-", name)


def embed_png(name: str, png: bytes, caption: str = "", alt: str | None = None) -> str:
    """A figure holding the PNG itself (no other file), shown at its own size (or the page's width),
    that opens full-screen when clicked and closes with a second click: CSS only (``:target``)."""
    data = base64.b64encode(png).decode("ascii")
    width, height = png_size(png)
    anchor = _anchor(name)
    label = escape(alt or name.replace("_", " "))
    cap = f"<figcaption>{caption}</figcaption>" if caption else ""
    return (f"<figure class='fig' id='{anchor}'><a href='#{anchor}' title='click to enlarge'>"
            f"<img alt='{label}' width='{width}' height='{height}' src='data:image/png;base64,{data}'></a>"
            f"{cap}<a class='close' href='#figures-closed' title='close'></a></figure>")


def figures(images: dict[str, bytes], captions: dict[str, str] | None = None) -> str:
    """Figures side by side as the page's width allows, each at its own height."""
    captions = captions or {}
    return "<div class='figs'>" + "".join(embed_png(k, v, captions.get(k, "")) for k, v in images.items()) + "</div>"


def sub_line(*items: str) -> str:
    """The grey line under a page's title: its facts, escaped, joined by dots."""
    return " · ".join(escape(i) for i in items if i) + f" · simbalance {escape(__version__)}"


def pct(v, digits=1) -> str:
    from simbalance.analysis.findings import pct as share  # one rule: no "-0.0%"

    return share(v, digits)


def pp(v, digits=2) -> str:
    return "n/a" if v is None or v != v else f"{100 * v:+.{digits}f} pp"


def num(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(num(x) for x in v) + "]"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v != v:
            return "n/a"
        return f"{v:,.4g}" if abs(v) < 1e5 else f"{v:,.0f}"
    if isinstance(v, int):
        return f"{v:,}"
    return escape(str(v))


def table(headers: list[str], rows: list[list[str]], caption: str = "", text_cols: int = 1) -> str:
    """A table; cells are HTML already (escape what comes from outside). The first ``text_cols``
    columns are text (left-aligned), the others numbers."""
    def cls(i):
        return " class='text'" if i < text_cols else ""

    head = "".join(f"<th{cls(i)}>{escape(h)}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>" for row in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<tr>{head}</tr>{body}</table>"




def command_block(command: str) -> str:
    return f"<h2 id='run'>Run</h2><p><code>{escape(command)}</code></p>"
