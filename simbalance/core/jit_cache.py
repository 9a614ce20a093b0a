"""Keep numba's on-disk cache honest.

Numba checks a cached function against its own source file only. An engine kernel inlines code
from other files (strategies, state, the shared RNG) and bakes in constants from others (the array
layouts), so after an edit there the kernel would keep running the old compiled code, or read its
arrays at stale offsets. On import, simbalance hashes every source file that holds jitted code and
every simbalance module those files import; when the hash changes, it deletes the package's numba
cache files so everything recompiles. That is the cache beside the sources, or the package's part
of ``NUMBA_CACHE_DIR`` when that is set.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
STAMP = PACKAGE_DIR / "__pycache__" / "jit_sources.sha256"
_IMPORT = re.compile(r"^(?:from\s+simbalance\.([\w.]+)\s+import|import\s+simbalance\.([\w.]+))", re.MULTILINE)


def _module_file(root: Path, dotted: str) -> Path | None:
    base = root.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def jit_sources(root: Path = PACKAGE_DIR) -> list[Path]:
    """Files holding jitted code, and the simbalance modules they import at the top (what jitted
    code can see), transitively."""
    todo = [p for p in root.rglob("*.py") if "@njit" in p.read_text(encoding="utf-8", errors="ignore")]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for match in _IMPORT.finditer(path.read_text(encoding="utf-8", errors="ignore")):
            found = _module_file(root, match.group(1) or match.group(2))
            if found is not None and found not in seen:
                todo.append(found)
    return sorted(seen)


def _cache_dirs(root: Path, sources: list[Path]) -> tuple[list[Path], Path | None]:
    """Where numba keeps the cache of ``sources``, and where the stamp goes (None: the default)."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if not user_dir:
        return [root], None
    from numba.core.caching import _CacheLocator  # numba names a source folder's cache folder so

    base = Path(user_dir)
    dirs = sorted({base / _CacheLocator.get_suitable_cache_subpath(str(p)) for p in sources})
    key = hashlib.sha1(str(root).encode()).hexdigest()[:16]
    return dirs, base / f"simbalance-{key}.jit_sources.sha256"


def drop_stale_cache(root: Path = PACKAGE_DIR, stamp: Path = STAMP) -> bool:
    """Delete every numba cache file of ``root`` if any jitted source changed; True if it did."""
    try:
        sources = jit_sources(root)
        digest = hashlib.sha256()
        for path in sources:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
        value = digest.hexdigest()
        dirs, user_stamp = _cache_dirs(root, sources)
        stamp = user_stamp or stamp
        if stamp.is_file() and stamp.read_text() == value:
            return False
        for folder in dirs:
            if folder.is_dir():
                for path in list(folder.rglob("*.nbi")) + list(folder.rglob("*.nbc")):
                    path.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(value)
        return True
    except OSError:  # a read-only install: numba's own checks are all there is
        return False
