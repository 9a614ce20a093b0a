"""The findings in the terminal, after a command's tables: one short line each, high first."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

STYLE = {"high": "bold red", "medium": "yellow", "low": "dim"}


def print_findings(console: Console, findings: list, page: str | None = None) -> None:
    """``findings``: analysis.findings.Finding, in order; a command to dig in is printed under its
    finding, a part of the page is left to the page (``page``: its path)."""
    if not findings:
        console.print("findings: nothing stands out (thresholds: the config's \\[findings] table)")
        return
    console.print(f"[bold]findings[/] ({len(findings)}, high first{'; details on the page' if page else ''}):")
    for f in findings:
        console.print(f"  [{STYLE[f.severity]}]{f.severity:>6}[/] {escape(f.text)}", highlight=False)
        if f.dig_in and not f.dig_in.startswith("#"):
            console.print(f"         → {escape(f.dig_in)}", highlight=False, soft_wrap=True)
