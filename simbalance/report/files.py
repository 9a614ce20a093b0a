"""Output files a command writes beside its run folder (a baseline, a skill or tune result, CI
reports): checked before any game is played, written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

from simbalance.core.errors import SimbalanceError


def check_report_path(option: str, path: Path) -> None:
    """Refuse an output file that cannot be written, before anything runs (nothing is created here)."""
    path = Path(path)
    if path.is_dir():
        raise SimbalanceError(f"{option} {path}: is a directory; give a file name")
    if path.exists() and not os.access(path, os.W_OK):
        raise SimbalanceError(f"{option} {path}: the file is not writable")
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise SimbalanceError(f"{option} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SimbalanceError(f"{option} {path}: the directory {parent} is not writable")


def write_report(path: Path, text: str, option: str = "report") -> None:
    """Write an output file whole or not at all (a temporary file renamed into place)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SimbalanceError(f"{option} {path} cannot be written: {exc.strerror or exc}") from None
