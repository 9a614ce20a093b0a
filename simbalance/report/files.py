"""Output files a command writes beside its run folder (a baseline, a fitted evaluation, CI
reports): checked before any game is played (report/run_folder.hold_out_file), written whole or not
at all, never over a file simbalance did not write."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from simbalance.core.errors import SimbalanceError
from simbalance.core.paths import check_path_text

NAME_MAX = 255  # the longest name of one file or folder on the file systems simbalance runs on
PATH_MAX = 4096  # bytes, the closing zero included (Linux's limits.h)


def check_path_names(option: str, path: Path) -> None:
    """Refuse a path the file system cannot hold (an empty name, a name of more than 255 bytes, a
    path of more than 4096) or that is not valid, printable Unicode (core/paths.py), before anything
    runs: otherwise an OSError after the play."""
    text = str(path)
    check_path_text(option, text)
    if not text.strip():
        raise SimbalanceError(f"{option} {text!r}: empty; give a file or folder name")
    if len(os.fsencode(text)) > PATH_MAX - 1:  # PATH_MAX counts the C string's closing zero
        raise SimbalanceError(f"{option}: a path of {len(os.fsencode(text)):,} bytes; at most {PATH_MAX - 1:,}")
    for part in Path(text).parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise SimbalanceError(f"{option} {part[:40]}...: a name of {len(os.fsencode(part)):,} bytes (in UTF-8); "
                                  f"each folder or file name may have at most {NAME_MAX}")


def check_report_path(option: str, path: Path) -> None:
    """Refuse an output file that cannot be written, before anything runs (nothing is created here)."""
    check_path_names(option, path)
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
    try:  # the permission bits can say yes where the file system says no (/proc, a read-only mount)
        with tempfile.TemporaryFile(dir=parent, prefix=".simbalance-probe-"):
            pass
    except OSError as exc:
        raise SimbalanceError(f"{option} {path}: nothing can be written in {parent} ({exc.strerror or exc})") from None


def write_file_whole(path: Path, text: str, ours, what: str, option: str = "--out") -> None:
    """Write one output file whole or not at all: into ``.<name>.writing-XXXXXXXX`` beside it (a name
    of its own: a fixed ``<name>.tmp`` replaced a user's file of that name), then renamed into
    place; replaces a file at ``path`` only when ``ours(path)`` says simbalance wrote it (``what``:
    the words for such a file). A failure (a full disk, a file size limit) removes the temporary file
    and is one line naming the path; a kill leaves it for the next start (run_folder.hold_out_file)."""
    path = Path(path)
    if path.exists() and not ours(path):  # again at the end: a file may have appeared during the play
        raise not_ours_file(path, what, option)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.writing-", dir=path.parent)
        tmp = Path(name)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        tmp.chmod(0o644)  # mkstemp makes it private; an output is for sharing
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise SimbalanceError(f"{option} {path}: cannot be written ({exc.strerror or exc}); nothing written, "
                              "what was there is kept") from None
    except BaseException:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise


def _what_is_at(path: Path) -> str:
    """What a path holds, in a designer's words (lstat: a FIFO is never opened)."""
    try:
        mode = Path(path).lstat().st_mode
    except OSError:
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


def not_ours_file(path: Path, what: str, option: str = "--out") -> SimbalanceError:
    return SimbalanceError(f"{option} {path}: {_what_is_at(path)} simbalance did not write (not {what}); simbalance never "
                           f"replaces what it did not write: move it away or choose another {option}")
