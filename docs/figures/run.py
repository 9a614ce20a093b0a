"""Regenerate every number quoted in docs/rules/, in docs/strategies.md and in the configs'
comments: `make docs-figures` (or `python docs/figures/run.py GAME ... [--only NAME,NAME]`).

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

Three places take a game's passages (issue 53 item 6: they disagreed): its rules page
(``docs/rules/<game>.md``, ``<!-- figure NAME -->``), docs/strategies.md (``<!-- figure GAME/NAME
-->``) and its config (``configs/<game>.toml``, the same markers behind ``# ``: the lines between
become comment lines, written by ``COMMENTS[NAME]`` of the module, a config comment's short form of
the passage NAME). The measurements behind them are cached per run of this script
(``common.setting_row``), so a number quoted in two places is one run, and ``--only NAME``
regenerates NAME wherever it is marked.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
STRATEGIES = ROOT / "docs" / "strategies.md"
CONFIGS = ROOT / "configs"
HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"^((?P<lead>(?:# )?)<!-- figure (?P<name>[\w/-]+) -->\n)(?P<body>.*?)(?P<end>(?P=lead)<!-- end figure -->)",
                    re.S | re.M)


def figure_modules() -> dict[str, Path]:
    """game id -> the file of its figure functions."""
    return {p.stem.replace("_", "-"): p for p in sorted(HERE.glob("*.py"))
            if p.stem not in ("run", "report_picture", "common", "your_game")}  # your_game: docs/your-game.md


def load_module(path: Path):
    if str(HERE) not in sys.path:  # the scripts share docs/figures/common.py
        sys.path.insert(0, str(HERE))
    spec = importlib.util.spec_from_file_location(f"docs_figures_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_figures(path: Path) -> dict:
    return load_module(path).FIGURES


def markers(text: str) -> list[str]:
    return [m.group("name") for m in MARKER.finditer(text)]


def targets(game: str) -> list[tuple[Path, str]]:
    """Where ``game``'s passages are marked, each with the prefix of its marker names: the rules page,
    docs/strategies.md (``GAME/NAME``) and the game's config (its comments)."""
    return [(RULES / f"{game}.md", ""), (STRATEGIES, f"{game}/"), (CONFIGS / f"{game}.toml", "")]


def marked(game: str) -> dict[Path, list[str]]:
    """Each target's marker names of ``game`` (prefix taken off); a config's are its comments'."""
    found = {}
    for path, prefix in targets(game):
        if path.is_file():
            found[path] = [name[len(prefix):] for name in markers(path.read_text()) if name.startswith(prefix)]
    return found


def check_markers(game: str, module) -> None:
    """Every marker has its function (a config's: ``COMMENTS``) and every function a marker somewhere."""
    figures, comments = module.FIGURES, getattr(module, "COMMENTS", {})
    found = marked(game)
    problems = []
    for path, names in found.items():
        known = comments if path.suffix == ".toml" else figures
        problems += [f"{path.name}: {name} has no function" for name in names if name not in known]
    used = {name for names in found.values() for name in names}
    problems += [f"{name} has no marker" for name in [*figures, *comments] if name not in used]
    if problems:
        raise SystemExit(f"{game}: " + "; ".join(problems))


def regenerate(game: str, only: list[str] | None = None) -> None:
    import simbalance
    from simbalance.games.registry import get_game

    module = load_module(figure_modules()[game])
    check_markers(game, module)
    figures, comments = module.FIGURES, getattr(module, "COMMENTS", {})
    version = get_game(game).load().version

    for path, prefix in targets(game):
        if not path.is_file():
            continue
        comment = path.suffix == ".toml"

        def body(match: re.Match, prefix=prefix, comment=comment, path=path) -> str:
            name = match.group("name")
            if not name.startswith(prefix):
                return match.group(0)  # another game's passage (docs/strategies.md)
            name = name[len(prefix):]
            if only and name not in only:
                return match.group(0)
            print(f"{game}: {name} ({path.name})", file=sys.stderr, flush=True)
            out = (comments if comment else figures)[name]().rstrip("\n")
            stamp = f"<sub>{game} engine v{version}, simbalance {simbalance.__version__}: `make docs-figures`</sub>"
            if comment:
                lead = match.group("lead")
                out = "\n".join(f"{lead}{line}".rstrip() for line in out.splitlines())
                return f"{match.group(1)}{out}\n{lead}({game} engine v{version})\n{match.group('end')}"
            return f"{match.group(1)}{out}\n\n{stamp}\n{match.group('end')}"

        text = path.read_text()
        new = MARKER.sub(body, text)
        if new != text:
            path.write_text(new)


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
