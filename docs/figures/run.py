"""Regenerate every number quoted in docs/rules/: `make docs-figures` (or `python docs/figures/run.py GAME ...
[--only NAME,NAME]`).

A docs page marks each generated passage:

    <!-- figure seat-rates -->
    ...text written by this script...
    <!-- end figure -->

and ``docs/figures/<game module>.py`` (``aquaman.py``, ``captain_future.py``, ...) defines
``FIGURES = {"seat-rates": function, ...}``: each function plays the games it needs through
``simbalance.simulate`` (fixed seeds) and returns the passage's markdown. The script replaces the
text between the markers and ends it with the engine version, so a number in the docs always says
which rules and players produced it. A marker without a function (or a function without a marker) is
an error: ``tests/test_docs_figures.py`` checks that without playing anything.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"(<!-- figure (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end figure -->)", re.S)


def figure_modules() -> dict[str, Path]:
    """game id -> the file of its figure functions."""
    return {p.stem.replace("_", "-"): p for p in sorted(HERE.glob("*.py"))
            if p.stem not in ("run", "report_picture", "common", "your_game")}  # your_game: docs/your-game.md


def load_figures(path: Path) -> dict:
    if str(HERE) not in sys.path:  # the scripts share docs/figures/common.py
        sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location(f"docs_figures_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FIGURES


def markers(text: str) -> list[str]:
    return [m.group("name") for m in MARKER.finditer(text)]


def regenerate(game: str, only: list[str] | None = None) -> None:
    import simbalance
    from simbalance.games.registry import get_game

    page = RULES / f"{game}.md"
    figures = load_figures(figure_modules()[game])
    text = page.read_text()
    missing = [name for name in markers(text) if name not in figures]
    unused = [name for name in figures if name not in markers(text)]
    if missing or unused:
        raise SystemExit(f"{page}: markers without a function {missing}, functions without a marker {unused}")
    version = get_game(game).load().version

    def body(match: re.Match) -> str:
        name = match.group("name")
        if only and name not in only:
            return match.group(0)
        print(f"{game}: {name}", file=sys.stderr, flush=True)
        out = figures[name]().rstrip("\n")
        stamp = f"<sub>{game} engine v{version}, simbalance {simbalance.__version__}: `make docs-figures`</sub>"
        return f"{match.group(1)}{out}\n\n{stamp}\n{match.group(4)}"

    page.write_text(MARKER.sub(body, text))


def main(argv: list[str]) -> None:
    only = None
    if "--only" in argv:  # --only ladder,robustness: just these passages (the others stay as they are)
        i = argv.index("--only")
        only, argv = argv[i + 1].split(","), argv[:i] + argv[i + 2:]
    games = argv or list(figure_modules())
    unknown = [g for g in games if g not in figure_modules()]
    if unknown:
        raise SystemExit(f"no figures for {unknown}; known: {', '.join(figure_modules())}")
    for game in games:
        regenerate(game, only)


if __name__ == "__main__":
    main(sys.argv[1:])
