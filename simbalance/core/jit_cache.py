"""Keep numba's on-disk cache honest, one game package at a time.

Numba checks a cached function against its own source file only. An engine kernel inlines code
from other files (strategies, state, the shared RNG) and bakes in constants from others (the array
layouts), so after an edit there the kernel would keep running the old compiled code, or read its
arrays at stale offsets. So before a game's engine is loaded (``GameSpec.load``), simbalance hashes
the package's files that hold jitted code and every simbalance module those files import,
transitively; when that hash changed, it deletes the numba cache files of exactly those sources and
the package recompiles (so it does when core/codegen.py's ``CODEGEN`` changes). An edit to one game leaves the other games' kernels cached; an edit to a
core module they all import recompiles each of them when it is next loaded. The cache lives beside
the sources, or in ``NUMBA_CACHE_DIR`` when that is set. Importing simbalance touches no cache.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from simbalance.core.codegen import CODEGEN

PACKAGE_DIR = Path(__file__).resolve().parents[1]
STAMP_NAME = "jit_sources.sha256"
_IMPORT = re.compile(r"^(?:from\s+simbalance\.([\w.]+)\s+import|import\s+simbalance\.([\w.]+))", re.MULTILINE)
_TOP_IMPORT = re.compile(r"^(?:from\s+(\w+)\s+import|import\s+(\w+))", re.MULTILINE)


def _module_file(root: Path, dotted: str) -> Path | None:
    base = root.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def jit_sources(folder: Path, root: Path = PACKAGE_DIR) -> list[Path]:
    """Files in ``folder`` holding jitted code, and the modules they import at the top (what jitted
    code can see), transitively: those under ``root`` (the simbalance package), and a module beside
    ``folder`` imported by its top-level name (a plug-in's own helper on the same ``sys.path`` entry,
    as tests/planted/planted_nb.py is for the planted games: its code is inlined into their
    kernels, so an edit to it must recompile them)."""
    beside = Path(folder).parent
    todo = [p for p in Path(folder).rglob("*.py") if "@njit" in p.read_text(encoding="utf-8", errors="ignore")]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8", errors="ignore")
        for match in _IMPORT.finditer(text):
            found = _module_file(root, match.group(1) or match.group(2))
            if found is not None and found not in seen:
                todo.append(found)
        for match in _TOP_IMPORT.finditer(text):
            found = beside / f"{match.group(1) or match.group(2)}.py"
            if found.is_file() and found not in seen:
                todo.append(found)
    return sorted(seen)


def _cache_dir(source: Path) -> Path:
    """Where numba keeps the cache files of one source file."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not user_dir:
        return source.parent / "__pycache__"
    from numba.core.caching import _CacheLocator  # numba names a source folder's cache folder so

    return Path(user_dir) / _CacheLocator.get_suitable_cache_subpath(str(source))


def _stamp_path(folder: Path) -> Path:
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not user_dir:
        return Path(folder) / "__pycache__" / STAMP_NAME
    key = hashlib.sha1(str(Path(folder).resolve()).encode()).hexdigest()[:16]
    return Path(user_dir) / f"simbalance-{key}.{STAMP_NAME}"


def drop_stale_cache(folder: Path, root: Path = PACKAGE_DIR, stamp: Path | None = None) -> bool:
    """Delete the numba cache files of ``folder``'s jitted sources (and of what they import) if
    any of them changed since the last check; True if they did."""
    try:
        sources = jit_sources(folder, root)
        digest = hashlib.sha256(CODEGEN.encode())  # how the code was compiled, not only its sources
        for path in sources:
            digest.update(str(path.relative_to(root) if path.is_relative_to(root) else path).encode())
            digest.update(path.read_bytes())
        value = digest.hexdigest()
        stamp = stamp or _stamp_path(folder)
        if stamp.is_file() and stamp.read_text() == value:
            return False
        for source in sources:
            cache = _cache_dir(source)
            if cache.is_dir():
                for entry in list(cache.glob(f"{source.stem}.*.nbi")) + list(cache.glob(f"{source.stem}.*.nbc")):
                    entry.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(value)
        return True
    except OSError:  # a read-only install: numba's own checks are all there is
        return False
