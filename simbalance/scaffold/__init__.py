"""`simbalance new-game NAME --out DIR`: a designer's own game, as a working, installable package.

The skeleton is rendered from ``template/`` (shipped inside simbalance's wheel): a small but
complete card game in the file template of docs/architecture.md (one suit, highest card takes the
trick, first to a number of tricks wins), its config (with a seat compensation, a head start in
tricks read by core/config.seat_points as the built-in games read theirs, and the ``[knobs]`` that
``solve`` searches) with two heuristic strategies, ``random`` and
the search players ``mcts`` and ``flat`` (its ``search_nb.py``: what a seat may see), a card-impact
table, three rule variants and two presets, a rules page, and tests that run simbalance's contract
test, scripted deals and a check of what a seat sees on it. Names are substituted in file names (``PACKAGE``, ``GAME_ID``) and in
the text (``my_game``, ``my-game``, ``My Game``, ``SIMBALANCE_VERSION``); ``.tmpl`` is dropped
and ``gitignore`` becomes ``.gitignore``.

Everything is checked before a file is written; the skeleton is written under a temporary name
beside ``DIR`` and renamed into place, so a failure leaves nothing behind.
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from simbalance.core.errors import SimbalanceError
from simbalance.version import __version__

TEMPLATE = Path(__file__).resolve().parent / "template"
NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_NAME = 40
EXAMPLE = "e.g. trick-race (its package is then trick_race)"


@dataclass(frozen=True)
class Names:
    game_id: str  # "trick-race": the id of `simbalance run trick-race` and the distribution's name
    package: str  # "trick_race": the Python package
    title: str  # "Trick Race"

    def substitute(self, text: str) -> str:
        return (text.replace("my_game", self.package).replace("my-game", self.game_id)
                .replace("My Game", self.title).replace("SIMBALANCE_VERSION", __version__))


def check_name(name: str) -> Names:
    """The names of a new game, or a SimbalanceError saying why ``name`` cannot be one."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name) or len(name) > MAX_NAME:
        raise SimbalanceError(f"new-game {name!r}: not a valid game name: lower-case letters and digits, words "
                              f"joined by single hyphens, starting with a letter, at most {MAX_NAME} characters; "
                              f"{EXAMPLE}")
    package = name.replace("-", "_")
    if keyword.iskeyword(package) or not package.isidentifier():
        raise SimbalanceError(f"new-game {name!r}: {package} is a Python keyword, not a valid package name; {EXAMPLE}")
    from simbalance.games.registry import builtin_games, plugin_packages

    if name in builtin_games():
        raise SimbalanceError(f"new-game {name!r}: a game of that id exists (built-in); choose another name "
                              "(`simbalance games` lists the ids)")
    claims = plugin_packages(name)  # from the packages' metadata: no plug-in's code runs for a name check
    if claims:
        raise SimbalanceError(f"new-game {name!r}: the installed package {', '.join(claims)} claims that id; "
                              "choose another name")
    if package in sys.stdlib_module_names or package == "simbalance" or importlib.util.find_spec(package) is not None:
        raise SimbalanceError(f"new-game {name!r}: a module named {package} can already be imported here, and the "
                              "game's package would clash with it; choose another name")
    return Names(name, package, " ".join(word.capitalize() for word in name.split("-")))


def check_out(out: Path) -> Path:
    """The folder to create: new, or an empty folder; its parent must be (or can become) a folder."""
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise SimbalanceError(f"--out {out}: a file of that name exists; give a new folder")
        if any(out.iterdir()):
            raise SimbalanceError(f"--out {out}: the folder exists and is not empty; give a new folder")
    for parent in out.resolve().parents:
        if parent.exists():
            if not parent.is_dir():
                raise SimbalanceError(f"--out {out}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise SimbalanceError(f"--out {out}: {parent} is not writable")
            break
    return out


def template_files() -> list[tuple[Path, Path]]:
    """(template file, its path in the new game with the placeholders left in)."""
    files = []
    for path in sorted(TEMPLATE.rglob("*")):
        if path.is_file() and path.suffix == ".tmpl" and "__pycache__" not in path.parts:
            rel = path.relative_to(TEMPLATE).with_suffix("")
            if rel.name == "gitignore":
                rel = rel.with_name(".gitignore")
            files.append((path, rel))
    return files


def render(names: Names, folder: Path) -> list[Path]:
    """Write the skeleton into ``folder`` (which must not exist); returns the files written."""
    written = []
    for source, rel in template_files():
        parts = [names.package if p == "PACKAGE" else p.replace("GAME_ID", names.game_id) for p in rel.parts]
        target = folder.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(names.substitute(source.read_text(encoding="utf-8")), encoding="utf-8")
        written.append(target)
    return written


def new_game(name: str, out: str | Path | None = None) -> tuple[Names, Path, list[Path]]:
    """Check ``name`` and ``out`` (default: ``./NAME``), write the skeleton, and return its names,
    folder and files (paths inside the folder)."""
    names = check_name(name)
    out = check_out(Path(out) if out is not None else Path(name))
    made = [p for p in (out.parent, *out.parent.parents) if not p.exists()]  # folders to create, deepest first
    partial = out.parent / f".{out.name}.partial-{os.getpid()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        files = render(names, partial)
        if out.exists():
            out.rmdir()  # empty: checked above
        partial.rename(out)
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        for folder in made:  # and the folders made for it
            try:
                folder.rmdir()
            except OSError:
                break
        raise SimbalanceError(f"--out {out}: cannot write the game there: {exc}") from None
    return names, out, [out / f.relative_to(partial) for f in files]
