"""Keep numba's on-disk cache honest.

Numba checks a cached function against its own source file only. An engine kernel inlines code
from other files (strategies, state, the shared RNG), so after an edit there the kernel would keep
running the old compiled code. On import, simbalance hashes every source file that holds jitted
code; when the hash changes, it deletes the package's numba cache files so everything recompiles.
Only the default cache beside the sources is touched (``NUMBA_CACHE_DIR`` is left alone).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
STAMP = PACKAGE_DIR / "__pycache__" / "jit_sources.sha256"


def jit_sources(root: Path = PACKAGE_DIR) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "@njit" in p.read_text(encoding="utf-8", errors="ignore"))


def drop_stale_cache(root: Path = PACKAGE_DIR, stamp: Path = STAMP) -> bool:
    """Delete every numba cache file under ``root`` if any jitted source changed; True if it did."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    try:
        digest = hashlib.sha256()
        for path in jit_sources(root):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
        value = digest.hexdigest()
        if stamp.is_file() and stamp.read_text() == value:
            return False
        for path in list(root.rglob("*.nbi")) + list(root.rglob("*.nbc")):
            path.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(value)
        return True
    except OSError:  # a read-only install: numba's own checks are all there is
        return False
