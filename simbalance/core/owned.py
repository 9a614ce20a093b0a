"""What simbalance wrote, and so may remove: a folder is simbalance's when it holds the marker file
``.simbalance`` that only simbalance writes, never because of a file name (issue 54: a folder of
the user's that held a ``manifest.json``, or was named ``data.partial``, was deleted).

Three kinds of folders carry the marker:

- ``run folder``: a finished output (a run's or a study's). Its marker lists every file simbalance
  wrote there with its size, and its manifest.json's SHA-256, so replacing the folder removes
  nothing else: a file the user added, or one of simbalance's the user changed, stops the
  replacement, named.
- ``writing``: the temporary folder an output is built in (``.<out>.writing-XXXXXXXX``); a kill
  leaves it, the next start removes it.
- ``checkpoint``: a run's ``<out>.partial`` (and its staging ``.<out>.partial.new``); only the
  checkpoint's own files are ever removed from it.

An empty folder holds nothing anyone wrote: it may always be removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
from pathlib import Path

from simbalance.core.errors import SimbalanceError

MARKER = ".simbalance"
WRITTEN_BY = "simbalance"
RUN_FOLDER, WRITING, CHECKPOINT_FOLDER = "run folder", "writing", "checkpoint"
RUN_MANIFEST = "manifest.json"  # what ran: the marker keeps its SHA-256
MARKER_MOST_BYTES = 1 << 24  # a marker lists file names: far below this; more is not ours

# The files a checkpoint folder holds (core/execution.py): the commit, its temporary file, the kept
# records, the checkpoints of older versions, a streamed run's shards and --robust's own checkpoint.
_CHECKPOINT_FILE = re.compile(
    r"(?:robust/|\.robust\.new/)?(?:\.simbalance(?:\.tmp)?|checkpoint\.npz|\.checkpoint\.npz\.tmp|records\.bin|state\.json|aggregate\.npz"
    r"|sample\.npz|games/part-\d{6,}\.parquet|games/\.part-\d{6,}\.parquet\.tmp)")
_CHECKPOINT_DIR = re.compile(r"games|robust|robust/games|\.robust\.new")


def mark(folder: Path, kind: str, files: list[str] | None = None) -> None:
    """Write ``folder``'s marker (under a temporary name, then renamed: never half a marker). A run
    folder's lists ``files`` with their sizes, and the SHA-256 of its manifest.json (what ran)."""
    body: dict = {"written_by": WRITTEN_BY, "kind": kind}
    if files is not None:
        body["files"] = {name: (Path(folder) / name).lstat().st_size for name in sorted(files)}
        if (Path(folder) / RUN_MANIFEST).is_file():
            body["manifest_sha256"] = file_sha256(Path(folder) / RUN_MANIFEST)
    tmp = Path(folder) / f"{MARKER}.tmp"
    try:
        tmp.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, Path(folder) / MARKER)
    except BaseException:  # a full disk: no half marker left behind (a kill here: marker_being_written)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def marker_being_written(folder: Path) -> bool:
    """Whether ``folder`` holds nothing but the temporary file of a marker: what a kill between a
    folder's making and its marker's rename leaves (``mark``), in a folder of simbalance's own
    temporary name (the callers' ``.<out>.writing-XXXXXXXX``, ``.<out>.partial.new``)."""
    try:
        entries = list(Path(folder).iterdir())
        info = entries[0].lstat() if len(entries) == 1 else None
    except OSError:
        return False
    return (info is not None and entries[0].name == f"{MARKER}.tmp" and stat.S_ISREG(info.st_mode)
            and info.st_size <= MARKER_MOST_BYTES)


def marker_of(folder: Path) -> dict | None:
    """``folder``'s marker when simbalance wrote it (a regular file of simbalance's content), else None."""
    path = Path(folder) / MARKER
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MARKER_MOST_BYTES:
            return None
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # JSON nested too deep for the parser is not ours either
        return None
    if (not isinstance(body, dict) or body.get("written_by") != WRITTEN_BY
            or body.get("kind") not in (RUN_FOLDER, WRITING, CHECKPOINT_FOLDER)):
        return None
    files = body.get("files")
    if body["kind"] == RUN_FOLDER and not (isinstance(files, dict) and all(
            isinstance(size, int) and not isinstance(size, bool) for size in files.values())):
        return None
    return body


def file_begins_with(path: Path, head: str) -> bool:
    """Is ``path`` a regular file whose first bytes are ``head`` (the marker an output file of
    simbalance's starts with: a report's comment, an eval.json's first keys)? Nothing but a regular
    file is opened (a FIFO would block the read), and only ``head``'s length is read."""
    try:
        if not stat.S_ISREG(Path(path).lstat().st_mode):
            return False
        with open(path, "rb") as fh:
            return fh.read(len(head.encode())) == head.encode()
    except OSError:
        return False


def begun_as(path: Path, head: str) -> bool:
    """A temporary file a kill left (``.<name>.writing-XXXXXXXX``): are its bytes so far the start
    of ``head``, what simbalance writes first there? (An empty file is: the kill came before the
    first write.)"""
    try:
        if not stat.S_ISREG(Path(path).lstat().st_mode):
            return False
        with open(path, "rb") as fh:
            so_far = fh.read(len(head.encode()))
    except OSError:
        return False
    return head.encode().startswith(so_far)


def file_sha256(path: Path) -> str:
    """A file's SHA-256, read a MiB at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def files_in(folder: Path) -> list[str]:
    """Every file under ``folder`` (folders not listed), as paths relative to it with ``/``."""
    folder = Path(folder)
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.is_dir() or p.is_symlink())


def _is_empty_dir(folder: Path) -> bool:
    try:
        return folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir())
    except OSError:
        return False


def not_ours(folder: Path, what: str = "") -> SimbalanceError:
    return SimbalanceError(f"{what}{folder}: not a folder simbalance wrote (it has no {MARKER} marker); simbalance "
                           "never removes what it did not write: move it away or choose another --out")


def foreign_files(folder: Path) -> list[str]:
    """The files in a marked run folder that its marker does not list (the user's); every file of
    a folder without a run folder's marker."""
    body = marker_of(folder)
    listed = set(body["files"]) if body is not None and body["kind"] == RUN_FOLDER else set()
    return [f for f in files_in(folder) if f not in listed and f != MARKER]


def check_replaceable(folder: Path, option: str = "--out") -> None:
    """Refuse, in one line, to replace a folder unless it is empty or is a run folder simbalance
    wrote that holds nothing else."""
    folder = Path(folder)
    if not folder.is_dir() or _is_empty_dir(folder):
        return
    body = marker_of(folder)
    if body is None or body["kind"] != RUN_FOLDER:
        raise SimbalanceError(f"{option} {folder}: folder exists, is not empty and is not a run folder simbalance wrote "
                              f"(it has no {MARKER} marker); simbalance never removes what it did not write: "
                              f"choose another --out or empty it yourself")
    foreign = foreign_files(folder)
    if foreign:
        raise SimbalanceError(f"{option} {folder}: holds {foreign[0]!r}, which simbalance did not write there; "
                              "simbalance never removes what it did not write: move it away or choose another --out")
    changed = next((name for name, size in body["files"].items()
                    if not (folder / name).is_file() or (folder / name).lstat().st_size != size), None)
    manifest = folder / RUN_MANIFEST
    if changed is None and "manifest_sha256" in body and (
            not manifest.is_file() or file_sha256(manifest) != body["manifest_sha256"]):
        changed = RUN_MANIFEST
    if changed is not None:
        raise SimbalanceError(f"{option} {folder}: {changed!r} was changed since simbalance wrote it (what is in it "
                              "now is yours); simbalance never removes what it did not write: move the folder away "
                              "or choose another --out")


def remove_written_folder(folder: Path) -> bool:
    """Remove a temporary folder of simbalance's (an output being written, a checkpoint's staging):
    only when it holds the marker, nothing, or only a marker being written (a kill came before its
    rename). False when there was nothing to remove; an error when the folder is not simbalance's."""
    folder = Path(folder)
    if not folder.exists() and not folder.is_symlink():
        return False
    if _is_empty_dir(folder):
        folder.rmdir()
        return True
    if folder.is_symlink() or not folder.is_dir() or (marker_of(folder) is None and not marker_being_written(folder)):
        raise not_ours(folder)
    shutil.rmtree(folder)
    return True


def remove_checkpoint_folder(folder: Path) -> list[str]:
    """Remove a checkpoint folder's own files, then the folder; returns the files it holds that are
    not a checkpoint's (kept, with the folder, and without the marker: not simbalance's any more)."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return []
    if not _is_empty_dir(folder) and marker_of(folder) is None:
        raise not_ours(folder)
    foreign = []
    for name in files_in(folder):
        if name == MARKER:
            continue  # last, and only when nothing else is left
        if _CHECKPOINT_FILE.fullmatch(name):
            (folder / name).unlink(missing_ok=True)
        else:
            foreign.append(name)
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink()), reverse=True):
        if _CHECKPOINT_DIR.fullmatch(sub.relative_to(folder).as_posix()):
            with contextlib.suppress(OSError):
                sub.rmdir()  # only when empty
    (folder / MARKER).unlink(missing_ok=True)  # what is left is the user's
    if not foreign:
        with contextlib.suppress(OSError):
            folder.rmdir()
    return foreign
